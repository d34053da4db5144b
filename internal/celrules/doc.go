// Package celrules compiles and runs the CEL rules of a CRD (x-kubernetes-validations) as
// apiextensions-apiserver of a given minor does (rules.md valid.crd-cel): 1.37, and 1.34 to
// 1.36 where they differ (the environments of package cellib; before 1.37 + and == on list
// values worked on their raw JSON elements, and metadata.name had no size bound in cost
// estimates; 1.34 shows a failed rule's schema type where later minors show the value;
// before 1.34 an int-or-string's maxLength did not bound its size in cost estimates).
//
// # The model
//
// Each schema node with rules gets its own CEL environment (package cellib's stored
// expressions, plus self — and oldSelf, for transition rules — typed from the node's schema).
// A rule's value is the node's value seen through the schema: integers as int, numbers as
// double, strings with format date, date-time, duration or byte as timestamps, durations and
// bytes, int-or-string as either, list-type set and map lists comparing without order, and
// objects exposing only their declared properties (an embedded resource, and the root, also
// apiVersion, kind, metadata.name and metadata.generateName).
//
// Running the rules walks the object: a node's rules, then the rules of its allOf
// subschemas, then its members and items. A failing rule reports its message, the value of
// its messageExpression, or "failed rule: <rule>"; as Invalid, or the error type its reason
// names; at the node, or at its fieldPath.
//
// Transition rules (those that use oldSelf) run on an update only, and only where the node
// has an old value: the same property, map key, or list-type map item. optionalOldSelf
// rules run on a create too, with oldSelf an optional. A rule that does not use oldSelf and
// fails on a value the update left unchanged is ratcheted: a warning instead of an error.
//
// Every rule has a per-call cost limit, and the rules of one object a total budget; a rule
// that runs out stops validation with the server's message.
package celrules
