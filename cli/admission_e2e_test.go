package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/internal/admission/library"
	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
)

// TestAdmissionE2E runs ssa-diff against a real kube-apiserver running its whole default
// admission chain (make e2e): a namespace labelled for Pod Security, a
// ValidatingAdmissionPolicy bound with a param (Deny) and one bound without (Warn), a
// MutatingAdmissionPolicy, a LimitRange, a default StorageClass, ServiceAccounts. For each
// case ssa-diff reads the live state and the cluster state from the cluster with the
// read-only role of docs/rbac-reader.yaml, and its prediction must be the server's own
// answer to the same apply sent with dryRun=All: the refusal, or the object with its
// managedFields, and the warnings the server sent.
func TestAdmissionE2E(t *testing.T) {
	if os.Getenv("SSA_DIFF_E2E") == "" {
		t.Skip("needs a real kube-apiserver and etcd: run make e2e")
	}
	library.SilenceLogs()
	srv := clustertest.StartAPIServerWithAdmission(t, clustertest.BinDir())
	warnings := &warningRecorder{}
	k := newKube(t, &rest.Config{Host: srv.URL, BearerToken: srv.AdminToken, TLSClientConfig: rest.TLSClientConfig{CAData: srv.CA}, WarningHandler: warnings})
	k.apply("setup", false, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ci"}}`)
	rbac, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "rbac-reader.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range strings.Split(string(rbac), "\n---\n") {
		k.apply("setup", false, doc)
	}
	for _, ns := range []string{`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop","labels":{"env":"prod","pod-security.kubernetes.io/enforce":"restricted"}}}`,
		`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"lab","labels":{"pod-security.kubernetes.io/warn":"baseline"}}}`} {
		k.apply("setup", false, ns)
	}
	for _, ns := range []string{"shop", "lab"} {
		k.apply("setup", false, `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default","namespace":"`+ns+`"}}`)
	}
	k.apply("setup", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"limits","namespace":"shop"},"data":{"maxReplicas":"3"}}`)
	k.apply("setup", false, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"max-replicas"},
		"spec":{"paramKind":{"apiVersion":"v1","kind":"ConfigMap"},"matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
		"validations":[{"expression":"object.spec.replicas <= int(params.data.maxReplicas)","messageExpression":"'at most ' + params.data.maxReplicas + ' replicas'"}]}}`)
	k.apply("setup", false, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"max-replicas-prod"},
		"spec":{"policyName":"max-replicas","validationActions":["Deny"],"paramRef":{"name":"limits","parameterNotFoundAction":"Deny"},
		"matchResources":{"namespaceSelector":{"matchLabels":{"env":"prod"}}}}}`)
	k.apply("setup", false, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"few-replicas"},
		"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
		"validations":[{"expression":"object.spec.replicas <= 2","message":"a lab runs at most 2 replicas"}]}}`)
	k.apply("setup", false, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"few-replicas-lab"},
		"spec":{"policyName":"few-replicas","validationActions":["Warn","Audit"],"matchResources":{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"lab"}}}}}`)
	k.apply("setup", false, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"team-label"},
		"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["configmaps"]}]},
		"mutations":[{"patchType":"ApplyConfiguration","applyConfiguration":{"expression":"Object{metadata: Object.metadata{labels: {\"team\": \"platform\"}}}"}},
		{"patchType":"JSONPatch","jsonPatch":{"expression":"[JSONPatch{op: \"add\", path: \"/data/owner\", value: request.userInfo.username}]"}}],"reinvocationPolicy":"Never"}}`)
	k.apply("setup", false, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"team-label-lab"},
		"spec":{"policyName":"team-label","matchResources":{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"lab"}}}}}`)
	k.apply("setup", false, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits","namespace":"lab"},
		"spec":{"limits":[{"type":"Container","default":{"cpu":"500m","memory":"256Mi"},"defaultRequest":{"cpu":"100m"},"max":{"cpu":"1"}}]}}`)
	k.apply("setup", false, `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"standard","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}},"provisioner":"example.com/disk"}`)
	reader := srv.Kubeconfig(t, "reader", k.token("ci", "ssa-diff"), "shop")
	time.Sleep(2 * time.Second) // the server's policy source refreshes every second

	pod := func(ns, security string) string {
		return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"app","namespace":"` + ns + `"},"spec":{"containers":[{"name":"app","image":"nginx:1.27"` + security + `}]}}`
	}
	restricted := `,"securityContext":{"allowPrivilegeEscalation":false,"runAsNonRoot":true,"capabilities":{"drop":["ALL"]},"seccompProfile":{"type":"RuntimeDefault"}}`
	// shows is what the server's answer must hold: the case exercises what it is named for.
	cases := []struct{ name, manifest, shows string }{
		{"policy-denies", strings.Replace(deployment("nginx:1.27", `"replicas":5,`, `[]`), `"namespace":"e2e"`, `"namespace":"shop"`, 1), `max-replicas-prod`},
		{"policy-admits", strings.Replace(deployment("nginx:1.27", `"replicas":2,`, `[]`), `"namespace":"e2e"`, `"namespace":"shop"`, 1), `"replicas":2`},
		{"pod-security-refuses", pod("shop", ""), `violates PodSecurity`},
		{"pod-security-admits-with-the-account-token", pod("shop", restricted), `kube-api-access-`},
		{"pod-security-warns", strings.Replace(pod("lab", ""), `"containers"`, `"hostNetwork":true,"containers"`, 1), `would violate PodSecurity \"baseline:latest\"`},
		{"default-storage-class", `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"lab"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`, `"storageClassName":"standard"`},
		{"policy-warns", strings.Replace(deployment("nginx:1.27", `"replicas":3,`, `[]`), `"namespace":"e2e"`, `"namespace":"lab"`, 1), `Validation failed for ValidatingAdmissionPolicy 'few-replicas'`},
		{"mutating-policy", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"lab"},"data":{"a":"1"}}`, `"team":"platform"`},
		{"limit-range-defaults", pod("lab", ""), `kubernetes.io/limit-ranger`},
		{"limit-range-max", strings.Replace(pod("lab", ""), `"image":"nginx:1.27"`, `"image":"nginx:1.27","resources":{"limits":{"cpu":"2"}}`, 1), `maximum cpu usage`},
		{"namespace-missing", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"nowhere"},"data":{"a":"1"}}`, `not found`},
	}
	nextSecond()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			manifest := filepath.Join(dir, "manifest.json")
			if err := os.WriteFile(manifest, []byte(c.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
			var stdout, stderr bytes.Buffer
			code := runWithLibrary(context.Background(), "ssa-diff", []string{"--live-from-cluster", "--kubeconfig", reader, "--applier", "api",
				"--field-manager", "deployer", "-o", "json", "--now", now, "--as", "oracle-admin", "--as-group", "system:masters", manifest},
				strings.NewReader(""), &stdout, &stderr, nil, library.New)
			got := oneResult(t, stdout.String(), stderr.String())
			if !strings.Contains(stderr.String(), "admission state: ") {
				t.Errorf("no admission state read: %s", stderr.String())
			}
			warnings.reset()
			obj, status := k.dryRunApply("deployer", false, c.manifest)
			sent, predicted := warnings.reset(), conformance.ServerWarnings(got.Warnings)
			if answer, _ := json.Marshal(map[string]any{"object": obj, "status": status, "warnings": sent}); !strings.Contains(string(answer), c.shows) {
				t.Errorf("the server's answer does not show %s: %s", c.shows, answer)
			}
			sort.Strings(sent)
			if !slices.Equal(sent, predicted) {
				t.Errorf("the server warns %q\nssa-diff predicts %q", sent, predicted)
			}
			switch {
			case status != nil:
				if got.Error == nil || got.Error.Code != int(status.Code) || got.Error.Message != status.Message {
					t.Errorf("the server answers %d %q\nssa-diff predicts %s (exit %d)\n%s", status.Code, status.Message, describe(got), code, stderr.String())
				}
			default:
				if got.Error != nil || got.Object == nil {
					t.Fatalf("the server accepts the apply; ssa-diff predicts %s (exit %d)\n%s", describe(got), code, stderr.String())
				}
				want, pred := tokenVolume(normalise(obj, nil)), tokenVolume(normalise(got.Object, nil))
				if !reflect.DeepEqual(want, pred) {
					t.Errorf("the objects differ:\n%s", testkit.Diff(want, pred))
				}
				mf, _, _ := unstructured.NestedSlice(obj, "metadata", "managedFields")
				t.Logf("server: an object with %d managedFields entries; ssa-diff: %s", len(mf), describe(got))
			}
		})
	}
}

// warningRecorder keeps the Warning headers of the server's answers.
type warningRecorder struct {
	mu   sync.Mutex
	sent []string
}

func (w *warningRecorder) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent = append(w.sent, text)
}

// reset returns the warnings kept since the last reset, and forgets them.
func (w *warningRecorder) reset() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	sent := w.sent
	w.sent = nil
	return sent
}

var tokenVolumeName = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)

// tokenVolume is obj with the ServiceAccount token volume's random name (the prediction's
// stand-in, the server's letters) made one.
func tokenVolume(obj map[string]any) map[string]any {
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				x[k] = walk(y)
			}
		case []any:
			for i, y := range x {
				x[i] = walk(y)
			}
		case string:
			return tokenVolumeName.ReplaceAllString(x, "kube-api-access-XXXXX")
		}
		return v
	}
	return walk(obj).(map[string]any)
}
