package defaulting

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/strategy"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	crdregistry "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	apiserviceregistry "k8s.io/kube-aggregator/pkg/registry/apiservice"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/clustertrustbundle"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
	"sigs.k8s.io/randfill"
)

// createStrategies are the create strategies of the kinds an apply can create, by
// "apiVersion|Kind" (k8s.io/kubernetes v1.37.2 pkg/registry/**/strategy.go, the
// apiextensions and aggregator strategies).
func createStrategies(s *runtime.Scheme) map[string]rest.RESTCreateStrategy {
	return map[string]rest.RESTCreateStrategy{
		"admissionregistration.k8s.io/v1|MutatingAdmissionPolicy":          mutatingadmissionpolicy.NewStrategy(nil, nil),
		"admissionregistration.k8s.io/v1|MutatingAdmissionPolicyBinding":   mutatingadmissionpolicybinding.NewStrategy(nil, nil, nil),
		"admissionregistration.k8s.io/v1|MutatingWebhookConfiguration":     mutatingwebhookconfiguration.Strategy,
		"admissionregistration.k8s.io/v1|ValidatingAdmissionPolicy":        validatingadmissionpolicy.NewStrategy(nil, nil),
		"admissionregistration.k8s.io/v1|ValidatingAdmissionPolicyBinding": validatingadmissionpolicybinding.NewStrategy(nil, nil, nil),
		"admissionregistration.k8s.io/v1|ValidatingWebhookConfiguration":   validatingwebhookconfiguration.Strategy,
		"apiextensions.k8s.io/v1|CustomResourceDefinition":                 crdregistry.NewStrategy(s),
		"apiregistration.k8s.io/v1|APIService":                             apiserviceregistry.NewStrategy(s),
		"apps/v1|ControllerRevision":                                       controllerrevision.Strategy,
		"apps/v1|DaemonSet":                                                daemonset.Strategy,
		"apps/v1|Deployment":                                               deployment.Strategy,
		"apps/v1|ReplicaSet":                                               replicaset.Strategy,
		"apps/v1|StatefulSet":                                              statefulset.Strategy,
		"autoscaling/v2|HorizontalPodAutoscaler":                           horizontalpodautoscaler.Strategy,
		"batch/v1|CronJob":                                                 cronjob.Strategy,
		"batch/v1|Job":                                                     job.Strategy,
		"certificates.k8s.io/v1|CertificateSigningRequest":                 certificates.Strategy,
		"certificates.k8s.io/v1|ClusterTrustBundle":                        clustertrustbundle.Strategy,
		"certificates.k8s.io/v1|PodCertificateRequest":                     podcertificaterequest.NewStrategy(),
		"coordination.k8s.io/v1|Lease":                                     lease.Strategy,
		"discovery.k8s.io/v1|EndpointSlice":                                endpointslice.Strategy,
		"events.k8s.io/v1|Event":                                           event.Strategy,
		"flowcontrol.apiserver.k8s.io/v1|FlowSchema":                       flowschema.Strategy,
		"flowcontrol.apiserver.k8s.io/v1|PriorityLevelConfiguration":       prioritylevelconfiguration.Strategy,
		"networking.k8s.io/v1|IPAddress":                                   ipaddress.Strategy,
		"networking.k8s.io/v1|Ingress":                                     ingress.Strategy,
		"networking.k8s.io/v1|IngressClass":                                ingressclass.Strategy,
		"networking.k8s.io/v1|NetworkPolicy":                               networkpolicy.Strategy,
		"networking.k8s.io/v1|ServiceCIDR":                                 servicecidr.Strategy,
		"node.k8s.io/v1|RuntimeClass":                                      runtimeclass.Strategy,
		"policy/v1|PodDisruptionBudget":                                    poddisruptionbudget.Strategy,
		"rbac.authorization.k8s.io/v1|ClusterRole":                         clusterrole.Strategy,
		"rbac.authorization.k8s.io/v1|ClusterRoleBinding":                  clusterrolebinding.Strategy,
		"rbac.authorization.k8s.io/v1|Role":                                role.Strategy,
		"rbac.authorization.k8s.io/v1|RoleBinding":                         rolebinding.Strategy,
		"resource.k8s.io/v1|DeviceClass":                                   deviceclass.Strategy,
		"resource.k8s.io/v1|DeviceTaintRule":                               devicetaintrule.Strategy,
		"resource.k8s.io/v1|ResourceClaim":                                 resourceclaim.NewStrategy(nil, nil),
		"resource.k8s.io/v1|ResourceClaimTemplate":                         resourceclaimtemplate.NewStrategy(nil),
		"resource.k8s.io/v1|ResourceSlice":                                 resourceslice.Strategy,
		"scheduling.k8s.io/v1|PriorityClass":                               priorityclass.Strategy,
		"storage.k8s.io/v1|CSIDriver":                                      csidriver.Strategy,
		"storage.k8s.io/v1|CSINode":                                        csinode.Strategy,
		"storage.k8s.io/v1|CSIStorageCapacity":                             csistoragecapacity.Strategy,
		"storage.k8s.io/v1|StorageClass":                                   storageclass.Strategy,
		"storage.k8s.io/v1|VolumeAttachment":                               volumeattachment.Strategy,
		"storage.k8s.io/v1|VolumeAttributesClass":                          volumeattributesclass.Strategy,
		"storagemigration.k8s.io/v1|StorageVersionMigration":               storagemigration.Strategy,
		"v1|ConfigMap":             configmap.Strategy,
		"v1|Endpoints":             endpoint.Strategy,
		"v1|Event":                 event.Strategy,
		"v1|LimitRange":            limitrange.Strategy,
		"v1|Namespace":             namespace.Strategy,
		"v1|Node":                  node.Strategy,
		"v1|PersistentVolume":      persistentvolume.Strategy,
		"v1|PersistentVolumeClaim": persistentvolumeclaim.Strategy,
		"v1|Pod":                   pod.Strategy,
		"v1|PodTemplate":           podtemplate.Strategy,
		"v1|ReplicationController": replicationcontroller.Strategy,
		"v1|ResourceQuota":         resourcequota.Strategy,
		"v1|Secret":                secret.Strategy,
		"v1|Service":               service.Strategy,
		"v1|ServiceAccount":        serviceaccount.Strategy,
	}
}

// createNotCompared names kinds whose create is not compared, with the reason.
var createNotCompared = map[string]string{
	"events.k8s.io/v1|Event": "stored as core v1 Event: the round trip is not modelled",
	"v1|Event":               "its strategy is events.k8s.io's",
	"v1|Service":             "its allocators run in the REST storage, outside the strategy: conformance/testdata/fidelity records them",
}

// createGaps are fields a create strategy drops that internal/strategy keeps, by kind: known
// gaps, reported and not failed. The paths are the report's, list indices as [*].
var createGaps = map[string][]string{
	"resource.k8s.io/v1|ResourceClaim": {".spec.devices.requests[*].exactly.derivedAttributes",
		".spec.devices.requests[*].firstAvailable[*].derivedAttributes"},
	"resource.k8s.io/v1|ResourceClaimTemplate": {".spec.spec.devices.requests[*].exactly.derivedAttributes",
		".spec.spec.devices.requests[*].firstAvailable[*].derivedAttributes"},
	"resource.k8s.io/v1|ResourceSlice": {".spec.partitionTypeAttribute", ".spec.skipNodeOperations", ".spec.devices[*].nodeAllocatableResources",
		".spec.devices[*].consumesCounters[*].compatibilityGroups", ".spec.devices[*].attributes."},
}

// gapOnly reports whether every difference d lists is a known gap of the kind.
func gapOnly(k, d string) bool {
	gaps := createGaps[k]
	if len(gaps) == 0 {
		return false
	}
	for _, l := range strings.Split(d, "\n") {
		p, _, _ := strings.Cut(l, ":")
		p = indexRE.ReplaceAllString(p, "[*]")
		known := false
		for _, g := range gaps {
			if strings.HasPrefix(p, g) {
				known = true
			}
		}
		if !known {
			return false
		}
	}
	return true
}

// TestCreateMatchesKubeAPIServer compares internal/strategy's Create with what the server
// does to a new object of every kind an apply can create: decoding and defaulting, the
// conversion to the internal version, the create strategy's PrepareForCreate, storage and
// the defaulting of the read. Values internal/strategy lists as assigned (uid-, time- and
// user-dependent values, allocations) are left out of both; the Service allocators, which
// run outside the strategy, are not part of the comparison.
func TestCreateMatchesKubeAPIServer(t *testing.T) {
	s := scheme()
	strategies := createStrategies(s)
	names := make([]string, 0, len(strategies))
	for k := range strategies {
		names = append(names, k)
	}
	sort.Strings(names)
	ctx := genericapirequest.WithRequestInfo(genericapirequest.WithNamespace(genericapirequest.NewContext(), "ns"), &genericapirequest.RequestInfo{})
	total, diverged, gaps := 0, 0, 0
	for ki, k := range names {
		av, kind, _ := strings.Cut(k, "|")
		if reason, ok := createNotCompared[k]; ok {
			t.Logf("not compared: %s %s: %s", av, kind, reason)
			continue
		}
		if !defaults.MustFor(linkedMinor).Known(av, kind) {
			t.Errorf("%s %s: not a kind internal/defaults knows", av, kind)
			continue
		}
		t.Run(strings.ReplaceAll(av, "/", "_")+"_"+kind, func(t *testing.T) {
			gvk := schemaGVK(av, kind)
			f := filler(int64(ki) + 2000)
			shown := 0
			for i := 0; i < objectsPerKind; i++ {
				in := randomCreateBody(t, s, f, gvk)
				stored, err := serverCreate(ctx, s, strategies[k], in, gvk.GroupVersion().String(), kind)
				if err != nil {
					continue // the request does not decode: a 400, nothing to compare
				}
				want := toUnstructured(t, stored)
				got := unstructured.DeepCopy(in).(map[string]any)
				if err := strategy.Create(serverconfig.MustFor(linkedMinor), av, kind, got); err != nil {
					t.Fatalf("Create: %v", err)
				}
				total++
				for _, a := range strategy.Assigned(av, kind, got, true) {
					removePath(want, a.Path)
					removePath(got, a.Path)
				}
				for _, m := range []map[string]any{want, got} {
					delete(m, "apiVersion")
					delete(m, "kind")
				}
				if d := firstDifferences(want, got); d != "" {
					if gapOnly(k, d) {
						gaps++
						continue
					}
					diverged++
					if shown < 2 {
						shown++
						t.Errorf("object %d diverges:\n%s", i, d)
					}
					if os.Getenv("SSA_DIFF_CREATE_PATHS") != "" {
						for _, l := range strings.Split(d, "\n") {
							p, _, _ := strings.Cut(l, ":")
							fmt.Fprintf(os.Stderr, "DIVERGE %s %s %s\n", av, kind, indexRE.ReplaceAllString(p, "[*]"))
						}
					}
				}
			}
		})
	}
	t.Logf("%d objects of %d kinds created, %d divergences, %d with known gaps only (createGaps)", total, len(names)-len(createNotCompared), diverged, gaps)
}

// serverCreate runs a create's object through the server: decoded into the Go type and
// defaulted, converted to the internal version, prepared by the strategy, stored and read.
func serverCreate(ctx context.Context, s *runtime.Scheme, st rest.RESTCreateStrategy, in map[string]any, apiVersion, kind string) (runtime.Object, error) {
	gvk := schemaGVK(apiVersion, kind)
	v, err := s.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(unstructured.DeepCopy(in).(map[string]any), v); err != nil {
		return nil, err
	}
	v.GetObjectKind().SetGroupVersionKind(gvk)
	s.Default(v)
	internal, err := s.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, err
	}
	if err := s.Convert(v, internal, nil); err != nil {
		return nil, fmt.Errorf("to internal: %w", err)
	}
	st.PrepareForCreate(ctx, internal)
	out, _ := s.New(gvk)
	if err := s.Convert(internal, out, nil); err != nil {
		return nil, fmt.Errorf("from internal: %w", err)
	}
	out.GetObjectKind().SetGroupVersionKind(gvk)
	// Storage and the read: the round trip of the defaulting test, minus its first default.
	return serverStore(s, out)
}

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// removePath deletes the value at p (strings: fields, ints: list indices) from obj.
func removePath(obj map[string]any, p []any) {
	var cur any = obj
	for i, e := range p {
		last := i == len(p)-1
		switch x := e.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return
			}
			if last {
				delete(m, x)
				return
			}
			cur = m[x]
		case int:
			l, ok := cur.([]any)
			if !ok || x >= len(l) {
				return
			}
			cur = l[x]
		}
	}
}

// TestCreateAddsNothingToDefaultsMatchesKubeAPIServer holds strategy.CreateAddsToDefaults
// to the server's strategies: for every kind it says no of, the server's create of random
// objects (serverCreate) stores, outside status and the metadata only the server writes,
// nothing the object decoded, defaulted and stored without the create strategy does not
// have with the same value (fields the create drops are allowed). The drift of a field
// nobody owns does not ask for a whole create of such a kind (judge.DriftInput.Created).
func TestCreateAddsNothingToDefaultsMatchesKubeAPIServer(t *testing.T) {
	s := scheme()
	strategies := createStrategies(s)
	names := make([]string, 0, len(strategies))
	for k := range strategies {
		names = append(names, k)
	}
	sort.Strings(names)
	ctx := genericapirequest.WithRequestInfo(genericapirequest.WithNamespace(genericapirequest.NewContext(), "ns"), &genericapirequest.RequestInfo{})
	compared := 0
	for ki, k := range names {
		av, kind, _ := strings.Cut(k, "|")
		if strategy.CreateAddsToDefaults(av, kind) {
			continue
		}
		t.Run(strings.ReplaceAll(av, "/", "_")+"_"+kind, func(t *testing.T) {
			gvk := schemaGVK(av, kind)
			f := filler(int64(ki) + 3000)
			shown := 0
			for i := 0; i < objectsPerKind; i++ {
				in := randomCreateBody(t, s, f, gvk)
				created, err := serverCreate(ctx, s, strategies[k], in, av, kind)
				if err != nil {
					continue // the request does not decode: a 400, nothing to compare
				}
				decoded, _ := s.New(gvk)
				if err := runtime.DefaultUnstructuredConverter.FromUnstructured(unstructured.DeepCopy(in).(map[string]any), decoded); err != nil {
					continue
				}
				decoded.GetObjectKind().SetGroupVersionKind(gvk)
				defaulted, err := serverStore(s, decoded)
				if err != nil {
					continue
				}
				compared++
				added := addedByCreate(toUnstructured(t, defaulted), toUnstructured(t, created))
				if len(added) > 0 && shown < 2 {
					shown++
					t.Errorf("object %d: the create stores values the defaulting does not give: %s", i, strings.Join(added, ", "))
				}
			}
		})
	}
	t.Logf("%d objects compared", compared)
}

// addedByCreate lists the paths at which created has a value that defaulted lacks or has
// another value at, outside status, the metadata only the server writes and the object's
// name and namespace.
func addedByCreate(defaulted, created map[string]any) []string {
	var out []string
	var walk func(p string, d, c any, has bool)
	walk = func(p string, d, c any, has bool) {
		switch cv := c.(type) {
		case map[string]any:
			dm, _ := d.(map[string]any)
			if len(cv) == 0 && (!has || dm == nil) {
				out = append(out, p)
				return
			}
			for k, v := range cv {
				dv, ok := dm[k]
				walk(p+"."+k, dv, v, ok)
			}
		case []any:
			dl, ok := d.([]any)
			if !ok || len(dl) != len(cv) {
				if !reflect.DeepEqual(d, c) {
					out = append(out, p)
				}
				return
			}
			for i := range cv {
				walk(fmt.Sprintf("%s[%d]", p, i), dl[i], cv[i], true)
			}
		default:
			if !has || !reflect.DeepEqual(d, c) {
				out = append(out, p)
			}
		}
	}
	for k, v := range created {
		switch k {
		case "status", "apiVersion", "kind":
			continue
		case "metadata":
			md, _ := v.(map[string]any)
			dmd, _ := defaulted["metadata"].(map[string]any)
			for mk, mv := range md {
				switch mk {
				case "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink":
					continue
				case "name", "namespace":
					continue // what names the object, never drift (a LimitRange without a name gets one)
				}
				dv, ok := dmd[mk]
				walk(".metadata."+mk, dv, mv, ok)
			}
			continue
		}
		dv, ok := defaulted[k]
		walk("."+k, dv, v, ok)
	}
	sort.Strings(out)
	return out
}

// randomCreateBody is a random object of gvk filled by f, as a client sends it to a create:
// without the metadata only the server writes.
func randomCreateBody(t *testing.T, s *runtime.Scheme, f *randfill.Filler, gvk schema.GroupVersionKind) map[string]any {
	t.Helper()
	_, in := randomObject(t, s, f, gvk)
	for _, m := range []string{"uid", "creationTimestamp", "resourceVersion", "generation", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields"} {
		delete(in["metadata"].(map[string]any), m)
	}
	return in
}

// randomObject is a random object of gvk filled by f, typed and unstructured.
func randomObject(t *testing.T, s *runtime.Scheme, f *randfill.Filler, gvk schema.GroupVersionKind) (runtime.Object, map[string]any) {
	t.Helper()
	obj, err := s.New(gvk)
	if err != nil {
		t.Fatal(err)
	}
	f.Fill(obj)
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, toUnstructured(t, obj)
}
