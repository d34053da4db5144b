package advice

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// TestOrderShortListsAsRanked holds order's answers for no advice and one advice (given
// without ranking) to orderRanked's, for every id enabled and disabled and for an id
// Known does not list; and one advice takes one allocation, not Known's list and its map.
func TestOrderShortListsAsRanked(t *testing.T) {
	ids := []string{"no-such-id"}
	for _, k := range Known() {
		ids = append(ids, k.ID)
	}
	for _, id := range ids {
		for _, disabled := range []bool{false, true} {
			opts := Options{Disabled: map[string]bool{id: disabled}}
			for _, list := range [][]Advice{nil, {}, {{ID: id, Message: "m", Paths: []string{".a"}}}} {
				got, want := order(list, opts), orderRanked(list, opts)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("order(%v) with %s disabled=%v = %#v; ranked: %#v", list, id, disabled, got, want)
				}
			}
		}
	}
	one := []Advice{{ID: IDFightsController}}
	if n := testing.AllocsPerRun(100, func() { order(one, Options{}) }); n > 1 {
		t.Errorf("order of one advice: %v allocations, want 1", n)
	}
}

// TestKeysOfRoleAsSortedKeys holds keysOfRole to sortedKeys filtered by the entries'
// roles, on entries of every role (and two of one role, in reverse order).
func TestKeysOfRoleAsSortedKeys(t *testing.T) {
	m := fieldpath.NewManaged()
	for _, e := range []fieldpath.Entry{
		{Manager: "kube-controller-manager", Operation: fieldpath.OperationUpdate},
		{Manager: "hpa", Operation: fieldpath.OperationUpdate, Subresource: "scale"},
		{Manager: "kubectl", Operation: fieldpath.OperationApply},
		{Manager: "kubectl-client-side-apply", Operation: fieldpath.OperationUpdate},
		{Manager: "before-first-apply", Operation: fieldpath.OperationUpdate},
		{Manager: "kubectl-edit", Operation: fieldpath.OperationUpdate},
		{Manager: "argocd-controller", Operation: fieldpath.OperationApply},
	} {
		m.Fields[fieldpath.ManagerKey(e)] = smdpath.NewVersionedSet(smdpath.NewSet(), "v1", e.Operation == fieldpath.OperationApply)
	}
	for _, role := range []managerRole{roleApplier, roleController, roleManual, roleLeftover} {
		var want []string
		for _, k := range sortedKeys(m) {
			if roleOf(m.Ref(k)) == role {
				want = append(want, k)
			}
		}
		if got := keysOfRole(m, role); !reflect.DeepEqual(got, want) {
			t.Errorf("keysOfRole(%d) = %q, want %q", role, got, want)
		}
	}
}
