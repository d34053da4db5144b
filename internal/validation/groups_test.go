package validation_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The scenarios of the networking, rbac, storage, scheduling, node, discovery and
// coordination kinds. Each case's answer is the one a real kube-apiserver 1.37.2 gave
// (testdata/groups.json, recorded by TestGroupCasesAgainstOracle with -record-groups):
// "" when it accepted the write, the 422's message otherwise (rules.md valid.builtin: byte for byte;
// V2: updates against the stored object; V6: object metadata).

var recordGroups = flag.Bool("record-groups", false, "write the oracle's answers to testdata/groups.json")

const groupsAnswers = "testdata/groups.json"

// groupCase is a case of a kind of these groups.
type groupCase struct {
	kind string
	workloadCase
}

func loadGroupAnswers(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(groupsAnswers)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", groupsAnswers, err)
	}
	return m
}

func (c groupCase) key() string { return c.kind + "/" + c.name }

// TestGroupScenarios: ssa-diff's answer to each case is the server's (rules.md valid.builtin, valid.update, valid.metadata).
func TestGroupScenarios(t *testing.T) {
	answers := loadGroupAnswers(t)
	for _, c := range groupCases(t) {
		t.Run(c.key(), func(t *testing.T) {
			want, ok := answers[c.key()]
			if !ok {
				t.Fatalf("no recorded answer for %q in %s", c.key(), groupsAnswers)
			}
			if got := c.run(t); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestGroupScenariosRecorded: every case the table has is recorded and every recorded
// answer belongs to a case, and some cases are refusals of each kind.
func TestGroupScenariosRecorded(t *testing.T) {
	answers := loadGroupAnswers(t)
	seen := map[string]bool{}
	refused := map[string]int{}
	for _, c := range groupCases(t) {
		if seen[c.key()] {
			t.Errorf("case %q twice", c.key())
		}
		seen[c.key()] = true
		if answers[c.key()] != "" {
			refused[c.kind]++
		}
	}
	for k := range answers {
		if !seen[k] {
			t.Errorf("recorded answer %q has no case", k)
		}
	}
	for _, kind := range groupKinds {
		if refused[kind] < 2 {
			t.Errorf("%s: %d refusals among its cases", kind, refused[kind])
		}
	}
}

var groupKinds = []string{"Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR",
	"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "StorageClass", "CSIDriver", "CSINode",
	"VolumeAttachment", "CSIStorageCapacity", "VolumeAttributesClass", "PriorityClass", "RuntimeClass",
	"EndpointSlice", "Lease"}

// TestGroupCasesAgainstOracle sends each case to the kube-apiserver SSA_DIFF_ORACLE names
// (see TestWorkloadCasesAgainstOracle) and compares its answer with the recorded one, or
// records it with -record-groups.
func TestGroupCasesAgainstOracle(t *testing.T) {
	o := newOracle(t)
	answers := map[string]string{}
	if !*recordGroups {
		answers = loadGroupAnswers(t)
	}
	for i, c := range groupCases(t) {
		t.Run(c.key(), func(t *testing.T) {
			got, skip := o.groupAnswer(t, &c.workloadCase, i)
			if skip != "" {
				t.Fatalf("cannot send: %s", skip)
			}
			if *recordGroups {
				answers[c.key()] = got
			} else if got != answers[c.key()] {
				t.Errorf("server   %s\nrecorded %s", got, answers[c.key()])
			}
		})
	}
	if *recordGroups {
		keys := make([]string, 0, len(answers))
		for k := range answers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("{\n")
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			vb, _ := json.Marshal(answers[k])
			b.WriteString("  " + string(kb) + ": " + string(vb))
			if i < len(keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
		if err := os.WriteFile(filepath.FromSlash(groupsAnswers), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
