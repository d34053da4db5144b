package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// TestReportSchemaListsTheAppliers: the report's schema allows exactly the appliers of
// package appliers' list as options.applier, and those that prune as prune.applier. With
// -update the test rewrites the lists.
func TestReportSchemaListsTheAppliers(t *testing.T) {
	path := filepath.Join(repoRoot(t), "docs", "report.schema.json")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pruners []string
	for _, k := range appliers.Kinds() {
		if k.Prune != "" {
			pruners = append(pruners, k.Name)
		}
	}
	want := map[string][]string{"options": appliers.Names(), "prune": pruners}
	var doc struct {
		Properties struct {
			Options struct {
				Properties struct {
					Applier struct {
						Enum []string `json:"enum"`
					} `json:"applier"`
				} `json:"properties"`
			} `json:"options"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{"options": doc.Properties.Options.Properties.Applier.Enum, "prune": pruneAppliers(t, text)}
	updated := string(text)
	for _, where := range []string{"options", "prune"} {
		if strings.Join(got[where], ",") == strings.Join(want[where], ",") {
			continue
		}
		if !testkit.Updating() {
			t.Errorf("docs/report.schema.json lists %v as %s.applier, the appliers are %v (go test ./cli -run TestReportSchemaListsTheAppliers -update)", got[where], where, want[where])
			continue
		}
		updated = rewriteEnum(t, updated, where, want[where])
	}
	if updated != string(text) {
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// applierEnumRE finds each "applier": {"enum": [...]} of the schema: options', then prune's.
var applierEnumRE = regexp.MustCompile(`("applier": \{\s*"enum": \[)([^\]]*)(\n\s*\])`)

// pruneAppliers is the prune result's list of appliers (the second "applier" enum).
func pruneAppliers(t *testing.T, text []byte) []string {
	m := applierEnumRE.FindAllSubmatch(text, -1)
	if len(m) != 2 {
		t.Fatalf("docs/report.schema.json has %d applier enums, want options' and prune's", len(m))
	}
	var out []string
	if err := json.Unmarshal([]byte("["+string(m[1][2])+"]"), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func rewriteEnum(t *testing.T, text, where string, names []string) string {
	i := 0
	if where == "prune" {
		i = 1
	}
	locs := applierEnumRE.FindAllStringSubmatchIndex(text, -1)
	if len(locs) != 2 {
		t.Fatalf("docs/report.schema.json has %d applier enums", len(locs))
	}
	items := text[locs[i][4]:locs[i][5]]
	indent := items[:len(items)-len(strings.TrimLeft(items, "\n \t"))]
	var list []string
	for _, n := range names {
		list = append(list, fmt.Sprintf("%s%q", indent, n))
	}
	return text[:locs[i][4]] + strings.Join(list, ",") + text[locs[i][5]:]
}
