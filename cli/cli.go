package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/emit"
	"github.com/ssa-diff/ssa-diff/internal/flagvalue"
	"github.com/ssa-diff/ssa-diff/internal/gather"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/internal/interrupt"
	"github.com/ssa-diff/ssa-diff/internal/outfiles"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// ProgramName is the name to show in usage for a binary started as argv0: "kubectl
// ssa-diff" when installed as the kubectl plugin kubectl-ssa_diff; the kubectl plugin's
// completion executable, KubectlCompletionProgram, keeps its name (it answers completion
// requests).
func ProgramName(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if base == KubectlCompletionProgram {
		return base
	}
	if strings.HasPrefix(base, "kubectl-") {
		return "kubectl " + strings.ReplaceAll(strings.TrimPrefix(base, "kubectl-"), "_", "-")
	}
	return "ssa-diff"
}

// Run runs the ssa-diff command with args (without the program name) and returns the exit
// status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return RunAs("ssa-diff", args, stdin, stdout, stderr)
}

// RunAs is Run with the program name to show in usage and messages.
func RunAs(prog string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runAs(context.Background(), prog, args, stdin, stdout, stderr, nil)
}

// Main is RunAs for the ssa-diff program: it also sets the garbage collector for the run
// from the size of the input (package gctune), and stops the run at SIGINT or SIGTERM (exit 130
// or 143, package interrupt), settings of the whole process that Run and RunAs leave alone.
// getenv reads the environment (os.Getenv). The process exits with its status (interrupt.RunToExit).
func Main(prog string, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return interrupt.RunToExit(prog, stderr, func(ctx context.Context) int {
		return runAs(ctx, prog, args, stdin, stdout, stderr, getenv)
	})
}

func runAs(ctx context.Context, prog string, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return runWithLibrary(ctx, prog, args, stdin, stdout, stderr, getenv, nil)
}

// runWithLibrary is runAs with the admission policies and PodSecurity run in this process
// by library (tests; nil: the helper program).
func runWithLibrary(ctx context.Context, prog string, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, library func(wire.Setup) (wire.Library, error)) int {
	if prog == KubectlCompletionProgram {
		return runComplete(args, stdout)
	}
	if len(args) > 0 {
		switch args[0] {
		case "__complete":
			return runComplete(args[1:], stdout)
		case "blame":
			return runBlame(prog, args[1:], stdin, stdout, stderr)
		case "version":
			return runVersion(prog, args[1:], stdout, stderr)
		case "completion":
			return runCompletion(prog, args[1:], stdout, stderr)
		case "merge":
			return runMerge(ctx, prog, args[1:], stdin, stdout, stderr)
		}
	}
	cfg, code := parseFlags(prog, args, stdout, stderr)
	if cfg == nil {
		return code
	}
	inv := newInvocation(cfg, stdin, stdout, stderr, getenv)
	inv.admissionLibrary = library
	return inv.execute(ctx, nil)
}

// engine is the prediction engine the run's applier sends its requests to.
type engine = predict.Engine

// predictor is what the command asks of the engine (tests give it fakes).
type predictor = predict.Predictor

// options is a parsed command line: read once by parseFlags, never changed after.
type options struct {
	// shard is the --shard of the run (shard.go); merge what `ssa-diff merge` merges (merge.go).
	shard        shard.Spec
	merge        mergeOptions
	featureGates kubeapiserver.FeatureGates
	// runtimeConfig: kube-apiserver's --runtime-config (the API versions it serves).
	runtimeConfig kubeapiserver.RuntimeConfig
	// allowPrivileged: kube-apiserver's --allow-privileged (true unless told false).
	allowPrivileged bool
	// serviceIPFamilies: the families of kube-apiserver's --service-cluster-ip-range, the
	// primary first; nil: not declared.
	serviceIPFamilies flagvalue.IPFamilies
	manifests         []string
	live              string
	fieldManager      string
	force             bool
	applier           string
	// applierKind is --applier's, applierSettings what the flags say of it (its options,
	// the field manager, the namespace, --prune), and client the applier they make.
	applierKind     appliers.Kind
	applierSettings appliers.Settings
	client          appliers.Applier
	subresource     string
	crds            []string
	schemas         []string
	now             time.Time
	output          string
	// outputFiles are the --output-file values; outputFile is the -o output's file ("":
	// standard output) and formatFiles the other formats written (outfile.go).
	outputFiles       []string
	outputFile        string
	formatFiles       []outfiles.File
	showManagedFields bool
	showSecrets       bool
	color             bool
	namespace         string
	jobs              int
	// recursive is kubectl's -R: directories are always read recursively.
	recursive   bool
	limits      inputLimits
	render      renderOptions
	prune       pruneOptions
	gate        gateOptions
	advice      adviceOptions
	liveOpts    liveOptions
	report      reportOptions
	showVersion bool
	// kube is --kube-version.
	kube kubeVersionOptions
	// admission is --admission-from, --as, --as-group, --as-uid, --authorize.
	admission admissionOptions
	// helm are Helm's flags (--applier helm).
	helm helmOptions
	// verbs are --verb, --patch-type and --kubectl.
	verbs verbOptions
	// noise are --show-unchanged, --ignore-path, --ignore-manager, --skip and
	// --ignore-filename-pattern (noise.go).
	noise noiseOptions
	// gitops are --argocd-application and --flux-kustomization-file (gitops.go).
	gitops gitopsOptions
}

// newInvocation is a run of the command with these options and streams.
func newInvocation(opts *options, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *invocation {
	return &invocation{options: opts, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
}

// invocation is one run of the command: its options, read once, and the streams it reads
// and writes. Nothing here changes while the run goes (but the count of objects
// predicted); what the run learns is its session's.
type invocation struct {
	*options
	stdin          io.Reader
	stdout, stderr io.Writer
	// getenv, when set, makes the run set the garbage collector (package gctune).
	getenv func(string) string
	// admissionLibrary runs the admission policies and PodSecurity in this process
	// instead of the helper program (tests).
	admissionLibrary func(wire.Setup) (wire.Library, error)
	// predicted counts the objects predicted so far (the progress line).
	predicted atomic.Int64
}

// session is what a run learns as it reads its inputs, before it predicts: the namespace a
// cluster read puts objects in and the applier for it, the judge of its predictions, the
// cluster state, the patches, the schemas read. Its fields are set before the predictions
// start (execute), and only read once they have.
type session struct {
	*invocation
	// namespace is where objects that name none go: --namespace, or the namespace of the
	// cluster read that made the live state.
	namespace string
	// client is the applier the run applies with: the options' one, for the namespace the
	// run puts objects in (Helm's: its commands predicted whole, runHelm).
	client appliers.Applier
	// judge judges each prediction (approximations, the fields of refusals).
	judge *judge.Judge
	// in are the run's inputs (package gather): the schemas, the manifests, the live
	// state, the cluster state, the raw patches.
	in *gather.Inputs
	// closers stop what the run started (the admission helper).
	closers []func() error
	// sharding is the run's part of the shards' record, with --shard (shard.go).
	sharding *shard.Record
}

const usageHead = `%[1]s predicts what the Kubernetes API server would do with a server-side apply,
offline: the object it would store, who would own which fields, and the conflicts it would
answer with (byte for byte), for kube-apiserver %[2]s (--kube-version).

Usage:
  %[1]s [flags] MANIFESTS [LIVE]
  %[1]s [flags] -f MANIFESTS [-f MORE...] [-k KUSTOMIZATION...] [LIVE]
  %[1]s blame LIVE
  %[1]s merge [-o FORMAT] [--output-file ...] SHARD.json...   (reports of --shard I/N)
  %[1]s version
  %[1]s completion bash|zsh|fish|powershell

MANIFESTS and LIVE are each a file, a directory (read recursively: .yaml, .yml, .json) or
"-" for standard input. Multi-document YAML and List kinds are read as many objects. A
directory holding a kustomization.yaml is built as kubectl apply -k builds it (also -k DIR);
helm template output on standard input is reported at its templates. Get live objects with
their field owners:

  kubectl get deployment web -o json --show-managed-fields > live.json

or let %[1]s read them from the cluster, with get and list permissions only (the default of
kubectl ssa-diff when no LIVE is given):

  %[1]s --live-from-cluster -f manifests/

Manifests are matched with live objects by group, kind, namespace and name; a manifest
without a live object is predicted as a create (with a warning when the live input cannot
say that it does not exist).

Exit status:
  0  nothing would change
  1  something would change (the object, or who owns which fields)
  2  ssa-diff could not predict (bad usage, unreadable or malformed input, a cluster not read)
  3  the server would reject at least one apply (conflicts or any other refusal)
  4  a --fail-on policy other than rejected fails, or fields are taken from a --protect manager
  130, 143  stopped by SIGINT, SIGTERM: nothing more is written, files being written are left

Flags:
`

// flagSet defines the command's flags on cfg: the flag set, and the flags that are not
// fields of cfg. The usage names their arguments by flagArgNames.
func flagSet(prog string, cfg *options) (fs *pflag.FlagSet, now, color *string, help *bool) {
	fs = pflag.NewFlagSet(prog, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	now, color = new(string), new(string)
	stringArrayVarP(fs, &cfg.manifests, "filename", "f", nil, "Manifests to apply: a file, a directory or - (repeatable).")
	cfg.addRenderFlags(fs)
	fs.StringVar(&cfg.fieldManager, "field-manager", merge.KubectlManager, "The field manager of the apply ("+fieldManagerDefaults()+").")
	fs.BoolVar(&cfg.force, "force-conflicts", false, "Apply with force: take conflicting fields from their owners.")
	fs.StringVar(&cfg.applier, "applier", appliers.Names()[0], appliers.Summary())
	fs.StringVar(&cfg.subresource, "subresource", "", "Apply to a subresource of each object: status, scale, resize or ephemeralcontainers (as kubectl apply --server-side --subresource does); the object must exist. Through scale, the manifests may be autoscaling/v1 Scales; through resize (a Pod's in-place vertical scaling), the resize strategy keeps only the containers' resources and resize policies; through ephemeralcontainers (what kubectl debug writes), only the Pod's ephemeral containers, which may be added but never changed or removed.")
	cfg.verbs.flags(fs)
	stringArrayVarP(fs, &cfg.crds, "crd", "", nil, "A file or directory of CustomResourceDefinitions (repeatable). CRDs among the inputs are read too.")
	stringArrayVarP(fs, &cfg.schemas, "schema", "", nil, "An OpenAPI v3 or v2 document (kubectl get --raw /openapi/v3/apis/GROUP/VERSION), or a directory of them (repeatable).")
	fs.BoolVar(&cfg.allowPrivileged, "allow-privileged", true, "Whether the cluster's kube-apiserver allows privileged and hostProcess containers (its --allow-privileged). Default: true, as kubeadm, kind, k3s and the managed clusters run it. --allow-privileged=false predicts a kube-apiserver started without the flag (its own default is false), as a hand-assembled control plane or a bare test server is: it refuses them (422 \"disallowed by cluster policy\").")
	fs.Var(&cfg.serviceIPFamilies, "service-ip-families", "The IP families of the cluster's service IP ranges (kube-apiserver's --service-cluster-ip-range), the primary first: IPv4, IPv6, IPv4,IPv6 or IPv6,IPv4. A dual-stack cluster gives PreferDualStack and RequireDualStack Services both families; a single-stack one refuses RequireDualStack (422). Default: refusals as an IPv4 cluster, the families the cluster adds left to the server.")
	fs.Var(&cfg.featureGates, "feature-gates", "The cluster's kube-apiserver --feature-gates, in its syntax: Name=true,Other=false (repeatable; a later setting wins). The gates the server runs with other than its minor's defaults, e.g. MutatingAdmissionPolicy=true at 1.34 or 1.35 (whose policies then run). A gate the minor does not have, or one locked to its default, is refused as the server refuses it. Default: the minor's defaults (a live dump or cluster does not say which gates it runs).")
	fs.Var(&cfg.runtimeConfig, "runtime-config", "The cluster's kube-apiserver --runtime-config, in its syntax: group/version=true,api/beta=false (repeatable; a later key wins). The API versions the server serves other than its minor's defaults (every GA version; no beta or alpha one), e.g. admissionregistration.k8s.io/v1beta1=true at 1.34 or 1.35 for MutatingAdmissionPolicies. What the server would not start with is refused in its words. Default: the minor's defaults (a live dump or cluster does not say which it runs).")
	fs.StringVar(now, "now", "", "The time stamped into changed managedFields entries, and the time ages are measured from, RFC 3339 (default: the current time).")
	fs.StringVarP(&cfg.output, "output", "o", "text", "Output format: "+strings.Join(output.Formats(), ", ")+".")
	stringArrayVarP(fs, &cfg.outputFiles, "output-file", "", nil, outputFileUsage)
	cfg.addReportFlags(fs)
	fs.BoolVar(&cfg.showManagedFields, "show-managed-fields", false, "Show metadata.managedFields in diffs.")
	fs.BoolVar(&cfg.showSecrets, "show-secrets", false, "Show Secret values in diffs instead of masking them.")
	fs.StringVar(color, "color", "auto", "Colour the text and diff outputs: auto, always or never (auto: on a terminal, unless NO_COLOR is set).")
	fs.StringVarP(&cfg.namespace, "namespace", "n", "default", "The namespace of namespaced objects that name none (with --applier argocd, the Application's destination namespace) (default: default; with --live-from-cluster, the context's namespace).")
	cfg.addLiveFlags(fs)
	cfg.addKubeVersionFlag(fs)
	fs.IntVar(&cfg.jobs, "jobs", runtime.GOMAXPROCS(0), "How many objects are predicted in parallel (default: the number of CPUs).")
	cfg.addKubectlHabitFlags(fs)
	registerLimitFlags(fs, &cfg.limits)
	cfg.addGateFlags(fs)
	cfg.addPruneFlags(fs)
	cfg.addAdviceFlags(fs)
	cfg.addNoiseFlags(fs)
	cfg.addGitOpsFlags(fs)
	cfg.addAdmissionFlags(fs)
	cfg.addApplierFlags(fs, true)
	cfg.addShardFlag(fs)
	fs.BoolVar(&cfg.showVersion, "version", false, "Print the version: ssa-diff's, its commit, Go's, and the Kubernetes release whose server-side apply it predicts (also `ssa-diff version`).")
	help = fs.BoolP("help", "h", false, "Show this help.")
	return fs, now, color, help
}

// flagArgNames names the argument of each of flagSet's flags that takes one, as the usage
// shows it (--filename PATH): made when the usage is written, not by every run.
func flagArgNames() map[string]string {
	argNames := map[string]string{"filename": "PATH", "field-manager": "NAME", "applier": strings.Join(appliers.Names(), "|"),
		"verb": "apply|update|patch|create", "patch-type": "json|merge|strategic", "kubectl": "COMMAND",
		"subresource": strings.Join(merge.Subresources(), "|"), "crd": "PATH", "schema": "PATH", "now": "TIME", "output": "FORMAT",
		"output-file": "[FORMAT=]FILE", "color": "WHEN", "kube-version": "MINOR", "namespace": "NAME", "jobs": "N", "concurrency": "N", "service-ip-families": "FAMILIES", "feature-gates": "NAME=BOOL,...", "runtime-config": "KEY=BOOL,...", "shard": "I/N"}
	for _, names := range [][][2]string{limitArgNames, gateArgNames, gitopsArgNames, noiseArgNames, adviceArgNames, renderArgNames,
		pruneArgNames, liveArgNames, reportArgNames, admissionArgNames} {
		for _, n := range names {
			argNames[n[0]] = n[1]
		}
	}
	flagvalue.ApplierArgNames(argNames) // the appliers' options: none has a name above
	return argNames
}

func parseFlags(prog string, args []string, stdout, stderr io.Writer) (*options, int) {
	return parseFlagsFor(prog, args, stdout, stderr, false)
}

// parseFlagsFor parses a prediction's command line, or, for merge, the output flags and
// the reports to merge (merge.go).
func parseFlagsFor(prog string, args []string, stdout, stderr io.Writer, merging bool) (*options, int) {
	cfg := &options{}
	fs, nowFlag, colorFlag, help := flagSet(prog, cfg)
	usage := func(w io.Writer) {
		if merging {
			mergeUsage(w, prog, fs, flagArgNames())
			return
		}
		fmt.Fprintf(w, usageHead, prog, supportedMinors())
		io.WriteString(w, flagvalue.Usages(fs, flagArgNames()))
	}
	fail := func(err error) (*options, int) {
		msg := err.Error()
		if merging {
			msg = "merge: " + msg
		}
		return nil, usageError(stderr, prog, msg)
	}
	if err := fs.Parse(joinServerSideValue(args)); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			usage(stdout)
			return nil, 0
		}
		return fail(err)
	}
	if *help {
		usage(stdout)
		return nil, 0
	}
	if cfg.showVersion {
		return nil, runVersion(prog, nil, stdout, stderr)
	}
	if err := cfg.checkGitOps(fs); err != nil {
		return fail(err)
	}
	pos := fs.Args()
	if merging {
		if err := cfg.checkMerge(fs, pos); err != nil {
			return fail(err)
		}
		pos = []string{"-"} // the merge reads no manifests
	}
	if err := cfg.verbs.check(cfg, &pos); err != nil {
		return fail(err)
	}
	if err := cfg.takeArguments(pos); err != nil {
		return fail(err)
	}
	if err := cfg.check(fs, prog); err != nil {
		return fail(err)
	}
	if err := cfg.checkOutput(*nowFlag, *colorFlag, stdout); err != nil {
		return fail(err)
	}
	return cfg, 0
}

// takeArguments reads the positional arguments: MANIFESTS and LIVE, as the -f, -k and
// command flags leave them to be.
func (cfg *options) takeArguments(pos []string) error {
	switch {
	case cfg.helmRollback():
		// A rollback's manifests are its target revision's, read from the live state.
		if len(cfg.manifests) > 0 || len(cfg.render.kustomize) > 0 || len(pos) > 1 {
			return fmt.Errorf("--helm-command rollback takes no manifests (its target revision's are in the release's record): give LIVE only")
		}
		if len(pos) == 1 {
			cfg.live = pos[0]
		}
	case cfg.verbs.named():
		// The command names its objects; its argument, if any, was LIVE.
	case len(cfg.manifests) == 0 && len(cfg.render.kustomize) > 0 && len(pos) <= 1:
		if len(pos) == 1 {
			cfg.live = pos[0]
		}
	case len(cfg.manifests) == 0 && len(pos) == 0:
		return fmt.Errorf("no manifests given")
	case len(cfg.manifests) == 0 && len(pos) <= 2:
		cfg.manifests = pos[:1]
		if len(pos) == 2 {
			cfg.live = pos[1]
		}
	case len(cfg.manifests) > 0 && len(pos) == 1:
		cfg.live = pos[0]
	case len(cfg.manifests) > 0 && len(pos) == 2:
		cfg.manifests = append(cfg.manifests, pos[0])
		cfg.live = pos[1]
	case len(cfg.manifests) > 0 && len(pos) == 0:
	default:
		return fmt.Errorf("too many arguments: %q (want MANIFESTS [LIVE])", pos)
	}
	return nil
}

// check validates the flags once the arguments are taken, each group by its own check, in
// order, and makes the applier they choose.
func (cfg *options) check(fs *pflag.FlagSet, prog string) error {
	if err := cfg.checkInputPaths(); err != nil {
		return err
	}
	kind, ok := appliers.KindOf(cfg.applier)
	if !ok {
		return fmt.Errorf("--applier must be %s, not %q", orList(appliers.Names()), cfg.applier)
	}
	cfg.applierKind = kind
	for _, check := range []func() error{
		func() error { return cfg.checkKubectlHabits(fs) }, func() error { return cfg.checkHelm(fs) },
		func() error { return cfg.checkGate(fs) }, cfg.checkAdvice, cfg.checkNoise, cfg.checkRender,
		func() error { return cfg.checkPrune(fs) }, func() error { return cfg.checkLive(fs, prog) },
		func() error { return cfg.checkKubeVersion(fs) }, cfg.checkAdmission,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	cfg.applierSettings.Namespace = cfg.namespace
	client, err := cfg.newApplier(cfg.applierSettings)
	if err != nil {
		return err
	}
	cfg.client = client
	if !merge.PredictsSubresource(cfg.subresource) {
		msg := fmt.Sprintf("--subresource must be %s, not %q", orList(merge.Subresources()), cfg.subresource)
		if merge.ServedNotPredicted(cfg.subresource) {
			// Served, with strategies of their own: said not predicted, never predicted wrong.
			msg += fmt.Sprintf(": a write to /%s is not predicted (its strategy and validation are not modelled: docs/rules.md sub.others-not-predicted)", cfg.subresource)
		}
		return errors.New(msg)
	}
	return nil
}

// checkOutput validates the output's flags: the format, the report's, the files, --jobs,
// --now and --color (on stdout).
func (cfg *options) checkOutput(now, color string, stdout io.Writer) error {
	if _, err := output.New(cfg.output, io.Discard, output.Options{}); err != nil {
		return err
	}
	if err := cfg.checkReport(); err != nil {
		return err
	}
	if err := cfg.checkOutputFiles(); err != nil {
		return err
	}
	if cfg.jobs < 1 {
		return fmt.Errorf("--jobs must be at least 1")
	}
	if now == "" {
		cfg.now = time.Now().UTC().Truncate(time.Second)
	} else {
		t, err := time.Parse(time.RFC3339, now)
		if err != nil {
			return fmt.Errorf("--now: %q is not an RFC 3339 time (like 2026-12-02T09:04:26Z)", now)
		}
		cfg.now = t.UTC().Truncate(time.Second)
	}
	switch color {
	case "always":
		cfg.color = true
	case "never":
	case "auto":
		cfg.color = cfg.outputFile == "" && isTerminal(stdout) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	default:
		return fmt.Errorf("--color must be auto, always or never, not %q", color)
	}
	return nil
}

// fieldManagerDefaults says which field manager each applier applies as by default:
// "default: kubectl; argocd-controller and kustomize-controller with --applier argocd and flux".
func fieldManagerDefaults() string {
	var managers, names []string
	for _, k := range appliers.Kinds() {
		if k.Manager != "" && k.Manager != merge.KubectlManager {
			managers, names = append(managers, k.Manager), append(names, k.Name)
		}
	}
	out := "default: " + merge.KubectlManager
	if len(managers) > 0 {
		out += "; " + andList(managers) + " with --applier " + andList(names)
	}
	return out
}

// stringArrayVarP defines a repeatable string flag as pflag's StringArrayVarP does, through flagvalue.Strings
// (pflag's own costs a 4 KiB buffer per flag to define): one name for cli's files, which need not each import it.
func stringArrayVarP(fs *pflag.FlagSet, p *[]string, name, short string, value []string, usage string) {
	flagvalue.StringArrayVarP(fs, p, name, short, value, usage)
}

// orList is "a, b or c"; andList "a, b and c".
func orList(items []string) string  { return joinList(items, " or ") }
func andList(items []string) string { return joinList(items, " and ") }

func joinList(items []string, last string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}

// isTerminal reports whether w is a terminal (emit.IsTerminal).
func isTerminal(w io.Writer) bool { return emit.IsTerminal(w) }
