package cli

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"
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

var renderArgNames = [][2]string{{"kustomize", "DIR"}, {"source-root", "DIR"}}

func (c *options) addRenderFlags(fs *pflag.FlagSet) {
	stringArrayVarP(fs, &c.render.kustomize, "kustomize", "k", nil, "A kustomization directory, built as `kubectl apply -k` builds it (repeatable); each object is reported at the file it came from, each field at the patch or resource line that sets it. A directory holding a kustomization.yaml given as MANIFESTS is built too.")
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
