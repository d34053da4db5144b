package merge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
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
	// holding: the conversions' warnings are held back (held) while the updater runs,
	// until it is known whether they are the run's (see stableUpdater).
	holding bool
	held    []string
}

var errMissingVersion = errors.New("no such version")

func (c *versionConverter) Convert(obj *typed.TypedValue, version smdpath.APIVersion) (*typed.TypedValue, error) {
	if strings.Count(string(version), "/") > 1 {
		// The server reads the entry's apiVersion as a group/version first: with more than
		// one slash it is none, an error that fails the request (rules.md version.malformed).
		return obj, fmt.Errorf("unexpected GroupVersion string: %s", version)
	}
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
		c.note(fmt.Sprintf("managedFields entries recorded at %s are dropped: that version of %s is not served (as the server drops them)", version, kind.Kind))
		// The input comes back with the error, as the server's converter returns it:
		// structured-merge-diff goes on with what Convert returned.
		return obj, fmt.Errorf("%w: %s", errMissingVersion, target)
	}
	conv, exact, err := c.e.convertObject(c.kind, u, target)
	switch {
	case errors.Is(err, errWebhookConversion):
		c.note(fmt.Sprintf("managedFields entries recorded at %s were compared after converting the object from %s by structure: %v, so ownership of fields the versions name differently may differ", version, from.APIVersion(), err))
	case err != nil:
		return obj, err
	case !exact:
		c.note(fmt.Sprintf("managedFields entries recorded at %s were compared after converting the object from %s by structure; the server converts through the internal version, so ownership of renamed fields may differ", version, from.APIVersion()))
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

// note gives the request the warning s of a conversion, or holds it back while holding.
func (c *versionConverter) note(s string) {
	if c.holding {
		c.held = append(c.held, s)
		return
	}
	c.warn(s)
}

// hold holds the conversions' warnings back until release.
func (c *versionConverter) hold() { c.holding = true }

// release stops holding warnings back and gives the request those held when keep.
func (c *versionConverter) release(keep bool) {
	held := c.held
	c.holding, c.held = false, nil
	if keep {
		for _, w := range held {
			c.warn(w)
		}
	}
}
