package rawpatch

import (
	"bytes"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"sigs.k8s.io/yaml"
)

// A Set is the patch documents of a run that name no object, each for the one live object,
// and the manifest stub made for each. The zero Set holds none.
type Set struct {
	docs   [][]byte
	byStub map[*input.Object][]byte
}

// Split keeps aside the files of paths whose patch names no object, as JSON, and returns
// the others, to be read as manifests (each naming the object it patches; a file that
// cannot be read too: its error is the manifest's).
func (s *Set) Split(loader *input.Loader, paths []string) []string {
	var named []string
	for _, p := range paths {
		data, err := loader.ReadFile(p)
		if err != nil {
			named = append(named, p)
			continue
		}
		if body, ok := Anonymous(data); ok {
			s.docs = append(s.docs, body)
			continue
		}
		named = append(named, p)
	}
	return named
}

// Anonymous is data as JSON when it is one patch that names no object.
func Anonymous(data []byte) ([]byte, bool) {
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
		return data, true
	}
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		return nil, false
	}
	md, _ := obj["metadata"].(map[string]any)
	if obj["apiVersion"] != nil && obj["kind"] != nil && md["name"] != nil {
		return nil, false
	}
	body, err := yaml.YAMLToJSON(data)
	return body, err == nil
}

// Stubs are the manifests of the patches kept aside: each names the one live object (an
// error when live holds another number of objects).
func (s *Set) Stubs(live []*input.Object) []input.Entry {
	if len(s.docs) == 0 {
		return nil
	}
	if len(live) != 1 {
		return []input.Entry{{Err: fmt.Errorf("a JSON patch names no object: LIVE must hold the one object it patches (it holds %d)", len(live))}}
	}
	obj, err := live[0].Decode()
	if err != nil {
		return []input.Entry{{Err: err}}
	}
	md, _ := obj["metadata"].(map[string]any)
	stub := map[string]any{"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": map[string]any{"name": md["name"], "namespace": md["namespace"]}}
	b, _ := yaml.Marshal(stub)
	var out []input.Entry
	if s.byStub == nil {
		s.byStub = map[*input.Object][]byte{}
	}
	for i, p := range s.docs {
		for _, e := range input.Parse(fmt.Sprintf("patch #%d", i+1), b) {
			if e.Object != nil {
				s.byStub[e.Object] = p
			}
			out = append(out, e)
		}
	}
	return out
}

// For is the patch document of a manifest stub (Stubs), sent as it is; false for any other
// manifest.
func (s *Set) For(manifest *input.Object) ([]byte, bool) {
	body, ok := s.byStub[manifest]
	return body, ok
}
