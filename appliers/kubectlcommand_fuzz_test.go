package appliers

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParseKubectlCommandLine: any command line is read or refused with ErrKubectlCommand,
// never a panic, and the same line always reads the same.
func FuzzParseKubectlCommandLine(f *testing.F) {
	for _, s := range []string{
		"label deploy web tier=gold --overwrite", "kubectl annotate deployment/web a=b c-", "scale sts/db --replicas=3 -n ns",
		`set image deploy/web nginx=nginx:1.27 "*=busybox"`, `patch deploy web --type merge -p '{"spec":{"replicas":2}}'`,
		"replace -f web.yaml", "create -f a.yaml -f b.yaml --field-manager me", "edit widget w --subresource=status",
		`patch x y -p "{\"a\":1}"`, "label",
		"debug web -it --image=busybox:1.36 -c dbg --target=app --profile=restricted -- sh -c 'sleep 1'", "debug pod/web --image=b",
		"debug node/n --image=b", "rollout restart deploy web", "rollout restart", "rollout status deploy/web", "debug web", "debug web --image=b --profile=nope --env=A=1 --arguments-only -- x", "scale deploy web", "delete pod x", "'unterminated", `a\ b "c d"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err1 := ParseKubectlCommandLine(line)
		b, err2 := ParseKubectlCommandLine(line)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(a, b) {
			t.Fatalf("%q read twice differently: %+v %v / %+v %v", line, a, err1, b, err2)
		}
		if err1 != nil {
			if !errors.Is(err1, ErrKubectlCommand) {
				t.Fatalf("%q: error %v does not wrap ErrKubectlCommand", line, err1)
			}
			return
		}
		if a.ReadsFiles() == (a.Resource != "") && a.Verb != KubectlEdit {
			t.Fatalf("%q: files %v and objects %s %v", line, a.Files, a.Resource, a.Names)
		}
		if !a.ReadsFiles() && len(a.Names) == 0 {
			t.Fatalf("%q: read without objects", line)
		}
		_ = a.Name()
		_ = a.Manager()
	})
}
