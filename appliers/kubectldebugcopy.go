package appliers

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// debugCopyFlag reports the flags of kubectl debug that shape a copy of the pod
// (--copy-to and the flags that only work with it).
func debugCopyFlag(name string) bool {
	switch name {
	case "copy-to", "replace", "same-node", "set-image", "share-processes", "keep-labels", "keep-annotations",
		"keep-liveness", "keep-readiness", "keep-startup", "keep-init-containers":
		return true
	}
	return false
}

// setDebugCopyFlag reads one of the flags debugCopyFlag names into c.Debug.Copy, made on
// the first of them with kubectl's defaults.
func (c *KubectlCommand) setDebugCopyFlag(name string, next func() (string, error), boolean func() (bool, error)) error {
	cp := c.Debug.Copy
	if cp == nil {
		cp = &DebugCopy{KeepInitContainers: true}
		c.Debug.Copy = cp
	}
	var b bool
	var err error
	switch name {
	case "copy-to":
		cp.Name, err = next()
		return err
	case "set-image":
		v, err := next()
		if err != nil {
			return err
		}
		// pflag's string-to-string: comma-separated KEY=VALUE pairs, flags merged.
		for _, pair := range strings.Split(v, ",") {
			k, img, ok := strings.Cut(pair, "=")
			if !ok {
				return fmt.Errorf("%w: --set-image %s: %s must be formatted as key=value", ErrKubectlCommand, v, pair)
			}
			cp.SetImages = append(cp.SetImages, KeyValue{k, img})
		}
		return nil
	}
	if b, err = boolean(); err != nil {
		return err
	}
	switch name {
	case "replace":
		cp.Replace = b
	case "same-node":
		cp.SameNode = b
	case "share-processes":
		cp.ShareProcesses = &b
	case "keep-labels":
		cp.KeepLabels = b
	case "keep-annotations":
		cp.KeepAnnotations = b
	case "keep-liveness":
		cp.KeepLiveness = b
	case "keep-readiness":
		cp.KeepReadiness = b
	case "keep-startup":
		cp.KeepStartup = b
	case "keep-init-containers":
		cp.KeepInitContainers = b
	}
	return nil
}

// debugValidate is what kubectl debug (1.37) refuses before it reads the pod, in its order,
// worded as it prints it behind "error: " (exit 1); "" when it goes on. Flags that only
// work with --copy-to are dropped when it is not given.
func (c *KubectlCommand) debugValidate() string {
	d := &c.Debug
	cp := d.Copy
	if cp != nil && cp.Name == "" {
		switch {
		case cp.Replace:
			return "--replace may only be used with --copy-to."
		case cp.SameNode:
			return "--same-node may only be used with --copy-to."
		case len(cp.SetImages) > 0:
			return "--set-image may only be used with --copy-to."
		}
		d.Copy, cp = nil, nil
	}
	switch {
	case d.Attach != nil && *d.Attach && d.Image == "" && d.Container == "":
		return "you must specify --container or create a new container using --image in order to attach."
	case cp != nil && d.Image == "" && len(cp.SetImages) == 0 && len(d.Command) == 0:
		return "you must specify --image, --set-image or command arguments."
	case cp != nil && len(d.Command) > 0 && d.Container == "" && d.Image == "":
		return "you must specify an existing container or a new image when specifying args."
	case cp == nil && d.Image == "":
		return "you must specify --image when not using --copy-to."
	case d.Image != "" && !imageReference(d.Image):
		return fmt.Sprintf("invalid image name %q: invalid reference format", d.Image)
	}
	switch d.PullPolicy {
	case "", "Always", "IfNotPresent", "Never":
	default:
		return "invalid image pull policy: " + d.PullPolicy
	}
	if cp != nil {
		for _, kv := range cp.SetImages {
			if !imageReference(kv.Value) {
				return fmt.Sprintf("invalid image name %q for container %q: invalid reference format", kv.Value, kv.Key)
			}
		}
	}
	switch {
	case cp != nil && d.Target != "":
		return "--target is incompatible with --copy-to. Use --share-processes instead."
	case d.TTY && !d.Stdin:
		return "-i/--stdin is required for containers with -t/--tty=true"
	}
	return ""
}

// imageReferencePattern is the grammar of an image reference kubectl debug checks its
// images against (the distribution project's reference grammar, as its documentation
// states it): [HOST[:PORT]/]PATH[:TAG][@DIGEST], PATH lower-case components separated by
// "/", each of alphanumerics joined by ".", "_", "__" or dashes. Compiled when first used.
var imageReferencePattern = sync.OnceValue(func() *regexp.Regexp {
	const (
		component = `[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`
		label     = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		host      = `(?:` + label + `(?:\.` + label + `)*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?`
		tag       = `[\w][\w.-]{0,127}`
		digest    = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	)
	return regexp.MustCompile(`^(?:` + host + `/)?` + component + `(?:/` + component + `)*(?::` + tag + `)?(?:@` + digest + `)?$`)
})

// imageReference reports an image kubectl debug takes.
func imageReference(image string) bool { return imageReferencePattern().MatchString(image) }

// debugCopyPod is the pod kubectl debug --copy-to creates from live (the pod as kubectl
// read it): its name, namespace, labels and annotations, and its spec without ephemeral
// containers, the node name unless --same-node, the --set-image images; the container
// -c names changed, or a new one added (the name kubectl draws at random when -c is not
// given: DebugRandomName), as --image, the command, --env, --image-pull-policy, -i and -t
// say; then the profile's changes (debugCopyProfile). A copy that only sets images gets
// no profile. refused is kubectl's error after its GET ("" when it sends the copy); notes
// say what the prediction rests on.
func (c *KubectlCommand) debugCopyPod(live map[string]any) (pod map[string]any, refused string, notes []string) {
	d, cp := c.Debug, c.Debug.Copy
	md := map[string]any{"name": cp.Name}
	lmd := unstructured.Object(live, "metadata")
	if ns := unstructured.Str(lmd, "namespace"); ns != "" {
		md["namespace"] = ns
	}
	for _, k := range []string{"labels", "annotations"} {
		if m := unstructured.Object(lmd, k); len(m) > 0 {
			md[k] = unstructured.DeepCopy(m)
		}
	}
	spec := unstructured.DeepCopyObject(unstructured.Object(live, "spec"))
	if spec == nil {
		spec = map[string]any{}
	}
	pod = map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec}
	delete(spec, "ephemeralContainers")
	if cp.ShareProcesses != nil {
		spec["shareProcessNamespace"] = *cp.ShareProcesses
	}
	if !cp.SameNode {
		delete(spec, "nodeName")
	}
	images := map[string]string{}
	for _, kv := range cp.SetImages {
		images[kv.Key] = kv.Value
	}
	for _, ctr := range unstructured.Objects(spec, "containers") {
		img := images["*"]
		if v, ok := images[unstructured.Str(ctr, "name")]; ok {
			img = v
		}
		if img != "" {
			ctr["image"] = img
		}
	}
	name := d.Container
	ctr := podContainer(spec, name, "containers", "initContainers")
	if ctr == nil {
		switch {
		case d.Image == "" && len(cp.SetImages) > 0:
			return pod, "", nil // --set-image alone: the copy as it is, without the profile
		case d.Image == "":
			return nil, "you must specify image when creating new container", nil
		}
		if name == "" {
			name = DebugRandomName
			notes = append(notes, "kubectl debug names the new container debugger-XXXXX at random: "+DebugRandomName+" stands for that name")
		}
		ctr = map[string]any{"name": name, "terminationMessagePolicy": "File", "resources": map[string]any{}}
		spec["containers"] = append(unstructured.List(spec, "containers"), ctr)
	}
	if len(d.Command) > 0 {
		if d.ArgsOnly {
			ctr["args"] = stringList(d.Command)
		} else {
			ctr["command"] = stringList(d.Command)
			delete(ctr, "args")
		}
	}
	if len(d.Env) > 0 {
		ctr["env"] = debugEnv(d.Env)
		if len(d.Env) > 1 {
			notes = append(notes, debugEnvOrderNote)
		}
	}
	if d.Image != "" {
		ctr["image"] = d.Image
	}
	if d.PullPolicy != "" {
		ctr["imagePullPolicy"] = d.PullPolicy
	}
	setOrDrop(ctr, "stdin", d.Stdin)
	setOrDrop(ctr, "tty", d.TTY)
	debugCopyProfile(pod, unstructured.Str(ctr, "name"), d.Profile, cp)
	if w := nonRootWarning(spec, podContainer(spec, unstructured.Str(ctr, "name"), "containers")); w != "" {
		notes = append(notes, w)
	}
	attach := d.Stdin // kubectl attaches with -i unless --attach says
	if d.Attach != nil {
		attach = *d.Attach
	}
	if attach {
		notes = append(notes, "kubectl then waits for the copy to run and attaches to its container (--attach)")
	}
	return pod, "", notes
}

// debugCopyProfile makes a profile's changes to a copy of a pod (kubectl 1.37
// pkg/cmd/debug/profiles.go, read for what each does to a copy): the container's security
// context as the profile sets it (as for an ephemeral container: debugSecurityContext),
// and for every profile but legacy the labels, annotations, the probes of the containers
// (not the init containers') and the init containers dropped unless kept (--keep-*), and
// the process namespace shared unless the pod says. legacy drops the labels only, whatever --keep-labels says.
func debugCopyProfile(pod map[string]any, name, profile string, cp *DebugCopy) {
	spec, md := unstructured.Object(pod, "spec"), unstructured.Object(pod, "metadata")
	ctr := podContainer(spec, name, "initContainers", "containers")
	sc := func() map[string]any { return unstructured.EnsureObject(ctr, "securityContext") }
	addCaps := func(caps ...string) {
		c := unstructured.EnsureObject(sc(), "capabilities")
		for _, cap := range caps {
			c["add"] = append(unstructured.List(c, "add"), cap)
		}
	}
	switch profile {
	case debugProfileLegacy:
		delete(md, "labels")
		return
	case debugProfileGeneral:
		addCaps("SYS_PTRACE")
	case debugProfileBaseline:
		delete(ctr, "securityContext")
	case debugProfileRestricted:
		delete(ctr, "securityContext")
		s := sc()
		s["runAsNonRoot"] = true
		s["capabilities"] = map[string]any{"drop": []any{"ALL"}}
		s["allowPrivilegeEscalation"] = false
		s["seccompProfile"] = map[string]any{"type": "RuntimeDefault"}
	case debugProfileNetadmin:
		addCaps("NET_ADMIN", "NET_RAW")
	case debugProfileSysadmin:
		sc()["privileged"] = true
	}
	if !cp.KeepLabels {
		delete(md, "labels")
	}
	if !cp.KeepAnnotations {
		delete(md, "annotations")
	}
	for _, c := range unstructured.Objects(spec, "containers") {
		for probe, keep := range map[string]bool{"livenessProbe": cp.KeepLiveness, "readinessProbe": cp.KeepReadiness, "startupProbe": cp.KeepStartup} {
			if !keep {
				delete(c, probe)
			}
		}
	}
	if !cp.KeepInitContainers {
		delete(spec, "initContainers")
	}
	if _, ok := spec["shareProcessNamespace"]; !ok {
		spec["shareProcessNamespace"] = true
	}
}

// nonRootWarning is kubectl's warning when the pod runs as a user other than root and the
// debug container (one of its containers; nil: none), not run as root itself, is given
// capabilities or privileges.
func nonRootWarning(spec, ctr map[string]any) string {
	if ctr == nil {
		return ""
	}
	uid, ok := unstructured.Int(unstructured.Nested(spec, "securityContext", "runAsUser"))
	if !ok || uid == 0 {
		return ""
	}
	sc := unstructured.Object(ctr, "securityContext")
	if sc == nil {
		return ""
	}
	if u, ok := unstructured.Int(sc["runAsUser"]); ok && u == 0 {
		return ""
	}
	if p, _ := sc["privileged"].(bool); !p && len(unstructured.List(unstructured.Object(sc, "capabilities"), "add")) == 0 {
		return ""
	}
	return `kubectl warns: Non-root user is configured for the entire target Pod, and some capabilities granted by debug profile may not work. Please consider using "--custom" with a custom profile that specifies "securityContext.runAsUser: 0".`
}

// podContainer is the container of spec named name, in the first of lists that has one.
func podContainer(spec map[string]any, name string, lists ...string) map[string]any {
	for _, l := range lists {
		for _, c := range unstructured.Objects(spec, l) {
			if unstructured.Str(c, "name") == name {
				return c
			}
		}
	}
	return nil
}

// setOrDrop sets m[k] true, or leaves it out as a Go client's false (omitempty).
func setOrDrop(m map[string]any, k string, v bool) {
	if v {
		m[k] = true
	} else {
		delete(m, k)
	}
}

// debugEnvOrderNote is said of a debug container given several --env: kubectl keeps them in
// a Go map, so the order it sends them in is its own.
const debugEnvOrderNote = "kubectl reads --env into a map: the container's variables are in an order of its own, not necessarily this one"

// debugEnv is the --env flags as the container's env list, in the command line's order.
func debugEnv(env []KeyValue) []any {
	out := make([]any, len(env))
	for i, kv := range env {
		out[i] = map[string]any{"name": kv.Key, "value": kv.Value}
	}
	return out
}

// stringList is ss as a JSON list.
func stringList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// sendDebugCopy predicts kubectl debug --copy-to once kubectl has read the pod (live): the
// POST of the copy to the pod's namespace, without fieldManager (the entry is kubectl's
// User-Agent's, "kubectl", operation Update), answered 409 when a pod of that name exists;
// with --replace kubectl then deletes the pod copied, which the result's warnings say.
func (c *KubectlCommand) sendDebugCopy(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	cp := c.Debug.Copy
	pod, refused, notes := c.debugCopyPod(req.Live)
	if refused != "" {
		return clientRefusal(req.Live, refused), nil
	}
	ns, _ := nsName(req.Live)
	existing := cp.Existing
	if _, name := nsName(req.Live); name == cp.Name {
		existing = req.Live
	}
	res, err := e.Create(merge.Request{Live: existing, Object: pod, Manager: req.Manager, Now: req.Now,
		Endpoint: merge.Endpoint{GVK: schema.GVKOf(pod), Namespace: ns, Name: cp.Name}})
	if err != nil || res == nil {
		return res, err
	}
	res.Warnings = append(res.Warnings, notes...)
	if c.Debug.Profile == debugProfileLegacy {
		res.Warnings = append(res.Warnings, `kubectl warns: --profile=legacy is deprecated and planned to be removed in v1.39. It is recommended to specify other profile, for example "--profile=general".`)
	}
	if cp.Replace && res.Rejection == nil {
		_, name := nsName(req.Live)
		res.Warnings = append(res.Warnings, "kubectl debug --replace then deletes pod "+strconv.Quote(name)+" (grace period 0): the pod copied is gone")
	}
	return res, nil
}
