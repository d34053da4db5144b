package appliers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// The kubectl commands that write without applying, as KubectlCommand.Verb names them.
const (
	KubectlLabel    = "label"
	KubectlAnnotate = "annotate"
	KubectlScale    = "scale"
	KubectlSetImage = "set image"
	KubectlPatch    = "patch"
	KubectlEdit     = "edit"
	KubectlReplace  = "replace"
	KubectlCreate   = "create"
	KubectlDebug    = "debug"
	KubectlRestart  = "rollout restart"
)

// KubectlCommands are the verbs of KubectlCommand, in kubectl's help order.
var KubectlCommands = []string{KubectlCreate, KubectlEdit, KubectlPatch, KubectlReplace, KubectlScale, KubectlLabel, KubectlAnnotate, KubectlSetImage, KubectlDebug, KubectlRestart}

// ErrKubectlCommand is wrapped by the errors of ParseKubectlCommand.
var ErrKubectlCommand = errors.New("not a kubectl command ssa-diff predicts")

// A KubectlCommand is one kubectl (1.37) command that writes objects other than by apply —
// `kubectl create`, `edit`, `patch`, `replace`, `scale`, `label`, `annotate`, `set image` —
// as its command line says (ParseKubectlCommand). It is an Applier: for one object it sends
// the request kubectl sends, as kubectl's field manager, and predicts the server's answer
// (see Apply).
type KubectlCommand struct {
	// Verb is one of KubectlCommands.
	Verb string
	// Resource is the TYPE the command line names ("deployment", "deploy",
	// "deployments.apps"), Names the objects of it; empty for the commands that read files
	// (-f).
	Resource string
	Names    []string
	// Files are -f/--filename: the objects to create or replace, or the edited objects of
	// edit (the object kubectl opened in the editor, as the user saved it).
	Files []string
	// Namespace is -n/--namespace, "" for kubectl's default.
	Namespace string
	// FieldManager is --field-manager; "" for the command's own (Manager).
	FieldManager string
	// Subresource is --subresource (patch, edit): "status" or "scale".
	Subresource string

	// Labels or annotations set (label, annotate): KEY=VALUE, in the order given; Remove
	// the keys of KEY- arguments.
	Set    []KeyValue
	Remove []string
	// Overwrite is --overwrite: a key may change value.
	Overwrite bool
	// ResourceVersion is --resource-version (label, annotate): the write's optimistic lock.
	ResourceVersion string

	// Replicas is --replicas (scale).
	Replicas int64
	// Images are the CONTAINER=IMAGE arguments of set image (CONTAINER "*" for all).
	Images []KeyValue
	// Patch is -p/--patch with --type (patch): strategic by default.
	Patch merge.Patch

	// Debug is what kubectl debug adds to the pod it names (an ephemeral container), or
	// to the copy of it it creates (Debug.Copy).
	Debug DebugContainer

	replicasGiven bool
	// refused is kubectl's own error before it reads any object ("" when it goes on).
	refused string
}

// DebugContainer is the container of `kubectl debug POD`, as its flags say: an ephemeral
// container added to the pod, or with --copy-to (Copy) a container of a copy of the pod.
type DebugContainer struct {
	// Image is --image; Container -c/--container, "" for kubectl's name drawn at random
	// (debugger-XXXXX); Target --target, the container whose processes it shares.
	Image, Container, Target string
	// PullPolicy is --image-pull-policy.
	PullPolicy string
	// Stdin and TTY are -i/--stdin and -t/--tty.
	Stdin, TTY bool
	// Env are the --env NAME=VALUE flags, in order.
	Env []KeyValue
	// Profile is --profile: general (kubectl's default), baseline, restricted, netadmin,
	// sysadmin or legacy.
	Profile string
	// Command is what follows "--": the container's command, or its args with
	// --arguments-only (ArgsOnly).
	Command  []string
	ArgsOnly bool
	// Attach is --attach as given (nil: not given; kubectl then attaches with -i).
	Attach *bool

	// Copy is what --copy-to and the flags that go with it say: a copy of the pod, created
	// with the container added or changed (nil: an ephemeral container instead).
	Copy *DebugCopy
}

// DebugCopy is `kubectl debug POD --copy-to NAME`'s copy of the pod, as its flags say.
type DebugCopy struct {
	// Name is --copy-to: the new pod's name.
	Name string
	// Replace is --replace: kubectl deletes the pod copied once the copy is created.
	Replace bool
	// SameNode is --same-node: the copy keeps the pod's spec.nodeName.
	SameNode bool
	// SetImages are the --set-image CONTAINER=IMAGE pairs ("*" for every container), in
	// order; a later pair for the same container wins, as in kubectl's map.
	SetImages []KeyValue
	// ShareProcesses is --share-processes when given (nil: not given, and the profile
	// shares the process namespace unless the pod says otherwise).
	ShareProcesses *bool
	// Keep are the --keep-labels, --keep-annotations, --keep-liveness, --keep-readiness,
	// --keep-startup and --keep-init-containers flags (the last true unless given false).
	KeepLabels, KeepAnnotations, KeepLiveness, KeepReadiness, KeepStartup, KeepInitContainers bool
	// Existing is the pod already named Name, when the caller knows one (nil: none, or the
	// pod copied when Name is its own): the POST of the copy then answers 409.
	Existing map[string]any
}

// KeyValue is one KEY=VALUE argument.
type KeyValue struct{ Key, Value string }

// ParseKubectlCommand reads a kubectl command line (without "kubectl"): `label deploy web
// tier=gold --overwrite`, `scale deployment/web --replicas=3`, `set image deploy/web
// nginx=nginx:1.27`, `patch deploy web --type merge -p '{...}'`, `replace -f web.yaml`,
// `create -f web.yaml`, `edit deploy web`. Flags that change what is sent are read; flags
// of output and verbosity (-o, -v, --vmodule, --validate …) are accepted and change
// nothing; any other flag is an error, as is a command that writes nothing or that
// ssa-diff does not predict (a --dry-run, --local, --all, --selector).
func ParseKubectlCommand(args []string) (*KubectlCommand, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: an empty command line", ErrKubectlCommand)
	}
	c := &KubectlCommand{Verb: args[0]}
	rest := args[1:]
	if args[0] == "set" {
		if len(args) < 2 || args[1] != "image" {
			return nil, fmt.Errorf("%w: kubectl set: only set image is predicted", ErrKubectlCommand)
		}
		c.Verb, rest = KubectlSetImage, args[2:]
	}
	if args[0] == "rollout" {
		if len(args) < 2 || args[1] != "restart" {
			return nil, fmt.Errorf("%w: kubectl rollout: only rollout restart is predicted", ErrKubectlCommand)
		}
		c.Verb, rest = KubectlRestart, args[2:]
	}
	known := false
	for _, v := range KubectlCommands {
		known = known || v == c.Verb
	}
	if !known {
		return nil, fmt.Errorf("%w: kubectl %s (predicted: apply, %s)", ErrKubectlCommand, c.Verb, strings.Join(KubectlCommands, ", "))
	}
	c.Patch.Type = merge.StrategicPatch
	c.Debug.Profile = debugProfileGeneral
	var positional []string
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		if arg == "--" {
			if c.Verb == KubectlDebug {
				c.Debug.Command = append([]string(nil), rest[i+1:]...)
			} else {
				positional = append(positional, rest[i+1:]...)
			}
			break
		}
		if c.Verb == KubectlDebug && (arg == "-it" || arg == "-ti") {
			c.Debug.Stdin, c.Debug.TTY = true, true
			continue
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			positional = append(positional, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		short := !strings.HasPrefix(arg, "--")
		next := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(rest) {
				return "", fmt.Errorf("%w: flag %s needs a value", ErrKubectlCommand, arg)
			}
			i++
			return rest[i], nil
		}
		boolean := func() (bool, error) {
			if !hasValue {
				return true, nil
			}
			b, err := strconv.ParseBool(value)
			if err != nil {
				return false, fmt.Errorf("%w: flag %s: %v", ErrKubectlCommand, arg, err)
			}
			return b, nil
		}
		var err error
		switch {
		case name == "n" && short, name == "namespace" && !short:
			c.Namespace, err = next()
		case name == "f" && short, name == "filename" && !short:
			var f string
			if f, err = next(); err == nil {
				c.Files = append(c.Files, f)
			}
		case name == "field-manager":
			c.FieldManager, err = next()
		case name == "subresource":
			c.Subresource, err = next()
		case name == "overwrite":
			c.Overwrite, err = boolean()
		case name == "resource-version":
			c.ResourceVersion, err = next()
		case name == "replicas":
			var v string
			if v, err = next(); err == nil {
				c.Replicas, err = strconv.ParseInt(v, 10, 64)
				c.replicasGiven = true
				if err != nil || c.Replicas < 0 {
					err = fmt.Errorf("%w: --replicas=%s: must be a number of replicas", ErrKubectlCommand, v)
				}
			}
		case name == "type":
			var v string
			if v, err = next(); err == nil {
				if c.Patch.Type, err = merge.ParsePatchType(v); err != nil {
					err = fmt.Errorf("%w: --type: %v", ErrKubectlCommand, err)
				}
			}
		case name == "p" && short, name == "patch" && !short:
			var v string
			if v, err = next(); err == nil {
				c.Patch.Body = []byte(v)
			}
		case c.Verb == KubectlDebug && (name == "image" || name == "target" || name == "image-pull-policy" || name == "profile" ||
			name == "c" && short || name == "container" && !short):
			var v string
			if v, err = next(); err == nil {
				c.setDebugFlag(name, v)
			}
		case c.Verb == KubectlDebug && name == "env":
			var v string
			if v, err = next(); err == nil {
				k, val, _ := strings.Cut(v, "=")
				c.Debug.Env = append(c.Debug.Env, KeyValue{k, val})
			}
		case c.Verb == KubectlDebug && (name == "i" && short || name == "stdin" && !short):
			c.Debug.Stdin, err = boolean()
		case c.Verb == KubectlDebug && (name == "t" && short || name == "tty" && !short):
			c.Debug.TTY, err = boolean()
		case c.Verb == KubectlDebug && name == "arguments-only":
			c.Debug.ArgsOnly, err = boolean()
		case c.Verb == KubectlDebug && name == "attach":
			var b bool
			if b, err = boolean(); err == nil {
				c.Debug.Attach = &b
			}
		case c.Verb == KubectlDebug && (name == "q" && short || name == "quiet" && !short):
			// kubectl's messages, not the write.
			_, err = boolean()
		case c.Verb == KubectlDebug && debugCopyFlag(name):
			err = c.setDebugCopyFlag(name, next, boolean)
		case name == "o" && short, name == "output" && !short, name == "vmodule":
			_, err = next()
		case name == "v" && short, name == "validate", name == "show-managed-fields", name == "record":
		default:
			return nil, fmt.Errorf("%w: kubectl %s: flag %s is not predicted", ErrKubectlCommand, c.Verb, arg)
		}
		if err != nil {
			return nil, err
		}
	}
	return c, c.readPositional(positional)
}

// setDebugFlag sets one of kubectl debug's flags with a value.
func (c *KubectlCommand) setDebugFlag(name, v string) {
	switch name {
	case "image":
		c.Debug.Image = v
	case "target":
		c.Debug.Target = v
	case "image-pull-policy":
		c.Debug.PullPolicy = v
	case "profile":
		c.Debug.Profile = v
	default:
		c.Debug.Container = v
	}
}

// readPositional reads TYPE NAME… (or TYPE/NAME…) and the command's own arguments.
func (c *KubectlCommand) readPositional(args []string) error {
	if c.Verb == KubectlDebug {
		return c.readDebugTarget(args)
	}
	if len(c.Files) > 0 {
		if c.Verb != KubectlCreate && c.Verb != KubectlReplace && c.Verb != KubectlEdit {
			return fmt.Errorf("%w: kubectl %s -f (the objects of files) is not predicted: name them TYPE NAME", ErrKubectlCommand, c.Verb)
		}
		if len(args) > 0 {
			return fmt.Errorf("%w: kubectl %s -f takes no arguments (%s)", ErrKubectlCommand, c.Verb, strings.Join(args, " "))
		}
		return nil
	}
	switch c.Verb {
	case KubectlCreate, KubectlReplace:
		return fmt.Errorf("%w: kubectl %s needs -f FILE", ErrKubectlCommand, c.Verb)
	}
	var pairs []string
	for len(args) > 0 {
		a := args[0]
		isPair := strings.Contains(a, "=") || (c.Verb == KubectlLabel || c.Verb == KubectlAnnotate) && strings.HasSuffix(a, "-")
		if isPair && c.Resource != "" {
			pairs = args
			break
		}
		args = args[1:]
		if typ, name, ok := strings.Cut(a, "/"); ok {
			if c.Resource != "" && c.Resource != typ {
				return fmt.Errorf("%w: one type of object at a time (%s and %s)", ErrKubectlCommand, c.Resource, typ)
			}
			c.Resource = typ
			c.Names = append(c.Names, name)
			continue
		}
		if c.Resource == "" {
			c.Resource = a
			continue
		}
		c.Names = append(c.Names, a)
	}
	if c.Resource == "" || len(c.Names) == 0 {
		return fmt.Errorf("%w: kubectl %s names no object (TYPE NAME or TYPE/NAME)", ErrKubectlCommand, c.Verb)
	}
	switch c.Verb {
	case KubectlLabel, KubectlAnnotate:
		if len(pairs) == 0 {
			return fmt.Errorf("%w: kubectl %s: at least one KEY=VALUE or KEY- is required", ErrKubectlCommand, c.Verb)
		}
		for _, p := range pairs {
			if k, v, ok := strings.Cut(p, "="); ok {
				c.Set = append(c.Set, KeyValue{k, v})
			} else if k, ok := strings.CutSuffix(p, "-"); ok && k != "" {
				c.Remove = append(c.Remove, k)
			} else {
				return fmt.Errorf("%w: kubectl %s: %q is neither KEY=VALUE nor KEY-", ErrKubectlCommand, c.Verb, p)
			}
		}
	case KubectlSetImage:
		if len(pairs) == 0 {
			return fmt.Errorf("%w: kubectl set image: at least one CONTAINER=IMAGE is required", ErrKubectlCommand)
		}
		for _, p := range pairs {
			k, v, _ := strings.Cut(p, "=")
			c.Images = append(c.Images, KeyValue{k, v})
		}
	default:
		if len(pairs) > 0 {
			return fmt.Errorf("%w: kubectl %s: unexpected arguments %s", ErrKubectlCommand, c.Verb, strings.Join(pairs, " "))
		}
	}
	if c.Verb == KubectlPatch && len(c.Patch.Body) == 0 {
		return fmt.Errorf("%w: kubectl patch needs -p PATCH", ErrKubectlCommand)
	}
	if c.Verb == KubectlScale && !c.replicasGiven {
		return fmt.Errorf("%w: kubectl scale needs --replicas", ErrKubectlCommand)
	}
	return nil
}

// ReadsFiles reports a command whose objects come from files (-f): create and replace,
// and edit with -f. The others name their objects, which must exist.
func (c *KubectlCommand) ReadsFiles() bool { return len(c.Files) > 0 }

// Name is "kubectl " and the command ("kubectl set image").
func (c *KubectlCommand) Name() string { return "kubectl " + c.Verb }

// Manager is the field manager the command writes as: --field-manager, else kubectl's
// default for the command ("kubectl-label", "kubectl-set" …). `kubectl scale` and `kubectl
// debug` send none: the server names the entry after kubectl's User-Agent, "kubectl".
func (c *KubectlCommand) Manager() string {
	if c.FieldManager != "" {
		return c.FieldManager
	}
	switch c.Verb {
	case KubectlScale, KubectlDebug:
		return "kubectl"
	case KubectlSetImage:
		return "kubectl-set"
	case KubectlRestart:
		return "kubectl-rollout"
	}
	return "kubectl-" + c.Verb
}

// AlwaysForces is false: nothing but an apply conflicts.
func (c *KubectlCommand) AlwaysForces() bool { return false }

// Subresources is true for patch and edit (--subresource).
func (c *KubectlCommand) Subresources() bool { return c.Verb == KubectlPatch || c.Verb == KubectlEdit }

// SendsNamespace is true: kubectl sends every object to a namespace's URL, the object's own
// or --namespace.
func (c *KubectlCommand) SendsNamespace() bool { return true }

// Prunes nothing.
func (c *KubectlCommand) Prunes(PruneCandidate) string { return "" }

// kubectlShortNames are the short names kubectl's discovery gives the built-in resources.
var kubectlShortNames = map[string]string{
	"cm": "configmaps", "cj": "cronjobs", "crd": "customresourcedefinitions", "crds": "customresourcedefinitions",
	"csr": "certificatesigningrequests", "deploy": "deployments", "ds": "daemonsets", "ep": "endpoints", "ev": "events",
	"hpa": "horizontalpodautoscalers", "ing": "ingresses", "limits": "limitranges", "netpol": "networkpolicies", "no": "nodes",
	"ns": "namespaces", "pc": "priorityclasses", "pdb": "poddisruptionbudgets", "po": "pods", "pv": "persistentvolumes",
	"pvc": "persistentvolumeclaims", "quota": "resourcequotas", "rc": "replicationcontrollers", "rs": "replicasets",
	"sa": "serviceaccounts", "sc": "storageclasses", "sts": "statefulsets", "svc": "services",
}

// Objects are the objects the command names (TYPE NAME…), as stubs — apiVersion, kind,
// metadata.name and, for a namespaced kind, metadata.namespace (the command's, else
// defaultNamespace) — to be paired with the live objects they write. TYPE is resolved as
// kubectl's discovery resolves it: a resource's plural, its kind or singular (any case),
// either with ".GROUP", or a built-in short name; the version is the kind's preferred
// served one. nil for the commands that read files.
func (c *KubectlCommand) Objects(reg *schema.Registry, defaultNamespace string) ([]map[string]any, error) {
	if c.ReadsFiles() || c.Resource == "" {
		return nil, nil
	}
	t, err := resolveResource(reg, c.Resource)
	if err != nil {
		return nil, err
	}
	ns := c.Namespace
	if ns == "" {
		ns = defaultNamespace
	}
	var out []map[string]any
	for _, name := range c.Names {
		md := map[string]any{"name": name}
		if t.Namespaced {
			md["namespace"] = ns
		}
		out = append(out, map[string]any{"apiVersion": t.GVK.APIVersion(), "kind": t.GVK.Kind, "metadata": md})
	}
	return out, nil
}

// resolveResource finds the served type a kubectl TYPE names.
func resolveResource(reg *schema.Registry, typ string) (*schema.Type, error) {
	name, group, _ := strings.Cut(strings.ToLower(typ), ".")
	if full, ok := kubectlShortNames[name]; ok && group == "" {
		name = full
	}
	var found *schema.Type
	for _, gvk := range reg.GVKs() {
		t, ok := reg.Lookup(gvk)
		if !ok || !t.Served || t.Resource == "" || (group != "" && gvk.Group != group) {
			continue
		}
		if t.Resource != name && strings.ToLower(gvk.Kind) != name {
			continue
		}
		// The preferred version: GVKs lists a kind's versions in the server's order.
		if found == nil || (found.GVK.Group == gvk.Group && found.GVK.Kind == gvk.Kind) {
			if found == nil {
				found = t
			}
			continue
		}
		if found.GVK.Group != gvk.Group && group == "" && found.GVK.Group != "" && gvk.Group == "" {
			found = t // the core group first, as kubectl's discovery prefers it
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%w: the server doesn't have a resource type %q", ErrKubectlCommand, typ)
	}
	return found, nil
}

// ParseKubectlCommandLine is ParseKubectlCommand of a command line as a shell would split
// it (SplitCommandLine), with or without a leading "kubectl".
func ParseKubectlCommandLine(line string) (*KubectlCommand, error) {
	args, err := SplitCommandLine(line)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKubectlCommand, err)
	}
	if len(args) > 0 && args[0] == "kubectl" {
		args = args[1:]
	}
	return ParseKubectlCommand(args)
}

// SplitCommandLine splits a command line as a POSIX shell splits words: blanks separate,
// single quotes keep everything, double quotes keep all but \" and \\, a backslash escapes.
func SplitCommandLine(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
