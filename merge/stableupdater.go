package merge

import (
	"errors"
	"fmt"
	"sort"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// This file is structured-merge-diff's Updater made to answer one way. The updater ranges
// over Go maps — the managers' entries, and the versions they are recorded at — and where
// it converts an object to each entry's version it fails at the first conversion that fails
// in that order (rules.md version.conversion). A request whose entries fail at two versions
// is answered either way by the server, at random. An updater that succeeds has made every
// conversion, so its answer does not depend on the order (the conflicts it finds are a set;
// sortConflicts orders them), as long as no conversion between two versions loses a field:
// the prune converts the merged object from one version to the next in its order. The
// engine's conversions only rewrite apiVersion, but the HorizontalPodAutoscaler's (package
// internal/conversion), whose two versions make no chain of three; a conversion that loses
// fields on the way through a third version would not be made stable here.
//
// So the updater runs as it is, and only when it fails with another error than conflicts
// is its run made again, by firstApplyError and firstUpdateError, in an order that does not
// change: managers sorted by their key, the versions of the prune's second walk by their
// name (after the last-applied version, which the updater takes first). That run stops at
// its first error, which is one of those the server can give, and the answer, the same
// every time. Its messages are the updater's, word for word; the tests of
// stableupdater_test.go hold each to the updater's own where only one conversion fails.
//
// The warnings of the conversions are held back while the updater runs: a failed run has
// made the conversions its order met before the failure, so its warnings are dropped and
// the ordered run's given instead. A run that succeeds has made every conversion, but the
// prune converts the merged object from version to version in its order, and a warning
// names the version converted from: when the prune goes through two versions or more
// besides the applier's last one (pruneChains) and a conversion warned, the warnings are
// the ordered run's too.

// stableUpdater is structured-merge-diff's Updater answering one way where the server's
// answers one of several errors at random.
type stableUpdater struct {
	*smdmerge.Updater
	converter *versionConverter
	ignore    map[smdpath.APIVersion]smdpath.Filter
}

// newUpdater is the updater of a request converting with c, ignoring the fields of ignore.
func newUpdater(c *versionConverter, ignore map[smdpath.APIVersion]smdpath.Filter) *stableUpdater {
	return &stableUpdater{
		Updater:   (&smdmerge.UpdaterBuilder{Converter: c, IgnoreFilter: ignore}).BuildUpdater(),
		converter: c,
		ignore:    ignore,
	}
}

// Apply is Updater.Apply, with firstApplyError's error when it fails.
func (u *stableUpdater) Apply(live, config *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string, force bool) (*typed.TypedValue, smdpath.ManagedFields, error) {
	u.converter.hold()
	merged, fields, err := u.Updater.Apply(live, config, version, managers, manager, force)
	if !failed(err) && (len(u.converter.held) == 0 || !pruneChains(managers, manager, version)) {
		u.converter.release(true)
		return merged, fields, err
	}
	u.converter.release(false)
	first := u.firstApplyError(live, config, version, managers, manager)
	if !failed(err) {
		return merged, fields, err // the warnings are the ordered run's
	}
	if first != nil {
		err = first
	}
	return nil, smdpath.ManagedFields{}, err
}

// pruneChains reports whether the prune of an apply by manager at version converts the
// merged object from one version to another and on to a third: the versions of the
// managers' entries, less that of the applier's last one, number two or more. The
// conversions' warnings name the version converted from, which is then the one the
// updater's order met before.
func pruneChains(managers smdpath.ManagedFields, manager string, version smdpath.APIVersion) bool {
	last, ok := managers[manager]
	if !ok || last.Set().Empty() {
		return false
	}
	var other smdpath.APIVersion
	for m, vs := range managers {
		v := vs.APIVersion()
		if m == manager {
			v = version
		}
		switch {
		case v == last.APIVersion() || v == other:
		case other == "":
			other = v
		default:
			return true
		}
	}
	return false
}

// Update is Updater.Update, with firstUpdateError's error when it fails.
func (u *stableUpdater) Update(live, next *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) (*typed.TypedValue, smdpath.ManagedFields, error) {
	u.converter.hold()
	obj, fields, err := u.Updater.Update(live, next, version, managers, manager)
	if !failed(err) {
		u.converter.release(true)
		return obj, fields, err
	}
	u.converter.release(false)
	if first := u.firstUpdateError(live, next, version, managers, manager); first != nil {
		err = first
	}
	return nil, smdpath.ManagedFields{}, err
}

// failed reports whether err is an error other than conflicts, whose answer the order of
// the updater's walk may decide.
func failed(err error) bool {
	var conflicts smdmerge.Conflicts
	return err != nil && !errors.As(err, &conflicts)
}

// The ordered run. Its errors are worded as the updater words them, wrapped with %v where
// it wraps them so (the wrapped error is text then, as the updater's is) and returned as
// they are where it returns them so.

// firstApplyError is the first error of Updater.Apply run in the stable order, nil if
// there is none.
func (u *stableUpdater) firstApplyError(live, config *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) error {
	reconciled, err := u.reconciled(live, managers)
	if err != nil {
		return err
	}
	merged, err := live.Merge(config)
	if err != nil {
		return fmt.Errorf("failed to merge config: %v", err)
	}
	set, err := config.ToFieldSet()
	if err != nil {
		return fmt.Errorf("failed to get field set: %v", err)
	}
	if f := u.ignore[version]; f != nil {
		set = f.Filter(set)
	}
	last := reconciled[manager]
	reconciled[manager] = smdpath.NewVersionedSet(set, version, true)
	pruned, err := u.pruned(merged, reconciled, manager, last)
	if err != nil {
		return fmt.Errorf("failed to prune fields: %v", err)
	}
	return u.compareError(live, pruned, version, reconciled, manager)
}

// firstUpdateError is the first error of Updater.Update run in the stable order, nil if
// there is none.
func (u *stableUpdater) firstUpdateError(live, next *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) error {
	reconciled, err := u.reconciled(live, managers)
	if err != nil {
		return err
	}
	return u.compareError(live, next, version, reconciled, manager)
}

// sortedManagers are the keys of managers in order.
func sortedManagers(managers smdpath.ManagedFields) []string {
	keys := make([]string, 0, len(managers))
	for m := range managers {
		keys = append(keys, m)
	}
	sort.Strings(keys)
	return keys
}

// reconciled is the updater's first step: each entry's set reconciled with the schema of
// its version, the live object converted to it; entries at a missing version are left out.
func (u *stableUpdater) reconciled(live *typed.TypedValue, managers smdpath.ManagedFields) (smdpath.ManagedFields, error) {
	c := u.converter
	out := make(smdpath.ManagedFields, len(managers))
	for _, m := range sortedManagers(managers) {
		vs := managers[m]
		tv, err := c.Convert(live, vs.APIVersion())
		if c.IsMissingVersionError(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		vs, err = reconcileEntry(vs, tv)
		if err != nil {
			return nil, err
		}
		out[m] = vs
	}
	return out, nil
}

// compareError is the first error of the updater's comparison of the old and the new
// object at each other manager's version.
func (u *stableUpdater) compareError(old, next *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) error {
	c := u.converter
	if _, err := old.Compare(next); err != nil {
		return fmt.Errorf("failed to compare objects: %v", err)
	}
	compared := map[smdpath.APIVersion]bool{version: true}
	for _, m := range sortedManagers(managers) {
		v := managers[m].APIVersion()
		if m == manager || compared[v] {
			continue
		}
		o, err := c.Convert(old, v)
		if c.IsMissingVersionError(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("failed to convert old object: %v", err)
		}
		n, err := c.Convert(next, v)
		if c.IsMissingVersionError(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("failed to convert new object: %v", err)
		}
		if _, err := o.Compare(n); err != nil {
			return fmt.Errorf("failed to compare objects: %v", err)
		}
		compared[v] = true
	}
	return nil
}

// pruned is the updater's prune of merged for the applying manager, whose entry was last
// before this apply: its fields removed at last's version, then those anybody owns added
// back at each version, those last did not own added back, and the result converted to
// the applier's version.
func (u *stableUpdater) pruned(merged *typed.TypedValue, managers smdpath.ManagedFields, manager string, last smdpath.VersionedSet) (*typed.TypedValue, error) {
	if last == nil || last.Set().Empty() {
		return merged, nil
	}
	c := u.converter
	version := last.APIVersion()
	at, err := c.Convert(merged, version)
	if c.IsMissingVersionError(err) {
		return merged, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to convert merged object to last applied version: %v", err)
	}
	sc, tr := at.Schema(), at.TypeRef()
	pruned := at.RemoveItems(last.Set().EnsureNamedFieldsAreMembers(sc, tr))
	if pruned, err = u.ownedAddedBack(at, pruned, version, managers); err != nil {
		return nil, fmt.Errorf("failed add back owned items: %v", err)
	}
	if pruned, err = u.unownedAddedBack(at, pruned, last); err != nil {
		return nil, fmt.Errorf("failed add back dangling items: %v", err)
	}
	return c.Convert(pruned, managers[manager].APIVersion())
}

// ownedAddedBack adds back to pruned what any manager owns, version by version: the pruned
// version first, then the others by name.
func (u *stableUpdater) ownedAddedBack(merged, pruned *typed.TypedValue, prunedVersion smdpath.APIVersion, managers smdpath.ManagedFields) (*typed.TypedValue, error) {
	owned := map[smdpath.APIVersion]*smdpath.Set{}
	for _, vs := range managers {
		if s, ok := owned[vs.APIVersion()]; ok {
			owned[vs.APIVersion()] = s.Union(vs.Set())
		} else {
			owned[vs.APIVersion()] = vs.Set()
		}
	}
	versions := make([]string, 0, len(owned))
	for v := range owned {
		if v != prunedVersion {
			versions = append(versions, string(v))
		}
	}
	sort.Strings(versions)
	if _, ok := owned[prunedVersion]; ok {
		versions = append([]string{string(prunedVersion)}, versions...)
	}
	var err error
	for _, v := range versions {
		if merged, pruned, err = u.ownedAddedBackAt(merged, pruned, smdpath.APIVersion(v), owned[smdpath.APIVersion(v)]); err != nil {
			return nil, err
		}
	}
	return pruned, nil
}

// ownedAddedBackAt is one version's step of ownedAddedBack: merged and pruned converted to
// version (left as they are where it is missing), and pruned made merged less what pruned
// lacks and nobody of that version owns.
func (u *stableUpdater) ownedAddedBackAt(merged, pruned *typed.TypedValue, version smdpath.APIVersion, owned *smdpath.Set) (*typed.TypedValue, *typed.TypedValue, error) {
	c := u.converter
	m, err := c.Convert(merged, version)
	if c.IsMissingVersionError(err) {
		return merged, pruned, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("failed to convert merged object at version %v: %v", version, err)
	}
	p, err := c.Convert(pruned, version)
	if c.IsMissingVersionError(err) {
		return m, pruned, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("failed to convert pruned object at version %v: %v", version, err)
	}
	mSet, err := m.ToFieldSet()
	if err != nil {
		return nil, nil, fmt.Errorf("failed to create field set from merged object at version %v: %v", version, err)
	}
	pSet, err := p.ToFieldSet()
	if err != nil {
		return nil, nil, fmt.Errorf("failed to create field set from pruned object at version %v: %v", version, err)
	}
	sc, tr := m.Schema(), m.TypeRef()
	keep := pSet.EnsureNamedFieldsAreMembers(sc, tr).Union(owned.EnsureNamedFieldsAreMembers(sc, tr))
	return m, m.RemoveItems(mSet.EnsureNamedFieldsAreMembers(sc, tr).Difference(keep)), nil
}

// unownedAddedBack adds back to pruned, at last's version, what it removed that last did
// not own: merged less what pruned lacks of last's fields.
func (u *stableUpdater) unownedAddedBack(merged, pruned *typed.TypedValue, last smdpath.VersionedSet) (*typed.TypedValue, error) {
	c := u.converter
	p, err := c.Convert(pruned, last.APIVersion())
	if c.IsMissingVersionError(err) {
		return merged, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to convert pruned object to last applied version: %v", err)
	}
	pSet, err := p.ToFieldSet()
	if err != nil {
		return nil, fmt.Errorf("failed to create field set from pruned object in last applied version: %v", err)
	}
	mSet, err := merged.ToFieldSet()
	if err != nil {
		return nil, fmt.Errorf("failed to create field set from merged object in last applied version: %v", err)
	}
	sc, tr := merged.Schema(), merged.TypeRef()
	lastNamed := last.Set().EnsureNamedFieldsAreMembers(sc, tr)
	return merged.RemoveItems(mSet.EnsureNamedFieldsAreMembers(sc, tr).Difference(pSet.EnsureNamedFieldsAreMembers(sc, tr)).Intersection(lastNamed)), nil
}
