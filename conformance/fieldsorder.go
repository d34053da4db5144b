package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
)

// CompareFieldsV1Order checks the order of the keys of each fieldsV1 the prediction
// answers (Result.ManagedFields) against the recording's bytes, which parsing the answer
// into maps forgets: a built-in kind's in structured-merge-diff's element order, a custom
// resource's in byte order (rules.md encode.key-order). The keys are compared as decoded
// strings, level by level, so that the recording's escaping and indentation do not count.
// It says nothing when the case recorded no object or the prediction has no entries.
func CompareFieldsV1Order(c *Case, res *merge.Result) []string {
	if res == nil || len(res.ManagedFields) == 0 || c.Dir == "" {
		return nil
	}
	file := "want.json"
	if c.Subresource() == "scale" {
		file = "after.json"
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, file))
	if err != nil {
		return nil
	}
	got := make([]json.RawMessage, len(res.ManagedFields))
	for i, e := range res.ManagedFields {
		got[i] = json.RawMessage(e.FieldsV1)
	}
	return compareFieldsV1Order(file, b, got)
}

// managedFieldsText is the fieldsV1 of each entry of an object's JSON, as it comes; ok is
// false for an answer that is no object (a Status, a List).
func managedFieldsText(objJSON []byte) (fields []json.RawMessage, ok bool) {
	var obj struct {
		Kind     string
		Metadata struct {
			ManagedFields []struct {
				FieldsV1 json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(objJSON, &obj); err != nil || obj.Kind == "Status" || obj.Kind == "List" {
		return nil, false
	}
	for _, e := range obj.Metadata.ManagedFields {
		fields = append(fields, e.FieldsV1)
	}
	return fields, true
}

// compareFieldsV1Order compares the key order of got, one fieldsV1 per entry, with the
// entries of the answer wantJSON (read from file).
func compareFieldsV1Order(file string, wantJSON []byte, got []json.RawMessage) []string {
	want, ok := managedFieldsText(wantJSON)
	if !ok || len(want) != len(got) {
		return nil // the entries differ: Compare says how
	}
	var problems []string
	for i := range got {
		w, err := fieldsV1Keys(want[i])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: managedFields[%d].fieldsV1: %v", file, i, err))
			continue
		}
		g, err := fieldsV1Keys(got[i])
		if err != nil {
			problems = append(problems, fmt.Sprintf("managedFields[%d] predicted: %v", i, err))
			continue
		}
		if strings.Join(g, "\n") != strings.Join(w, "\n") {
			problems = append(problems, fmt.Sprintf("managedFields[%d]: fieldsV1 keys in another order than %s's:\n%s\nserver:\n%s",
				i, file, got[i], want[i]))
		}
	}
	return problems
}

// fieldsV1Keys lists the keys of fieldsV1 text in the order they come, each with its path
// of keys above it.
func fieldsV1Keys(raw []byte) ([]string, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	var keys, path []string
	expectKey := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return keys, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				expectKey = true
			case '}':
				if len(path) > 0 {
					path = path[:len(path)-1]
				}
				expectKey = true
			default:
				return nil, fmt.Errorf("not a field set: %v", t)
			}
		case string:
			if !expectKey {
				return nil, fmt.Errorf("not a field set: a string value")
			}
			path = append(path, t)
			keys = append(keys, strings.Join(path, " → "))
			expectKey = false
		default:
			return nil, fmt.Errorf("not a field set: %v", t)
		}
	}
}
