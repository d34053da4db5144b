package validation_test

import "testing"

const roleDeployer = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: deployer, namespace: shop, uid: 2c0e5c1a-0000-4000-8000-000000000011, resourceVersion: "7"}
rules:
- apiGroups: [apps]
  resources: [deployments, deployments/scale]
  verbs: [get, list, watch, update, patch]
- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [app-config]
  verbs: [get]
`

const clusterRoleMonitoring = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: oracle-monitoring, uid: 2c0e5c1a-0000-4000-8000-000000000012, resourceVersion: "7"}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {rbac.example.com/aggregate-to-monitoring: "true"}
rules:
- apiGroups: [""]
  resources: [pods, services, endpoints]
  verbs: [get, list, watch]
- nonResourceURLs: [/metrics]
  verbs: [get]
`

const roleBindingDeployers = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: deployers, namespace: shop, uid: 2c0e5c1a-0000-4000-8000-000000000013, resourceVersion: "7"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: edit-apps}
subjects:
- {kind: ServiceAccount, name: deployer}
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: dev-team}
`

const clusterRoleBindingAdmins = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: oracle-admins, uid: 2c0e5c1a-0000-4000-8000-000000000014, resourceVersion: "7"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: "jane@example.com"}
- {kind: ServiceAccount, name: ci, namespace: ci}
`

// rules.md valid.builtin, valid.metadata: a Role's rules (verbs, groups and resources, no non-resource URLs).
func roleCases(t *testing.T) []workloadCase {
	r := roleDeployer
	return []workloadCase{
		{name: "valid create", new: r},
		{name: "V1 rule without verbs", new: edit(t, r, "  verbs: [get]\n", "  verbs: []\n")},
		{name: "V1 rule without groups and resources", new: edit(t, r, "- apiGroups: [\"\"]\n  resources: [configmaps]\n  resourceNames: [app-config]\n", "- resourceNames: [app-config]\n")},
		{name: "V1 namespaced rule with non-resource URLs", new: edit(t, r, "  resourceNames: [app-config]\n", "  nonResourceURLs: [/healthz]\n")},
		{name: "V6 name may hold colons but not slashes", new: edit(t, r, "name: deployer", "name: apps/deployer")},
		{name: "V6 name with colons", new: edit(t, r, "name: deployer", "name: 'system:deployer'")},
		{name: "V1 update dropping verbs", old: r, new: edit(t, r, "  verbs: [get, list, watch, update, patch]\n", "")},
	}
}

// rules.md valid.builtin: a ClusterRole's rules and aggregation selectors.
func clusterRoleCases(t *testing.T) []workloadCase {
	cr := clusterRoleMonitoring
	return []workloadCase{
		{name: "valid create", new: cr},
		{name: "V1 non-resource URLs with resources", new: edit(t, cr, "- nonResourceURLs: [/metrics]", "- nonResourceURLs: [/metrics]\n  resources: [pods]")},
		{name: "V1 aggregation rule without selectors", new: edit(t, cr, "  clusterRoleSelectors:\n  - matchLabels: {rbac.example.com/aggregate-to-monitoring: \"true\"}\n", "  clusterRoleSelectors: []\n")},
		{name: "V1 aggregation selector invalid", new: edit(t, cr, "matchLabels: {rbac.example.com/aggregate-to-monitoring: \"true\"}", "matchExpressions: [{key: tier, operator: Near, values: [a]}]")},
		{name: "V1 aggregation selector with a bad label value", new: edit(t, cr, `"true"`, `"not valid!"`)},
		{name: "V1 rule without verbs and groups", new: edit(t, cr, "- apiGroups: [\"\"]\n  resources: [pods, services, endpoints]\n  verbs: [get, list, watch]\n", "- resources: [pods]\n")},
	}
}

// rules.md valid.builtin, valid.update: a RoleBinding's roleRef (immutable) and subjects.
func roleBindingCases(t *testing.T) []workloadCase {
	rb := roleBindingDeployers
	return []workloadCase{
		{name: "valid create", new: rb},
		{name: "V1 roleRef of another group and kind", new: edit(t, rb, "{apiGroup: rbac.authorization.k8s.io, kind: Role,", "{apiGroup: rbac.example.com, kind: Policy,")},
		{name: "V1 roleRef without name", new: edit(t, rb, ", name: edit-apps}", "}")},
		{name: "V1 roleRef name with a slash", new: edit(t, rb, "name: edit-apps", "name: edit/apps")},
		{name: "V1 subject kind unknown", new: edit(t, rb, "{kind: ServiceAccount, name: deployer}", "{kind: Robot, name: deployer}")},
		{name: "V1 subject without name", new: edit(t, rb, "{kind: ServiceAccount, name: deployer}", "{kind: ServiceAccount}")},
		{name: "V1 service account in the RBAC group", new: edit(t, rb, "{kind: ServiceAccount, name: deployer}", "{kind: ServiceAccount, apiGroup: rbac.authorization.k8s.io, name: Deployer}")},
		{name: "V1 group without the RBAC group", new: edit(t, rb, "{kind: Group, apiGroup: rbac.authorization.k8s.io, name: dev-team}", "{kind: Group, name: dev-team}")},
		{name: "V2 roleRef is immutable", old: rb, new: edit(t, rb, "name: edit-apps", "name: admin-apps")},
		{name: "V2 roleRef changed and emptied", old: rb, new: edit(t, rb, ", name: edit-apps}", "}")},
		{name: "V2 subjects may change", old: rb, new: edit(t, rb, "name: deployer}", "name: releaser}")},
	}
}

// rules.md valid.builtin, valid.update: a ClusterRoleBinding refers to a ClusterRole; its service accounts name
// their namespace.
func clusterRoleBindingCases(t *testing.T) []workloadCase {
	crb := clusterRoleBindingAdmins
	return []workloadCase{
		{name: "valid create", new: crb},
		{name: "V1 roleRef to a Role", new: edit(t, crb, "kind: ClusterRole,", "kind: Role,")},
		{name: "V1 service account without namespace", new: edit(t, crb, ", namespace: ci}", "}")},
		{name: "V1 user of another group", new: edit(t, crb, "{kind: User, apiGroup: rbac.authorization.k8s.io,", "{kind: User, apiGroup: example.com,")},
		{name: "V2 roleRef is immutable", old: crb, new: edit(t, crb, "name: cluster-admin", "name: view")},
	}
}
