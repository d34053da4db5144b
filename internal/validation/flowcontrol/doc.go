// Package flowcontrol is the validation of the flowcontrol.apiserver.k8s.io group's kinds as
// the registry of kube-apiserver 1.32 to 1.38 runs it (Strategy): a FlowSchema's precedence, priority
// level reference, distinguisher, subjects and resource and non-resource rules; a
// PriorityLevelConfiguration's type and its limited (shares, lending, borrowing, queuing
// and shuffle-sharding bounds) or exempt settings; and the status conditions of both.
//
// The mandatory objects the server keeps (the "exempt" and "catch-all" schemas and
// levels) must keep the server's own specs: k8s.io/apiserver's mandatory configuration,
// restated in the internal types (mandatory.go) so that the binary links no published types. A priority
// level's declarative rules each minor enforces (beta: the type given, limited or exempt set as
// the type says, a limit response's type and queuing) are joined in as the server joins
// them.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package flowcontrol
