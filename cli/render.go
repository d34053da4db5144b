package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/render"
)

// This file holds how manifests are rendered as the appliers render them: kustomizations
// built as `kubectl apply -k` builds them (package render), and `helm template` output on
// standard input attributed to the chart's templates.

// renderOptions are the rendering flags.
type renderOptions struct {
	kustomize  []string
	sourceRoot string
}

var renderArgNames = map[string]string{"kustomize": "DIR", "source-root": "DIR"}

func (c *options) addRenderFlags(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&c.render.kustomize, "kustomize", "k", nil, "A kustomization directory, built as `kubectl apply -k` builds it (repeatable); each object is reported at the file it came from, each field at the patch or resource line that sets it. A directory holding a kustomization.yaml given as MANIFESTS is built too.")
	fs.StringVar(&c.render.sourceRoot, "source-root", "", "Helm: the directory the `# Source:` paths of `helm template` output on standard input are relative to (the chart's parent directory; default: the current one). Each document is reported at its template.")
}

// checkRender validates the rendering flags.
func (c *options) checkRender() error {
	for _, d := range c.render.kustomize {
		info, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("-k %s: %w", d, err)
		}
		if !info.IsDir() || render.KustomizationFile(d) == "" {
			return fmt.Errorf("-k %s: not a directory holding a kustomization.yaml", d)
		}
	}
	return nil
}

// kustomizer is the loader's renderer of kustomization directories met among the manifests.
type kustomizer struct {
	c      *session
	loader *input.Loader
}

func (k kustomizer) Renders(dir string) bool {
	return render.KustomizationFile(dir) != "" || helmChart(dir)
}

func (k kustomizer) Render(dir string) []input.Entry {
	if render.KustomizationFile(dir) == "" {
		return []input.Entry{{Err: input.FileError(dir, fmt.Errorf(
			"a Helm chart (it holds Chart.yaml): its templates are not manifests until Helm renders them, so it is not read as files; render it and give the output on standard input: helm template RELEASE %s | ssa-diff - LIVE (or --applier helm to predict the helm install or upgrade)", dir))}}
	}
	fmt.Fprintf(k.c.stderr, "ssa-diff: %s holds a kustomization: built as `kubectl apply -k %s` builds it, not read as files\n", dir, dir)
	return render.Kustomize(k.loader, dir)
}

// loadManifests reads the manifests: the kustomizations of -k, then the -f paths (paths:
// those of them that are read as manifests), whose kustomization directories are built and
// whose standard input is read as `helm template` output when it has its `# Source:`
// comments.
func (c *session) loadManifests(loader *input.Loader, paths []string) []input.Entry {
	var out []input.Entry
	for _, d := range c.render.kustomize {
		out = append(out, render.Kustomize(loader, d)...)
	}
	loader.Renderer = kustomizer{c: c, loader: loader}
	loader.SourceComments, loader.SourceRoot = true, c.render.sourceRoot
	loader.SourceCommentsInFiles = c.applier == "helm"
	loader.IgnoreFile = c.noise.rules.IgnoreFile
	for _, p := range paths {
		out = append(out, loader.Load(p)...)
	}
	loader.Renderer, loader.IgnoreFile = nil, nil
	loader.SourceComments, loader.SourceCommentsInFiles, loader.SourceRoot = false, false, ""
	return out
}

// helmChart reports a directory holding a Helm chart (Chart.yaml).
func helmChart(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}
