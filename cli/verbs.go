package cli

import (
	"fmt"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/merge"
)

// verbOptions are the flags of writes other than apply: --verb and --patch-type for raw
// requests (--applier api), --kubectl for a kubectl command.
type verbOptions struct {
	verb      string
	patchType string
	kubectl   string
	// v and pt are verb and patchType read; cmd is --kubectl read.
	v   merge.Verb
	pt  merge.PatchType
	cmd *appliers.KubectlCommand
}

func (v *verbOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&v.verb, "verb", "apply", "The request (--applier api): apply, update (PUT of the whole object), patch (the manifests are patches, of --patch-type; a JSON patch, or a patch that names no object, patches the one object of LIVE) or create (POST).")
	fs.StringVar(&v.patchType, "patch-type", "strategic", "The type of the patches of --verb patch, as kubectl's --type names them: json, merge or strategic.")
	fs.StringVar(&v.kubectl, "kubectl", "", "Predict a kubectl command that writes other than by apply, given as its command line: 'label deploy web tier=gold', 'annotate …', 'scale deploy web --replicas=3', 'set image deploy/web nginx=nginx:1.27', 'patch deploy web -p …', 'replace -f FILE', 'create -f FILE', 'edit deploy web' (MANIFESTS: the objects as saved in the editor), 'debug POD --image=busybox -c debugger' (an ephemeral container; with --copy-to NAME a copy of the pod), 'rollout restart deploy web'. Objects named TYPE NAME are read from LIVE.")
}

// check reads the flags; positional are the positional arguments, which it may take as LIVE.
func (v *verbOptions) check(cfg *options, positional *[]string) error {
	var err error
	if v.v, err = merge.ParseVerb(v.verb); err != nil {
		return fmt.Errorf("--verb: %w", err)
	}
	if v.pt, err = merge.ParsePatchType(v.patchType); err != nil {
		return fmt.Errorf("--patch-type: %w", err)
	}
	if v.v != merge.VerbApply && cfg.applier != "api" {
		return fmt.Errorf("--verb %s is a raw request: use it with --applier api (kubectl's own commands: --kubectl)", v.v)
	}
	if v.kubectl == "" {
		return nil
	}
	if v.v != merge.VerbApply {
		return fmt.Errorf("--kubectl and --verb: the command says what is sent")
	}
	if v.cmd, err = appliers.ParseKubectlCommandLine(v.kubectl); err != nil {
		return fmt.Errorf("--kubectl: %w", err)
	}
	if v.cmd.Namespace != "" {
		cfg.namespace = v.cmd.Namespace
	}
	switch {
	case v.cmd.ReadsFiles():
		cfg.manifests = append(cfg.manifests, v.cmd.Files...)
	case v.cmd.Verb == appliers.KubectlEdit:
		// MANIFESTS are the edited objects.
	default:
		// The objects are the command's: the one positional argument is LIVE.
		if len(*positional) > 1 {
			return fmt.Errorf("--kubectl %s names its objects: the only argument is LIVE, not %q", v.cmd.Verb, *positional)
		}
		if len(*positional) == 1 {
			cfg.live = (*positional)[0]
		}
		*positional = nil
		cfg.manifests = nil
	}
	return nil
}

// named reports a --kubectl command whose objects are named on its command line.
func (v *verbOptions) named() bool {
	return v.cmd != nil && !v.cmd.ReadsFiles() && v.cmd.Verb != appliers.KubectlEdit
}

// rawPatch is the --verb patch document of a pair whose stub names no object: sent as it
// is, with no object (predict.Apply.Patch); nil for the others.
func (c *session) rawPatch(p *input.Pair) *merge.Patch {
	if body, ok := c.in.RawPatches.For(p.Manifest); ok {
		return &merge.Patch{Type: c.verbs.pt, Body: body}
	}
	return nil
}
