// Package rbac is the validation of the rbac.authorization.k8s.io kinds (Role,
// ClusterRole, RoleBinding, ClusterRoleBinding) as the registry of kube-apiserver 1.32 to 1.38 runs it:
// the rules' verbs, resources and non-resource URLs, a ClusterRole's aggregation
// selectors, a binding's roleRef (immutable: rules.md valid.update) and subjects, over the internal
// types of package internal/api/rbac, and the declarative rules each minor enforces (beta:
// verbs, a roleRef name and subject names are required).
//
// Names of roles and bindings only have to fit in a URL path segment. The roleRef of an
// update that changes it is printed as the internal RoleRef, with Go field names
// ({"APIGroup":…,"Kind":…,"Name":…}), as the server prints it (rules.md valid.builtin).
package rbac
