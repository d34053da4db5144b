package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"sigs.k8s.io/yaml"
)

// document is one decoded YAML (or JSON) document: an object, nil for an
// empty document, or the error that decoding it gave.
type document struct {
	obj map[string]any
	err error
	// text is the document's source and startLine the line of the input
	// it starts on, for locating errors.
	text      []byte
	startLine int
}

// decodeDocuments splits data into YAML documents (at lines starting with
// "---") and decodes each as kubectl does: YAML 1.1 through
// sigs.k8s.io/yaml, numbers kept exact (integers as int64). JSON input is
// one document.
func decodeDocuments(data []byte) ([]document, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		obj, err := decodeJSONObject(trimmed)
		return []document{{obj: obj, err: err, text: data, startLine: 1}}, nil
	}
	parts, err := splitYAML(data)
	if err != nil {
		return nil, err
	}
	docs := make([]document, 0, len(parts))
	for _, part := range parts {
		j, err := yaml.YAMLToJSON(part.text)
		if err != nil {
			docs = append(docs, document{err: fmt.Errorf("invalid YAML: %w", err)})
			continue
		}
		obj, err := decodeJSONObject(j)
		docs = append(docs, document{obj: obj, err: err, text: part.text, startLine: part.startLine})
	}
	return docs, nil
}

// decodeJSONObject decodes a JSON object, or null (an empty document).
func decodeJSONObject(j []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON: data after the top-level value")
	}
	if v == nil {
		return nil, nil
	}
	m, ok := unstructured.Normalize(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is %s, not an object", unstructured.Describe(v))
	}
	return m, nil
}

type yamlPart struct {
	text      []byte
	startLine int
}

// splitYAML splits a YAML stream at document separators.
func splitYAML(data []byte) ([]yamlPart, error) {
	var parts []yamlPart
	var cur bytes.Buffer
	start, n := 1, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), len(data)+1)
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if isSeparator(line) {
			parts = append(parts, yamlPart{bytes.Clone(cur.Bytes()), start})
			cur.Reset()
			start = n + 1
			continue
		}
		cur.Write(line)
		cur.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading YAML: %w", err)
	}
	parts = append(parts, yamlPart{cur.Bytes(), start})
	// Documents that are only whitespace and comments are not documents.
	out := parts[:0]
	for _, p := range parts {
		if hasContent(p.text) {
			out = append(out, p)
		}
	}
	return out, nil
}

func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r'
}

func hasContent(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' {
			return true
		}
	}
	return false
}
