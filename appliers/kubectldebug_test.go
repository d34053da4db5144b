package appliers

import (
	"errors"
	"reflect"
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
		Env: []KeyValue{{"A", "1"}}, Profile: "netadmin", Command: []string{"sh", "-c", "sleep 1"}}
	if !reflect.DeepEqual(c.Debug, want) || c.Resource != "pods" || !reflect.DeepEqual(c.Names, []string{"web"}) || c.Namespace != "shop" {
		t.Errorf("read %+v (%s %v -n %s), want %+v", c.Debug, c.Resource, c.Names, c.Namespace, want)
	}
	if c.Manager() != "kubectl" {
		t.Errorf("manager %q, want kubectl (no fieldManager: the User-Agent's)", c.Manager())
	}
	for _, line := range []string{
		"debug web", "debug node/n --image=b", "debug deploy/web --image=b", "debug a b --image=b", "debug web --image=b --profile=nope",
		"debug web --image=b --copy-to=x", "debug web --image=b --custom=f.json", "debug -f pod.yaml --image=b", "debug web --image=b --field-manager=me",
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
	} {
		c, err := ParseKubectlCommandLine(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		p, note, err := c.debugPatch()
		if err != nil || p.Type != merge.StrategicPatch || string(p.Body) != tc.body || (note != "") != (tc.note != "") {
			t.Errorf("%q:\n got %s %s (%q, %v)\nwant %s", tc.line, p.Type, p.Body, note, err, tc.body)
		}
	}
}
