package merge

import (
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// versionConverter gives structured-merge-diff the object at the apiVersion another
// manager's entry was recorded at (rules.md version.own-version, version.conversion), as the server's converter does: the
// object is converted through the kind's internal version (package internal/conversion for
// the built-in kinds; a CRD's strategy None rewrites apiVersion) and typed with the other
// version's schema. A version the server has no type for is missing, and the entries
// recorded at it are dropped: for the built-in kinds, a version it does not serve. A CRD's
// versions all have a type, served or not; its converter refuses a version the CRD does
// not list, and that refusal fails the request. Only conversions ssa-diff cannot make
// offline (a CRD's webhook, a kind known from an OpenAPI document alone) are made by
// structure, with a warning.
type versionConverter struct {
	e    *Engine
	kind *kindTypes
	warn func(string)
}

var errMissingVersion = errors.New("no such version")

func (c *versionConverter) Convert(obj *typed.TypedValue, version smdpath.APIVersion) (*typed.TypedValue, error) {
	raw := obj.AsValue().Unstructured()
	u, ok := raw.(map[string]any)
	if !ok {
		// The server cannot turn a value that is not an object into a Kubernetes object
		// to convert: an error that fails the request, not a missing version.
		return obj, fmt.Errorf("failed to convert value to unstructured for type %T", raw)
	}
	kind := c.kind.gvk
	target, from := c.versions(u, version)
	if target == from {
		return obj, nil
	}
	t := c.e.typeOf(c.kind, target)
	if unconverted(t) {
		if err := c.refusal(target); err != nil {
			return obj, err
		}
		c.warn(fmt.Sprintf("managedFields entries recorded at %s are dropped: that version of %s is not served (as the server drops them)", version, kind.Kind))
		// The input comes back with the error, as the server's converter returns it:
		// structured-merge-diff goes on with what Convert returned.
		return obj, fmt.Errorf("%w: %s", errMissingVersion, target)
	}
	conv, exact, err := c.e.convertObject(c.kind, u, target)
	switch {
	case errors.Is(err, errWebhookConversion):
		c.warn(fmt.Sprintf("managedFields entries recorded at %s were compared after converting the object from %s by structure: %v, so ownership of fields the versions name differently may differ", version, from.APIVersion(), err))
	case err != nil:
		return obj, err
	case !exact:
		c.warn(fmt.Sprintf("managedFields entries recorded at %s were compared after converting the object from %s by structure; the server converts through the internal version, so ownership of renamed fields may differ", version, from.APIVersion()))
	}
	return parseSorted(t.Parseable, conv)
}

func (c *versionConverter) IsMissingVersionError(err error) bool {
	return errors.Is(err, errMissingVersion)
}

// versions are the kind at version, the target of a conversion of the object u, and the
// kind at u's own apiVersion.
func (c *versionConverter) versions(u map[string]any, version smdpath.APIVersion) (target, from schema.GVK) {
	kind := c.kind.gvk
	target, from = schema.GVKFromAPIVersionKind(string(version), kind.Kind), kind
	if av, _ := u["apiVersion"].(string); av != "" {
		from = schema.GVKFromAPIVersionKind(av, kind.Kind)
	}
	return target, from
}

// unconverted reports that the server has no type t to convert to: none at all, or a
// built-in version it does not serve.
func unconverted(t *schema.Type) bool {
	return t == nil || (t.Source == schema.SourceBuiltin && !t.Served)
}

// refusal is the CRD converter's refusal of target, a version the registry has no type
// for: a custom resource's converter refuses a version its CRD does not list (an error
// that fails the request); nil for the other kinds (the version is missing).
func (c *versionConverter) refusal(target schema.GVK) error {
	if typ := c.kind.known; typ != nil && typ.Source == schema.SourceCRD {
		return fmt.Errorf("request to convert CR to an invalid group/version: %s", target.Group+"/"+target.Version)
	}
	return nil
}

// firstRefusal is the refusal the prediction reports for live's entries, nil when their
// versions are all converted to. The server's updater converts the live object to each
// entry's version in the order of a Go map and fails at the first refusal
// (reconcileManagedFieldsWithSchemaChanges, before anything else of Apply and Update), so
// entries at two refused versions get either refusal; the prediction gives the refusal of
// the entry whose manager sorts first, the same every time (as stableErrorList does for
// the lines of an error list).
func (c *versionConverter) firstRefusal(live *typed.TypedValue, managers smdpath.ManagedFields) error {
	u, ok := live.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil // Convert's own error, the same at every version
	}
	var first string
	var err error
	for m, vs := range managers {
		if err != nil && m > first {
			continue
		}
		target, from := c.versions(u, vs.APIVersion())
		if target == from {
			continue
		}
		if !unconverted(c.e.typeOf(c.kind, target)) {
			continue
		}
		if r := c.refusal(target); r != nil {
			first, err = m, r
		}
	}
	return err
}

// stableUpdater is structured-merge-diff's Updater answering, where the server's updater
// answers one of several refusals at random, the one firstRefusal picks.
type stableUpdater struct {
	*smdmerge.Updater
	converter *versionConverter
}

// newUpdater is the updater of a request converting with c, ignoring the fields of ignore.
func newUpdater(c *versionConverter, ignore map[smdpath.APIVersion]smdpath.Filter) *stableUpdater {
	return &stableUpdater{
		Updater:   (&smdmerge.UpdaterBuilder{Converter: c, IgnoreFilter: ignore}).BuildUpdater(),
		converter: c,
	}
}

// Apply is Updater.Apply, with firstRefusal's answer.
func (u *stableUpdater) Apply(live, config *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string, force bool) (*typed.TypedValue, smdpath.ManagedFields, error) {
	if err := u.converter.firstRefusal(live, managers); err != nil {
		return nil, smdpath.ManagedFields{}, err
	}
	return u.Updater.Apply(live, config, version, managers, manager, force)
}

// Update is Updater.Update, with firstRefusal's answer.
func (u *stableUpdater) Update(live, next *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) (*typed.TypedValue, smdpath.ManagedFields, error) {
	if err := u.converter.firstRefusal(live, managers); err != nil {
		return nil, smdpath.ManagedFields{}, err
	}
	return u.Updater.Update(live, next, version, managers, manager)
}
