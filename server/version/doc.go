// Package version names the Kubernetes minors ssa-diff predicts: a [Version] is one minor
// release of kube-apiserver (1.37), whose schemas, served versions, defaulting, registry
// rules, validation, feature gates and field-manager rules a prediction follows. Patch
// releases of a minor answer writes alike (they fix bugs, they add no API), so a version
// names the minor only; [Parse] reads what users and servers write ("1.35", "v1.35.4",
// a /version gitVersion such as "v1.35.4-gke.100").
//
// [Supported] lists the minors the embedded data describes, oldest first; the zero
// Version is [Latest]. Code that behaves differently across minors asks
// v.AtLeast(version.Minor(36)) next to the rule, with a comment naming the release that
// changed it.
package version
