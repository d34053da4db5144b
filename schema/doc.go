// Package schema knows the type of every object ssa-diff handles: for
// each group, version and kind (GVK), the structured-merge-diff (SMD) type
// that decides field ownership, the REST resource that serves it, and the
// defaults the API server applies to custom resources.
//
// # Why the schema decides ownership
//
// Server-side apply records, per manager, the set of fields it owns. What
// a "field" is comes from the schema: a list with x-kubernetes-list-type
// map is keyed (containers by name, container ports by containerPort and
// protocol), so each item and each item's fields are owned separately; a
// set (finalizers) is owned per value; an atomic list (args, tolerations)
// or atomic struct (a Deployment's selector) is one leaf, owned, replaced
// and conflicting as a whole; a granular map (labels) is owned per key.
// Key fields with a schema default (a port's protocol: TCP) are filled in
// before items are matched, so {containerPort: 80} and {containerPort: 80,
// protocol: TCP} are the same item. With a wrong schema, a prediction is
// wrong in exactly these places.
//
// # Where types come from
//
// A Registry starts with every built-in kind of one Kubernetes minor
// (NewRegistry of a kube.Minor; Registry.Minor tells), embedded as Go
// values (package builtin, generated from each release's apply configurations
// and held to its kube-apiserver's own types; no parsing). A kind's schema is
// made when the kind is first looked up: the types of the minor that its
// versions reach, a Deployment's 136 of 1.37's 1,014, one schema for
// all its versions (Lookup and Resolve hand out the Type with it). The built-in
// kinds are not indexed either: the registry answers for them from the release's
// kind table, data the linker lays out, by bisection, so the kinds a run never
// names cost nothing. A field a minor does
// not have is not in its schema: an apply that sets it fails as on that
// server ("field not declared in schema"). Three kinds of input add or
// replace types:
//
//   - CustomResourceDefinitions (AddCRD, AddCRDObject): every version, with
//     its structural schema. Before converting a schema, the package does
//     what the API server does: apiVersion and kind become strings and
//     metadata the built-in ObjectMeta, at the root and on every
//     x-kubernetes-embedded-resource node; spec.preserveUnknownFields keeps
//     unknown fields everywhere. x-kubernetes-preserve-unknown-fields makes
//     undeclared fields below a node deduced; x-kubernetes-int-or-string
//     and string formats become untyped scalars; a list without
//     x-kubernetes-list-type is atomic. A version without a schema gets the
//     deduced type, as on the server. Schemas the server would reject
//     (non-structural, bad list or map types) are errors naming the file,
//     the CRD and the field path.
//   - OpenAPI documents as a cluster serves them (AddOpenAPI): v3
//     (/openapi/v3/apis/<group>/<version>) or v2 (/openapi/v2). Models are
//     indexed by x-kubernetes-group-version-kind; resource, scope and
//     subresources come from the paths. v2 carries no defaults for the
//     built-in types, so key defaults are lost: AddOpenAPI warns.
//   - Nothing: Resolve falls back to SMD's deduced type (every map
//     granular, every list atomic) and says so in a warning, because
//     ownership is then coarser than on a cluster that knows the kind.
//
// Lookup matches a GVK exactly; Versions lists the other versions of a
// kind, which the engine needs for managedFields entries recorded at
// another apiVersion.
//
// # Served versions
//
// The embedded schema knows more versions than a server serves (apps/v1beta1,
// extensions/v1beta1, …: client-go still has their types). Type.Served says
// whether kube-apiserver serves a GVK: for the built-in kinds of the registry's
// minor, by the rule of its default API configuration (ServedByDefault: every GA
// group-version, no alpha or beta one), over the kinds that release has (a kind
// new in 1.37 is not served by a 1.36 server, and storagemigration.k8s.io, with
// no GA version before 1.37, is no served group there: BuiltinGroupServed); for
// a CRD, its version's served. Serving tells a request the
// server would refuse with 404 (NotServed: an unserved version, or a kind a
// known group — built-in, or defined by a CRD given — does not have) from one
// about a group nobody told the registry of (ServingUnknown: the deduced
// fallback). A CRD's conversion strategy is Type.Conversion.
//
// # Defaulting of custom resources
//
// Type.Default applies a CRD version's structural defaults the way the API
// server does when it decodes a custom resource:
//
//   - Unless the CRD sets spec.preserveUnknownFields, a null whose schema is
//     neither nullable nor defaulted is dropped.
//   - Top-down, a property with a default is set when it is absent, or
//     null and not nullable; then each present property is visited with its
//     own schema, so a default that was just set has its own defaults
//     applied too. List items and additionalProperties values are visited
//     the same way; a null item or value that is not nullable becomes the
//     item or value schema's default.
//
// Defaulted values are not owned by anyone: the engine applies them after
// computing ownership, as the server does. The server also prunes unknown
// fields of custom resources while decoding; this package does not.
// Built-in kinds have Default nil: their defaulting is Go code in the API
// server, modelled elsewhere.
//
// Errors about schema input are *Error values with the origin (file), the
// document, the object and the field path.
package schema
