package kubeapiserver

import (
	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/kube"
)

// This file answers what the packages above the model (the clients, the judgement) ask
// of kube-apiserver's rules without predicting a write: which causes of a refusal rest on
// the cluster's flags, between which versions a built-in kind converts, and an object's
// round trip through its kind's Go type. They ask here rather than reach the ports.

// IsPrivilegedPolicyCause reports whether a cause of a refusal (its field and message) is
// a privileged or hostProcess container refused by --allow-privileged=false ("Forbidden:
// disallowed by cluster policy"): Config.ForbidPrivileged.
func IsPrivilegedPolicyCause(field, message string) bool {
	return core.IsPrivilegedPolicyCause(field, message)
}

// IsClusterFamilyCause reports whether a cause of a Service's refusal (its field and
// message) refuses a family the cluster does not serve: dual stack of a single-stack
// cluster, or a family outside its service IP ranges (Config.ServiceIPFamilies).
func IsClusterFamilyCause(field, message string) bool {
	return core.IsClusterFamilyCause(field, message)
}

// ConvertedVersions are the versions of a built-in kind between which the model converts
// exactly (through the kind's internal version), preferred first; nil for a kind it
// converts by structure only.
func ConvertedVersions(group, kind string) []string {
	return conversion.Versions(group, kind)
}

// NormalizeAsGoTypes is the round trip of obj through its kind's Go type at minor m
// (decoded into the type and encoded again, as a client linking the types does): fields
// the type does not have are dropped, values written as the type writes them. A kind
// without a Go type at m is left as it is.
func NormalizeAsGoTypes(m kube.Minor, obj map[string]any) error {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	goTypes, _ := defaults.For(m)
	return goTypes.Normalize(av, kind, obj)
}
