package appliers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
)

// kubectl debug's profiles (kubectl 1.37 pkg/cmd/debug/profiles.go, read for what each does
// to an ephemeral container).
const (
	debugProfileGeneral    = "general"
	debugProfileBaseline   = "baseline"
	debugProfileRestricted = "restricted"
	debugProfileNetadmin   = "netadmin"
	debugProfileSysadmin   = "sysadmin"
	debugProfileLegacy     = "legacy"
)

// DebugRandomName stands for the name kubectl debug draws for a container not named with
// -c: "debugger-" and five random letters and digits, never zeros.
const DebugRandomName = "debugger-00000"

// readDebugTarget reads kubectl debug's POD (or pod/POD, po/POD): the other forms —
// node/NAME, a workload, -f, --custom — are not predicted. What kubectl refuses of its
// flags before it reads the pod is kept for Apply (debugValidate).
func (c *KubectlCommand) readDebugTarget(args []string) error {
	switch {
	case len(c.Files) > 0:
		return fmt.Errorf("%w: kubectl debug -f (the pods of files) is not predicted: name the pod", ErrKubectlCommand)
	case c.FieldManager != "" || c.Subresource != "":
		return fmt.Errorf("%w: kubectl debug takes neither --field-manager nor --subresource", ErrKubectlCommand)
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: kubectl debug names one pod (POD or pod/POD), not %q", ErrKubectlCommand, strings.Join(args, " "))
	}
	typ, name, ok := strings.Cut(args[0], "/")
	if !ok {
		typ, name = "pods", args[0]
	}
	switch strings.ToLower(typ) {
	case "pod", "pods", "po":
	default:
		return fmt.Errorf("%w: kubectl debug %s: only an ephemeral container in a pod is predicted (not a node or a copy)", ErrKubectlCommand, args[0])
	}
	if name == "" {
		return fmt.Errorf("%w: kubectl debug %s names no pod", ErrKubectlCommand, args[0])
	}
	c.Resource, c.Names = "pods", []string{name}
	switch c.Debug.Profile {
	case debugProfileGeneral, debugProfileBaseline, debugProfileRestricted, debugProfileNetadmin, debugProfileSysadmin, debugProfileLegacy:
	default:
		return fmt.Errorf("%w: kubectl debug --profile=%s: kubectl knows general, baseline, restricted, netadmin, sysadmin and legacy", ErrKubectlCommand, c.Debug.Profile)
	}
	c.refused = c.debugValidate()
	return nil
}

// debugPatch is the strategic merge patch kubectl debug sends to the pod's
// /ephemeralcontainers: the container it builds — name, image, pull policy, stdin and tty,
// environment, command, target, "File" termination messages, empty resources — with the
// security context its profile sets. kubectl computes it as a two-way patch from the pod
// to the pod with the container appended; sent, it appends the container just the same.
func (c *KubectlCommand) debugPatch() (merge.Patch, []string, error) {
	d := c.Debug
	name, notes := d.Container, []string(nil)
	if name == "" {
		name = DebugRandomName
		notes = append(notes, "kubectl debug names the ephemeral container debugger-XXXXX at random: "+DebugRandomName+" stands for that name")
	}
	ctr := map[string]any{"name": name, "image": d.Image, "resources": map[string]any{}, "terminationMessagePolicy": "File"}
	if d.PullPolicy != "" {
		ctr["imagePullPolicy"] = d.PullPolicy
	}
	if d.Stdin {
		ctr["stdin"] = true
	}
	if d.TTY {
		ctr["tty"] = true
	}
	if len(d.Env) > 0 {
		ctr["env"] = debugEnv(d.Env)
		if len(d.Env) > 1 {
			notes = append(notes, debugEnvOrderNote)
		}
	}
	if len(d.Command) > 0 {
		cmd := stringList(d.Command)
		if d.ArgsOnly {
			ctr["args"] = cmd
		} else {
			ctr["command"] = cmd
		}
	}
	if d.Target != "" {
		ctr["targetContainerName"] = d.Target
	}
	if sc := debugSecurityContext(d.Profile); sc != nil {
		ctr["securityContext"] = sc
	}
	body, err := json.Marshal(map[string]any{"spec": map[string]any{"ephemeralContainers": []any{ctr}}})
	if err != nil {
		return merge.Patch{}, nil, err
	}
	return merge.Patch{Type: merge.StrategicPatch, Body: body}, notes, nil
}

// debugSecurityContext is the security context a profile gives a new ephemeral container:
// general lets it trace processes, netadmin administer the network, sysadmin anything;
// restricted meets the restricted Pod Security level; baseline and legacy set none.
func debugSecurityContext(profile string) map[string]any {
	caps := func(add ...any) map[string]any { return map[string]any{"capabilities": map[string]any{"add": add}} }
	switch profile {
	case debugProfileGeneral:
		return caps("SYS_PTRACE")
	case debugProfileNetadmin:
		return caps("NET_ADMIN", "NET_RAW")
	case debugProfileSysadmin:
		return map[string]any{"privileged": true}
	case debugProfileRestricted:
		return map[string]any{"runAsNonRoot": true, "capabilities": map[string]any{"drop": []any{"ALL"}},
			"allowPrivilegeEscalation": false, "seccompProfile": map[string]any{"type": "RuntimeDefault"}}
	}
	return nil
}
