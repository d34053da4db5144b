package core

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Pod: a write through /ephemeralcontainers (kubectl debug, rules.md
// sub.ephemeralcontainers).
//
// The ephemeral containers strategy has already put the stored pod back but for
// spec.ephemeralContainers (package internal/strategy), so what is validated here is the
// pod as it would be stored, and that the ephemeral containers it had are all still there,
// unchanged: they may only be added to. The server's ValidatePodEphemeralContainersUpdate
// (pkg/apis/core/validation/validation.go), the same from 1.32 to 1.38 but for
// the diff: 1.32 and 1.33 print go-cmp's of their own types, 1.34 and later apimachinery's
// JSON diff (ephemeralDiff).

// ValidatePodEphemeralContainersUpdate is the validation of a pod written through
// /ephemeralcontainers.
func ValidatePodEphemeralContainersUpdate(newPod, oldPod *api.Pod, opts PodValidationOptions) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, metaPath)
	errs = append(errs, validatePodMetadataAndSpec(newPod, opts)...)
	errs = append(errs, ValidatePodSpecificAnnotationUpdates(newPod, oldPod, metaPath.Child("annotations"), opts)...)
	if _, ok := oldPod.Annotations[api.MirrorPodAnnotationKey]; ok {
		// A static pod (a mirror pod) takes none: that error alone.
		return field.ErrorList{field.Forbidden(field.NewPath(""), "static pods do not support ephemeral containers")}
	}
	// Each ephemeral container the pod had must be there by name, as it was: a patch may
	// reorder the list. The server's message ends with a line feed, and for a change with
	// the unified diff of the two containers as its internal types print in JSON.
	byName := make(map[string]*api.EphemeralContainer, len(newPod.Spec.EphemeralContainers))
	for i := range newPod.Spec.EphemeralContainers {
		byName[newPod.Spec.EphemeralContainers[i].Name] = &newPod.Spec.EphemeralContainers[i]
	}
	listPath := field.NewPath("spec", "ephemeralContainers")
	for _, old := range oldPod.Spec.EphemeralContainers {
		c, ok := byName[old.Name]
		switch {
		case !ok:
			errs = append(errs, field.Forbidden(listPath, fmt.Sprintf("existing ephemeral containers %q may not be removed\n", old.Name)))
		case !equality.Semantic.DeepEqual(old, *c):
			errs = append(errs, field.Forbidden(listPath, fmt.Sprintf("existing ephemeral containers %q may not be changed\n%v", old.Name, ephemeralDiff(old, *c, opts))))
		}
	}
	return errs
}

// ephemeralDiff is the difference of an ephemeral container and its change as the server
// prints it: from 1.34 apimachinery's JSON diff; 1.32 and 1.33 print go-cmp's cmp.Diff of
// their own types, which the server's Differ prints (a helper program: linking go-cmp into
// the command would cost every run — its reflection over method sets turns off the
// linker's dead code elimination: +9.2 MB, +13% instructions on a plain prediction).
// Without a Differ, or when it fails, the diff is left out: the message is the server's
// up to it, and whoever gave the Differ says what it could not print.
func ephemeralDiff(old, new api.EphemeralContainer, opts PodValidationOptions) string {
	if !opts.Server.PrintsGoCmpDiffs() {
		return diff.Diff(old, new)
	}
	if opts.Server.Differ == nil {
		return ""
	}
	d, err := opts.Server.Differ.EphemeralContainers(opts.Server.Minor, old, new)
	if err != nil {
		return ""
	}
	return d
}
