package fieldpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Operation is the kind of write that produced an entry.
type Operation string

// The two operations the API server records.
const (
	OperationApply  Operation = "Apply"
	OperationUpdate Operation = "Update"
)

// FieldsTypeV1 is the only field-set encoding the API server knows.
const FieldsTypeV1 = "FieldsV1"

// TimeFormat is how the API server writes times: RFC 3339 in UTC, second precision.
const TimeFormat = "2006-01-02T15:04:05Z"

// Entry is one element of metadata.managedFields, in the shape of the API's
// ManagedFieldsEntry. It marshals to JSON with the server's field order.
type Entry struct {
	Manager     string          `json:"manager,omitempty"`
	Operation   Operation       `json:"operation,omitempty"`
	APIVersion  string          `json:"apiVersion,omitempty"`
	Time        *time.Time      `json:"time,omitempty"`
	FieldsType  string          `json:"fieldsType,omitempty"`
	FieldsV1    json.RawMessage `json:"fieldsV1,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
}

// entryWire is Entry as it travels: the time as the server formats it.
type entryWire struct {
	Manager     string          `json:"manager,omitempty"`
	Operation   Operation       `json:"operation,omitempty"`
	APIVersion  string          `json:"apiVersion,omitempty"`
	Time        *string         `json:"time,omitempty"`
	FieldsType  string          `json:"fieldsType,omitempty"`
	FieldsV1    json.RawMessage `json:"fieldsV1,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
}

// MarshalJSON writes the entry as the API server does.
func (e Entry) MarshalJSON() ([]byte, error) {
	w := entryWire{Manager: e.Manager, Operation: e.Operation, APIVersion: e.APIVersion,
		FieldsType: e.FieldsType, FieldsV1: e.FieldsV1, Subresource: e.Subresource}
	if e.Time != nil {
		s := e.Time.UTC().Format(TimeFormat)
		w.Time = &s
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an entry; times may carry any RFC 3339 offset and are kept in UTC.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var w entryWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Entry{Manager: w.Manager, Operation: w.Operation, APIVersion: w.APIVersion,
		FieldsType: w.FieldsType, Subresource: w.Subresource}
	if len(w.FieldsV1) > 0 && !bytes.Equal(bytes.TrimSpace(w.FieldsV1), []byte("null")) {
		e.FieldsV1 = append(json.RawMessage(nil), w.FieldsV1...)
	}
	if w.Time != nil && *w.Time != "" {
		t, err := time.Parse(time.RFC3339, *w.Time)
		if err != nil {
			return fmt.Errorf("time: %w", err)
		}
		t = t.UTC().Truncate(time.Second)
		e.Time = &t
	}
	return nil
}

// IsZero reports whether the entry is the empty entry {}, which on a main-resource write
// means "reset managedFields".
func (e Entry) IsZero() bool {
	return e.Manager == "" && e.Operation == "" && e.APIVersion == "" && e.Time == nil &&
		e.FieldsType == "" && len(e.FieldsV1) == 0 && e.Subresource == ""
}

// Ref names the entry without its fields.
func (e Entry) Ref() ManagerRef {
	return ManagerRef{Manager: e.Manager, Operation: e.Operation, APIVersion: e.APIVersion,
		Subresource: e.Subresource, Time: e.Time}
}

// ManagerRef identifies a manager entry for people and reports: everything but its fields.
type ManagerRef struct {
	Manager     string     `json:"manager"`
	Operation   Operation  `json:"operation"`
	APIVersion  string     `json:"apiVersion,omitempty"`
	Subresource string     `json:"subresource,omitempty"`
	Time        *time.Time `json:"time,omitempty"`
}

// String prints the manager as the API server prints it in conflict messages:
// "name", then ` with subresource "s"`, then ` using apiVersion` for Update entries.
func (r ManagerRef) String() string {
	s := fmt.Sprintf("%q", r.Manager)
	if r.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", r.Subresource)
	}
	if r.Operation == OperationUpdate {
		s += " using " + r.APIVersion
	}
	return s
}
