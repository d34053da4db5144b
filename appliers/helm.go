package appliers

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/smpmeta"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// This file holds what Helm 4 (helm.sh/helm/v4 4.3, pkg/kube's Client) sends for one
// object; helmrelease.go decides, for the whole release, which of these each object gets.

// Names Helm uses.
const (
	// HelmManager is the field manager of every write Helm 3 and Helm 4 send (the
	// command's name, which pkg/kube takes from os.Args[0]: the helm binary).
	HelmManager = "helm"
	// HelmApplier is the name of Helm's applier (--applier helm).
	HelmApplier = "helm"
	// HelmManagedByLabel and its value, and the release annotations, are what Helm adds
	// to every chart object (not to crds/) and checks before it adopts an object.
	HelmManagedByLabel           = "app.kubernetes.io/managed-by"
	HelmManagedByValue           = "Helm"
	HelmReleaseNameAnnotation    = "meta.helm.sh/release-name"
	HelmReleaseNSAnnotation      = "meta.helm.sh/release-namespace"
	HelmResourcePolicyAnnotation = "helm.sh/resource-policy"
	// HelmKeepPolicy, as the resource policy, keeps an object the chart drops.
	HelmKeepPolicy = "keep"
	// HelmHookAnnotation marks a hook: an object Helm creates apart from the release's.
	HelmHookAnnotation = "helm.sh/hook"
)

// helmWrite is how Helm writes one object: which of its client's functions, with which
// options.
type helmWrite struct {
	// create is Client.Create's path (an install that adopts nothing, crds/): one apply,
	// or one POST, whether or not the object exists. Otherwise Client.Update's: a GET
	// decides between a create and a patch.
	create bool
	// serverSide, force: --server-side resolved, and force=true on the apply.
	serverSide, force bool
	// migrate: before the apply, the JSON patch that turns the helm Update entry into
	// helm's Apply entry (upgradeClientSideFieldManager).
	migrate bool
	// original is the object the client-side patch is computed from (the previous
	// revision's, or the target itself for an adopted object); nil: the live object.
	original map[string]any
	// threeWayUnstructured: a client-side patch of a kind Helm has no Go type for is a
	// three-way JSON merge patch (an install taking ownership), not a two-way one.
	threeWayUnstructured bool
	// fromCRDs: a CRD of the chart's crds/ directory, whose POST answered 409
	// AlreadyExists is skipped.
	fromCRDs bool
}

// helmObject predicts Helm's requests for one object on seq: the result, or nil when
// Helm sends no write (a client-side patch with nothing in it).
func helmObject(seq *merge.Sequence, schemas *schema.Registry, w helmWrite) (*merge.Result, error) {
	req := seq.Request()
	req.Manager = HelmManager
	live := seq.Live()
	if w.create || live == nil {
		if w.serverSide {
			return helmApply(seq, req, w.force, nil, "apply")
		}
		return helmPost(seq, schemas, req, live, w.fromCRDs)
	}
	if w.serverSide {
		var steps []merge.Step
		if w.migrate {
			next, changed, err := helmMigration(seq, live)
			if err != nil {
				return nil, err
			}
			if changed {
				res, err := seq.Update(merge.Request{Live: live, Object: next, Endpoint: req.Endpoint, Manager: HelmManager, Now: req.Now})
				if err != nil {
					return nil, err
				}
				steps = append(steps, merge.Step{Description: "managedFields migration (JSON patch)", Manager: HelmManager, Code: res.StatusCode()})
				if res.Rejection != nil {
					res.Steps = steps
					return seq.Finish(res), nil
				}
				live = res.Object
				req.Live = live
			}
		}
		return helmApply(seq, req, w.force, steps, "apply")
	}
	return helmPatch(seq, schemas, req, live, w)
}

// helmApply is Helm's server-side apply (patchResourceServerSide): fieldManager=helm,
// fieldValidation=Strict, force=false|true, after the steps already sent.
func helmApply(seq *merge.Sequence, req merge.Request, force bool, before []merge.Step, desc string) (*merge.Result, error) {
	req.Force = force
	res, err := seq.Apply(req)
	if err != nil {
		return nil, err
	}
	step := merge.Step{Description: desc + " (force=" + strconv.FormatBool(force) + ")", Manager: HelmManager, Code: res.StatusCode()}
	if len(before) == 0 {
		res.Steps = []merge.Step{step}
		return seq.Finish(res), nil
	}
	steps := append(before, step)
	if res.Rejection != nil {
		// The migration stays written: the outcome is the object it left, and the 409.
		warnings := append(append([]string(nil), res.Warnings...),
			"the managedFields migration patch stays written although the apply is refused: helm's client-side entry is now its Apply entry (Helm 4 does not undo it)")
		out := seq.Summarize(merge.Outcome{Manager: HelmManager, Final: req.Live, First: res, Steps: steps, Warnings: warnings})
		out.Rejection, out.Conflicts = res.Rejection, res.Conflicts
		return out, nil
	}
	return seq.Summarize(merge.Outcome{Manager: HelmManager, Final: res.Object, First: res, Steps: steps, Warnings: res.Warnings}), nil
}

// helmPost is Helm's client-side create (createResource): a POST of the object, as the
// manager helm (an Update entry owning every field it sets). An object that exists is
// refused with 409 AlreadyExists, which Helm skips for a CRD of crds/.
func helmPost(seq *merge.Sequence, schemas *schema.Registry, req merge.Request, live map[string]any, fromCRDs bool) (*merge.Result, error) {
	if live != nil {
		res := &merge.Result{Endpoint: req.Endpoint, Action: merge.ActionRejected, Rejection: alreadyExists(schemas, req)}
		res.Steps = []merge.Step{{Description: "create (POST)", Manager: HelmManager, Code: 409}}
		if fromCRDs {
			res = &merge.Result{Endpoint: req.Endpoint, Action: merge.ActionUnchanged, Object: unstructured.DeepCopyObject(live),
				Steps:    res.Steps,
				Warnings: []string{"the CRD exists: Helm's POST is refused with 409 AlreadyExists, which Helm skips (a client-side install never changes a CRD it finds)"}}
			res = seq.AsStored(res)
		}
		return seq.Finish(res), nil
	}
	body := unstructured.DeepCopyObject(req.Object)
	res, err := seq.Create(merge.Request{Object: body, Endpoint: req.Endpoint, Manager: HelmManager, Now: req.Now})
	if err != nil {
		return nil, err
	}
	res.Steps = []merge.Step{{Description: "create (POST)", Manager: HelmManager, Code: res.StatusCode()}}
	return seq.Finish(res), nil
}

// alreadyExists is the server's refusal of a POST for an object that exists.
func alreadyExists(schemas *schema.Registry, req merge.Request) *merge.StatusError {
	gvk := req.Endpoint.GVK
	resource := gvk.Kind
	if t, ok := schemas.Lookup(gvk); ok && t.Resource != "" {
		resource = t.Resource
	}
	qualified := resource
	if gvk.Group != "" {
		qualified += "." + gvk.Group
	}
	return &merge.StatusError{Code: 409, Reason: "AlreadyExists",
		Message: fmt.Sprintf("%s %q already exists", qualified, req.Endpoint.Name),
		Details: &merge.StatusDetails{Name: req.Endpoint.Name, Group: gvk.Group, Kind: resource}}
}

// helmMigration is the body of Helm's migration patch (client-go's csaupgrade with the
// manager helm as both the client-side and the server-side name): the helm Update entry
// of the main resource unioned into helm's Apply entry (or renamed into it), and every
// helm Update entry of the main resource dropped. Entries of other managers — kubectl's
// among them — stay as they are.
func helmMigration(seq *merge.Sequence, live map[string]any) (map[string]any, bool, error) {
	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		return nil, false, nil
	}
	upgraded := upgradeManagedFields(entries, []string{HelmManager}, HelmManager)
	if reflect.DeepEqual(upgraded, entries) {
		return nil, false, nil
	}
	next, err := seq.WithManagedFields(live, upgraded)
	if err != nil {
		return nil, false, err
	}
	return next, true, nil
}

// helmPatch is Helm's client-side update (patchResourceClientSide): for a kind Helm has a
// Go type for, a three-way strategic merge patch from the original object to the target,
// against the live object; for any other kind a two-way JSON merge patch from the
// original to the target (or a three-way one when taking ownership). An empty patch is
// not sent.
func helmPatch(seq *merge.Sequence, schemas *schema.Registry, req merge.Request, live map[string]any, w helmWrite) (*merge.Result, error) {
	original := w.original
	if original == nil {
		original = live
	}
	orig, err := json.Marshal(original)
	if err != nil {
		return nil, err
	}
	mod, err := json.Marshal(req.Object)
	if err != nil {
		return nil, err
	}
	cur, err := json.Marshal(live)
	if err != nil {
		return nil, err
	}
	gvk := req.Endpoint.GVK
	typ, known := schemas.Lookup(gvk)
	native := known && smpmeta.Native(gvk) && !typ.Deduced
	var patch []byte
	var kind string
	switch {
	case native:
		kind = "strategic merge patch"
		patch, err = strategicpatch.CreateThreeWayMergePatch(orig, mod, cur, smpmeta.For(typ), true)
	case w.threeWayUnstructured:
		kind = "JSON merge patch"
		patch, err = jsonmergepatch.CreateThreeWayJSONMergePatch(orig, mod, cur)
	default:
		kind = "JSON merge patch"
		patch, err = jsonpatch.CreateMergePatch(orig, mod)
	}
	if err != nil {
		return &merge.Result{Endpoint: req.Endpoint, Action: merge.ActionRejected,
			Rejection: &merge.StatusError{Message: "failed to create patch: " + err.Error()},
			Warnings:  []string{"Helm cannot compute the client-side patch and sends nothing"}}, nil
	}
	if len(patch) == 0 || string(patch) == "{}" {
		res := &merge.Result{Endpoint: req.Endpoint, Action: merge.ActionUnchanged, Object: unstructured.DeepCopyObject(live)}
		res.Steps = []merge.Step{}
		return seq.Finish(seq.AsStored(res)), nil
	}
	var patched []byte
	if native {
		patched, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta(cur, patch, smpmeta.For(typ))
	} else {
		patched, err = jsonpatch.MergePatch(cur, patch)
	}
	if err != nil {
		return &merge.Result{Endpoint: req.Endpoint, Action: merge.ActionRejected,
			Rejection: &merge.StatusError{Code: 500, Reason: "InternalError", Message: err.Error()}}, nil
	}
	var next map[string]any
	if err := json.Unmarshal(patched, &next); err != nil {
		return nil, err
	}
	res, err := seq.Update(merge.Request{Live: live, Object: next, Endpoint: req.Endpoint, Manager: HelmManager, Now: req.Now})
	if err != nil {
		return nil, err
	}
	res.Steps = []merge.Step{{Description: kind, Manager: HelmManager, Code: res.StatusCode()}}
	return seq.Finish(res), nil
}
