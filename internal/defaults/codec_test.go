package defaults

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name       string
		apiVersion string
		kind       string
		in, want   map[string]any
	}{{
		name: "null string map value is stored as empty (fixture null-map-value-stored-empty)",
		kind: "ConfigMap", apiVersion: "v1",
		in:   map[string]any{"metadata": map[string]any{"name": "c"}, "data": map[string]any{"a": nil, "b": "x"}},
		want: map[string]any{"metadata": map[string]any{"name": "c"}, "data": map[string]any{"a": "", "b": "x"}},
	}, {
		name: "unknown fields vanish, empty maps vanish",
		kind: "ConfigMap", apiVersion: "v1",
		in:   map[string]any{"metadata": map[string]any{"labels": map[string]any{}}, "bogus": int64(1)},
		want: map[string]any{"metadata": map[string]any{}},
	}, {
		name: "empty list without omitempty comes back null; times in UTC seconds",
		kind: "Role", apiVersion: "rbac.authorization.k8s.io/v1",
		in:   map[string]any{"metadata": map[string]any{"creationTimestamp": "2026-01-02T03:04:05.678+02:00"}, "rules": []any{}},
		want: map[string]any{"metadata": map[string]any{"creationTimestamp": "2026-01-02T01:04:05Z"}, "rules": nil},
	}, {
		name: "a pointer to false stays, base64 re-encoded",
		kind: "Secret", apiVersion: "v1",
		in:   map[string]any{"metadata": nil, "data": map[string]any{"k": "aGk="}, "immutable": false},
		want: map[string]any{"metadata": map[string]any{}, "data": map[string]any{"k": "aGk="}, "immutable": false},
	}, {
		name: "struct fields that are not pointers appear",
		kind: "Service", apiVersion: "v1",
		in: map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"port": int64(80), "targetPort": "http"}}}},
		want: map[string]any{"metadata": map[string]any{}, "spec": map[string]any{"ports": []any{map[string]any{"port": int64(80), "targetPort": "http"}}},
			"status": map[string]any{"loadBalancer": map[string]any{}}},
	}, {
		name: "resource quantities in a container",
		kind: "Pod", apiVersion: "v1",
		in: map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "a",
			"resources": map[string]any{"limits": map[string]any{"cpu": "0.5", "memory": float64(1000)}}}}}},
		want: map[string]any{"metadata": map[string]any{}, "status": map[string]any{}, "spec": map[string]any{"containers": []any{map[string]any{"name": "a",
			"resources": map[string]any{"limits": map[string]any{"cpu": "500m", "memory": "1k"}}}}}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := unstructured.DeepCopy(tc.in).(map[string]any)
			if err := newest().Normalize(tc.apiVersion, tc.kind, got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%s", testkit.Diff(tc.want, got))
			}
		})
	}
}

func TestNormalizeErrors(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"containers": []any{map[string]any{
		"resources": map[string]any{"limits": map[string]any{"cpu": "lots"}}}}}}
	err := newest().Normalize("v1", "Pod", obj)
	var pe *PathError
	if !errors.As(err, &pe) || pe.Path != `.spec.containers[0].resources.limits["cpu"]` {
		t.Errorf("got %v, want a PathError at the quantity", err)
	}
	if err := newest().Default("example.com/v1", "Widget", map[string]any{}); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("got %v, want ErrUnknownKind", err)
	}
}

func TestCanonicalQuantity(t *testing.T) {
	for in, want := range map[any]string{
		"0.5": "500m", "2048Mi": "2Gi", "1e3": "1e3", float64(1000): "1k", "1.5Gi": "1536Mi",
		int64(2): "2", " 100m ": "100m", "0.0001": "100u", "1000m": "1", "12e6": "12e6", float64(0.1): "100m",
	} {
		got, err := CanonicalQuantity(in)
		if err != nil || got != want {
			t.Errorf("CanonicalQuantity(%#v) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := CanonicalQuantity("1.2.3"); err == nil {
		t.Error("an invalid quantity was accepted")
	}
}

func TestImageTag(t *testing.T) {
	for image, want := range map[string]string{
		"nginx": "latest", "nginx:latest": "latest", "nginx:1.27": "1.27", "registry:5000/a/b": "latest",
		"registry:5000/a/b:v1": "v1", "Nginx": "", "": "",
		"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef":        "",
		"nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef": "latest",
		"nginx@sha256:0123": "",
		// The grammar's bounds: a tag of at most 128 characters, a digest of at least 32 hex.
		"nginx:" + strings.Repeat("t", 128):                                        strings.Repeat("t", 128),
		"nginx:" + strings.Repeat("t", 129):                                        "",
		"nginx:" + strings.Repeat("t", 129) + "@sha256:" + strings.Repeat("a", 64): "",
		"nginx:latest@sha256:" + strings.Repeat("a", 31):                           "",
		"nginx:latest@sha256:" + strings.Repeat("a", 64):                           "latest",
	} {
		if got := imageTag(image); got != want {
			t.Errorf("imageTag(%q) = %q, want %q", image, got, want)
		}
	}
}

func TestDefaultTable(t *testing.T) {
	tests := []struct {
		name, apiVersion, kind string
		in                     map[string]any
		check                  map[string]any // top-level fields expected after Default
	}{{
		name: "service ports get protocol and targetPort", apiVersion: "v1", kind: "Service",
		in: map[string]any{"spec": map[string]any{"type": "NodePort", "ports": []any{map[string]any{"port": int64(53)}}}},
		check: map[string]any{"spec": map[string]any{"type": "NodePort", "sessionAffinity": "None", "externalTrafficPolicy": "Cluster",
			"internalTrafficPolicy": "Cluster", "ports": []any{map[string]any{"port": int64(53), "protocol": "TCP", "targetPort": int64(53)}}}},
	}, {
		name: "env fieldRef gets apiVersion back after an atomic replace", apiVersion: "batch/v1", kind: "CronJob",
		in: map[string]any{"spec": map[string]any{"jobTemplate": map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "c", "image": "i:1", "env": []any{map[string]any{"name": "N",
				"valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "metadata.name"}}}}}}}}}}}},
	}, {
		name: "secret stringData moves into data", apiVersion: "v1", kind: "Secret",
		in:    map[string]any{"stringData": map[string]any{"p": "s3cr3t"}, "data": map[string]any{"u": "dQ=="}},
		check: map[string]any{"type": "Opaque", "data": map[string]any{"p": "czNjcjN0", "u": "dQ=="}},
	}, {
		name: "network policy with egress gets both policy types", apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy",
		in:    map[string]any{"spec": map[string]any{"egress": []any{map[string]any{"ports": []any{map[string]any{"port": int64(53)}}}}}},
		check: map[string]any{"spec": map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress", "Egress"}, "egress": []any{map[string]any{"ports": []any{map[string]any{"port": int64(53), "protocol": "TCP"}}}}}},
	}, {
		name: "runtime classes run no core defaulters", apiVersion: "node.k8s.io/v1", kind: "RuntimeClass",
		in:    map[string]any{"handler": "h", "overhead": map[string]any{"podFixed": map[string]any{"cpu": "0.0001"}}},
		check: map[string]any{"handler": "h", "overhead": map[string]any{"podFixed": map[string]any{"cpu": "100u"}}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := unstructured.DeepCopy(tc.in).(map[string]any)
			if err := newest().Default(tc.apiVersion, tc.kind, got); err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.check {
				if !reflect.DeepEqual(got[k], want) {
					t.Errorf("%s:\n%s", k, testkit.Diff(want, got[k]))
				}
			}
			if tc.kind == "CronJob" {
				c := got["spec"].(map[string]any)["jobTemplate"].(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
				fr := c["env"].([]any)[0].(map[string]any)["valueFrom"].(map[string]any)["fieldRef"].(map[string]any)
				if fr["apiVersion"] != "v1" {
					t.Errorf("fieldRef.apiVersion = %v, want v1", fr["apiVersion"])
				}
			}
		})
	}
}

// The plain references imageTag answers without the grammar's expression get the answer
// the expression gives.
func TestPlainImageTagIsTheGrammars(t *testing.T) {
	images := []string{"nginx", "nginx:1.27", "comm/chat:1.0", "registry.example/web:1.0", "ghcr.io/org/app:v1.2.3",
		"a__b/c--d_e.f:T_1.x-y", "a___b", "a..b", "a._b", "-a", "a-", "a/", "/a", "a//b", "a:", "a:.x", "a:-x", "a:_x",
		"a:b:c", "a:b/c", "A/b", "a/B:1", "a@sha256:" + strings.Repeat("a", 64), strings.Repeat("a", 64), strings.Repeat("f", 64) + ":1",
		strings.Repeat("a", 255), strings.Repeat("a", 256), "a:" + strings.Repeat("t", 128), "a:" + strings.Repeat("t", 129),
		"localhost:5000/a", "a b", "a\n", "ä", "a:ü", "a-----b", "a_-b", "0", "a:0", "x.y.z/a-b_c__d:latest"}
	for _, image := range images {
		tag, ok := plainImageTag(image)
		if !ok {
			continue
		}
		if want := grammarImageTag(image); tag != want {
			t.Errorf("plainImageTag(%q) = %q, the grammar's %q", image, tag, want)
		}
	}
	for _, plain := range []string{"nginx", "comm/chat:1.0", "ghcr.io/org/app:v1.2.3", "a__b/c--d_e.f:T_1.x-y"} {
		if _, ok := plainImageTag(plain); !ok {
			t.Errorf("%q is not taken as plain", plain)
		}
	}
}

// grammarImageTag is imageTag by the expression alone.
func grammarImageTag(image string) string {
	if hexIDRegexp().MatchString(image) {
		return ""
	}
	mt := imageRefRegexp().FindStringSubmatch(image)
	if mt == nil || len(mt[1]) > 255 || len(mt[2]) > 128 {
		return ""
	}
	if mt[2] == "" && mt[3] == "" {
		return "latest"
	}
	if mt[3] != "" {
		return "?digest"
	}
	return mt[2]
}

func FuzzPlainImageTag(f *testing.F) {
	for _, s := range []string{"nginx", "comm/chat:1.0", "a__b/c--d_e.f:T_1.x-y", "a:b:c", "localhost:5000/a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, image string) {
		if tag, ok := plainImageTag(image); ok {
			if want := grammarImageTag(image); tag != want {
				t.Errorf("plainImageTag(%q) = %q, the grammar's %q", image, tag, want)
			}
		}
	})
}

// FuzzRoundTripInPlace: the second pass of Default rewrites the tree in place
// (roundTripInPlace); it must give what roundTrip gives on a copy — the same value and
// flags, or an error — for any object of any built-in kind.
func FuzzRoundTripInPlace(f *testing.F) {
	kinds := newest().r.kinds()
	seeds := []struct{ kind, obj string }{
		{"apps/v1/Deployment", `{"metadata":{"name":"a","labels":{}},"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"0.5","memory":1000}},"ports":[{"containerPort":80,"x":1}]}],"volumes":[]}},"selector":null},"status":{}}`},
		{"v1/ConfigMap", `{"metadata":{"name":"a","bogus":1},"data":{"a":null,"b":"x"},"extra":[]}`},
		{"v1/Service", `{"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":1.5}],"clusterIPs":[]},"metadata":{"creationTimestamp":"2026-01-02T03:04:05.678+02:00"}}`},
		{"rbac.authorization.k8s.io/v1/Role", `{"rules":[],"metadata":null}`},
		{"v1/Secret", `{"metadata":{},"immutable":false,"data":{"k":"aGk="},"stringData":{"a":"b"}}`},
		{"apiextensions.k8s.io/v1/CustomResourceDefinition", `{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","additionalProperties":false,"items":[{"type":"string"}],"x-kubernetes-preserve-unknown-fields":true}}}]}}`},
	}
	for _, s := range seeds {
		i := slices.IndexFunc(kinds, func(k kindType) bool { return k.key() == s.kind })
		if i < 0 {
			f.Fatalf("no kind %s", s.kind)
		}
		f.Add(uint16(i), s.obj)
	}
	f.Fuzz(func(t *testing.T, kind uint16, text string) {
		if !json.Valid([]byte(text)) {
			return
		}
		v, ok := testkit.DecodeJSON(t, []byte(text)).(map[string]any)
		if !ok || v == nil {
			return
		}
		typ := kinds[int(kind)%len(kinds)].typ
		want, errWant := roundTrip(typ, v)
		got, errGot := roundTripInPlace(typ, unstructured.DeepCopy(v))
		// A map with two bad values answers the first in key order either way.
		if (errWant == nil) != (errGot == nil) || errWant != nil && errWant.Error() != errGot.Error() {
			t.Fatalf("%s: errors differ: in place %v, on a copy %v", kinds[int(kind)%len(kinds)].key(), errGot, errWant)
		}
		if errWant != nil {
			// And the server's words for it (PathError.Refusal).
			var pw, pg *PathError
			if errors.As(errWant, &pw) != errors.As(errGot, &pg) {
				t.Fatalf("%s: one error is a PathError: in place %v, on a copy %v", kinds[int(kind)%len(kinds)].key(), errGot, errWant)
			}
			if pw != nil {
				c1, b1, ok1 := pw.Refusal()
				c2, b2, ok2 := pg.Refusal()
				if c1 != c2 || b1 != b2 || ok1 != ok2 {
					t.Fatalf("%s: refusals differ: in place %q %q %v, on a copy %q %q %v", kinds[int(kind)%len(kinds)].key(), c2, b2, ok2, c1, b1, ok1)
				}
			}
			return
		}
		if !reflect.DeepEqual(got.value, want.value) || got.zero != want.zero || got.empty != want.empty {
			t.Fatalf("%s: in place %#v (zero %v, empty %v), on a copy %#v (zero %v, empty %v)",
				kinds[int(kind)%len(kinds)].key(), got.value, got.zero, got.empty, want.value, want.zero, want.empty)
		}
	})
}

// encodeFields looks no field up once every member of the object has matched one, and
// calls no transcode for an absent field absentOmitted leaves out: both hold only when no
// two fields of a struct (its embedded structs' included) have one name, and when
// absentOmitted says what transcode of nil says. Checked for every type of the table.
func TestEncodeFieldsShortcuts(t *testing.T) {
	var names func(td *typeDef, seen map[string]bool) string
	names = func(td *typeDef, seen map[string]bool) string {
		for _, f := range td.fields() {
			if f.flags&inline != 0 {
				if dup := names(&generatedTypes[f.typ], seen); dup != "" {
					return dup
				}
				continue
			}
			if seen[f.name()] {
				return f.name()
			}
			seen[f.name()] = true
		}
		return ""
	}
	checked := 0
	for i := range generatedTypes {
		td := &generatedTypes[i]
		if td.kind != kindStruct {
			continue
		}
		if dup := names(td, map[string]bool{}); dup != "" {
			t.Errorf("%s: two fields named %q", td.name(), dup)
		}
		for _, f := range td.fields() {
			if f.flags&inline != 0 || !absentOmitted(&f) {
				continue
			}
			e, err := roundTrip(f.typ, nil)
			if err != nil || !e.zero || !(f.flags&omitEmpty != 0 && e.empty || f.flags&omitZero != 0 && e.zero) {
				t.Errorf("%s.%s: absentOmitted, but transcode of nil gives %+v, %v", td.name(), f.name(), e, err)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no field checked")
	}
}

// TestMapErrorIsTheFirstInKeyOrder: a map with two bad values (two quantities that do not
// parse) is answered with the first in key order, whichever order Go ranges over the map in
// — the same error at every run, the one of the body kubectl writes (keys sorted).
func TestMapErrorIsTheFirstInKeyOrder(t *testing.T) {
	const text = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i",
		"resources":{"limits":{"nvidia.com/gpu":"x2","cpu":"half","memory":"lots","ephemeral-storage":"some"}}}]}}}}`
	seen := map[string]int{}
	for range 40 {
		err := newest().Default("apps/v1", "Deployment", testkit.DecodeJSON(t, []byte(text)).(map[string]any))
		if err == nil {
			t.Fatal("four bad quantities defaulted without an error")
		}
		seen[err.Error()]++
	}
	if len(seen) != 1 {
		t.Fatalf("the error changes from run to run: %v", seen)
	}
	for msg := range seen {
		if !strings.Contains(msg, `["cpu"]`) {
			t.Errorf("error %q, want the one of limits[\"cpu\"], the first key", msg)
		}
	}
}

// canonicalQuantityText answers yes only for quantities resource.Quantity writes back as
// they are, and yes for the common ones.
func TestCanonicalQuantityText(t *testing.T) {
	for _, s := range []string{"0", "1", "100m", "250m", "1500m", "999", "1500", "2k", "64Mi", "1536Mi", "512Ki", "3Gi", "10G", "7T", "1Ti"} {
		if !canonicalQuantityText(s) {
			t.Errorf("%q: not told canonical", s)
		}
		checkQuantityText(t, s)
	}
	// Every suffix it accepts, over the numbers near its limits.
	var ns []int
	for n := 1; n <= 3000; n++ {
		ns = append(ns, n)
	}
	for k := 1; k <= 976; k++ {
		ns = append(ns, k*1000-1, k*1000, k*1000+1, k*1024-1, k*1024, k*1024+1)
	}
	ns = append(ns, 999999, 999000, 998400, 997376)
	for _, n := range ns {
		for _, sfx := range []string{"", "m", "k", "M", "G", "T", "Ki", "Mi", "Gi", "Ti"} {
			checkQuantityText(t, strconv.Itoa(n)+sfx)
		}
	}
	for _, s := range []string{"", "0m", "00", "01", "1000", "1000m", "2000k", "1024Mi", "2048Ki", "0.5", "1e3", " 1", "1 ", "+1", "-1", "1E", "1P", "1Pi", "1u", "1n", "1000000", "1x", "Mi"} {
		if canonicalQuantityText(s) {
			t.Errorf("%q: told canonical", s)
		}
	}
}

func checkQuantityText(t *testing.T, s string) {
	t.Helper()
	if !canonicalQuantityText(s) {
		return
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		t.Fatalf("%q: told canonical, but ParseQuantity: %v", s, err)
	}
	if got := q.String(); got != s {
		t.Fatalf("%q: told canonical, but resource.Quantity writes %q", s, got)
	}
}

// FuzzCanonicalQuantityText holds canonicalQuantityText to resource.Quantity: what it
// calls canonical parses and is written back unchanged.
func FuzzCanonicalQuantityText(f *testing.F) {
	for _, s := range []string{"0", "100m", "1000m", "1536Mi", "1024Mi", "999999T", "1023Ki", "12e3", "0.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkQuantityText(t, s) })
}

// TestRefusalIsTheServers holds PathError.Refusal to the words of kube-apiserver 1.37.2's
// decoders, read from k8s.io/apimachinery v0.37.2 run on the same objects (the
// unstructured converter into k8s.io/api's types; the JSON serializer) and, for the first
// three, from a real server (conformance/testdata/fidelity: service-int-or-string-bool-refused,
// service-int-or-string-bool-refused-on-put, pod-quantity-refused).
func TestRefusalIsTheServers(t *testing.T) {
	const quantity = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
	container := func(c map[string]any) map[string]any {
		return map[string]any{"spec": map[string]any{"containers": []any{c}}}
	}
	tests := []struct {
		name, apiVersion, kind string
		obj                    map[string]any
		converter, body        string
	}{{
		name: "int-or-string true", apiVersion: "v1", kind: "Service",
		obj:       map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"port": int64(80), "targetPort": true}}}},
		converter: "json: cannot unmarshal bool into Go value of type int32",
		body:      "json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32",
	}, {
		name: "quantity 10%", apiVersion: "v1", kind: "Pod",
		obj:       container(map[string]any{"name": "c", "resources": map[string]any{"requests": map[string]any{"tier": "10%"}}}),
		converter: quantity, body: quantity,
	}, {
		name: "quantity true", apiVersion: "v1", kind: "Pod",
		obj:       container(map[string]any{"name": "c", "resources": map[string]any{"requests": map[string]any{"cpu": true}}}),
		converter: quantity, body: quantity,
	}, {
		name: "int-or-string under an embedded struct", apiVersion: "v1", kind: "Pod",
		obj:       container(map[string]any{"name": "c", "livenessProbe": map[string]any{"httpGet": map[string]any{"port": false}}}),
		converter: "json: cannot unmarshal bool into Go value of type int32",
		body:      "json: cannot unmarshal bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.ProbeHandler.httpGet.port of type int32",
	}, {
		name: "int-or-string in a pod template", apiVersion: "apps/v1", kind: "Deployment",
		obj: map[string]any{"spec": map[string]any{"template": container(map[string]any{"name": "c",
			"readinessProbe": map[string]any{"tcpSocket": map[string]any{"port": true}}})}},
		converter: "json: cannot unmarshal bool into Go value of type int32",
		body:      "json: cannot unmarshal bool into Go struct field TCPSocketAction.spec.template.spec.containers.readinessProbe.ProbeHandler.tcpSocket.port of type int32",
	}, {
		name: "int-or-string with a fraction", apiVersion: "v1", kind: "Service",
		obj:       map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"port": int64(80), "targetPort": 1.5}}}},
		converter: "json: cannot unmarshal number 1.5 into Go value of type int32",
		body:      "json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32",
	}, {
		name: "time not RFC 3339", apiVersion: "v1", kind: "Pod",
		obj:       map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"type": "x", "lastTransitionTime": "250m"}}}},
		converter: `parsing time "250m" as "2006-01-02T15:04:05Z07:00": cannot parse "250m" as "2006"`,
		body:      `parsing time "250m" as "2006-01-02T15:04:05Z07:00": cannot parse "250m" as "2006"`,
	}, {
		name: "time true", apiVersion: "v1", kind: "Pod",
		obj:       map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"type": "x", "lastTransitionTime": true}}}},
		converter: "json: cannot unmarshal bool into Go value of type string",
		body:      "json: cannot unmarshal bool into Go struct field PodCondition.status.conditions.lastTransitionTime of type string",
	}, {
		// The converter walks the Go type's fields (state before lastState), the body's
		// decoder the body, its members sorted (differential seed 901302).
		name: "two bad values", apiVersion: "v1", kind: "Pod",
		obj: map[string]any{"status": map[string]any{"containerStatuses": []any{map[string]any{
			"state":     map[string]any{"running": map[string]any{"startedAt": "250m"}},
			"lastState": map[string]any{"terminated": map[string]any{"finishedAt": true}}}}}},
		converter: `parsing time "250m" as "2006-01-02T15:04:05Z07:00": cannot parse "250m" as "2006"`,
		body:      "json: cannot unmarshal bool into Go struct field ContainerStateTerminated.status.containerStatuses.lastState.terminated.finishedAt of type string",
	}, {
		name: "base64", apiVersion: "v1", kind: "ConfigMap",
		obj:       map[string]any{"binaryData": map[string]any{"k": "b"}},
		converter: "error decoding from json: illegal base64 data at input byte 0",
		body:      "illegal base64 data at input byte 0",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := newest().Default(tc.apiVersion, tc.kind, tc.obj)
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a PathError", err)
			}
			converter, body, ok := pe.Refusal()
			if !ok || converter != tc.converter || body != tc.body {
				t.Errorf("Refusal() = %q, %q, %v; want %q, %q", converter, body, ok, tc.converter, tc.body)
			}
		})
	}
	// A fraction in an int32: the converter's "cannot convert float64 to int32" needs the
	// Go integer's size, which the table does not keep.
	err := newest().Default("apps/v1", "StatefulSet", map[string]any{"spec": map[string]any{"replicas": 2.25}})
	var pe *PathError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a PathError", err)
	}
	if c, b, ok := pe.Refusal(); ok {
		t.Errorf("Refusal() = %q, %q for a fraction in an integer; want none", c, b)
	}
}
