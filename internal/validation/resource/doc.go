// Package resource is the validation of the resource.k8s.io kinds (Dynamic Resource
// Allocation: DeviceClass, ResourceClaimTemplate, ResourceClaim) as kube-apiserver 1.37's
// registry runs it: each kind's strategy (Strategy), the handwritten validators over the
// internal types of package internal/api/resource, and the declarative rules 1.37 enforces
// (beta: list sizes, unique request names, driver names, enumerations, fully qualified
// attribute names), which replace the handwritten errors they cover and come after the
// others (rules.md valid.builtin, valid.metadata).
//
// # Device selectors
//
// The server compiles every CEL selector a write adds (never one the stored object already
// has) in its DRA environment: the "new expressions" base environment of package cellib,
// cel-go's bindings extension, and one variable, device, whose type (driver, attributes,
// capacity, allowMultipleAllocations) follows the 1.37 default feature gates. A selector must
// compile, evaluate to bool (or to an attribute's value) and have an estimated cost within
// the DRA limit; the compiler's own text is the error's detail.
//
// # Fields behind disabled gates
//
// Fields whose feature gate is off by default in 1.37 (derived attributes of a request) are
// dropped by the server before it validates, unless the stored object already uses them;
// the validators here drop them the same way from their decoded copy.
package resource
