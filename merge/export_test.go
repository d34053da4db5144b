package merge

import (
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/server"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// What the tests of package merge_test may reach inside: they drive the engine through the
// clients' sequences of package appliers, which imports this package, so they cannot
// be tests of this package.

// WithoutShortcuts turns off the shortcuts of applyFields (the prune) and deletedFields
// (the typed comparison), whose answers must equal the full computation's.
func WithoutShortcuts() Option { return func(e *Engine) { e.noShortcuts = true } }

// FuzzCopy is fuzzCopy.
var FuzzCopy = fuzzCopy

var DeploymentRequest = deploymentRequest

var MetadataOf = metadataOf

var ObjFromYAML = objFromYAML

// RefusingWith is the latest kube-apiserver model with a validation that adds errs' errors
// to the kind's.
func RefusingWith(errs func(obj, old map[string]any) field.ErrorList) server.Model {
	return &refusingHooks{Model: kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), errs: errs}
}

var ServerTestNow = serverTestNow

var TwoErrors = twoErrors

const ValidateDeployment = validateDeployment

var VersionsNow = versionsNow

var WidgetRegistry = widgetRegistry

const HPAAtV2 = hpaAtV2

// FieldSetOf is fieldSetOf.
var FieldSetOf = fieldSetOf

// ReconcileKeeps is reconcileKeeps.
var ReconcileKeeps = reconcileKeeps

// Validates is validates.
var Validates = validates

// SameValue is sameValue.
var SameValue = sameValue

// CompareValues is compareValues.
var CompareValues = compareValues

// MergeValues is mergeValues.
var MergeValues = mergeValues

// KeepsEverything is keepsEverything.
var KeepsEverything = keepsEverything

// PruneOneVersion is pruneOneVersion.
var PruneOneVersion = pruneOneVersion

// CompareMerged is compareMerged.
var CompareMerged = compareMerged
