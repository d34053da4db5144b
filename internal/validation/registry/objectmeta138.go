package registry

import (
	"regexp"
	"sync"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Kubernetes 1.38 validates object metadata declaratively for every kind the registry
// validates (k8s.io/apimachinery v0.38 pkg/apis/meta/v1/validation Validate_ObjectMeta,
// called first by each kind's generated validation), and marks the handwritten checks it
// covers (pkg/api/validation objectmeta.go): where a beta rule finds the same error, the
// handwritten one is dropped and the declarative one is told, in its own words — an owner
// reference's missing kind is "Required value" (recorded:
// conformance/testdata/minors/1.38/owner-reference-empty-kind), a changed uid or
// timestamp "Invalid value: null: field is immutable".

// objectMetaDeclarative is 1.38's declarative validation of object metadata: its beta rules
// (the alpha ones — the namespace's immutability, the generation's monotonicity — are not
// enforced, and not written). old is nil on a create.
func objectMetaDeclarative(meta, old metav1.Object) field.ErrorList {
	p := field.NewPath("metadata")
	update := old != nil
	var errs field.ErrorList
	immutable := func(name string) {
		errs = append(errs, field.Invalid(p.Child(name), nil, "field is immutable").WithOrigin("immutable").MarkBeta())
	}
	// uid: optional (an empty one stops), immutable.
	if update && meta.GetUID() != old.GetUID() && meta.GetUID() != "" {
		immutable("uid")
	}
	// generation: optional (0 stops), at least 0.
	if g := meta.GetGeneration(); g != 0 && (!update || g != old.GetGeneration()) && g < 0 {
		errs = append(errs, field.Invalid(p.Child("generation"), g, "must be greater than or equal to 0").WithOrigin("minimum").MarkBeta())
	}
	// creationTimestamp: immutable.
	if update {
		ct, oct := meta.GetCreationTimestamp(), old.GetCreationTimestamp()
		if !apiequality.Semantic.DeepEqual(&ct, &oct) {
			immutable("creationTimestamp")
		}
	}
	// deletionTimestamp, deletionGracePeriodSeconds: optional (nil stops), immutable.
	if update {
		if dt := meta.GetDeletionTimestamp(); dt != nil && !apiequality.Semantic.DeepEqual(dt, old.GetDeletionTimestamp()) {
			immutable("deletionTimestamp")
		}
		if gp, ogp := meta.GetDeletionGracePeriodSeconds(), old.GetDeletionGracePeriodSeconds(); gp != nil && (ogp == nil || *gp != *ogp) {
			immutable("deletionGracePeriodSeconds")
		}
	}
	// ownerReferences: each reference (none matched with the stored ones: all are checked
	// when the list changed) has an apiVersion, a kind, a name and a uid.
	refs := meta.GetOwnerReferences()
	if update && apiequality.Semantic.DeepEqual(refs, old.GetOwnerReferences()) {
		return errs
	}
	for i, r := range refs {
		rp := p.Child("ownerReferences").Index(i)
		for _, f := range []struct{ name, value string }{{"apiVersion", r.APIVersion}, {"kind", r.Kind}, {"name", r.Name}, {"uid", string(r.UID)}} {
			if f.value == "" {
				errs = append(errs, field.Required(rp.Child(f.name), "").MarkBeta())
			}
		}
	}
	return errs
}

// coveredMetadataRE are the fields of the handwritten metadata checks 1.38 marks covered,
// compiled on first use (only 1.38's metadata errors need it).
var coveredMetadataRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^metadata\.(ownerReferences\[\d+\]\.(apiVersion|kind|name|uid)|uid|generation|namespace|creationTimestamp|deletionTimestamp|deletionGracePeriodSeconds)$`)
})

// objectMetaCovered marks the handwritten metadata errors of errs (k8s.io/apimachinery
// v0.37's words) as 1.38's objectmeta.go marks them: covered by declarative validation,
// an immutable field's with its origin.
func objectMetaCovered(errs field.ErrorList) field.ErrorList {
	for i, e := range errs {
		m := coveredMetadataRE().FindStringSubmatch(e.Field)
		if m == nil {
			continue
		}
		switch {
		case m[2] != "" && e.Type == field.ErrorTypeRequired && e.Detail == "must not be empty":
			errs[i] = e.MarkCoveredByDeclarative()
		case m[2] == "" && e.Type == field.ErrorTypeInvalid && e.Detail == "field is immutable":
			errs[i] = e.WithOrigin("immutable").MarkCoveredByDeclarative()
		case m[1] == "generation" && e.Type == field.ErrorTypeInvalid && e.Origin == "minimum":
			errs[i] = e.MarkCoveredByDeclarative()
		case m[1] == "generation" && e.Type == field.ErrorTypeInvalid && e.Detail == "must not be decremented":
			errs[i] = e.WithOrigin("monotonic").MarkCoveredByDeclarative()
		}
	}
	return errs
}
