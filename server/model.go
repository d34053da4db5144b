package server

import (
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Model is what the API server does to an object around field management. Every method
// takes the schema Type of the request's kind (or, where the registry runs on the
// kind's internal version, of that version) and objects as decoded JSON
// (map[string]any); none keeps them.
type Model interface {
	Defaulter
	Converter
	Strategy
	Patcher
	Admitter
	Validator
	// Minor is the Kubernetes minor the model's server runs: the field manager's own
	// rules that changed between minors (reset fields, the apply patch's messages) follow
	// it.
	Minor() kube.Minor
}

// Defaulter is the server's decoding of an object into the kind's Go type.
type Defaulter interface {
	// Default fills in defaults as decoding the object into its Go type and defaulting it
	// would. An error means the server could not decode the object.
	Default(t *schema.Type, obj map[string]any) error
	// DefaultOwned is Default of an object whose maps and lists nobody but the caller
	// holds and none of which it holds twice (a copy the caller just made): the model may
	// rewrite them in place instead of copying. On an error obj is left as it is or partly
	// rewritten.
	DefaultOwned(t *schema.Type, obj map[string]any) error
	// DefaultApplied is Default for the object an apply's merge made, which the server
	// defaults without decoding it: a built-in kind's is converted into its Go type all
	// the same (Default), a custom resource's only defaulted, so that a null its schema
	// does not allow stays for validation to refuse (a decoded body loses it). obj is
	// owned by the caller as DefaultOwned's is.
	DefaultApplied(t *schema.Type, obj map[string]any) error
	// EmptyObject is the JSON of the kind's Go zero value, the "old" object of a create
	// (rules.md create.empty-object).
	EmptyObject(t *schema.Type) map[string]any
	// ReadStored is obj, a live object of kind t as a dump gives it (perhaps printed by
	// another server) or as a write stores it, as the server reads it from storage:
	// without what only an older server prints or the decoding drops (a custom resource's
	// nulls its schema does not allow), with what the server always holds and the dump
	// left out. It returns obj itself when the two are the same, and never changes obj.
	ReadStored(t *schema.Type, obj map[string]any) map[string]any
	// SemanticallyEqual compares two objects of kind t, managedFields aside, as the store
	// does before it writes: decoded into their Go type (quantities by value …). False
	// when the model cannot tell: the engine then compares them as JSON.
	SemanticallyEqual(t *schema.Type, a, b map[string]any) bool
}

// Converter is the server's conversion of a built-in kind between the versions it serves
// (rules.md version.conversion).
type Converter interface {
	// Hub is the version of t's kind whose shape is the kind's internal version, where the
	// registry's rules and validation run ("v2" for the HorizontalPodAutoscaler); "" when
	// the model converts no object of the kind (a kind served at one version, a custom
	// resource).
	Hub(t *schema.Type) string
	// Convert returns obj, an object of a kind whose Hub is not "", converted to
	// apiVersion as the server converts it; converting to obj's own version is the round
	// trip of decoding and encoding it. obj is not changed.
	Convert(obj map[string]any, apiVersion string) (map[string]any, error)
	// DecodeBody checks that obj, a request body of a kind whose Hub is not "", decodes
	// into its Go type, and returns the warnings of that decoding (its unknown fields, as
	// the server words them); the error is worded as the server's 400.
	DecodeBody(obj map[string]any) ([]string, error)
}

// Strategy is the registry's rules around storage.
type Strategy interface {
	// KeepDecoded reports whether the rules of a write of kind t through subresource (""
	// for the main resource) that creates (create is true) or updates an object look at
	// the object as the server decoded it from the request, before Default ran: the engine
	// then keeps a copy and passes it as decoded.
	KeepDecoded(t *schema.Type, subresource string, create bool) bool
	// AllowCreateOnUpdate reports a kind whose PUT creates a missing object (Services,
	// Endpoints, the RBAC kinds, Leases …); a PUT of any other missing object is answered
	// 404 Not Found, and only a POST or an apply creates it.
	AllowCreateOnUpdate(t *schema.Type) bool
	// PrepareForCreate applies the registry's rules to a new object; decoded is the object
	// before defaulting when KeepDecoded asked for it, nil otherwise. obj is the caller's
	// own, as DefaultOwned's is: the rules and the defaulting after them may rewrite its
	// maps and lists in place, and what the rules take from decoded they copy.
	PrepareForCreate(t *schema.Type, decoded, obj map[string]any) error
	// PrepareForUpdate applies the registry's rules to an updated object, given the old
	// one; decoded and obj as for PrepareForCreate (what the rules take from old they copy).
	PrepareForUpdate(t *schema.Type, subresource string, decoded, obj, old map[string]any) error
	// Assigned lists, as dotted paths (".spec.clusterIP"), the fields the server fills in
	// obj, the object a write of kind t stores (create is true for a create), with values
	// no prediction can know.
	Assigned(t *schema.Type, create bool, obj map[string]any) []string
}

// Patcher is what the server's PATCH handler knows of a kind beyond its schema.
type Patcher interface {
	// PatchMeta is what a strategic merge patch of kind t follows: the patchStrategy and
	// patchMergeKey tags of the fields of its Go type, as the server (and kubectl, which
	// computes such patches) looks them up. false for a kind without a Go type — a custom
	// resource, whose strategic merge patches the server refuses (415) and whose clients
	// send JSON merge patches instead.
	PatchMeta(t *schema.Type) (strategicpatch.LookupPatchMeta, bool)
}

// Admitter is the server's admission chain (rules.md admission): the plugins compiled into
// kube-apiserver, fed by what the cluster holds, and the admission policies it holds.
type Admitter interface {
	// Admit runs the mutating phase on req.Object, the object a write is about to store
	// once field management has made it, before the registry's rules. The plugins may
	// change req.Object; what they put into it is its own (copied from the cluster
	// state, from req.Old), as server.Strategy's PrepareForCreate and PrepareForUpdate
	// need.
	Admit(req AdmissionRequest) Admission
	// ValidateAdmission runs the validating phase on req.Object, the object about to be
	// stored once the registry's rules and validation passed. It changes nothing.
	ValidateAdmission(req AdmissionRequest) Admission
}

// AdmissionRequest is one write as the admission chain sees it.
type AdmissionRequest struct {
	// Type is the kind at the version the server's rules run on (the internal version: a
	// HorizontalPodAutoscaler's is autoscaling/v2); Object and Old are objects of Type.
	Type *schema.Type
	// Kind is the request's group, version and kind: the URL's, which the policies match
	// and see (request.kind).
	Kind schema.GVK
	// Subresource is the subresource written, "" for the main resource.
	Subresource string
	// Namespace and Name are the object's, as the URL names them.
	Namespace, Name string
	// Object is the object the write stores; Old the stored one on an update, nil on a
	// create.
	Object, Old map[string]any
	// FieldManager is the write's fieldManager (the policies' request.options).
	FieldManager string
	// Schemas are the kinds the cluster serves: the other versions of the request's kind
	// (a policy's rules match any of them), the kinds of param objects.
	Schemas Schemas
}

// Schemas is what the admission chain asks of the kinds a cluster serves;
// *schema.Registry is one.
type Schemas interface {
	Lookup(gvk schema.GVK) (*schema.Type, bool)
	Versions(group, kind string) []schema.GVK
}

// Admission is what the admission chain says of a write.
type Admission struct {
	// Refusal, when not nil, is the server's answer refusing the write: 403 Forbidden from
	// a plugin or a policy, 404 for a namespace that does not exist, 422 from a policy
	// whose reason says Invalid.
	Refusal *metav1.Status
	// RefusedBy names the plugin that refused: NamespaceLifecycle, ServiceAccount,
	// Priority, PodSecurity, ValidatingAdmissionPolicy, MutatingAdmissionPolicy …
	RefusedBy string
	// Warnings are what the server sends back in Warning headers (a policy's Warn action,
	// PodSecurity's warn level); they come with a refusal too.
	Warnings []string
	// Audit are the annotations the server would write to its audit log (a policy's Audit
	// action, PodSecurity's audit level), "key: value"; the client never sees them.
	Audit []string
	// NotPredicted says what the chain could not know for this write (an authorizer
	// check nobody answered, a plugin that reads objects the cluster state lacks): the
	// engine warns that the answer rests on it.
	NotPredicted []string
}

// Validator is the registry's validation.
type Validator interface {
	// Validate is the registry's validation of obj, the object about to be stored once
	// field management, defaulting and the registry's rules have made it (rules.md
	// valid.builtin, valid.update, valid.metadata): old is the live object on an update
	// through the main resource or a subresource, nil on a create. The errors come in the
	// order the server lists them.
	Validate(t *schema.Type, subresource string, obj, old map[string]any) Validation
	// ErrorGroup is the group a 422 for an object of group and kind names ("apps" in
	// `Deployment.apps "web" is invalid`).
	ErrorGroup(group, kind string) string
}

// Validation is what the registry's validation says of an object about to be stored.
type Validation struct {
	// Errors, when there are any, make the server refuse the write: 422 Invalid.
	Errors field.ErrorList
	// Warnings are what the server would send back in Warning headers (kubectl prints
	// them as "Warning: …").
	Warnings []string
	// NotPredicted, when set, says why the validation of this kind is not predicted (a
	// kind whose validation the model does not know): the engine warns that a refusal
	// would not be seen.
	NotPredicted string
}
