package layout

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	core "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/kube"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A pod template printed as each release's internal types lay it out: 1.37 keeps a pod's
// host namespaces in its spec and has fields 1.36 lacks (EvictionResponders); 1.36 keeps
// them in the security context, in its own order.
func TestValuePodTemplate(t *testing.T) {
	tpl := &core.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: core.PodSpec{
			HostNetwork:     true,
			SecurityContext: &core.PodSecurityContext{},
			Containers:      []core.Container{{Name: "web", Image: "nginx"}},
		},
	}
	latest, err := json.Marshal(Value(37, tpl))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := json.Marshal(tpl)
	if string(latest) != string(plain) {
		t.Errorf("1.37 is not encoding/json's:\n%s\n%s", latest, plain)
	}
	old, err := json.Marshal(Value(36, tpl))
	if err != nil {
		t.Fatal(err)
	}
	s := string(old)
	for _, want := range []string{`{"labels":{"app":"web"},"Spec":{"Volumes":null,`, `"SecurityContext":{"HostNetwork":true,"HostPID":false,"HostIPC":false,"ShareProcessNamespace":null,"HostUsers":null,"SELinuxOptions":null`} {
		if !strings.Contains(s, want) {
			t.Errorf("1.36 lacks %s:\n%s", want, s)
		}
	}
	for _, gone := range []string{`"EvictionResponders"`, `"DeprecatedServiceAccount"`, `"Spec":{"Volumes":null,"InitContainers":null,"Containers":[{"Name":"web","Image":"nginx","Command":null,"Args":null,"WorkingDir":"","Ports":null,"EnvFrom":null,"Env":null,"Resources":{"Limits":null,"Requests":null,"Claims":null},"ResizePolicy":null,"RestartPolicy":null,"RestartPolicyRules":null,"VolumeMounts":null,"VolumeDevices":null,"LivenessProbe":null,"ReadinessProbe":null,"StartupProbe":null,"Lifecycle":null,"TerminationMessagePath":"","TerminationMessagePolicy":"","ImagePullPolicy":"","SecurityContext":null,"Stdin":false,"StdinOnce":false,"TTY":false}],"EphemeralContainers":null,"RestartPolicy":"","TerminationGracePeriodSeconds":null,"ActiveDeadlineSeconds":null,"DNSPolicy":"","NodeSelector":null,"ServiceAccountName":"","DeprecatedServiceAccount"`} {
		if strings.Contains(s, gone) {
			t.Errorf("1.36 has %s:\n%s", gone, s)
		}
	}
	if Value(36, "x") != "x" || Value(36, 3) != 3 {
		t.Error("values of no internal type are not their own")
	}
}

// TestEveryMinorHasItsLayouts: the table holds every minor of kube.Minors (make generate
// writes it from kube/releases.txt): a minor it lacks would print as the latest does.
func TestEveryMinorHasItsLayouts(t *testing.T) {
	for _, m := range kube.Minors() {
		if !Knows(int(m)) {
			t.Errorf("no layouts of %s: run make generate", m)
		}
	}
	if Knows(int(kube.Newest()) + 1) {
		t.Errorf("layouts of %s", kube.Newest()+1)
	}
}

// Before 1.34 a value is printed as fmt's %#v writes the release's types (a nested
// pointer's address is the server's, a stand-in here); a number or a string as before.
func TestValueGoSyntax(t *testing.T) {
	grace := int64(30)
	tpl := &core.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: core.PodSpec{
			TerminationGracePeriodSeconds: &grace,
			Containers:                    []core.Container{{Name: "web", Image: "nginx"}},
		},
	}
	got := fmt.Sprint(Value(33, tpl))
	for _, want := range []string{
		`core.PodTemplateSpec{ObjectMeta:v1.ObjectMeta{Name:"", GenerateName:"", Namespace:"",`,
		`Labels:map[string]string{"app":"web"}`,
		`Spec:core.PodSpec{Volumes:[]core.Volume(nil), InitContainers:[]core.Container(nil), Containers:[]core.Container{core.Container{Name:"web", Image:"nginx", Command:[]string(nil),`,
		`TerminationGracePeriodSeconds:(*int64)(` + PointerStandIn + `)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("1.33 lacks %s:\n%s", want, got)
		}
	}
	if _, err := json.Marshal(Value(33, tpl)); err == nil {
		t.Error("a Go-syntax value encodes as JSON: the field error would print the JSON")
	}
	if got := fmt.Sprint(Value(33, []string{"a", "b"})); got != `[]string{"a", "b"}` {
		t.Errorf("a list: %s", got)
	}
	// As 1.33's field error prints them (recorded: an IPAddress's dropped parent reference
	// `Invalid value: "null"`, a RuntimeClass's `Invalid value: disk`, a CSR's request
	// `Invalid value: []byte{0x6e, …}`, a Job's condition with no value printed).
	for _, c := range []struct {
		v    any
		want string
	}{
		{(*core.PodSpec)(nil), `"null"`},
		{nil, `"null"`},
		{core.ResourceName("disk"), `disk`},
		{[]byte("no"), `[]byte{0x6e, 0x6f}`},
		{new(string), `""`},
		{ptrTo(int32(5)), `5`},
	} {
		if got := fmt.Sprint(Value(33, c.v)); got != c.want {
			t.Errorf("%#v: %s, want %s", c.v, got, c.want)
		}
	}
	if _, ok := Value(33, field.OmitValueType{}).(field.OmitValueType); !ok {
		t.Error("a value never printed is changed")
	}
	if Value(33, "x") != "x" || Value(33, int64(3)) != int64(3) {
		t.Error("a string or a number is not its own")
	}
	if !regexp.MustCompile(AddressRE).MatchString(got) {
		t.Errorf("AddressRE does not match %s", got)
	}
}

func ptrTo[T any](v T) *T { return &v }
