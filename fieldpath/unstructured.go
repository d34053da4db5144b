package fieldpath

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
)

// This file converts managedFields between the entries of this package and the form they
// have in a decoded object (metadata.managedFields as []any of maps, fieldsV1 a
// tree of maps). Every object the engine reads or writes goes through it, several times
// per request, so it does not round-trip through encoding/json: it writes and reads the
// same bytes encoding/json would, directly, and falls back to encoding/json for anything
// unusual.

// EntriesFromUnstructured reads managedFields as a decoded object holds them, fieldsV1 as a
// tree of maps or as its JSON text (a json.RawMessage, taken as it is). ok is false
// at the first element it does not expect (not a map, a field of the wrong type, a time that
// does not parse): such input must go through encoding/json for its errors.
func EntriesFromUnstructured(list []any) (entries []Entry, ok bool) {
	entries = make([]Entry, 0, len(list))
	for _, item := range list {
		m, isMap := item.(map[string]any)
		if !isMap {
			return nil, false
		}
		var e Entry
		for k, v := range m {
			if v == nil {
				continue
			}
			if k == "fieldsV1" {
				if raw, ok := v.(json.RawMessage); ok {
					// Kept as text by a reader (see internal/input's CompactManagedFields).
					e.FieldsV1 = raw
					continue
				}
				b, err := fieldsjson.AppendJSON(nil, v)
				if err != nil {
					return nil, false
				}
				e.FieldsV1 = b
				continue
			}
			str, isString := v.(string)
			if !isString {
				return nil, false
			}
			switch k {
			case "manager":
				e.Manager = str
			case "operation":
				e.Operation = Operation(str)
			case "apiVersion":
				e.APIVersion = str
			case "fieldsType":
				e.FieldsType = str
			case "subresource":
				e.Subresource = str
			case "time":
				if str == "" {
					continue
				}
				t, err := time.Parse(time.RFC3339, str)
				if err != nil {
					return nil, false
				}
				t = t.UTC().Truncate(time.Second)
				e.Time = &t
			}
		}
		entries = append(entries, e)
	}
	return entries, true
}

// EntriesOf reads the metadata.managedFields of a decoded object. present is false when
// the field is absent or null; anything EntriesFromUnstructured does not expect goes
// through encoding/json, for its errors.
func EntriesOf(obj map[string]any) (entries []Entry, present bool, err error) {
	md, _ := obj["metadata"].(map[string]any)
	raw, ok := md["managedFields"]
	if !ok || raw == nil {
		return nil, false, nil
	}
	if list, ok := raw.([]any); ok {
		if entries, ok := EntriesFromUnstructured(list); ok {
			return entries, true, nil
		}
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, true, err
	}
	entries = []Entry{}
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, true, err
	}
	return entries, true, nil
}

// EntriesToUnstructured is the managedFields list a decoded object holds for entries: what
// decoding their JSON (Entry.MarshalJSON) gives.
func EntriesToUnstructured(entries []Entry) ([]any, error) {
	return entriesToUnstructured(entries, asTree)
}

// EntriesToUnstructuredText is EntriesToUnstructured with each fieldsV1 kept as text: a
// json.RawMessage in canonical form (fieldsjson.CanonicalFieldsV1), which encoding/json writes as it
// would write the tree. It is cheaper to make and to hold than the trees, and every reader
// of this module takes it.
func EntriesToUnstructuredText(entries []Entry) ([]any, error) {
	return entriesToUnstructured(entries, asText)
}

// EntriesToUnstructuredCanonical is EntriesToUnstructuredText for entries whose fieldsV1
// are canonical already (EncodeText's): they are held as they are.
func EntriesToUnstructuredCanonical(entries []Entry) ([]any, error) {
	return entriesToUnstructured(entries, canonicalAlready)
}

// How entriesToUnstructured holds fieldsV1.
const (
	asTree = iota
	asText
	canonicalAlready
)

func entriesToUnstructured(entries []Entry, how int) ([]any, error) {
	out := make([]any, len(entries))
	for i, e := range entries {
		m := make(map[string]any, 7)
		if e.Manager != "" {
			m["manager"] = e.Manager
		}
		if e.Operation != "" {
			m["operation"] = string(e.Operation)
		}
		if e.APIVersion != "" {
			m["apiVersion"] = e.APIVersion
		}
		if e.Time != nil {
			m["time"] = e.Time.UTC().Format(TimeFormat)
		}
		if e.FieldsType != "" {
			m["fieldsType"] = e.FieldsType
		}
		if len(e.FieldsV1) > 0 {
			var v any
			var err error
			switch how {
			case canonicalAlready:
				v = json.RawMessage(e.FieldsV1)
			case asText:
				var b []byte
				b, err = fieldsjson.CanonicalFieldsV1(e.FieldsV1)
				v = json.RawMessage(b)
			default:
				v, err = fieldsjson.DecodeJSON(e.FieldsV1)
			}
			if err != nil {
				return nil, fmt.Errorf("managedFields entry %d (%s): fieldsV1: %w", i, e.Manager, err)
			}
			m["fieldsV1"] = v
		}
		if e.Subresource != "" {
			m["subresource"] = e.Subresource
		}
		out[i] = m
	}
	return out, nil
}
