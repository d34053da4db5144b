// Package cellib is the CEL environment a kube-apiserver (1.32 to 1.38, each as its minor has
// it) compiles the x-kubernetes-validations rules of CRDs in: cel-go's standard library and extensions at the versions the server
// enables, plus Kubernetes' own libraries (lists, regex, URLs, quantities, IPs and CIDRs,
// named formats, semantic versions, and the declarations of the authorizer library), with the
// cost each function is charged — estimated when a CRD is created, counted when a rule runs.
//
// # Two environments
//
// The server compiles a rule in one of two environments: "new expressions", gated at the
// version the server must stay compatible with (its minor - 1: 1.36 for a 1.37 server), for
// rules a write adds to a CRD; and "stored expressions", with every library of the server's
// own table, for rules already stored — custom resources are always validated in the
// latter. Env returns either for a minor; they are built on first use, once per minor, so a
// program that validates no CEL rule never pays for them.
//
// # cel-go
//
// kube-apiserver 1.32 links cel-go v0.22.0, 1.33 v0.23.2, 1.34 to 1.36 v0.26.0, 1.37 (and
// ssa-diff) v0.29.2. Where v0.26.0 answers otherwise, its behaviour is restated for 1.32 to
// 1.36 (celgo026.go): no backtick
// identifiers (Compile), duration(int), indexOf and lastIndexOf with an empty needle,
// lists.range without limits, or/orValue on a value that is not an optional, and the costs
// of startsWith, endsWith and the global matches. At 1.32 the cost estimate is v0.22.0's
// (celgo022.go, EstimateCost): dyn() hides its argument's size, a value the schema does not
// size has no size, an index is sized by its path alone and a comprehension's result by its
// range.
//
// # Cost
//
// Every rule has a budget: an estimated cost, computed from the schema's bounds when the CRD
// is written (the CRD is refused when a rule could cost too much), and an actual cost,
// counted while the rule runs (a rule that exceeds its per-call limit, or rules that together
// exceed the per-object budget, fail). Estimator implements both for the Kubernetes
// functions, as the server charges them; cel-go charges its own.
package cellib
