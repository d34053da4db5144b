package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-logr/logr"
	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install" // the HorizontalPodAutoscaler's conversions
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// crStatusResetsMetadataSince is the minor from which a custom resource's /status
// strategy names metadata among its reset fields (apiextensions-apiserver v0.36); before
// it, spec alone.
const crStatusResetsMetadataSince = 36

// Setup is the first line: the kinds to serve.
type Setup struct {
	Kinds []KindSetup `json:"kinds"`
	// CRDs are CustomResourceDefinitions (YAML) whose served versions are served too.
	CRDs []string `json:"crds,omitempty"`
}

// KindSetup is one built-in kind.
type KindSetup struct {
	GVK      schema.GroupVersionKind `json:"gvk"`
	Resource string                  `json:"resource"`
	// Reset is the strategy's reset fields per subresource, each path a list of field names.
	Reset map[string][][]string `json:"reset,omitempty"`
	// ScaleVersions are the apiVersions whose replica count /scale maps at spec.replicas.
	ScaleVersions []string `json:"scaleVersions,omitempty"`
	// Versions are the served versions of a kind served with the server's scheme, Hub the
	// one of the internal version's shape; empty for a kind served at one version.
	Versions []string `json:"versions,omitempty"`
	Hub      string   `json:"hub,omitempty"`
}

// Call is one request.
type Call struct {
	Verb        string                  `json:"verb"` // "apply" or "update"
	GVK         schema.GroupVersionKind `json:"gvk"`
	Subresource string                  `json:"subresource,omitempty"`
	Live        map[string]any          `json:"live,omitempty"`
	Object      map[string]any          `json:"object"`
	Manager     string                  `json:"manager"`
	Force       bool                    `json:"force,omitempty"`
	Now         time.Time               `json:"now"`
}

// Answer is the answer to one Call: the stored object, the refusal, or Fail when the
// oracle could not answer (a harness error, not a server answer).
type Answer struct {
	Object map[string]any `json:"object,omitempty"`
	Error  *oracle.Status `json:"error,omitempty"`
	Fail   string         `json:"fail,omitempty"`
}

func main() {
	// The field manager logs "[SHOULD NOT HAPPEN]" when an update cannot be tracked; the
	// harness makes such updates on purpose.
	klog.SetLogger(logr.Discard())
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "oracle at 1.%d: %v\n", minor, err)
		os.Exit(1)
	}
}

func serve(r io.Reader, w io.Writer) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	if !in.Scan() {
		if err := in.Err(); err != nil {
			return fmt.Errorf("reading the setup line: %w", err)
		}
		return fmt.Errorf("no setup line")
	}
	var setup Setup
	if err := json.Unmarshal(in.Bytes(), &setup); err != nil {
		return fmt.Errorf("setup line: %w", err)
	}
	srv, err := newServer(setup)
	if err != nil {
		return err
	}
	if err := answer(enc, out, Answer{}); err != nil { // ready
		return err
	}
	for in.Scan() {
		if err := answer(enc, out, handle(srv, in.Bytes())); err != nil {
			return err
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("reading calls: %w", err)
	}
	return nil
}

func answer(enc *json.Encoder, out *bufio.Writer, a Answer) error {
	if err := enc.Encode(a); err != nil {
		return fmt.Errorf("writing an answer: %w", err)
	}
	return out.Flush()
}

func handle(srv *oracle.Server, line []byte) Answer {
	var c Call
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return Answer{Fail: fmt.Sprintf("call: %v", err)}
	}
	req := oracle.Request{GVK: c.GVK, Subresource: c.Subresource, Live: numbers(c.Live), Object: numbers(c.Object),
		Manager: c.Manager, Force: c.Force, Now: c.Now}
	var resp oracle.Response
	var err error
	switch c.Verb {
	case "apply":
		resp, err = srv.Apply(req)
	case "update":
		resp, err = srv.Update(req)
	default:
		err = fmt.Errorf("unknown verb %q", c.Verb)
	}
	if err != nil {
		return Answer{Fail: err.Error()}
	}
	dropNullCreationTimestamp(resp.Object)
	return Answer{Object: resp.Object, Error: resp.Error}
}

// dropNullCreationTimestamp removes a top-level metadata.creationTimestamp of null. A
// Go ObjectMeta that is not omitzero (1.33's) encodes an unset creationTimestamp as null, so a kind
// converted through the scheme (the HorizontalPodAutoscaler) comes back with one; a real
// server never stores it unset (the store stamps every create), and the harness's objects
// carry none, so it is the harness's artefact, not an answer. Nested ones (pod templates)
// are kept: the server stores those.
func dropNullCreationTimestamp(obj map[string]any) {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return
	}
	if ts, found := md["creationTimestamp"]; found && ts == nil {
		delete(md, "creationTimestamp")
	}
}

// numbers makes the JSON numbers of a decoded call the int64 (integers) and float64
// (others) an API server's decoder makes.
func numbers(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	return fromNumbers(obj).(map[string]any)
}

func fromNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = fromNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = fromNumbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func newServer(setup Setup) (*oracle.Server, error) {
	tc := oracle.BuiltinConverter()
	var kinds []*oracle.Kind
	for _, ks := range setup.Kinds {
		reset := map[string][]smdpath.Path{}
		for sub, paths := range ks.Reset {
			for _, p := range paths {
				var elems []any
				for _, f := range p {
					elems = append(elems, f)
				}
				sp, err := smdpath.MakePath(elems...)
				if err != nil {
					return nil, fmt.Errorf("reset field %v of %s: %w", p, ks.GVK, err)
				}
				reset[sub] = append(reset[sub], sp)
			}
		}
		if len(ks.Versions) > 0 {
			var versions []schema.GroupVersion
			for _, v := range ks.Versions {
				versions = append(versions, schema.GroupVersion{Group: ks.GVK.Group, Version: v})
			}
			k := &oracle.Kind{GVK: ks.GVK, Resource: ks.Resource, Converter: tc, Reset: reset,
				Scheme: legacyscheme.Scheme, Versions: versions, Hub: schema.GroupVersion{Group: ks.GVK.Group, Version: ks.Hub}}
			kinds = append(kinds, k)
			continue
		}
		k := &oracle.Kind{GVK: ks.GVK, Resource: ks.Resource, Converter: tc, Reset: reset}
		if len(ks.ScaleVersions) > 0 {
			k.ScalePaths = managedfields.ResourcePathMappings{}
			for _, v := range ks.ScaleVersions {
				k.ScalePaths[v] = smdpath.MakePathOrDie("spec", "replicas")
			}
		}
		kinds = append(kinds, k)
	}
	sc, err := oracle.NewScaleConverter(tc)
	if err != nil {
		return nil, err
	}
	kinds = append(kinds, &oracle.Kind{GVK: oracle.ScaleGVK, Resource: "scales", Converter: sc})
	for i, text := range setup.CRDs {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict([]byte(text), crd); err != nil {
			return nil, fmt.Errorf("CRD %d: %w", i, err)
		}
		ck, err := oracle.CRDKinds(crd)
		if err != nil {
			return nil, err
		}
		if minor < crStatusResetsMetadataSince {
			for _, k := range ck {
				if _, ok := k.Reset["status"]; ok {
					// apiextensions-apiserver's customresource statusStrategy before 1.36
					// (read in v0.33.13): its GetResetFields names spec alone, while its
					// PrepareForUpdate puts back everything but status and managedFields.
					k.Restore = map[string][]smdpath.Path{"status": k.Reset["status"]}
					k.Reset = map[string][]smdpath.Path{"": k.Reset[""], "status": {smdpath.MakePathOrDie("spec")}}
				}
			}
		}
		kinds = append(kinds, ck...)
	}
	return oracle.NewServer(kinds...), nil
}
