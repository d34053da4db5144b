package plan

import (
	"errors"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/noise"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
)

// slotsOf are the slots of two ConfigMaps, a Secret (the first ConfigMap's live object
// given), a document that could not be read, a pruned Service and a live document that
// could not be read.
func slotsOf(t *testing.T) []*Slot {
	t.Helper()
	manifests := input.Parse("m.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\n---\n"+
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns}\n---\n[\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\n"))
	live := input.Parse("live.json", []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"}}`))
	mo, _ := input.Split(manifests)
	lo, _ := input.Split(live)
	scope := func(schema.GVK) (bool, bool) { return true, true }
	m := input.Match(mo, lo, scope, "default")
	pruned := (&report.Result{}).Identity("v1", "Service", "ns", "old")
	return Slots(manifests, m.Pairs, map[*input.Object]string{mo[1]: "no schema"}, []*report.Result{pruned}, []error{errors.New("bad live")})
}

func TestSlotsInOrder(t *testing.T) {
	slots := slotsOf(t)
	if len(slots) != 6 {
		t.Fatalf("%d slots, want 4 manifests, a prune and a live error", len(slots))
	}
	if slots[0].Pair == nil || slots[0].Pair.Live == nil || slots[1].Pair.Warnings[0] != "no schema" || slots[2].Err == nil || slots[2].Source.File != "m.yaml" ||
		slots[3].Pair == nil || slots[4].Pruned == nil || slots[5].Err.Error() != "live object: bad live" {
		t.Errorf("slots out of order: %+v", slots)
	}
	steps := Steps(slots, func(p *input.Pair) *merge.Patch {
		if p.ID.Kind == "Secret" {
			return &merge.Patch{Type: merge.MergePatch, Body: []byte("{}")}
		}
		return nil
	})
	// The two ConfigMaps are one chain: the second is predicted against what the first leaves.
	if steps[0].Object != steps[3].Object || steps[0].Live == nil || steps[3].Manifest == nil || steps[1].Apply.Patch == nil || steps[0].Apply.Patch != nil {
		t.Errorf("steps: %+v", steps)
	}
	for _, i := range []int{2, 4, 5} {
		if steps[i].Manifest != nil {
			t.Errorf("step %d is predicted: %+v", i, steps[i])
		}
	}
	if steps[0].Apply.Source != "m.yaml" || KubectlSource(input.Source{File: input.StdinName}) != "STDIN" {
		t.Errorf("kubectl's source: %q", steps[0].Apply.Source)
	}
}

func TestSkipAndShard(t *testing.T) {
	rules, err := noise.Read(noise.Settings{Skip: []string{"Secret,Service"}})
	if err != nil {
		t.Fatal(err)
	}
	kept := Skip(slotsOf(t), rules)
	if len(kept) != 4 {
		t.Errorf("--skip Secret,Service kept %d slots, want the ConfigMaps and the two errors", len(kept))
	}
	all := slotsOf(t)
	total := 0
	for i := 1; i <= 3; i++ {
		s, rec := Shard(all, shard.Spec{Index: i, Count: 3})
		if rec == nil {
			t.Fatalf("shard %d/3: no record", i)
		}
		total += len(s)
	}
	if total != len(all) {
		t.Errorf("the shards hold %d slots, want each of the %d once", total, len(all))
	}
	if s, rec := Shard(all, shard.Spec{}); len(s) != len(all) || rec != nil {
		t.Errorf("no --shard: %d slots, record %v", len(s), rec)
	}
}

// A step's result names where its live object was read: the live state's, or the manifest
// of the step before it in its chain.
func TestSettle(t *testing.T) {
	slots := slotsOf(t)
	v := report.Verdict{Manager: "kubectl"}
	Settle(slots, 2, &predict.Outcome{LiveFrom: -1}, v)
	if slots[2].Result == nil || slots[2].Result.Action != report.ActionError {
		t.Errorf("an unreadable document: %+v", slots[2].Result)
	}
	Settle(slots, 4, nil, v)
	if slots[4].Result != slots[4].Pruned {
		t.Errorf("a prune's result is its own")
	}
	Settle(slots, 3, &predict.Outcome{LiveFrom: 0, Err: errors.New("cannot predict")}, v)
	if slots[3].Result.Action != report.ActionError {
		t.Errorf("an error: %+v", slots[3].Result)
	}
	slots[3].Release()
	if slots[3].Pair != nil || slots[3].Result != nil {
		t.Errorf("released: %+v", slots[3])
	}
}
