package helmplugin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/cli"
	"github.com/ssa-diff/ssa-diff/internal/helmrelease"
	"github.com/ssa-diff/ssa-diff/internal/helmrender"
	helmcli "helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/cli/values"
)

// Usage is the plugin's usage.
const Usage = `helm ssa-diff predicts what a Helm 4 command does to the cluster: the requests
Helm sends for each object, the objects as the server would store them, who owns which
fields, the conflicts (409) and refusals, and what Helm deletes.

Usage:
  helm ssa-diff install RELEASE CHART [flags]
  helm ssa-diff upgrade RELEASE CHART [flags]
  helm ssa-diff rollback RELEASE [REVISION] [flags]

Helm's flags (as helm install/upgrade/rollback take them):
  -f, --values FILE              values files (repeatable)
      --set, --set-string, --set-file, --set-json, --set-literal KEY=VALUE
      --version VERSION          the chart version (repository and OCI charts)
  -n, --namespace NAME           the release namespace (default: $HELM_NAMESPACE)
      --server-side true|false|auto
      --force-conflicts          apply with force (server-side)
      --take-ownership           adopt existing objects
      --install                  upgrade: install when the release does not exist
      --skip-crds                install: no CRDs of crds/
      --dry-run[=client|server]  what Helm checks before it stops, and what the command
                                 without --dry-run would do
      --reset-values, --reuse-values, --reset-then-reuse-values
      --skip-schema-validation
      --kube-context NAME, --kubeconfig FILE   (--kube-apiserver, --kube-token and
                                 Helm's other connection flags are refused: use a context)
ssa-diff's flags:
      --live FILE                predict against a dump (kubectl get -o json
                                 --show-managed-fields, the release's Secrets included)
                                 instead of reading the cluster
  -o, --output FORMAT            text, diff, json, yaml, markdown, github, junit, html, objects
      --now, --fail-on, --show-managed-fields, --show-secrets, --color, --summary,
      --kube-version, --no-advice, --output-file, --report-html, --save-live
`

// passThrough are ssa-diff's flags the plugin hands on as they are: name → takes a value.
var passThrough = map[string]bool{
	"output": true, "now": true, "fail-on": true, "show-managed-fields": false, "show-secrets": false,
	"color": true, "summary": false, "kube-version": true, "no-advice": false, "output-file": true,
	"report-html": true, "save-live": true,
}

// Main runs the plugin with args (those after `helm ssa-diff`); getenv is the
// environment helm gives its plugins. It returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := pflag.NewFlagSet("helm ssa-diff", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var vals values.Options
	var version, ns, serverSide, kubeContext, kubeconfig, live, dryRun string
	var force, take, install, skipCRDs, reset, reuseV, resetThenReuse, skipSchema, help, debug bool
	_ = stdin
	fs.StringArrayVarP(&vals.ValueFiles, "values", "f", nil, "")
	fs.StringArrayVar(&vals.Values, "set", nil, "")
	fs.StringArrayVar(&vals.StringValues, "set-string", nil, "")
	fs.StringArrayVar(&vals.FileValues, "set-file", nil, "")
	fs.StringArrayVar(&vals.JSONValues, "set-json", nil, "")
	fs.StringArrayVar(&vals.LiteralValues, "set-literal", nil, "")
	fs.StringVar(&version, "version", "", "")
	fs.StringVarP(&ns, "namespace", "n", getenv("HELM_NAMESPACE"), "")
	fs.StringVar(&serverSide, "server-side", "", "")
	fs.BoolVar(&force, "force-conflicts", false, "")
	fs.BoolVar(&take, "take-ownership", false, "")
	fs.BoolVarP(&install, "install", "i", false, "")
	fs.BoolVar(&skipCRDs, "skip-crds", false, "")
	fs.StringVar(&dryRun, "dry-run", "none", "")
	fs.Lookup("dry-run").NoOptDefVal = "unset" // as Helm reads it: the flag alone is client
	fs.BoolVar(&reset, "reset-values", false, "")
	fs.BoolVar(&reuseV, "reuse-values", false, "")
	fs.BoolVar(&resetThenReuse, "reset-then-reuse-values", false, "")
	fs.BoolVar(&skipSchema, "skip-schema-validation", false, "")
	fs.StringVar(&kubeContext, "kube-context", getenv("HELM_KUBECONTEXT"), "")
	fs.StringVar(&kubeconfig, "kubeconfig", getenv("KUBECONFIG"), "")
	fs.BoolVar(&debug, "debug", false, "") // helm's global flag, which a plugin may be given: no effect
	fs.StringVar(&live, "live", "", "")
	fs.BoolVarP(&help, "help", "h", false, "")
	pass := map[string]*string{}
	for name, takesValue := range passThrough {
		pass[name] = new(string)
		short := ""
		if name == "output" {
			short = "o"
		}
		fs.StringVarP(pass[name], name, short, "", "")
		if !takesValue {
			fs.Lookup(name).NoOptDefVal = "true"
		}
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n\n%s", err, Usage)
		return 2
	}
	if help {
		fmt.Fprint(stdout, Usage)
		return 0
	}
	rest := fs.Args()
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "Error: %s\n\n%s", msg, Usage)
		return 2
	}
	if len(rest) < 2 {
		return usage("a command (install, upgrade, rollback) and a release name are required")
	}
	cmd, release := rest[0], rest[1]
	if ns == "" {
		ns = "default"
	}
	revision := 0
	switch cmd {
	case "install", "upgrade":
		if len(rest) != 3 {
			return usage(cmd + " takes RELEASE CHART")
		}
	case "rollback":
		if len(rest) > 3 {
			return usage("rollback takes RELEASE [REVISION]")
		}
		if len(rest) == 3 {
			n, err := strconv.Atoi(rest[2])
			if err != nil {
				return usage(fmt.Sprintf("could not convert revision to a number: %v", err))
			}
			revision = n
		}
	default:
		return usage(fmt.Sprintf("unknown command %q (install, upgrade, rollback)", cmd))
	}
	if live == "" {
		if given := unsupportedConnection(getenv); len(given) > 0 {
			fmt.Fprintf(stderr, "Error: %s: helm ssa-diff reads the cluster through a kubeconfig only (--kubeconfig, --kube-context): put that server and those credentials in a kubeconfig context, or predict offline from a dump with --live FILE\n", strings.Join(given, ", "))
			return 2
		}
	}
	driver := "Secret"
	if d := strings.ToLower(getenv("HELM_DRIVER")); d == "configmap" || d == "configmaps" {
		driver = "ConfigMap"
	}

	settings := helmcli.New()
	settings.KubeContext, settings.KubeConfig = kubeContext, kubeconfig
	settings.SetNamespace(ns)

	cliArgs := []string{"--applier", "helm", "--helm-command", cmd, "--helm-release", release, "--namespace", ns}
	if serverSide != "" {
		cliArgs = append(cliArgs, "--server-side", serverSide)
	}
	for flag, on := range map[string]bool{"--force-conflicts": force, "--take-ownership": take, "--helm-install": install, "--skip-crds": skipCRDs} {
		if on {
			cliArgs = append(cliArgs, flag)
		}
	}
	if driver == "ConfigMap" {
		cliArgs = append(cliArgs, "--helm-driver", "configmap")
	}
	if revision != 0 {
		cliArgs = append(cliArgs, "--helm-revision", strconv.Itoa(revision))
	}
	if fs.Changed("dry-run") {
		cliArgs = append(cliArgs, "--helm-dry-run="+dryRun)
	}
	for _, name := range []string{"output", "now", "fail-on", "show-managed-fields", "show-secrets", "color", "summary", "kube-version", "no-advice", "output-file", "report-html", "save-live"} {
		if f := fs.Lookup(name); f.Changed {
			cliArgs = append(cliArgs, "--"+name+"="+*pass[name])
		}
	}

	var manifest string
	if cmd != "rollback" {
		history, err := readHistory(settings, live, driver, release, ns)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
		o := helmrender.Options{Chart: rest[2], Version: version, Values: vals, Release: release, Namespace: ns,
			Revision: 1, Settings: settings, SkipSchemaValidation: skipSchema, Out: stderr,
			ResetValues: reset, ReuseValues: reuseV, ResetThenReuseValues: resetThenReuse}
		if last := history.Last(); last != nil {
			o.Revision = last.Version + 1
			if cmd == "upgrade" && !(install && last.Status == helmrelease.StatusUninstalled) {
				o.Upgrade = true
				cur := history.Deployed()
				if cur == nil {
					cur = last
				}
				o.Previous = cur.Config
			}
		}
		if live == "" {
			if cfg, err := settings.RESTClientGetter().ToRESTConfig(); err == nil {
				o.Cluster = cfg
				if dc, err := settings.RESTClientGetter().ToDiscoveryClient(); err == nil {
					if v, err := dc.ServerVersion(); err == nil {
						o.KubeVersion = v.GitVersion
					}
				}
			}
		}
		r, err := helmrender.Render(context.Background(), o)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
		for _, h := range r.Hooks {
			fmt.Fprintf(stderr, "helm ssa-diff: the hook %s is not predicted: Helm runs it apart, before or after the manifest\n", h)
		}
		if !(cmd == "install" || o.Revision == 1) || skipCRDs {
			r.CRDs = ""
		}
		manifest = r.CRDs + r.Manifest
		if info, err := os.Stat(rest[2]); err == nil && info.IsDir() {
			cliArgs = append(cliArgs, "--source-root", filepath.Dir(filepath.Clean(rest[2])))
		}
	}
	if manifest != "" {
		cliArgs = append(cliArgs, "-f", "-")
	}
	if live != "" {
		cliArgs = append(cliArgs, live)
	} else {
		cliArgs = append(cliArgs, "--live-from-cluster")
		if kubeconfig != "" {
			cliArgs = append(cliArgs, "--kubeconfig", kubeconfig)
		}
		if kubeContext != "" {
			cliArgs = append(cliArgs, "--context", kubeContext)
		}
	}
	return cli.Main("helm ssa-diff", cliArgs, strings.NewReader(manifest), stdout, stderr, getenv)
}

// readHistory is the release's records: from the dump at live, else listed from the
// cluster (owner=helm, name=<release>) in the release's namespace.
func readHistory(settings *helmcli.EnvSettings, live, driver, release, ns string) (helmrelease.History, error) {
	var objs []map[string]any
	if live != "" {
		b, err := os.ReadFile(live)
		if err != nil {
			return nil, err
		}
		objs, err = dumpObjects(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", live, err)
		}
	} else {
		cs, err := settings.RESTClientGetter().ToRESTConfig()
		if err != nil {
			return nil, fmt.Errorf("the cluster: %w", err)
		}
		objs, err = listRecords(cs, driver, release, ns)
		if err != nil {
			return nil, err
		}
	}
	h, _ := helmrelease.Find(objs, driver, release, ns)
	return h, nil
}

// dumpObjects reads a JSON dump: a List, or one object.
func dumpObjects(b []byte) ([]map[string]any, error) {
	var top map[string]any
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	items, ok := top["items"].([]any)
	if !ok {
		return []map[string]any{top}, nil
	}
	var out []map[string]any
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// helmConnection are the connection flags of Helm that it takes from a plugin's arguments
// and hands on only in the environment, with the variable each is in.
var helmConnection = []struct{ env, flag string }{
	{"HELM_KUBEAPISERVER", "--kube-apiserver"}, {"HELM_KUBETOKEN", "--kube-token"},
	{"HELM_KUBEASUSER", "--kube-as-user"}, {"HELM_KUBEASGROUPS", "--kube-as-group"},
	{"HELM_KUBECAFILE", "--kube-ca-file"}, {"HELM_KUBETLS_SERVER_NAME", "--kube-tls-server-name"},
	{"HELM_KUBEINSECURE_SKIP_TLS_VERIFY", "--kube-insecure-skip-tls-verify"},
}

// unsupportedConnection lists the connection flags of Helm given (their variables set)
// that ssa-diff's reading of the cluster cannot follow: it would read another server, or
// as another user, than Helm renders and records with.
func unsupportedConnection(getenv func(string) string) []string {
	var given []string
	for _, c := range helmConnection {
		v := getenv(c.env)
		if v != "" && !(c.env == "HELM_KUBEINSECURE_SKIP_TLS_VERIFY" && v == "false") {
			given = append(given, c.flag+" ($"+c.env+")")
		}
	}
	return given
}
