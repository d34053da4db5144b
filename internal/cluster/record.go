package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// The record of a read: the first item of the List a read is saved as.
const (
	RecordAPIVersion = "ssa-diff.github.io/v1alpha1"
	RecordKind       = "LiveStateRead"
)

// Record says what a read found out besides the objects themselves, so that the List it
// is saved in can be read again offline and give the same predictions: the objects the
// cluster does not have (creates, with evidence), the objects it could not read (errors,
// never creates), how it serves the kinds asked about, and the namespace objects that name
// none were read in.
type Record struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   RecordMetadata `json:"metadata"`
	// Context is the kubeconfig context read ("" for the in-cluster configuration).
	Context string `json:"context,omitempty"`
	// ServerVersion is the cluster's version (GitVersion of /version).
	ServerVersion string `json:"serverVersion,omitempty"`
	// Namespace is the namespace of namespaced objects that name none.
	Namespace string `json:"namespace"`
	// Resources are the kinds as the cluster serves them.
	Resources []Resource `json:"resources,omitempty"`
	// NotFound are the objects the cluster does not have.
	NotFound []RecordedObject `json:"notFound,omitempty"`
	// Errors are the objects that could not be read, with why.
	Errors []RecordedObject `json:"errors,omitempty"`
}

// RecordMetadata is the record's metadata: a name, as every object has.
type RecordMetadata struct {
	Name string `json:"name"`
}

// RecordedObject names an object of the record, and why it is there.
type RecordedObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Message is why it could not be read (Errors), or a note (NotFound).
	Message string `json:"message,omitempty"`
}

// Identity is the object the record names.
func (o RecordedObject) Identity() input.Identity {
	g := ""
	if i := strings.IndexByte(o.APIVersion, '/'); i >= 0 {
		g = o.APIVersion[:i]
	}
	return input.Identity{Group: g, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// Record is the record of this read: for context, at the server version, and the
// outcomes that are not objects.
func (r *Result) Record(context, serverVersion, namespace string) *Record {
	rec := &Record{APIVersion: RecordAPIVersion, Kind: RecordKind, Metadata: RecordMetadata{Name: "live-state"},
		Context: context, ServerVersion: serverVersion, Namespace: namespace, Resources: r.Resources}
	seen := map[input.Identity]bool{}
	for _, o := range r.Outcomes {
		if o.Status == Found || seen[o.ID] {
			continue
		}
		seen[o.ID] = true
		ro := RecordedObject{APIVersion: o.Ref.APIVersion, Kind: o.ID.Kind, Namespace: o.ID.Namespace, Name: o.ID.Name}
		if o.Status == NotFound {
			ro.Message = o.Note
			rec.NotFound = append(rec.NotFound, ro)
		} else {
			ro.Message = o.Err.Error()
			rec.Errors = append(rec.Errors, ro)
		}
	}
	return rec
}

// Objects are the objects read, each once: the CustomResourceDefinitions read for their
// kinds, then the live objects in the order of the refs.
func (r *Result) Objects() []json.RawMessage {
	var out []json.RawMessage
	out = append(out, r.CRDs...)
	seen := map[input.Identity]bool{}
	for _, o := range r.Outcomes {
		if o.Status != Found || seen[o.ID] {
			continue
		}
		seen[o.ID] = true
		out = append(out, o.Object)
	}
	return out
}

// ListJSON is a v1 List of the record and the objects, which ssa-diff reads as a
// live-state dump. The List and the record are indented as `kubectl get -o json` indents;
// each object is written as the server wrote it (compact JSON, one line), so that it takes
// in the List the bytes it took when it was read and checked against --max-document-bytes:
// what a read accepted, the List's reader accepts (indenting would make a 30 MiB object
// 40 MiB).
func ListJSON(rec *Record, objects []json.RawMessage) ([]byte, error) {
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, fmt.Errorf("writing the live state: %w", err)
	}
	size := 256 + 2*head.Len()
	for _, o := range objects {
		size += len(o) + 16
	}
	var buf bytes.Buffer
	buf.Grow(size)
	buf.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        ")
	if err := json.Indent(&buf, bytes.TrimSpace(head.Bytes()), "        ", "    "); err != nil {
		return nil, fmt.Errorf("writing the live state: %w", err)
	}
	for i, o := range objects {
		o = bytes.Trim(o, " \t\r\n")
		if !json.Valid(o) {
			return nil, fmt.Errorf("writing the live state: object %d is not JSON", i+1)
		}
		buf.WriteString(",\n        ")
		buf.Write(o)
	}
	buf.WriteString("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	return buf.Bytes(), nil
}

// IsRecord reports whether an object of this apiVersion and kind is a Record.
func IsRecord(apiVersion, kind string) bool {
	return apiVersion == RecordAPIVersion && kind == RecordKind
}

// DecodeRecord reads a Record from its decoded JSON.
func DecodeRecord(obj map[string]any) (*Record, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var rec Record
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("the %s record: %w", RecordKind, err)
	}
	return &rec, nil
}
