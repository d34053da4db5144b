package storage

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/storage"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// serviceAccountTokenWarning recommends serviceAccountTokenInSecrets to a driver that asks
// for tokens.
const serviceAccountTokenWarning = "spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes"

// storageClassWarnings: deprecated node labels in the allowed topologies.
func storageClassWarnings(sc *api.StorageClass) []string {
	var warnings []string
	for i, t := range sc.AllowedTopologies {
		for j, e := range t.MatchLabelExpressions {
			if msg, ok := core.NodeLabelDeprecatedMessage(e.Key); ok {
				p := field.NewPath("allowedTopologies").Index(i).Child("matchLabelExpressions").Index(j).Child("key")
				warnings = append(warnings, fmt.Sprintf("%s: %s", p, msg))
			}
		}
	}
	return warnings
}

// nodeSelectorWarnings: deprecated node labels in a label selector of nodes.
func nodeSelectorWarnings(sel *metav1.LabelSelector, fldPath *field.Path) []string {
	if sel == nil {
		return nil
	}
	var warnings []string
	for i, e := range sel.MatchExpressions {
		if msg, ok := core.NodeLabelDeprecatedMessage(e.Key); ok {
			warnings = append(warnings, fmt.Sprintf("%s: %s is %s", fldPath.Child("matchExpressions").Index(i).Child("key"), e.Key, msg))
		}
	}
	for k := range sel.MatchLabels {
		if msg, ok := core.NodeLabelDeprecatedMessage(k); ok {
			warnings = append(warnings, fmt.Sprintf("%s: %s", fldPath.Child("matchLabels").Child(k), msg))
		}
	}
	return warnings
}

func csiStorageCapacityWarnings(obj any) []string {
	return nodeSelectorWarnings(obj.(*api.CSIStorageCapacity).NodeTopology, field.NewPath("nodeTopology"))
}

func csiDriverWarningsOnCreate(obj any) []string {
	d := obj.(*api.CSIDriver)
	if len(d.Spec.TokenRequests) > 0 && d.Spec.ServiceAccountTokenInSecrets == nil {
		return []string{serviceAccountTokenWarning}
	}
	return nil
}

func csiDriverWarningsOnUpdate(obj, old any) []string {
	d, o := obj.(*api.CSIDriver), old.(*api.CSIDriver)
	if !equality.Semantic.DeepEqual(d.Spec.TokenRequests, o.Spec.TokenRequests) && len(d.Spec.TokenRequests) > 0 && d.Spec.ServiceAccountTokenInSecrets == nil {
		return []string{serviceAccountTokenWarning}
	}
	return nil
}
