package advice

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// analysis is the state of one Analyze call.
type analysis struct {
	in      Input
	opts    Options
	applier appliers.Kind
	manager string // the applier's field manager
	sub     string // the endpoint's subresource
	gvk     schema.GVK
	res     *merge.Result
	live    map[string]any
	// after is the object the write leaves (nil when it is rejected or not predicted).
	after       map[string]any
	before      fieldpath.Managed
	afterFields fieldpath.Managed
	self        string // identity of the applier's Apply entry
	out         []Advice
}

func newAnalysis(in Input, opts Options) *analysis {
	a := &analysis{in: in, opts: opts, applier: applierOf(in.Applier), manager: in.Manager, sub: in.Subresource,
		res: in.Result, live: in.Live}
	if a.manager == "" {
		a.manager = a.applier.Manager
	}
	if a.res != nil {
		if a.sub == "" {
			a.sub = a.res.Endpoint.Subresource
		}
		a.gvk = a.res.Endpoint.GVK
	}
	// An object without a kind names no kind, whatever its apiVersion says.
	if g := schema.GVKOf(in.Manifest); a.gvk == (schema.GVK{}) && g.Kind != "" {
		a.gvk = g
	}
	if g := schema.GVKOf(in.Live); a.gvk == (schema.GVK{}) && g.Kind != "" {
		a.gvk = g
	}
	a.before = a.decode(entriesOf(in.Live))
	if a.res != nil && a.res.Rejection == nil && a.res.Object != nil {
		a.after = a.res.Object
		a.afterFields = a.decode(a.res.ManagedFields)
	} else {
		a.afterFields = fieldpath.NewManaged()
	}
	a.self = fieldpath.ManagerKey(fieldpath.Entry{Manager: a.manager, Operation: fieldpath.OperationApply, Subresource: a.sub})
	return a
}

func (a *analysis) add(ad Advice) {
	sort.Strings(ad.Managers)
	a.out = append(a.out, ad)
}

// applierOf is the applier of a name, "api" for one no applier has.
func applierOf(name string) appliers.Kind {
	if k, ok := appliers.KindOf(name); ok {
		return k
	}
	k, _ := appliers.KindOf("api")
	return k
}

// forceHint is how this applier forces an apply.
func (a *analysis) forceHint() string { return a.applier.ForceHint }

// alwaysForces reports whether the applier forces every apply.
func (a *analysis) alwaysForces() bool { return a.applier.AlwaysForces }

// managerRole classifies the owner of a managedFields entry.
type managerRole int

const (
	roleApplier    managerRole = iota // an Apply entry: someone declaring intent
	roleController                    // an Update entry of a program
	roleManual                        // an Update entry of an imperative kubectl command
	roleLeftover                      // client-side apply (kubectl's, Helm's) or the server's before-first-apply
)

func roleOf(ref fieldpath.ManagerRef) managerRole {
	if ref.Operation != fieldpath.OperationUpdate {
		return roleApplier
	}
	switch ref.Manager {
	case appliers.KubectlClientSideApplyManager, merge.BeforeFirstApplyManager, appliers.HelmManager:
		// helm: Helm 3's (and Helm 4's --server-side=false) client-side writes.
		return roleLeftover
	}
	if ref.Manager == "kubectl" || strings.HasPrefix(ref.Manager, "kubectl-") {
		return roleManual
	}
	return roleController
}

// describe names an entry for a message: "hpa-controller" through /scale.
func describe(ref fieldpath.ManagerRef) string {
	s := fmt.Sprintf("%q", ref.Manager)
	switch {
	case ref.Manager == merge.AncientChangesManager:
		s += " (the oldest Update managers, folded together by the server)"
	case ref.Subresource != "":
		s += " through /" + ref.Subresource
	}
	return s
}

// manualCommand guesses the kubectl command behind an imperative manager name.
func manualCommand(name string) string {
	if c := strings.TrimPrefix(name, "kubectl-"); c != name {
		return "kubectl " + c
	}
	return "kubectl"
}

// entriesOf reads metadata.managedFields of an unstructured object; none when they do not
// decode (the engine reports that).
func entriesOf(obj map[string]any) []fieldpath.Entry {
	entries, _, err := fieldpath.EntriesOf(obj)
	if err != nil {
		return nil
	}
	return entries
}

// decode is fieldpath.Decode as decode gives it, taken from the result when the engine
// decoded the same entries (the live object's).
func (a *analysis) decode(entries []fieldpath.Entry) fieldpath.Managed {
	if m, ok := a.res.ManagedFieldsDecoded(entries); ok {
		return m
	}
	return decode(entries)
}

// decode is fieldpath.Decode, empty when the entries are invalid (the engine reports those).
func decode(entries []fieldpath.Entry) fieldpath.Managed {
	m, err := fieldpath.Decode(entries)
	if err != nil {
		return fieldpath.NewManaged()
	}
	return m
}

func setOf(m fieldpath.Managed, key string) *smdpath.Set {
	if vs, ok := m.Fields[key]; ok {
		return vs.Set()
	}
	return smdpath.NewSet()
}

func sortedKeys(m fieldpath.Managed) []string {
	keys := make([]string, 0, len(m.Fields))
	for k := range m.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// keysOfRole lists, in increasing order as sortedKeys does, the keys of m whose entries
// have the role: the others are neither copied nor sorted.
func keysOfRole(m fieldpath.Managed, role managerRole) []string {
	var keys []string
	for k := range m.Fields {
		if roleOf(m.Ref(k)) == role {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// leavesNotIn lists the leaves of s that other does not have. Leaves are taken before the
// comparison: a map an Update entry owns with "." stays a member when its keys are shared.
func leavesNotIn(s, other *smdpath.Set) []smdpath.Path {
	_, notIn := leavesSplit(s, other, false, true)
	return notIn
}

// leavesIn lists the leaves of s that other has too.
func leavesIn(s, other *smdpath.Set) []smdpath.Path {
	in, _ := leavesSplit(s, other, true, false)
	return in
}

// leavesSplit lists, in the order of fieldpath.IterateLeaves, the leaves of s that other
// has (in, when wantIn) and those it has not (notIn, when wantNotIn), as other.Has tells:
// it walks other beside s, one child per element, and copies only the paths it keeps.
func leavesSplit(s, other *smdpath.Set, wantIn, wantNotIn bool) (in, notIn []smdpath.Path) {
	var walk func(s, other *smdpath.Set, at smdpath.Path)
	walk = func(s, other *smdpath.Set, at smdpath.Path) {
		s.Members.Iterate(func(pe smdpath.PathElement) {
			if _, child := s.Children.Get(pe); child {
				return
			}
			switch has := other != nil && other.Members.Has(pe); {
			case has && wantIn:
				in = append(in, append(at, pe).Copy())
			case !has && wantNotIn:
				notIn = append(notIn, append(at, pe).Copy())
			}
		})
		s.Children.Iterate(func(pe smdpath.PathElement) {
			child, _ := s.Children.Get(pe)
			var o *smdpath.Set
			if other != nil {
				o, _ = other.Children.Get(pe)
			}
			walk(child, o, append(at, pe))
		})
	}
	walk(s, other, make(smdpath.Path, 0, 16))
	return in, notIn
}

func pathStrings(ps []smdpath.Path) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fieldpath.PathString(p)
	}
	return out
}

func annotationsOf(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	a, _ := md["annotations"].(map[string]any)
	return a
}

func present(obj map[string]any, p smdpath.Path) bool {
	if obj == nil {
		return false
	}
	_, ok := fieldpath.ValueAt(obj, p)
	return ok
}

// isItem reports whether a path element addresses a list item.
func isItem(pe smdpath.PathElement) bool {
	return pe.FieldName == nil
}
