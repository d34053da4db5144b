package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of rbac.authorization.k8s.io/v1 (k8s.io/kubernetes pkg/apis/rbac/v1).

const rbacGroup = "rbac.authorization.k8s.io"

var rbacDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.rbac.v1.ClusterRoleBinding", defaultRoleRef},
	{"io.k8s.api.rbac.v1.RoleBinding", defaultRoleRef},
	{"io.k8s.api.rbac.v1.Subject", defaultSubject},
}

// defaultRoleRef follows SetDefaults_ClusterRoleBinding and SetDefaults_RoleBinding.
func defaultRoleRef(m map[string]any) {
	setIfUnset(unstructured.EnsureObject(m, "roleRef"), "apiGroup", rbacGroup)
}

// defaultSubject follows SetDefaults_Subject.
func defaultSubject(m map[string]any) {
	if !unset(m, "apiGroup") {
		return
	}
	switch unstructured.Str(m, "kind") {
	case "User", "Group":
		m["apiGroup"] = rbacGroup
	}
}
