package defaulting

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/strategy"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	crdregistry "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
)

// generationKinds are the kinds whose main-resource strategy moves metadata.generation,
// with that strategy (k8s.io/kubernetes v1.37.2, pkg/registry/**/strategy.go).
func generationKinds(s *runtime.Scheme) map[string]rest.RESTUpdateStrategy {
	return map[string]rest.RESTUpdateStrategy{
		"admissionregistration.k8s.io/v1|MutatingAdmissionPolicy":          mutatingadmissionpolicy.NewStrategy(nil, nil),
		"admissionregistration.k8s.io/v1|MutatingAdmissionPolicyBinding":   mutatingadmissionpolicybinding.NewStrategy(nil, nil, nil),
		"admissionregistration.k8s.io/v1|MutatingWebhookConfiguration":     mutatingwebhookconfiguration.Strategy,
		"admissionregistration.k8s.io/v1|ValidatingAdmissionPolicy":        validatingadmissionpolicy.NewStrategy(nil, nil),
		"admissionregistration.k8s.io/v1|ValidatingAdmissionPolicyBinding": validatingadmissionpolicybinding.NewStrategy(nil, nil, nil),
		"admissionregistration.k8s.io/v1|ValidatingWebhookConfiguration":   validatingwebhookconfiguration.Strategy,
		"apiextensions.k8s.io/v1|CustomResourceDefinition":                 crdregistry.NewStrategy(s),
		"apps/v1|DaemonSet":                          daemonset.Strategy,
		"apps/v1|Deployment":                         deployment.Strategy,
		"apps/v1|ReplicaSet":                         replicaset.Strategy,
		"apps/v1|StatefulSet":                        statefulset.Strategy,
		"autoscaling/v2|HorizontalPodAutoscaler":     horizontalpodautoscaler.Strategy,
		"batch/v1|CronJob":                           cronjob.Strategy,
		"batch/v1|Job":                               job.Strategy,
		"discovery.k8s.io/v1|EndpointSlice":          endpointslice.Strategy,
		"flowcontrol.apiserver.k8s.io/v1|FlowSchema": flowschema.Strategy,
		"flowcontrol.apiserver.k8s.io/v1|PriorityLevelConfiguration": prioritylevelconfiguration.Strategy,
		"networking.k8s.io/v1|Ingress":                               ingress.Strategy,
		"networking.k8s.io/v1|IngressClass":                          ingressclass.Strategy,
		"networking.k8s.io/v1|NetworkPolicy":                         networkpolicy.Strategy,
		"policy/v1|PodDisruptionBudget":                              poddisruptionbudget.Strategy,
		"resource.k8s.io/v1|DeviceClass":                             deviceclass.Strategy,
		"resource.k8s.io/v1|DeviceTaintRule":                         devicetaintrule.Strategy,
		"resource.k8s.io/v1|ResourceSlice":                           resourceslice.Strategy,
		"scheduling.k8s.io/v1|PriorityClass":                         priorityclass.Strategy,
		"storage.k8s.io/v1|CSIDriver":                                csidriver.Strategy,
		"v1|Pod":                                                     pod.Strategy,
		"v1|PodTemplate":                                             podtemplate.Strategy,
		"v1|ReplicationController":                                   replicationcontroller.Strategy,
	}
}

// The new objects of the updates: each keeps the stored object's identity.
const (
	variantLabel      = iota // the stored object with one more label: no spec change
	variantQuantities        // the stored object, its quantities written in other units
	variantEmpty             // the stored object with empty lists and maps added
	variantRandom            // another random object
	variantCount
)

var variantNames = [variantCount]string{"label", "quantities", "empty collections", "random"}

// TestGenerationMatchesKubeAPIServer compares what internal/strategy predicts for an update
// with what the server's own update strategy does, for every kind an apply can update (the
// 29 whose generation moves first among them), on random stored objects and four kinds of
// new object: equal but for a label (numbers such as a CRD schema's minimum 0 come back from
// the JSON as integers, and must still equal the float64 the Go type holds), equal but for
// the units of its quantities ("1Gi" for "1024Mi"), equal but for empty lists and maps
// (which reflect.DeepEqual, the comparison of webhook configurations and NetworkPolicy,
// tells from missing ones), and a different random object. The generation and the whole
// object stored and read back must be the server's. The server's side is what
// kube-apiserver does: the request decoded into the Go type
// (runtime.DefaultUnstructuredConverter) and defaulted, the stored object decoded and
// defaulted, both converted to the internal version, rest.BeforeUpdate's generation
// restore, the strategy's PrepareForUpdate, then storage and the read.
func TestGenerationMatchesKubeAPIServer(t *testing.T) {
	s := scheme()
	kinds := generationKinds(s)
	// Every other kind an apply can update is held to the server's update too.
	for k, st := range createStrategies(s) {
		if u, ok := st.(rest.RESTUpdateStrategy); ok && kinds[k] == nil && createNotCompared[k] == "" {
			kinds[k] = u
		}
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	ctx := genericapirequest.WithRequestInfo(genericapirequest.NewContext(), &genericapirequest.RequestInfo{})
	var total, bumped [variantCount]int
	diverged := 0
	for ki, k := range names {
		av, kind, _ := strings.Cut(k, "|")
		if !defaults.MustFor(linkedMinor).Known(av, kind) {
			t.Errorf("%s %s: not a kind internal/defaults knows", av, kind)
			continue
		}
		t.Run(strings.ReplaceAll(av, "/", "_")+"_"+kind, func(t *testing.T) {
			gvk := schemaGVK(av, kind)
			f := filler(int64(ki) + 1000)
			r := rand.New(rand.NewPCG(uint64(ki), 20))
			shown := 0
			for i := 0; i < objectsPerKind; i++ {
				old, err := s.New(gvk)
				if err != nil {
					t.Fatal(err)
				}
				f.Fill(old)
				old.GetObjectKind().SetGroupVersionKind(gvk)
				stored, err := serverStore(s, old)
				if err != nil {
					t.Fatalf("server pipeline: %v", err)
				}
				storedMeta, _ := meta.Accessor(stored)
				storedMeta.SetGeneration(5)
				oldJSON := toUnstructured(t, stored)

				v := i % variantCount
				var newJSON map[string]any
				switch v {
				case variantLabel:
					newJSON = unstructured.DeepCopy(oldJSON).(map[string]any)
					md := newJSON["metadata"].(map[string]any)
					labels, _ := md["labels"].(map[string]any)
					if labels == nil {
						labels = map[string]any{}
						md["labels"] = labels
					}
					labels["fidelity.example.com/touched"] = "yes"
				case variantQuantities:
					c := stored.DeepCopyObject()
					reformatQuantities(reflect.ValueOf(c))
					newJSON = toUnstructured(t, c)
				case variantEmpty:
					newJSON = unstructured.DeepCopy(oldJSON).(map[string]any)
					addEmptyCollections(reflect.ValueOf(stored), newJSON, r)
				case variantRandom:
					n, _ := s.New(gvk)
					f.Fill(n)
					n.GetObjectKind().SetGroupVersionKind(gvk)
					newJSON = toUnstructured(t, n)
					newJSON["metadata"] = unstructured.DeepCopy(oldJSON["metadata"])
				}

				want, stored, err := serverUpdate(ctx, s, kinds[k], gvk, newJSON, oldJSON)
				if err != nil {
					// The request does not decode (a random value the Go type refuses): the
					// server would answer 400, there is no generation to compare.
					continue
				}
				obj := unstructured.DeepCopy(newJSON).(map[string]any)
				if err := defaults.MustFor(linkedMinor).Default(av, kind, obj); err != nil {
					t.Fatalf("Default: %v", err)
				}
				strategy.PrepareForUpdate(serverconfig.MustFor(linkedMinor), av, kind, newJSON, obj, oldJSON)
				got, _ := obj["metadata"].(map[string]any)["generation"].(int64)
				// The whole object, read back, must be the server's too.
				if err := defaults.MustFor(linkedMinor).Default(av, kind, obj); err != nil {
					t.Fatalf("Default: %v", err)
				}
				w := toUnstructured(t, stored)
				for _, m := range []map[string]any{w, obj} {
					delete(m, "apiVersion")
					delete(m, "kind")
					for _, a := range strategy.Assigned(av, kind, obj, false) {
						removePath(m, a.Path)
					}
				}
				if d := firstDifferences(w, obj); d != "" {
					if gapOnly(k, d) {
						continue
					}
					diverged++
					if shown < 3 {
						shown++
						t.Errorf("object %d (%s): the stored object diverges:\n%s", i, variantNames[v], d)
					}
					continue
				}
				total[v]++
				if want > 5 {
					bumped[v]++
				}
				if got != want {
					diverged++
					if shown < 3 {
						shown++
						t.Errorf("object %d (%s): generation %d, server %d\nold %s\nnew %s", i, variantNames[v], got, want, short(oldJSON), short(newJSON))
					}
				}
			}
		})
	}
	for v := range variantNames {
		t.Logf("%s: %d updates, %d moved the generation", variantNames[v], total[v], bumped[v])
	}
	if bumped[variantRandom] == 0 || bumped[variantLabel] == total[variantLabel] {
		t.Errorf("the updates do not exercise both outcomes")
	}
	t.Logf("%d kinds (%d whose generation moves), %d divergences", len(names), len(generationKinds(s)), diverged)
}

// serverUpdate runs an update through the server's steps and returns the generation the
// strategy leaves and the object stored and read back.
func serverUpdate(ctx context.Context, s *runtime.Scheme, st rest.RESTUpdateStrategy, gvk schema.GroupVersionKind, newJSON, oldJSON map[string]any) (int64, runtime.Object, error) {
	decode := func(m map[string]any) (runtime.Object, error) {
		v, err := s.New(gvk)
		if err != nil {
			return nil, err
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(unstructured.DeepCopy(m).(map[string]any), v); err != nil {
			return nil, err
		}
		v.GetObjectKind().SetGroupVersionKind(gvk)
		s.Default(v)
		internal, err := s.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
		if err != nil {
			return nil, err
		}
		if err := s.Convert(v, internal, nil); err != nil {
			return nil, err
		}
		return internal, nil
	}
	newObj, err := decode(newJSON)
	if err != nil {
		return 0, nil, err
	}
	oldObj, err := decode(oldJSON)
	if err != nil {
		return 0, nil, fmt.Errorf("the stored object: %w", err)
	}
	nm, _ := meta.Accessor(newObj)
	om, _ := meta.Accessor(oldObj)
	nm.SetGeneration(om.GetGeneration())
	st.PrepareForUpdate(ctx, newObj, oldObj)
	gen := nm.GetGeneration()
	out, _ := s.New(gvk)
	if err := s.Convert(newObj, out, nil); err != nil {
		return 0, nil, fmt.Errorf("from internal: %w", err)
	}
	out.GetObjectKind().SetGroupVersionKind(gvk)
	stored, err := serverStore(s, out)
	return gen, stored, err
}

// reformatQuantities rewrites every quantity under v in other units of the same value.
func reformatQuantities(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			reformatQuantities(v.Elem())
		}
	case reflect.Struct:
		if !v.CanAddr() {
			return
		}
		if q, ok := v.Addr().Interface().(*resource.Quantity); ok {
			alt := resource.NewMilliQuantity(q.MilliValue(), resource.DecimalSI)
			if q.Format == resource.DecimalSI {
				alt = resource.NewMilliQuantity(q.MilliValue(), resource.BinarySI)
			}
			if alt.Cmp(*q) == 0 {
				*q = *alt
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				reformatQuantities(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			reformatQuantities(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			reformatQuantities(e)
			v.SetMapIndex(k, e)
		}
	}
}

// addEmptyCollections adds to m, the JSON of the Go value v, an empty list or map for some
// of the nil slice and map fields of v's structs, as a client writing "ingress: []" does.
func addEmptyCollections(v reflect.Value, m map[string]any, r *rand.Rand) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		sf := v.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" || (name == "" && !strings.Contains(opts, "inline")) {
			continue
		}
		fv := v.Field(i)
		if name == "" {
			addEmptyCollections(fv, m, r)
			continue
		}
		switch {
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Uint8:
		case (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0:
			if _, ok := m[name]; !ok && r.IntN(4) == 0 {
				if fv.Kind() == reflect.Slice {
					m[name] = []any{}
				} else {
					m[name] = map[string]any{}
				}
			}
		case fv.Kind() == reflect.Slice:
			items, _ := m[name].([]any)
			for j := 0; j < fv.Len() && j < len(items); j++ {
				if im, ok := items[j].(map[string]any); ok {
					addEmptyCollections(fv.Index(j), im, r)
				}
			}
		default:
			if sub, ok := m[name].(map[string]any); ok {
				addEmptyCollections(fv, sub, r)
			}
		}
	}
}
