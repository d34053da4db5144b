package helmrender

import (
	"context"
	"fmt"
	"io"
	"path"
	"strings"

	"helm.sh/helm/v4/pkg/action"
	chartpkg "helm.sh/helm/v4/pkg/chart"
	"helm.sh/helm/v4/pkg/chart/common"
	cutil "helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/loader"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/engine"
	"helm.sh/helm/v4/pkg/getter"
	"helm.sh/helm/v4/pkg/registry"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
	"k8s.io/client-go/rest"
)

// Options say what to render.
type Options struct {
	// Chart is the chart as `helm upgrade` takes it: a directory, a packaged chart, a
	// repo/chart reference, a URL or an oci:// reference; Version is --version.
	Chart, Version string
	// Values are -f, --set, --set-string, --set-file, --set-json, --set-literal.
	Values values.Options
	// Release, Namespace and Revision are the release's name, namespace and the revision
	// being made; Upgrade says IsUpgrade (else IsInstall).
	Release, Namespace string
	Revision           int
	Upgrade            bool
	// Previous is the values of the release an upgrade starts from (its record's
	// config); ResetValues, ReuseValues and ResetThenReuseValues are the upgrade's flags.
	Previous                                       map[string]any
	ResetValues, ReuseValues, ResetThenReuseValues bool
	// KubeVersion ("v1.37.2") and APIVersions are the capabilities the templates see:
	// the cluster's; KubeVersion "" is Helm's default.
	KubeVersion string
	APIVersions []string
	// Cluster, when set, lets templates call lookup against it, as Helm's install and
	// upgrade do.
	Cluster *rest.Config
	// Settings are Helm's environment (repositories, caches, registry configuration).
	Settings *cli.EnvSettings
	// SkipSchemaValidation is --skip-schema-validation; Out receives what a chart
	// download prints.
	SkipSchemaValidation bool
	Out                  io.Writer
}

// Rendered is what Helm would apply.
type Rendered struct {
	// Manifest is the chart objects as the release record stores them.
	Manifest string
	// CRDs are the chart's crds/ files (subcharts' included), each as a document with its
	// `# Source:` path; Helm installs them on install only.
	CRDs string
	// Hooks names the hooks Helm runs apart from the manifest (not predicted).
	Hooks []string
	// Chart and ChartVersion are the chart's name and version.
	Chart, ChartVersion string
}

// Render loads, values and renders the chart.
func Render(ctx context.Context, o Options) (*Rendered, error) {
	settings := o.Settings
	if settings == nil {
		settings = cli.New()
	}
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	rc, err := registry.NewClient(registry.ClientOptWriter(out), registry.ClientOptCredentialsFile(settings.RegistryConfig), registry.ClientOptEnableCache(true))
	if err != nil {
		return nil, fmt.Errorf("registry client: %w", err)
	}
	locate := action.NewInstall(&action.Configuration{RegistryClient: rc})
	locate.Version = o.Version
	cp, err := locate.LocateChart(o.Chart, settings)
	if err != nil {
		return nil, err
	}
	charter, err := loader.Load(cp)
	if err != nil {
		return nil, err
	}
	ch, ok := charter.(*chart.Chart)
	if !ok {
		return nil, fmt.Errorf("chart %s: only apiVersion v1 and v2 charts are rendered", o.Chart)
	}
	ac, err := chartpkg.NewAccessor(charter)
	if err != nil {
		return nil, err
	}
	if req := ac.MetaDependencies(); len(req) > 0 {
		if err := action.CheckDependencies(charter, req); err != nil {
			return nil, fmt.Errorf("an error occurred while checking for chart dependencies. You may need to run 'helm dependency build' to fetch missing dependencies: %w", err)
		}
	}
	vals, err := o.Values.MergeValues(getter.All(settings))
	if err != nil {
		return nil, err
	}
	if o.Upgrade {
		vals, err = reuse(ch, vals, o)
		if err != nil {
			return nil, err
		}
	}
	if err := chartutil.ProcessDependencies(ch, vals); err != nil {
		return nil, err
	}
	caps := common.DefaultCapabilities.Copy()
	if o.KubeVersion != "" {
		kv, err := common.ParseKubeVersion(o.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("kube version %q: %w", o.KubeVersion, err)
		}
		caps.KubeVersion = *kv
	}
	if o.APIVersions != nil {
		caps.APIVersions = common.VersionSet(o.APIVersions)
	}
	if ch.Metadata.KubeVersion != "" && !chartutil.IsCompatibleRange(ch.Metadata.KubeVersion, caps.KubeVersion.String()) {
		return nil, fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", ch.Metadata.KubeVersion, caps.KubeVersion.Version)
	}
	opts := common.ReleaseOptions{Name: o.Release, Namespace: o.Namespace, Revision: o.Revision, IsInstall: !o.Upgrade, IsUpgrade: o.Upgrade}
	toRender, err := cutil.ToRenderValuesWithSchemaValidation(ch, vals, opts, caps, o.SkipSchemaValidation)
	if err != nil {
		return nil, err
	}
	eng := engine.Engine{}
	if o.Cluster != nil {
		eng = engine.New(o.Cluster)
	}
	files, err := eng.RenderWithContext(ctx, ch, toRender)
	if err != nil {
		return nil, err
	}
	for name := range files {
		if strings.HasSuffix(name, "NOTES.txt") {
			delete(files, name)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, err
	}
	r := &Rendered{Chart: ch.Metadata.Name, ChartVersion: ch.Metadata.Version}
	var b strings.Builder
	for _, m := range manifests {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", m.Name, m.Content)
	}
	r.Manifest = b.String()
	var c strings.Builder
	for _, crd := range ch.CRDObjects() {
		fmt.Fprintf(&c, "---\n# Source: %s\n%s\n", path.Clean(crd.Filename), string(crd.File.Data))
	}
	r.CRDs = c.String()
	for _, h := range hooks {
		r.Hooks = append(r.Hooks, h.Path+" ("+h.Kind+" "+h.Name+")")
	}
	return r, nil
}

// reuse is the values an upgrade renders with, from those given and the previous
// release's (Upgrade.reuseValues).
func reuse(ch *chart.Chart, vals map[string]any, o Options) (map[string]any, error) {
	switch {
	case o.ResetValues:
		return vals, nil
	case o.ReuseValues:
		old, err := cutil.CoalesceValues(ch, o.Previous)
		if err != nil {
			return nil, fmt.Errorf("failed to rebuild old values: %w", err)
		}
		vals = cutil.CoalesceTables(vals, o.Previous)
		ch.Values = old
		return vals, nil
	case o.ResetThenReuseValues:
		return cutil.CoalesceTables(vals, o.Previous), nil
	case len(vals) == 0 && len(o.Previous) > 0:
		return o.Previous, nil
	}
	return vals, nil
}
