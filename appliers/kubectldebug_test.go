package appliers

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/merge"
)

// TestParseKubectlDebug: kubectl debug's command line read as kubectl 1.37 reads it, and
// the forms it does not predict refused.
func TestParseKubectlDebug(t *testing.T) {
	c, err := ParseKubectlCommandLine("debug pod/web -n shop -it --image=busybox:1.36 -c dbg --target=app --image-pull-policy=Always --env=A=1 --profile=netadmin --attach=false -- sh -c 'sleep 1'")
	if err != nil {
		t.Fatal(err)
	}
	want := DebugContainer{Image: "busybox:1.36", Container: "dbg", Target: "app", PullPolicy: "Always", Stdin: true, TTY: true,
		Env: []KeyValue{{"A", "1"}}, Profile: "netadmin", Command: []string{"sh", "-c", "sleep 1"}, Attach: new(bool)}
	if !reflect.DeepEqual(c.Debug, want) || c.Resource != "pods" || !reflect.DeepEqual(c.Names, []string{"web"}) || c.Namespace != "shop" {
		t.Errorf("read %+v (%s %v -n %s), want %+v", c.Debug, c.Resource, c.Names, c.Namespace, want)
	}
	if c.Manager() != "kubectl" {
		t.Errorf("manager %q, want kubectl (no fieldManager: the User-Agent's)", c.Manager())
	}
	for _, line := range []string{
		"debug node/n --image=b", "debug deploy/web --image=b", "debug a b --image=b", "debug web --image=b --profile=nope",
		"debug web --image=b --custom=f.json", "debug -f pod.yaml --image=b", "debug web --image=b --field-manager=me",
		"debug web --copy-to=x --set-image=app", "debug web --copy-to",
	} {
		if _, err := ParseKubectlCommandLine(line); !errors.Is(err, ErrKubectlCommand) {
			t.Errorf("%q: %v, want ErrKubectlCommand", line, err)
		}
	}
}

// TestKubectlDebugPatch: the container each profile builds, and the stand-in for the name
// kubectl draws at random.
func TestKubectlDebugPatch(t *testing.T) {
	for _, tc := range []struct{ line, body, note string }{
		{"debug web --image=b -c d --target=app", `{"spec":{"ephemeralContainers":[{"image":"b","name":"d","resources":{},"securityContext":{"capabilities":{"add":["SYS_PTRACE"]}},"targetContainerName":"app","terminationMessagePolicy":"File"}]}}`, ""},
		{"debug web --image=b -c d --profile=baseline -i", `{"spec":{"ephemeralContainers":[{"image":"b","name":"d","resources":{},"stdin":true,"terminationMessagePolicy":"File"}]}}`, ""},
		{"debug web --image=b -c d --profile=sysadmin --arguments-only -- x", `{"spec":{"ephemeralContainers":[{"args":["x"],"image":"b","name":"d","resources":{},"securityContext":{"privileged":true},"terminationMessagePolicy":"File"}]}}`, ""},
		{"debug web --image=b --profile=restricted", `{"spec":{"ephemeralContainers":[{"image":"b","name":"debugger-00000","resources":{},"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]},"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},"terminationMessagePolicy":"File"}]}}`, "random"},
		{"debug web --image=b -c d --profile=legacy --env=B=2 --env=A=1", `{"spec":{"ephemeralContainers":[{"env":[{"name":"B","value":"2"},{"name":"A","value":"1"}],"image":"b","name":"d","resources":{},"terminationMessagePolicy":"File"}]}}`, "--env into a map"},
	} {
		c, err := ParseKubectlCommandLine(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		p, notes, err := c.debugPatch()
		note := strings.Join(notes, "\n")
		if err != nil || p.Type != merge.StrategicPatch || string(p.Body) != tc.body || (note != "") != (tc.note != "") || !strings.Contains(note, tc.note) {
			t.Errorf("%q:\n got %s %s (%q, %v)\nwant %s", tc.line, p.Type, p.Body, note, err, tc.body)
		}
	}
}

// TestParseKubectlDebugCopy: --copy-to and the flags that go with it, read as kubectl 1.37
// reads them.
func TestParseKubectlDebugCopy(t *testing.T) {
	c, err := ParseKubectlCommandLine("debug web --copy-to=web-dbg --image=b --replace --same-node --set-image=app=n:2,*=x:1 --set-image app=n:3 --share-processes=false --keep-labels --keep-init-containers=false --attach=false -i")
	if err != nil {
		t.Fatal(err)
	}
	no := false
	want := &DebugCopy{Name: "web-dbg", Replace: true, SameNode: true, SetImages: []KeyValue{{"app", "n:2"}, {"*", "x:1"}, {"app", "n:3"}},
		ShareProcesses: &no, KeepLabels: true}
	if !reflect.DeepEqual(c.Debug.Copy, want) || !reflect.DeepEqual(c.Debug.Attach, &no) || !c.Debug.Stdin || c.refused != "" {
		t.Errorf("read %+v (attach %v, refused %q), want %+v", c.Debug.Copy, c.Debug.Attach, c.refused, want)
	}
	// Without --copy-to the flags that only work with it are dropped (--keep-*) or refused.
	c, err = ParseKubectlCommandLine("debug web --image=b --keep-labels")
	if err != nil || c.Debug.Copy != nil || c.refused != "" {
		t.Errorf("--keep-labels without --copy-to: %+v, %q, %v", c.Debug.Copy, c.refused, err)
	}
}

// TestKubectlDebugRefusals: what kubectl debug refuses itself before it reads the pod, as
// it words it (kubectl 1.37's Validate, in its order).
func TestKubectlDebugRefusals(t *testing.T) {
	for _, tc := range []struct{ line, refused string }{
		{"debug web", "you must specify --image when not using --copy-to."},
		{"debug web --image=b --replace", "--replace may only be used with --copy-to."},
		{"debug web --image=b --same-node", "--same-node may only be used with --copy-to."},
		{"debug web --image=b --set-image=a=b", "--set-image may only be used with --copy-to."},
		{"debug web --copy-to=x", "you must specify --image, --set-image or command arguments."},
		{"debug web --copy-to=x -- sh", "you must specify an existing container or a new image when specifying args."},
		{"debug web --copy-to=x --attach -c app -- sh", ""},
		{"debug web --copy-to=x --attach --set-image=a=b", "you must specify --container or create a new container using --image in order to attach."},
		{"debug web --copy-to=x --image=b --image-pull-policy=Sometimes", "invalid image pull policy: Sometimes"},
		{"debug web --copy-to=x --image=b --target=app", "--target is incompatible with --copy-to. Use --share-processes instead."},
		{"debug web --copy-to=x --image=b -t", "-i/--stdin is required for containers with -t/--tty=true"},
		{"debug web --image=b -t", "-i/--stdin is required for containers with -t/--tty=true"},
		{"debug web -t", "you must specify --image when not using --copy-to."},
		{"debug web --copy-to=x --image=Busybox", `invalid image name "Busybox": invalid reference format`},
		{"debug web --copy-to=x --set-image=app=a:-1", `invalid image name "a:-1" for container "app": invalid reference format`},
	} {
		c, err := ParseKubectlCommandLine(tc.line)
		if err != nil || c.refused != tc.refused {
			t.Errorf("%q: refused %q (%v), want %q", tc.line, c.refused, err, tc.refused)
		}
	}
}

// TestKubectlDebugCopyPod: the copy each set of flags makes of a pod, beside what the
// recorded cases show (conformance/testdata/verbs/kubectl-debug-copy*).
func TestKubectlDebugCopyPod(t *testing.T) {
	live := map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "web", "namespace": "ns", "uid": "u", "labels": map[string]any{"a": "b"}, "annotations": map[string]any{"c": "d"}},
		"spec": map[string]any{"nodeName": "n1", "securityContext": map[string]any{"runAsUser": int64(1000)},
			"ephemeralContainers": []any{map[string]any{"name": "e"}},
			"containers": []any{map[string]any{"name": "app", "image": "nginx", "stdin": true, "startupProbe": map[string]any{},
				"securityContext": map[string]any{"capabilities": map[string]any{"add": []any{"NET_RAW"}}}}}},
		"status": map[string]any{"phase": "Running"}}
	for _, tc := range []struct{ line, spec, md string }{
		// -c of an existing container: changed in place; stdin as -i says; SYS_PTRACE added
		// to its capabilities.
		{"debug web --copy-to=x --image=b -c app --env=A=1",
			`{"containers":[{"env":[{"name":"A","value":"1"}],"image":"b","name":"app","securityContext":{"capabilities":{"add":["NET_RAW","SYS_PTRACE"]}}}],"securityContext":{"runAsUser":1000},"shareProcessNamespace":true}`,
			`{"name":"x","namespace":"ns"}`},
		// baseline: the container's security context cleared; sysadmin: privileged.
		{"debug web --copy-to=x --image=b -c app --profile=baseline --keep-startup",
			`{"containers":[{"image":"b","name":"app","startupProbe":{}}],"securityContext":{"runAsUser":1000},"shareProcessNamespace":true}`,
			`{"name":"x","namespace":"ns"}`},
		{"debug web --copy-to=x --image=b --profile=sysadmin --keep-annotations",
			`{"containers":[{"image":"nginx","name":"app","securityContext":{"capabilities":{"add":["NET_RAW"]}},"stdin":true},{"image":"b","name":"debugger-00000","resources":{},"securityContext":{"privileged":true},"terminationMessagePolicy":"File"}],"securityContext":{"runAsUser":1000},"shareProcessNamespace":true}`,
			`{"annotations":{"c":"d"},"name":"x","namespace":"ns"}`},
		// --set-image "*" for every container, a name of its own first.
		{"debug web --copy-to=x --set-image=*=all:1 --share-processes=false",
			`{"containers":[{"image":"all:1","name":"app","securityContext":{"capabilities":{"add":["NET_RAW"]}},"startupProbe":{},"stdin":true}],"securityContext":{"runAsUser":1000},"shareProcessNamespace":false}`,
			`{"annotations":{"c":"d"},"labels":{"a":"b"},"name":"x","namespace":"ns"}`},
	} {
		c, err := ParseKubectlCommandLine(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		pod, refused, notes := c.debugCopyPod(live)
		spec, _ := json.Marshal(pod["spec"])
		md, _ := json.Marshal(pod["metadata"])
		if refused != "" || string(spec) != tc.spec || string(md) != tc.md || pod["status"] != nil {
			t.Errorf("%q:\n got %s %s (%q %v)\nwant %s %s", tc.line, md, spec, refused, notes, tc.md, tc.spec)
		}
	}
	// kubectl's warning for capabilities in a pod run as another user than root.
	c, _ := ParseKubectlCommandLine("debug web --copy-to=x --image=b -c d")
	if _, _, notes := c.debugCopyPod(live); len(notes) != 1 || !strings.Contains(notes[0], "Non-root user") {
		t.Errorf("notes %q, want kubectl's non-root warning", notes)
	}
	c, _ = ParseKubectlCommandLine("debug web --copy-to=x --image=b -c init -i --profile=baseline")
	if _, _, notes := c.debugCopyPod(live); len(notes) != 1 || !strings.Contains(notes[0], "attaches") {
		t.Errorf("notes %q, want that kubectl attaches (-i)", notes)
	}
	if live["spec"].(map[string]any)["nodeName"] != "n1" {
		t.Error("the live pod was changed")
	}
}

// TestImageReference: the images kubectl debug takes and refuses.
func TestImageReference(t *testing.T) {
	for image, ok := range map[string]bool{
		"busybox": true, "busybox:1.36": true, "registry.k8s.io/e2e-test-images/agnhost:2.53": true, "localhost:5000/a/b_c__d-e:v1.2-3": true,
		"[::1]:5000/busybox:latest": true, "busybox@sha256:" + strings.Repeat("ab", 32): true, "busybox:1.36@sha256:" + strings.Repeat("0", 64): true,
		"Busybox": false, "busybox:": false, "busybox:-1": false, "a//b": false, "a/-b": false, "busybox@sha256:abc": false, "b c": false, "": false,
	} {
		if imageReference(image) != ok {
			t.Errorf("%q: taken %v, want %v", image, !ok, ok)
		}
	}
}
