package wire

import (
	"encoding/json"

	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Library answers admission calls: in process (package internal/admission/library) or
// through a helper process (Exec).
type Library interface {
	Call(c Call) (Answer, error)
	Close() error
}

// Setup is the cluster the library admits writes for.
type Setup struct {
	// Minor is the server's Kubernetes minor (37 for 1.37): the PodSecurity checks and
	// policy features of that release.
	Minor int `json:"minor"`
	// Objects are what the cluster holds, as it stores them (defaulted).
	Objects []map[string]any `json:"objects"`
	// Kinds are the kinds the library may need to address: those of the objects, of the
	// policies' paramKinds, of the writes.
	Kinds []Kind `json:"kinds"`
	// OpenAPI are the OpenAPI v3 documents of the group-versions a mutating policy may
	// change objects of, by their discovery path ("apis/apps/v1", "api/v1"): a mutation is
	// typed with them, as the server types it with its own.
	OpenAPI map[string]json.RawMessage `json:"openapi,omitempty"`
	// User sends the writes; Authorization answers the policies' authorizer checks.
	User          clusterstate.User          `json:"user"`
	Authorization clusterstate.Authorization `json:"authorization"`
}

// Kind is a kind at a version and how the server serves it.
type Kind struct {
	Group    string `json:"group"`
	Version  string `json:"version"`
	Kind     string `json:"kind"`
	Resource string `json:"resource"`
	// Namespaced is false for a cluster-scoped kind.
	Namespaced bool `json:"namespaced"`
	// Converts names how the server converts the kind's objects between its versions:
	// "" when only their apiVersion changes (one schema, a CRD without webhook), "go"
	// for a built-in kind converted by Go code, "webhook" for a CRD's conversion webhook.
	Converts string `json:"converts,omitempty"`
}

// The phases of admission.
const (
	PhaseMutating   = "mutating"
	PhaseValidating = "validating"
)

// Call is one admission phase of one write.
type Call struct {
	Phase string `json:"phase"`
	// Kind is the request's: the URL's group and version, the kind and its resource.
	Kind Kind `json:"kind"`
	// Equivalents are the kind's other served versions.
	Equivalents []Kind `json:"equivalents,omitempty"`
	Subresource string `json:"subresource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name"`
	// Operation is CREATE or UPDATE.
	Operation    string `json:"operation"`
	FieldManager string `json:"fieldManager,omitempty"`
	// Object is what the write stores, OldObject the stored object on an update, both at
	// the request's version.
	Object    map[string]any `json:"object"`
	OldObject map[string]any `json:"oldObject,omitempty"`
}

// Answer is what an admission phase says of a write.
type Answer struct {
	// Refusal is the server's answer refusing the write, nil when admitted.
	Refusal *metav1.Status `json:"refusal,omitempty"`
	// RefusedBy names the plugin that refused: PodSecurity, ValidatingAdmissionPolicy or
	// MutatingAdmissionPolicy.
	RefusedBy string `json:"refusedBy,omitempty"`
	// Warnings are the server's Warning headers, in order.
	Warnings []string `json:"warnings,omitempty"`
	// Audit are the annotations the server writes to its audit log, "key: value".
	Audit []string `json:"audit,omitempty"`
	// Object is the object a mutating phase changed, at the request's version; nil when
	// it changed nothing.
	Object map[string]any `json:"object,omitempty"`
	// Unknown are the authorizer checks the policies asked that Authorization does not
	// answer (answered "no opinion", as an authorizer that knows nothing answers).
	Unknown []clusterstate.Check `json:"unknown,omitempty"`
	// NotPredicted says what else the answer rests on that the library could not know.
	NotPredicted []string `json:"notPredicted,omitempty"`
}

// Diff asks for a difference the server's own code prints with a library ssa-diff does not
// link into the command: go-cmp's cmp.Diff of the release's internal types, which
// Kubernetes 1.32 and 1.33 print in refusing a changed ephemeral container (go-cmp's
// reflection would cost every run of ssa-diff: package internal/api/gocmp prints it).
type Diff struct {
	// Minor is the server's Kubernetes minor (33 for 1.33): the release's types are printed.
	Minor int `json:"minor"`
	// Type is the internal type of Old and New as go-cmp names it: EphemeralContainerType.
	Type string `json:"type"`
	// Old and New are the two values as encoding/json writes ssa-diff's internal types
	// (package internal/api): Go field names, nil as null and empty as empty, as go-cmp
	// tells them apart.
	Old json.RawMessage `json:"old"`
	New json.RawMessage `json:"new"`
}

// EphemeralContainerType is the Type of a Diff of two ephemeral containers.
const EphemeralContainerType = "core.EphemeralContainer"
