package testkit

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// fences are the dependency rules of the module: the packages named (a path relative to the
// module; "/..." for a tree, "" for the command itself) never depend, directly or not, on the
// forbidden import paths (each with everything under it).
var fences = []struct {
	why       string
	packages  []string
	forbidden []string
	// direct: only the packages' own imports are fenced (what they reach through the
	// library is the library's business).
	direct bool
}{
	{
		why:      "the library packages know nothing of the command: a program embedding the engine pulls in no CLI, flag parser, diff printer, kustomize or cluster client",
		packages: []string{"fieldpath/...", "schema/...", "merge/...", "server/...", "appliers/...", "judge/...", "predict/..."},
		forbidden: []string{modulePath + "/cli", modulePath + "/internal/output", modulePath + "/internal/report", modulePath + "/internal/render",
			modulePath + "/internal/cluster", modulePath + "/internal/blame", modulePath + "/internal/completion", modulePath + "/internal/helmrun", modulePath + "/internal/blametext", modulePath + "/internal/mistakes", modulePath + "/internal/rawpatch", modulePath + "/internal/outfiles", modulePath + "/internal/gctune", modulePath + "/internal/interrupt", modulePath + "/internal/livestate", modulePath + "/internal/schemafiles", modulePath + "/internal/noise", modulePath + "/internal/plan", modulePath + "/internal/gitopsconfig", modulePath + "/internal/gather", modulePath + "/internal/emit", modulePath + "/internal/flagvalue", "github.com/spf13/pflag", "sigs.k8s.io/kustomize", "k8s.io/client-go"},
	},
	{
		why: "the field manager reaches the server's model only through package server's interface: the engine links none of its ports " +
			"(defaulting, strategies, conversion, validation of built-in kinds, custom resources and CEL)",
		packages: []string{"merge"},
		forbidden: []string{modulePath + "/server/kubeapiserver", modulePath + "/internal/defaults", modulePath + "/internal/strategy",
			modulePath + "/internal/conversion", modulePath + "/internal/validation", modulePath + "/internal/crdvalidation",
			modulePath + "/internal/celrules", modulePath + "/internal/cellib", modulePath + "/internal/api", "github.com/google/cel-go"},
	},
	{
		why:       "the list of minors is the leaf everything reads: it imports nothing of the module, so that any package may ask it",
		packages:  []string{"kube"},
		forbidden: []string{modulePath},
	},
	{
		why:       "the contract between engine and model, and the Kubernetes minors, are leaves: they import no engine, no model and no port",
		packages:  []string{"server", "kube"},
		forbidden: []string{modulePath + "/merge", modulePath + "/server/kubeapiserver", modulePath + "/internal/defaults", modulePath + "/internal/strategy", modulePath + "/internal/validation", modulePath + "/internal/crdvalidation"},
	},
	{
		why:       "the server's model lies below the engine and the clients: it imports neither",
		packages:  []string{"server/...", "internal/defaults", "internal/strategy", "internal/conversion", "internal/validation/...", "internal/crdvalidation/...", "internal/celrules", "internal/cellib", "internal/formats", "internal/correlate"},
		forbidden: []string{modulePath + "/merge", modulePath + "/cli"},
	},
	{
		why:       "the shared leaves of validation (string formats, ratcheting's correlation) import no validator: no arrow points up from them",
		packages:  []string{"internal/formats", "internal/correlate", "internal/cellib"},
		forbidden: []string{modulePath + "/internal/crdvalidation", modulePath + "/internal/celrules", modulePath + "/internal/validation"},
	},
	{
		why: "the command holds no domain logic: it reads flags, asks the library (server/kubeapiserver, merge, appliers, judge) and writes outputs; " +
			"it imports none of the server model's ports, which only the model reaches",
		packages: []string{"cli"},
		forbidden: []string{modulePath + "/internal/defaults", modulePath + "/internal/strategy", modulePath + "/internal/conversion",
			modulePath + "/internal/validation", modulePath + "/internal/crdvalidation", modulePath + "/internal/celrules", modulePath + "/internal/cellib"},
		direct: true,
	},
	{
		why: "Helm's libraries (helm.sh/helm/v4: chart loading, rendering, its kube client) are the Helm plugin's, a second binary (cmd/helm-ssa-diff): " +
			"the ssa-diff binary and the library packages never link them (+23 MB and client-go's clientset at start-up); the Helm applier reads Helm's records itself (internal/helmrelease)",
		packages:  []string{"", "fieldpath/...", "schema/...", "merge/...", "server/...", "appliers/...", "judge/...", "cli", "internal/helmrelease", "internal/smpmeta"},
		forbidden: []string{"helm.sh/helm"},
	},
	{
		why:       "the clients and the judgement lie above the engine and the model, beside each other: the engine imports neither, the model neither",
		packages:  []string{"merge", "server/..."},
		forbidden: []string{modulePath + "/appliers", modulePath + "/judge", modulePath + "/predict"},
	},
	{
		why: "only the model (server/kubeapiserver) reaches the ports of kube-apiserver's code: the clients, the judgement and the run ask the model " +
			"what they need of its rules (server/kubeapiserver/refusals.go), never a port around it",
		packages: []string{"appliers/...", "judge/...", "predict/..."},
		forbidden: []string{modulePath + "/internal/defaults", modulePath + "/internal/strategy", modulePath + "/internal/conversion",
			modulePath + "/internal/validation", modulePath + "/internal/crdvalidation", modulePath + "/internal/celrules", modulePath + "/internal/cellib",
			modulePath + "/internal/admission", modulePath + "/internal/serverconfig"},
		direct: true,
	},
	{
		why:       "the command's machinery moved out of cli (completion, …) lies below the command: it never imports it, nor its outputs' printer",
		packages:  []string{"internal/completion", "internal/helmrun", "internal/blametext", "internal/mistakes", "internal/rawpatch", "internal/outfiles", "internal/gctune", "internal/interrupt", "internal/livestate", "internal/schemafiles", "internal/noise", "internal/plan", "internal/gitopsconfig", "internal/gather", "internal/emit", "internal/flagvalue"},
		forbidden: []string{modulePath + "/cli"},
	},
	{
		why: "the gate's policy judges typed facts of a judged write (judge/gate.Write): it lies below the run and the report, which both ask it, " +
			"and reads neither a report, the run, the clients, the engine nor the input",
		packages: []string{"judge/gate"},
		forbidden: []string{modulePath + "/internal/report", modulePath + "/predict", modulePath + "/appliers", modulePath + "/merge",
			modulePath + "/internal/input", modulePath + "/internal/output", modulePath + "/cli"},
		direct: true,
	},
	{
		why:       "the schema registry has schemas of its own: no apimachinery (its generator, a module of its own, may use it)",
		packages:  []string{"schema"},
		forbidden: []string{"k8s.io/apimachinery", "k8s.io/client-go", "k8s.io/apiextensions-apiserver"},
	},
	{
		why:       "a run's inputs are gathered from options, not flags: the command parses them (client-go, below the cluster reader, links pflag)",
		packages:  []string{"internal/gather"},
		forbidden: []string{"github.com/spf13/pflag", modulePath + "/cli"},
		direct:    true,
	},
	{
		why:       "reading input, reports and ownership, and a run's plan of them, are libraries too: no flag parsing, only the renderer links kustomize, only the cluster package talks to clusters",
		packages:  []string{"internal/input", "internal/report", "internal/blame", "internal/plan"},
		forbidden: []string{"github.com/spf13/pflag", "sigs.k8s.io/kustomize", "k8s.io/client-go"},
	},
	{
		why:       "test helpers stay in tests: neither the binary nor a library package links the testing package or internal/testkit",
		packages:  []string{"", "fieldpath/...", "schema/...", "merge/...", "server/...", "appliers/...", "judge/...", "predict/..."},
		forbidden: []string{"testing", modulePath + "/internal/testkit"},
	},
	{
		why: "the admission that runs through Kubernetes' libraries (the policy plugins, PodSecurity) is the helper program's, ssa-diff-admission: " +
			"the binary and the library packages reach it only through package wire, so that its libraries' start-up costs only the runs that need it",
		packages:  []string{"", "merge/...", "server/...", "appliers/...", "judge/...", "internal/admission", "internal/admission/wire"},
		forbidden: []string{modulePath + "/internal/admission/library", "k8s.io/pod-security-admission", "k8s.io/apiserver/pkg/admission/plugin/policy", "k8s.io/client-go/informers"},
	},
	{
		why: "go-cmp's reflection over method sets turns off the linker's dead code elimination (+9.2 MB, +13% instructions on a plain run): " +
			"the go-cmp diffs of 1.32 and 1.33 (internal/api/gocmp) are printed by the helper program, ssa-diff-admission, asked through package wire",
		packages:  []string{"", "merge/...", "server/...", "appliers/...", "judge/...", "predict/...", "internal/validation/...", "internal/admission/wire"},
		forbidden: []string{modulePath + "/internal/api/gocmp", "github.com/google/go-cmp"},
	},
	{
		why: "packages whose initialisation costs every run milliseconds never enter the binary: client-go's typed clientset, scheme and discovery, kubectl's packages, " +
			"the validation packages of apiextensions-apiserver (kube-openapi's strfmt compiles its formats at start, govalidator, the server's metrics and feature gates: " +
			"internal/crdvalidation restates them, conformance/crdvalidation holds it to them)",
		packages: []string{""},
		forbidden: []string{"k8s.io/client-go/kubernetes", "k8s.io/client-go/discovery", "k8s.io/kubectl", "k8s.io/cli-runtime", "k8s.io/api/core",
			"k8s.io/apiextensions-apiserver", "k8s.io/kube-openapi/pkg/validation/strfmt", "k8s.io/kube-openapi/pkg/validation/validate", "k8s.io/apiserver/pkg/cel/library",
			"k8s.io/apiserver/pkg/cel/environment", "k8s.io/component-base", "github.com/asaskevich/govalidator", "github.com/prometheus"},
	},
	{
		why: "executing a template looks methods up by name (reflect's MethodByName with names known only at run time), which keeps every exported method " +
			"of the program in the binary: html/template cost 9.3 MB of 52; the HTML page is written by internal/output/htmlpage.go (TestPageSameAsTemplate " +
			"holds it to the former template). cel-go imports text/template but never executes one: the linker drops it",
		packages:  []string{""},
		forbidden: []string{"html/template"},
	},
}

// TestDependencyFences checks every fence on the dependencies go list reports for the
// module's packages (test files apart). A fence naming no package fails: a fence left behind
// by a move would hold nothing. (It lives here, in a small test binary, rather than beside
// the command, whose test binary links everything.)
func TestDependencyFences(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}|{{join .Imports \" \"}}", "./...")
	cmd.Dir = RepoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	deps, imports := map[string][]string{}, map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		all, direct, _ := strings.Cut(line, "|")
		f := strings.Fields(all)
		deps[f[0]] = f[1:]
		imports[f[0]] = strings.Fields(direct)
	}
	for _, v := range fenceViolations(deps, imports, true) {
		t.Error(v)
	}
}

// fenceViolations are the fences' breaches in a module's import graph (deps: each
// package's dependencies, imports: its own imports); with unmatched, a fence pattern that
// names no package of the graph is one too.
func fenceViolations(deps, imports map[string][]string, unmatched bool) []string {
	var out []string
	under := func(path, prefix string) bool { return path == prefix || strings.HasPrefix(path, prefix+"/") }
	for _, fence := range fences {
		for _, pattern := range fence.packages {
			root, tree := strings.CutSuffix(pattern, "/...")
			if root != "" {
				root = modulePath + "/" + root
			} else {
				root = modulePath
			}
			matched := 0
			for pkg, ds := range deps {
				if pkg != root && !(tree && under(pkg, root)) {
					continue
				}
				if fence.direct {
					ds = imports[pkg]
				}
				matched++
				for _, d := range ds {
					for _, f := range fence.forbidden {
						if under(d, f) {
							out = append(out, fmt.Sprintf("%s depends on %s: %s", pkg, d, fence.why))
						}
					}
				}
			}
			if matched == 0 && unmatched {
				out = append(out, fmt.Sprintf("the fence on %q holds no package: %s", pattern, fence.why))
			}
		}
	}
	return out
}

// TestFencesCatchAPortImported: the fences fail when a client (appliers) or the judgement
// (judge/advice) imports a port of kube-apiserver's code around the model, as they once did
// (appliers/flux.go reached internal/defaults, judge/advice internal/validation/core and
// internal/conversion): each import is a breach naming the model as the ports' only door.
func TestFencesCatchAPortImported(t *testing.T) {
	for _, c := range []struct{ pkg, port string }{
		{modulePath + "/appliers", modulePath + "/internal/defaults"},
		{modulePath + "/judge/advice", modulePath + "/internal/validation/core"},
		{modulePath + "/judge/advice", modulePath + "/internal/conversion"},
		{modulePath + "/predict", modulePath + "/internal/strategy"},
	} {
		graph := map[string][]string{c.pkg: {c.port}}
		got := fenceViolations(graph, graph, false)
		want := c.pkg + " depends on " + c.port + ": only the model (server/kubeapiserver) reaches the ports"
		found := false
		for _, v := range got {
			found = found || strings.HasPrefix(v, want)
		}
		if !found {
			t.Errorf("%s importing %s breaks no fence naming the model; breaches: %q", c.pkg, c.port, got)
		}
	}
	// The graph without the port breaks none.
	clean := map[string][]string{modulePath + "/appliers": {modulePath + "/merge", modulePath + "/server/kubeapiserver"}}
	if got := fenceViolations(clean, clean, false); len(got) > 0 {
		t.Errorf("appliers importing the engine and the model: %q", got)
	}
}
