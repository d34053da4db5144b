package conversion

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"
)

// ErrNotConvertible is wrapped by the errors of Convert for kinds and versions this package
// does not convert.
var ErrNotConvertible = errors.New("no conversion known")

// kindConversion converts the objects of one kind through its hub.
type kindConversion struct {
	// versions are the versions the server serves, preferred first.
	versions []string
	// hub is the version whose shape is the internal version's.
	hub string
	// newObject makes an empty Go object of a version.
	newObject func(version string) any
	// direct, when set, decodes an object of a version (unstructured) into its Go object as
	// apimachinery's converter does, without its reflection, or reports false (then the
	// converter decodes it).
	direct func(version string, obj map[string]any) (any, bool)
	// toHub converts a Go object of a version to the hub, as the server cfg describes
	// converts it.
	toHub func(cfg *serverconfig.Config, version string, in any) any
	// fromHub converts a hub value to a version, as the server cfg describes converts it.
	fromHub func(cfg *serverconfig.Config, hub any, version string) (any, error)
	// decodable, when set, is an object of a version (unstructured) as the Go types of
	// the server cfg describes see it: without the fields this package's types (the
	// newest release's) have and that minor's lack, which its decoding drops as it drops
	// any unknown field (their paths, as the server's decoding warnings name them, are
	// returned). It copies what it changes.
	decodable func(cfg *serverconfig.Config, obj map[string]any) (map[string]any, []string)
}

// kinds are the built-in kinds served at more than one version, by group and kind.
var kinds = map[[2]string]*kindConversion{
	{"autoscaling", "HorizontalPodAutoscaler"}: hpaConversion,
}

// Versions returns the versions of a built-in kind between which Convert converts,
// preferred first ("v2", "v1" for the HorizontalPodAutoscaler), or nil when the package
// knows no conversion for the kind.
func Versions(group, kind string) []string {
	if k := kinds[[2]string{group, kind}]; k != nil {
		return append([]string(nil), k.versions...)
	}
	return nil
}

// Hub returns the version of a built-in kind whose shape is the kind's internal version
// ("v2" for the HorizontalPodAutoscaler), where the server's registry runs its rules and
// validation; "" when the package knows no conversion for the kind. Converting an object
// to its hub and back loses nothing the server keeps.
func Hub(group, kind string) string {
	if k := kinds[[2]string{group, kind}]; k != nil {
		return k.hub
	}
	return ""
}

// Convert returns obj, a built-in object in its unstructured form at one of the versions
// Versions lists, converted to apiVersion as the kube-apiserver cfg describes converts it:
// decoded into its Go type, converted to the internal version, from there to apiVersion, and encoded as
// JSON would encode it (integers int64, other numbers float64). Converting to the object's
// own version is the round trip the server makes when it decodes an object and encodes it
// again at the same version. metadata.managedFields are kept as they are. obj is not
// changed, and the result shares nothing with it.
func Convert(cfg *serverconfig.Config, obj map[string]any, apiVersion string) (map[string]any, error) {
	from, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	fromGroup, fromVersion := splitAPIVersion(from)
	toGroup, toVersion := splitAPIVersion(apiVersion)
	k := kinds[[2]string{fromGroup, kind}]
	if k == nil || toGroup != fromGroup {
		return nil, fmt.Errorf("%w from %s %s to %s", ErrNotConvertible, from, kind, apiVersion)
	}
	if !k.serves(fromVersion) || !k.serves(toVersion) {
		return nil, fmt.Errorf("%w from %s to %s for %s: the versions are %s", ErrNotConvertible, from, apiVersion, kind, strings.Join(k.versions, ", "))
	}
	in, managed, hasManaged := withoutManagedFields(obj)
	if k.decodable != nil {
		in, _ = k.decodable(cfg, in)
	}
	typed, ok := any(nil), false
	if k.direct != nil {
		typed, ok = k.direct(fromVersion, in)
	}
	if !ok {
		typed = k.newObject(fromVersion)
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(in, typed); err != nil {
			// As the server's scheme words it.
			return nil, fmt.Errorf("unable to convert unstructured object to %s/%s, Kind=%s: %w", fromGroup, fromVersion, kind, err)
		}
	}
	out, err := k.fromHub(cfg, k.toHub(cfg, fromVersion, typed), toVersion)
	if err != nil {
		return nil, fmt.Errorf("converting %s to %s: %w", kind, apiVersion, err)
	}
	m, err := encode(out)
	if err != nil {
		return nil, fmt.Errorf("encoding %s %s: %w", apiVersion, kind, err)
	}
	if hasManaged {
		md, _ := m["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			m["metadata"] = md
		}
		md["managedFields"] = unstructured.DeepCopy(managed)
	}
	return m, nil
}

func (k *kindConversion) serves(version string) bool {
	for _, v := range k.versions {
		if v == version {
			return true
		}
	}
	return false
}

func splitAPIVersion(av string) (group, version string) {
	if i := strings.IndexByte(av, '/'); i >= 0 {
		return av[:i], av[i+1:]
	}
	return "", av
}

// withoutManagedFields is obj without metadata.managedFields (a shallow copy when it had
// them), and the entries it had. The server's conversion copies them as they are.
func withoutManagedFields(obj map[string]any) (map[string]any, any, bool) {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj, nil, false
	}
	mf, ok := md["managedFields"]
	if !ok {
		return obj, nil, false
	}
	return unstructured.WithoutManagedFields(obj), mf, true
}

// DecodeBody checks that obj, a request body of a kind Versions knows, decodes into its Go
// type as the API server cfg describes decodes a JSON request body (sigs.k8s.io/json, field
// names case sensitive), and returns the warnings of that decoding: each field the Go type
// of cfg's minor does not have, `unknown field "status.conditions[0].observedGeneration"`,
// in the order of the body's fields as encoding/json writes them (field validation Warn,
// the default). The error is the server's 400 message:
// `HorizontalPodAutoscaler in version "v2" cannot be handled as a HorizontalPodAutoscaler:
// json: cannot unmarshal …`. The body is read from obj as encoding/json writes it, so a
// number is quoted as Go formats it.
func DecodeBody(cfg *serverconfig.Config, obj map[string]any) ([]string, error) {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version := splitAPIVersion(av)
	k := kinds[[2]string{group, kind}]
	if k == nil || !k.serves(version) {
		return nil, fmt.Errorf("%w for %s %s", ErrNotConvertible, av, kind)
	}
	var older []string
	if k.decodable != nil {
		obj, older = k.decodable(cfg, obj)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	strict, err := kjson.UnmarshalStrict(b, k.newObject(version), kjson.DisallowUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("%s in version %q cannot be handled as a %s: %w", kind, version, kind, err)
	}
	var warnings []string
	for _, e := range strict {
		warnings = append(warnings, e.Error())
	}
	for _, p := range older {
		warnings = append(warnings, fmt.Sprintf("unknown field %q", p))
	}
	sort.Strings(warnings)
	return warnings, nil
}

// encode writes a Go API object as encoding/json would, unstructured: apimachinery's
// converter, which follows the JSON tags and the types' own JSON forms.
func encode(v any) (map[string]any, error) {
	return runtime.DefaultUnstructuredConverter.ToUnstructured(v)
}

// numbers turns json.Numbers into int64 (integers) or float64 (the rest), as the engine
// holds decoded JSON.
func numbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = numbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = numbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f)
		}
		return f
	}
	return v
}
