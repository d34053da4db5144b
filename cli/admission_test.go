package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/internal/admission/library"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
)

// TestAdmissionCasesThroughCLI runs every case of conformance/testdata/admission through
// the command, as a user would: the case's admission.json given with --admission-from, its
// requester with --as and --as-group, its authorizer with --authorize; the report must
// hold the server's answer (conformance.CompareAssigned, strictly, and its warnings), and
// the exit status be the one that answer makes. The policies and PodSecurity run in this
// process (the binary asks its helper program: TestAdmissionHelperBinary).
func TestAdmissionCasesThroughCLI(t *testing.T) {
	library.SilenceLogs()
	root := filepath.Join(repoRoot(t), "conformance", "testdata", "admission")
	n := 0
	// gated/: the MutatingAdmissionPolicy cases at v1beta1, from servers before 1.36 with
	// the gate on, given as the case records it (--feature-gates).
	for _, dir := range []string{"", "gated"} {
		for _, v := range kube.Minors() {
			cases, err := conformance.LoadCases(filepath.Join(root, dir, v.String()))
			if err != nil {
				continue
			}
			for _, c := range cases {
				n++
				t.Run(filepath.Join(dir, v.String(), c.Name), func(t *testing.T) {
					// Each case is a run of the command of its own: they run side by
					// side (the cli package's longest test, 719 cases).
					t.Parallel()
					out, code := runAdmissionCase(t, c, v.String())
					var rep struct {
						Results []struct {
							Action   string         `json:"action"`
							Object   map[string]any `json:"object"`
							Assigned []string       `json:"assigned"`
							Warnings []string       `json:"warnings"`
							Error    *struct {
								Code      int             `json:"code"`
								Reason    string          `json:"reason"`
								Message   string          `json:"message"`
								Status    json.RawMessage `json:"status"`
								Admission string          `json:"admission"`
							} `json:"error"`
						} `json:"results"`
					}
					if err := json.Unmarshal(out, &rep); err != nil || len(rep.Results) != 1 {
						t.Fatalf("exit %d, report %s (%v)", code, out, err)
					}
					r := rep.Results[0]
					res := &merge.Result{Object: r.Object, Assigned: r.Assigned, Warnings: r.Warnings, Action: merge.Action(r.Action)}
					want := 1
					if r.Error != nil {
						want = 3
						var st struct {
							Details *merge.StatusDetails `json:"details"`
						}
						_ = json.Unmarshal(r.Error.Status, &st)
						res.Rejection = &merge.StatusError{Code: r.Error.Code, Reason: r.Error.Reason, Message: r.Error.Message, Details: st.Details}
						res.Action = merge.ActionRejected
					}
					for _, p := range append(conformance.CompareAssigned(c, res, true), conformance.CompareWarnings(c, res)...) {
						t.Error(p)
					}
					if code != want && !(want == 1 && code == 0) {
						t.Errorf("exit %d, want %d", code, want)
					}
				})
			}
		}
	}
	if n < 40 {
		t.Errorf("%d admission cases, want at least 40", n)
	}
}

// runAdmissionCase runs the command on a case, in its folder, and returns its JSON report
// and exit status.
func runAdmissionCase(t *testing.T, c *conformance.Case, minor string) ([]byte, int) {
	t.Helper()
	args := []string{"-o", "json", "--kube-version", minor, "--field-manager", c.Request.FieldManager, "--admission-from", filepath.Join(c.Dir, "admission.json"),
		"--allow-privileged=" + map[bool]string{true: "true", false: "false"}[c.Cluster.AllowPrivileged]}
	if c.Now != "" {
		args = append(args, "--now", c.Now)
	}
	if c.Cluster.FeatureGates != "" {
		args = append(args, "--feature-gates", c.Cluster.FeatureGates)
	}
	if c.Request.Mode == "kubectl" {
		args = append(args, "--applier", "kubectl")
	} else {
		args = append(args, "--applier", "api")
		if v := c.BaseVerb(); v != "apply" {
			args = append(args, "--verb", v)
		}
	}
	if c.Request.Force {
		args = append(args, "--force-conflicts")
	}
	if s := c.Request.Subresource; s != "" {
		args = append(args, "--subresource", s)
	} else if c.Request.Verb == "apply-status" {
		args = append(args, "--subresource", "status")
	}
	if c.Requester.Username != "" {
		args = append(args, "--as", c.Requester.Username)
		for _, g := range c.Requester.Groups {
			args = append(args, "--as-group", g)
		}
	}
	for _, r := range c.Authorization {
		args = append(args, "--authorize", r)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "crds.yaml")); err == nil {
		args = append(args, "--crd", filepath.Join(c.Dir, "crds.yaml"))
	}
	args = append(args, filepath.Join(c.Dir, "manifest.yaml"))
	if c.Live != nil {
		args = append(args, filepath.Join(c.Dir, "live.json"))
	}
	var stdout, stderr bytes.Buffer
	code := runWithLibrary(context.Background(), "ssa-diff", args, strings.NewReader(""), &stdout, &stderr, nil, library.New)
	return stdout.Bytes(), code
}

// TestAdmissionHelperBinary: the binary finds the helper program beside itself and asks it:
// a policy's refusal and PodSecurity's warning, recorded from a real server, through both
// programs as a release ships them.
func TestAdmissionHelperBinary(t *testing.T) {
	bin := buildHelper(t)
	root := filepath.Join(repoRoot(t), "conformance", "testdata", "admission", "1.37")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"vap-deny", []string{"--applier", "api", "--field-manager", "deployer"}, 3,
			`server says: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'adm-vap-deny' with binding 'adm-vap-deny' denied request: replicas must be at most 3, not 5`},
		{"psa-restricted-deployment", []string{"--applier", "api", "--field-manager", "deployer"}, 1,
			`warning: the server would warn: would violate PodSecurity "restricted:latest"`},
	} {
		dir := filepath.Join(root, tc.name)
		args := append(append([]string{"--now", "2026-12-05T00:00:00Z", "--admission-from", "admission.json", "--as", "oracle-admin", "--as-group", "system:masters"}, tc.args...), "manifest.yaml")
		out, errOut, code := runBinary(t, bin, dir, args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%s: exit %d\n%s%s\nwant exit %d and %q", tc.name, code, out, errOut, tc.code, tc.want)
		}
	}
}

// TestAdmissionGatedCasesWithoutGate: the same gated cases, without --feature-gates, are
// predicted as a 1.34 or 1.35 server with its default gates answers them: the
// MutatingAdmissionPolicy plugin does not run, so the recorded mutation is absent.
func TestAdmissionGatedCasesWithoutGate(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the gated cases a second time")
	}
	library.SilenceLogs()
	root := filepath.Join(repoRoot(t), "conformance", "testdata", "admission", "gated")
	for _, v := range []string{"1.34", "1.35"} {
		cases, err := conformance.LoadCases(filepath.Join(root, v))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(v+"/"+c.Name, func(t *testing.T) {
				if c.Cluster.FeatureGates == "" {
					t.Fatal("a gated case records no featureGates")
				}
				c.Cluster.FeatureGates = ""
				out, code := runAdmissionCase(t, c, v)
				if code == 2 {
					t.Fatalf("exit 2: %s", out)
				}
				var rep struct {
					Results []struct {
						Object map[string]any `json:"object"`
					} `json:"results"`
				}
				if err := json.Unmarshal(out, &rep); err != nil || len(rep.Results) != 1 {
					t.Fatalf("report %s (%v)", out, err)
				}
				got, _ := json.Marshal(rep.Results[0].Object)
				if want, _ := json.Marshal(c.Want); bytes.Equal(got, want) {
					t.Error("without the gate, the prediction is the gated server's")
				}
			})
		}
	}
}

// TestFeatureGatesRefused: what kube-apiserver refuses of --feature-gates, the command
// refuses (exit 2) in its words.
func TestFeatureGatesRefused(t *testing.T) {
	manifest := filepath.Join(repoRoot(t), "conformance", "testdata", "admission", "gated", "1.35", "map-params", "manifest.yaml")
	for _, c := range []struct{ version, gates, want string }{
		{"1.35", "Foo=true", "unrecognized feature gate: Foo"},
		{"1.35", "MutatingAdmissionPolicy", `invalid argument "MutatingAdmissionPolicy" for "--feature-gates" flag: missing bool value for MutatingAdmissionPolicy`},
		{"1.35", "CRDValidationRatcheting=false", "cannot set feature gate CRDValidationRatcheting to false, feature is locked to true"},
	} {
		var stdout, stderr bytes.Buffer
		code := runWithLibrary(context.Background(), "ssa-diff", []string{"--kube-version", c.version, "--feature-gates", c.gates, manifest}, strings.NewReader(""), &stdout, &stderr, nil, library.New)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("--feature-gates %s: exit %d, stderr %q, want 2 and %q", c.gates, code, stderr.String(), c.want)
		}
	}
}

// TestRuntimeConfigServes: a MutatingAdmissionPolicy at admissionregistration.k8s.io/v1beta1
// is refused (404) by a 1.34 server with its default API configuration, and created by one
// started with --runtime-config=admissionregistration.k8s.io/v1beta1=true (and its gate, as
// the gated admission cases were recorded); what the server refuses to start with, the
// command refuses (exit 2) in its words (rules.md version.runtime-config).
func TestRuntimeConfigServes(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "map.yaml")
	if err := os.WriteFile(manifest, []byte(`apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: add-team
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [configmaps]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"team": "platform"}}}'
  reinvocationPolicy: Never
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runWithLibrary(context.Background(), "ssa-diff", append([]string{"--kube-version", "1.34", "--now", "2026-01-01T00:00:00Z", "-o", "json"}, append(args, manifest)...), strings.NewReader(""), &stdout, &stderr, nil, library.New)
		return code, stdout.String(), stderr.String()
	}
	if code, out, _ := run(); code != 3 || !strings.Contains(out, `"code": 404`) {
		t.Fatalf("default configuration: exit %d, want 3 and a 404:\n%s", code, out)
	}
	code, out, stderr := run("--runtime-config", "admissionregistration.k8s.io/v1beta1=true", "--feature-gates", "MutatingAdmissionPolicy=true")
	if code != 1 || !strings.Contains(out, `"action": "create"`) {
		t.Fatalf("v1beta1 enabled: exit %d, want 1 (a change) and a create:\n%s\n%s", code, out, stderr)
	}
	for _, c := range []struct{ config, want string }{
		{"apps/v1beta3=true", "group version apps/v1beta3 that has not been registered"},
		{"foo.example.com/v1=true", "unknown api groups foo.example.com\n"},
		{"api/all=false", "invalid key with only api/all=false"},
		{"api/beta=yes", "invalid value api/beta=yes"},
	} {
		if code, _, stderr := run("--runtime-config", c.config); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--runtime-config %s: exit %d, stderr %q, want 2 and %q", c.config, code, stderr, c.want)
		}
	}
}
