package conformance

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// ruleHeading is how docs/rules.md names a rule: a level-3 heading holding its id.
var ruleHeading = regexp.MustCompile("^### `([a-z0-9-]+\\.[a-z0-9-]+)`$")

// docRules reads docs/rules.md: each rule id with the text under its heading.
func docRules(t *testing.T, root string) (ids []string, text map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	text = map[string]string{}
	cur := ""
	for _, line := range strings.Split(string(b), "\n") {
		if m := ruleHeading.FindStringSubmatch(line); m != nil {
			cur = m[1]
			if _, dup := text[cur]; dup {
				t.Errorf("docs/rules.md: rule %s is defined twice", cur)
			}
			ids = append(ids, cur)
			text[cur] = ""
			continue
		}
		if strings.HasPrefix(line, "#") {
			cur = ""
		}
		if cur != "" {
			text[cur] += line + "\n"
		}
	}
	if len(ids) < 50 {
		t.Fatalf("docs/rules.md defines %d rules", len(ids))
	}
	return ids, text
}

// TestRecordedCasesCiteRules holds testdata/recorded/RULES to docs/rules.md and to the
// recorded cases: every case has one line citing rules that exist, and every rule is cited
// by a case or says why no recording shows it ("Not recorded").
func TestRecordedCasesCiteRules(t *testing.T) {
	root := testkit.RepoRoot(t)
	ids, text := docRules(t, root)
	f, err := os.Open(filepath.Join(root, "testdata", "recorded", "RULES"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cited := map[string]bool{}
	cases := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rules, ok := strings.Cut(line, ": ")
		if !ok || len(strings.Fields(rules)) == 0 {
			t.Errorf("RULES:%d: %q is not \"<case>: <rule id> ...\"", n, line)
			continue
		}
		if cases[name] {
			t.Errorf("RULES:%d: case %s listed twice", n, name)
		}
		cases[name] = true
		if _, err := os.Stat(filepath.Join(root, "testdata", "recorded", name, "case.yaml")); err != nil {
			t.Errorf("RULES:%d: no recorded case %s", n, name)
		}
		for _, id := range strings.Fields(rules) {
			if _, ok := text[id]; !ok {
				t.Errorf("RULES:%d: %s cites %s, which docs/rules.md does not define", n, name, id)
			}
			cited[id] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "testdata", "recorded", "*", "case.yaml"))
	if len(dirs) == 0 {
		t.Fatal("no recorded cases in testdata/recorded")
	}
	for _, d := range dirs {
		if name := filepath.Base(filepath.Dir(d)); !cases[name] {
			t.Errorf("recorded case %s has no line in testdata/recorded/RULES", name)
		}
	}
	for _, id := range ids {
		recorded := strings.Contains(text[id], "Not recorded")
		if !cited[id] && !recorded {
			t.Errorf("rule %s: no recorded case cites it and docs/rules.md does not say why (\"Not recorded: ...\")", id)
		}
	}
}

// TestVerbCasesCiteRules holds the rules the cases of conformance/testdata/integration and
// verbs cite (case.yaml's rules) to docs/rules.md: each is a rule the page defines.
func TestVerbCasesCiteRules(t *testing.T) {
	root := testkit.RepoRoot(t)
	_, text := docRules(t, root)
	for _, dir := range []string{"integration", "verbs"} {
		cases, err := LoadCases(filepath.Join("testdata", dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if len(c.Rules) == 0 {
				t.Errorf("%s/%s cites no rule", dir, c.Name)
			}
			for _, id := range c.Rules {
				if _, ok := text[id]; !ok {
					t.Errorf("%s/%s cites %s, which docs/rules.md does not define", dir, c.Name, id)
				}
			}
		}
	}
}
