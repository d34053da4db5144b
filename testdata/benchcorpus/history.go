package benchcorpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// Appliers that create and sync the applications of the corpus.
const (
	ApplierArgoCD     = "argocd"
	ApplierFlux       = "flux"
	ApplierKubectlSSA = "kubectl-ssa"
	ApplierKubectlCSA = "kubectl-csa"
	ApplierHelm       = "helm"
)

// ArgoCDApplication is the Application name the Argo CD histories track objects with.
const ArgoCDApplication = "platform"

// FluxKustomization is the Kustomization (namespace/name) of the Flux histories.
const FluxKustomization = "flux-system/apps"

// controllerManager is the manager name kube-controller-manager's controllers write with.
const controllerManager = "kube-controller-manager"

// history is one live object going through writes, each predicted by the engine.
type history struct {
	e      *merge.Engine
	r      *rand.Rand
	ep     merge.Endpoint
	live   map[string]any
	now    time.Time
	rv     *int64 // the cluster's resourceVersion counter, shared by the application's objects
	last   map[string]any
	lastCS map[string]any // last client-side applied configuration
}

func newHistory(e *merge.Engine, r *rand.Rand, reg *schema.Registry, manifest map[string]any, start time.Time, rv *int64) (*history, error) {
	av, _ := manifest["apiVersion"].(string)
	kind, _ := manifest["kind"].(string)
	gvk := schema.GVKFromAPIVersionKind(av, kind)
	md := manifest["metadata"].(obj)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	if _, ok := reg.Lookup(gvk); !ok {
		return nil, fmt.Errorf("no schema for %v", gvk)
	}
	return &history{e: e, r: r, ep: merge.Endpoint{GVK: gvk, Namespace: ns, Name: name}, now: start, rv: rv}, nil
}

func (h *history) tick(d time.Duration) time.Time {
	h.now = h.now.Add(d + time.Duration(h.r.IntN(600))*time.Second)
	return h.now
}

// store takes a result as the new live object, with what the API server assigns on top
// of what the engine predicts: uid and creationTimestamp on a create, a new
// resourceVersion on every change.
func (h *history) store(what string, res *merge.Result, err error) error {
	if err != nil {
		return fmt.Errorf("%s %s/%s: %s: %w", h.ep.GVK.Kind, h.ep.Namespace, h.ep.Name, what, err)
	}
	if res.Rejection != nil {
		return fmt.Errorf("%s %s/%s: %s: refused: %s", h.ep.GVK.Kind, h.ep.Namespace, h.ep.Name, what, res.Rejection.Message)
	}
	if res.Action == merge.ActionUnchanged && h.live != nil {
		return nil
	}
	obj := res.Object
	md := obj["metadata"].(map[string]any)
	if h.live == nil {
		md["uid"] = fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", h.r.Uint32(), h.r.IntN(1<<16), h.r.IntN(1<<12), h.r.IntN(1<<12), h.r.Int64N(1<<48))
		md["creationTimestamp"] = h.now.UTC().Format(time.RFC3339)
	}
	*h.rv += 1 + int64(h.r.IntN(40))
	md["resourceVersion"] = fmt.Sprint(*h.rv)
	h.live = obj
	return nil
}

func (h *history) request(body map[string]any, manager string) merge.Request {
	return merge.Request{Live: copyJSON(h.live), Object: copyJSON(body), Endpoint: h.ep, Manager: manager, Now: h.now}
}

// sync writes the manifest the way the applier does.
func (h *history) sync(applier string, manifest map[string]any) error {
	h.tick(2 * time.Hour)
	switch applier {
	case ApplierArgoCD:
		res, err := appliers.ArgoCD(h.e, h.request(manifest, ""), appliers.ArgoCDOptions{Application: ArgoCDApplication, DestinationNamespace: h.ep.Namespace})
		return h.store("argocd sync", res, err)
	case ApplierFlux:
		res, err := appliers.Flux(h.e, h.request(manifest, ""), appliers.FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system",
			Normalize: func(o map[string]any) error {
				av, _ := o["apiVersion"].(string)
				k, _ := o["kind"].(string)
				return defaults.MustFor(kube.Default()).Normalize(av, k, o)
			}})
		return h.store("flux apply", res, err)
	case ApplierKubectlSSA:
		res, err := appliers.Kubectl(h.e, h.request(manifest, "kubectl"))
		if err == nil && res.Rejection != nil && res.Rejection.Code == 409 {
			// Told of the conflict, people run it again with --force-conflicts.
			req := h.request(manifest, "kubectl")
			req.Force = true
			res, err = appliers.Kubectl(h.e, req)
		}
		return h.store("kubectl apply --server-side", res, err)
	case ApplierKubectlCSA:
		return h.clientSideApply(manifest, "kubectl-client-side-apply", true)
	case ApplierHelm:
		return h.clientSideApply(manifest, "helm", false)
	}
	return fmt.Errorf("unknown applier %q", applier)
}

// clientSideApply is a three-way merge of the manifest into the live object (kubectl's
// client-side apply with its last-applied annotation, or Helm's upgrade), sent as an update.
func (h *history) clientSideApply(manifest map[string]any, manager string, annotate bool) error {
	body := copyJSON(manifest)
	if annotate {
		b, err := json.Marshal(manifest)
		if err != nil {
			return err
		}
		md := body["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		if ann == nil {
			ann = map[string]any{}
			md["annotations"] = ann
		}
		ann[merge.LastAppliedAnnotation] = string(b) + "\n"
	} else {
		md := body["metadata"].(map[string]any)
		labels, _ := md["labels"].(map[string]any)
		labels["app.kubernetes.io/managed-by"] = "Helm"
		md["annotations"] = map[string]any{"meta.helm.sh/release-name": h.ep.Namespace, "meta.helm.sh/release-namespace": h.ep.Namespace}
	}
	next := body
	if h.live != nil {
		next = threeWay(copyJSON(h.live), h.lastCS, body)
	}
	h.lastCS = copyJSON(body)
	if h.live == nil {
		// Both create what does not exist yet (a POST): an update of it is a 404.
		res, err := h.e.Create(h.request(next, manager))
		return h.store(manager+" create", res, err)
	}
	res, err := h.e.Update(h.request(next, manager))
	return h.store(manager+" update", res, err)
}

// threeWay sets what the new configuration sets and removes what the previous one set and
// the new one does not, keeping everything else of live. Lists are replaced whole.
func threeWay(live, prev, cur map[string]any) map[string]any {
	for k := range prev {
		if _, ok := cur[k]; !ok {
			delete(live, k)
		}
	}
	for k, v := range cur {
		cm, isMap := v.(map[string]any)
		lm, liveMap := live[k].(map[string]any)
		if isMap && liveMap {
			pm, _ := prev[k].(map[string]any)
			live[k] = threeWay(lm, pm, cm)
			continue
		}
		live[k] = v
	}
	return live
}

// update is a controller's or a person's write: the live object changed by f, through the
// main resource or a subresource.
func (h *history) update(manager, subresource string, f func(o map[string]any)) error {
	h.tick(10 * time.Minute)
	next := copyJSON(h.live)
	f(next)
	req := h.request(next, manager)
	req.Endpoint.Subresource = subresource
	res, err := h.e.Update(req)
	return h.store(manager+" update /"+subresource, res, err)
}

// scale is the HPA writing the replica count through /scale.
func (h *history) scale(replicas int64) error {
	h.tick(15 * time.Minute)
	md := h.live["metadata"].(map[string]any)
	body := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": md["name"], "namespace": md["namespace"], "resourceVersion": md["resourceVersion"]},
		"spec":     map[string]any{"replicas": replicas}}
	req := h.request(body, controllerManager)
	req.Endpoint.Subresource = "scale"
	res, err := h.e.Update(req)
	return h.store("hpa /scale", res, err)
}

func copyJSON(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return unstructured.DeepCopy(m).(map[string]any)
}

func nested(o map[string]any, path ...string) map[string]any {
	cur := o
	for _, p := range path {
		next, _ := cur[p].(map[string]any)
		if next == nil {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	return cur
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// lifeOf runs an object of the application through its life: created by the applier at the
// previous-but-one version, then the controllers and people that touch its kind, then
// synced at the previous version, then the controllers again.
func lifeOf(h *history, applier string, v0, v1 map[string]any, a *appState) error {
	kind := h.ep.GVK.Kind
	if err := h.sync(applier, v0); err != nil {
		return err
	}
	if err := h.controllers(kind, a, 1); err != nil {
		return err
	}
	if err := h.people(kind, a); err != nil {
		return err
	}
	if err := h.sync(applier, v1); err != nil {
		return err
	}
	return h.controllers(kind, a, 2)
}

// controllers are the writes of the controllers of a kind after a sync.
func (h *history) controllers(kind string, a *appState, revision int) error {
	switch kind {
	case "Deployment":
		if err := h.update(controllerManager, "", func(o map[string]any) {
			nested(o, "metadata", "annotations")["deployment.kubernetes.io/revision"] = fmt.Sprint(revision)
		}); err != nil {
			return err
		}
		if a.hpa {
			if err := h.scale(a.minReplicas + int64(h.r.IntN(int(a.maxReplicas-a.minReplicas)+1))); err != nil {
				return err
			}
		}
		return h.update(controllerManager, "status", func(o map[string]any) {
			spec := nested(o, "spec")
			n, _ := spec["replicas"].(int64)
			md := nested(o, "metadata")
			gen, _ := md["generation"].(int64)
			t := ts(h.now)
			o["status"] = map[string]any{
				"observedGeneration": gen, "replicas": n, "updatedReplicas": n, "readyReplicas": n, "availableReplicas": n,
				"conditions": []any{
					map[string]any{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
						"message": "Deployment has minimum availability.", "lastUpdateTime": t, "lastTransitionTime": t},
					map[string]any{"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
						"message":        fmt.Sprintf("ReplicaSet %q has successfully progressed.", a.name+"-"+fmt.Sprintf("%08x", h.r.Uint32())[:8]),
						"lastUpdateTime": t, "lastTransitionTime": t},
				},
			}
		})
	case "HorizontalPodAutoscaler":
		return h.update(controllerManager, "status", func(o map[string]any) {
			n := a.minReplicas + int64(h.r.IntN(int(a.maxReplicas-a.minReplicas)+1))
			t := ts(h.now)
			o["status"] = map[string]any{
				"currentReplicas": n, "desiredReplicas": n, "lastScaleTime": t,
				"currentMetrics": []any{map[string]any{"type": "Resource", "resource": map[string]any{"name": "cpu",
					"current": map[string]any{"averageUtilization": int64(30 + h.r.IntN(50)), "averageValue": fmt.Sprintf("%dm", 20+h.r.IntN(200))}}}},
				"conditions": []any{
					map[string]any{"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale", "message": "recommended size matches current size", "lastTransitionTime": t},
					map[string]any{"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound", "message": "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)", "lastTransitionTime": t},
					map[string]any{"type": "ScalingLimited", "status": "False", "reason": "DesiredWithinRange", "message": "the desired count is within the acceptable range", "lastTransitionTime": t},
				},
			}
		})
	case "Certificate":
		return h.update("cert-manager-certificates-readiness", "status", func(o map[string]any) {
			t := h.now
			o["status"] = map[string]any{
				"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Ready",
					"message": "Certificate is up to date and has not expired", "lastTransitionTime": ts(t), "observedGeneration": int64(revision)}},
				"notBefore": ts(t), "notAfter": ts(t.Add(2160 * time.Hour)), "renewalTime": ts(t.Add(1800 * time.Hour)), "revision": int64(revision),
			}
		})
	case "Service":
		if revision == 1 {
			// The IP allocator's fields belong to nobody.
			spec := nested(h.live, "spec")
			ip := fmt.Sprintf("10.96.%d.%d", h.r.IntN(256), 1+h.r.IntN(254))
			spec["clusterIP"], spec["clusterIPs"] = ip, []any{ip}
		}
	}
	return nil
}

// people are the hand-made writes some objects get between syncs.
func (h *history) people(kind string, a *appState) error {
	if kind != "Deployment" {
		return nil
	}
	switch n := h.r.IntN(100); {
	case n < 6: // kubectl rollout restart
		return h.update("kubectl-rollout", "", func(o map[string]any) {
			nested(o, "spec", "template", "metadata", "annotations")["kubectl.kubernetes.io/restartedAt"] = ts(h.now)
		})
	case n < 10: // kubectl edit of an environment variable's value
		return h.update("kubectl-edit", "", func(o map[string]any) {
			cs, _ := nested(o, "spec", "template", "spec")["containers"].([]any)
			c := cs[0].(map[string]any)
			env, _ := c["env"].([]any)
			if len(env) > 0 {
				e := env[0].(map[string]any)
				if _, ok := e["value"]; ok {
					e["value"] = "edited-by-hand"
				}
			}
		})
	case n < 13: // kubectl label
		return h.update("kubectl-label", "", func(o map[string]any) {
			nested(o, "metadata", "labels")["oncall"] = "team-" + a.team
		})
	}
	return nil
}
