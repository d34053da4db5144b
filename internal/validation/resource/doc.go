// Package resource is the validation of the resource.k8s.io kinds (Dynamic Resource
// Allocation: DeviceClass, ResourceClaimTemplate, ResourceClaim) as kube-apiserver's
// registry runs it at the server's minor (serverconfig.Config): each kind's strategy
// (Strategy), the handwritten validators over the internal types of package
// internal/api/resource, and the declarative rules each minor enforces (beta: list sizes, unique
// request names, driver names, enumerations, fully qualified attribute names), which
// replace the handwritten errors they cover and come after the others (rules.md
// valid.builtin, valid.metadata).
//
// # Older minors
//
// Where 1.34-1.36 answered otherwise, a version switch next to the rule names the minor
// that changed it (cfg.AtLeast): 1.34 validated a claim's and a template's update as a
// create again, reported repeated keys as Duplicate on the item's field, empty name parts
// as Required and a fully qualified name's missing domain in its own words; before 1.36 a
// map key's errors are on the key's path, not the map's. Values are printed as each
// minor's types lay them out (package internal/api/layout). The members of a map are
// validated in key order (the server ranges over the map: any order is one it could
// answer).
//
// # Device selectors
//
// The server compiles every CEL selector a write adds (never one the stored object already
// has) in its DRA environment: the "new expressions" base environment of package cellib,
// cel-go's bindings extension, and one variable, device, whose type (driver, attributes,
// capacity, and allowMultipleAllocations with DRAConsumableCapacity, on from 1.36) follows the
// server's feature gates. A selector must
// compile, evaluate to bool (or to an attribute's value) and have an estimated cost within
// the DRA limit; the compiler's own text is the error's detail.
//
// # Fields behind disabled gates
//
// Fields whose feature gate the server has off (derived attributes of a request, a slice's
// list attributes, partition type, compatibility groups, node allocatable resources and
// skipped node operations: off by default at every supported minor) are dropped by the
// server before it validates, unless the stored object already uses them; the validators
// here drop them the same way from their decoded copy.
package resource
