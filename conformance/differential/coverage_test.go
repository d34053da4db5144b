package differential

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
)

// TestGeneratorCoverage runs generated sequences on the oracle alone and checks that they
// reach what the differential run is meant to exercise: conflicts, forced takeovers,
// status-subresource entries, the updater cap, resets, untracked objects, duplicates in
// live objects, unchanged writes, refusals, every kind.
func TestGeneratorCoverage(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	wanted := []string{"error:409", "error:400", "error:500", "force", "status-entry", "ancient-changes", "before-first-apply",
		"untracked", "duplicates-in-live", "unchanged", "mf:[{}]", "mf:[]", "mf:rename", "mf:literal", "op:apply/status", "op:update/status"}
	allSeen := func(seen map[string]int) bool {
		for _, w := range wanted {
			if seen[w] == 0 {
				return false
			}
		}
		return true
	}
	seen := map[string]int{}
	// 150 sequences, and more (up to 600) while something is still missing: some rare
	// states (the updater cap's ancient-changes) are reached or not depending on the
	// random choices of a run.
	for seed := int64(1); seed <= 150 || seed <= 600 && !allSeen(seen); seed++ {
		g, err := NewGenerator(srv, seed)
		if err != nil {
			t.Fatal(err)
		}
		seen["kind:"+g.Kind.Name]++
		var live map[string]any
		for i := 0; i < 25; i++ {
			op := g.Next(live)
			seen["op:"+op.Verb+"/"+op.Subresource]++
			if op.Force {
				seen["force"]++
			}
			if op.Verb == VerbUpdate {
				seen["mf:"+op.MF]++
			}
			r, err := Do(srv, op.Verb, Request(g.Kind, live, op))
			if err != nil {
				t.Fatal(err)
			}
			if r.Error != nil {
				seen["error:"+codeOf(r.Error)]++
			} else if live != nil && canonical(withoutMF(live)) == canonical(withoutMF(r.Object)) && managedFieldsJSON(live) == managedFieldsJSON(r.Object) {
				seen["unchanged"]++
			}
			next := advance(g.Kind, live, r, i, op.Now)
			if next != nil {
				entries, _ := oracle.ManagedFields(next)
				if len(entries) == 0 {
					seen["untracked"]++
				}
				updaters := 0
				for _, e := range entries {
					if e.Manager == "ancient-changes" {
						seen["ancient-changes"]++
					}
					if e.Manager == "before-first-apply" {
						seen["before-first-apply"]++
					}
					if e.Subresource == "status" {
						seen["status-entry"]++
					}
					if e.Operation == "Update" {
						updaters++
					}
				}
				if updaters > 5 {
					seen["updaters>5"]++
				}
				if hasDuplicates(next) {
					seen["duplicates-in-live"]++
				}
				b, _ := json.Marshal(next)
				seen["bytes"] += len(b)
			}
			live = next
		}
	}
	var keys []string
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var lines []string
	for _, k := range keys {
		lines = append(lines, k+"="+itoa(seen[k]))
	}
	t.Log(strings.Join(lines, " "))
	for _, want := range wanted {
		if seen[want] == 0 {
			t.Errorf("the generated sequences never reach %q", want)
		}
	}
	for _, k := range Kinds {
		if seen["kind:"+k.Name] == 0 {
			t.Errorf("kind %s never generated", k.Name)
		}
	}
}

func codeOf(s *oracle.Status) string { return itoa(s.Code) }

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// hasDuplicates reports a list holding two equal maps with the same "name" or equal
// scalars: a rough sign of duplicates in a live object.
func hasDuplicates(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if hasDuplicates(x) {
				return true
			}
		}
	case []any:
		seen := map[string]bool{}
		for _, x := range t {
			id := canonical(x)
			if m, ok := x.(map[string]any); ok {
				if n, ok := m["name"]; ok {
					id = canonical(n)
				}
			}
			if seen[id] {
				return true
			}
			seen[id] = true
			if hasDuplicates(x) {
				return true
			}
		}
	}
	return false
}
