package validation_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/strategy"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/kube"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// workloadCase is one write of a workload kind and the server's answer: "" (accepted) or
// the 422's message (rules.md valid.builtin), byte for byte.
type workloadCase struct {
	name string
	// old is the stored object (empty on a create); new the object written, both YAML.
	old, new    string
	subresource string
	want        string
	// warnings are the server's warnings when it accepts the write (none if nil).
	warnings []string
	// unordered: an older minor's server reports the errors in Go's map order (a map's
	// members validated by ranging over it), so a recorded answer may hold them in any order.
	unordered bool
}

// object reads YAML into the form the engine holds (integers as int64), as the server
// stores it: defaulted, and prepared by the registry's create or update rules.
func object(t testing.TB, doc string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return ints(v).(map[string]any)
}

func ints(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = ints(e)
		}
	case []any:
		for i, e := range x {
			x[i] = ints(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// run validates the case's write as the engine sends it: both objects defaulted, the new
// one prepared against the stored one.
func (c workloadCase) run(t *testing.T) string {
	t.Helper()
	msg, _ := c.validate(t)
	return msg
}

// validate is run's answer with the warnings of an accepted write.
func (c workloadCase) validate(t *testing.T) (string, []string) {
	t.Helper()
	return c.validateAt(t, serverconfig.MustFor(kube.Default()))
}

// validateAt is validate on the server cfg describes.
func (c workloadCase) validateAt(t *testing.T, cfg *serverconfig.Config) (string, []string) {
	t.Helper()
	msg, _, warnings := c.validateFull(t, cfg)
	return msg, warnings
}

// validateFull is validateAt with the number of causes of a refusal.
func (c workloadCase) validateFull(t *testing.T, cfg *serverconfig.Config) (string, int, []string) {
	t.Helper()
	obj := object(t, c.new)
	av, kind := obj["apiVersion"].(string), obj["kind"].(string)
	var old map[string]any
	if c.old != "" {
		// The stored object was created (its status written later, by its controller).
		old = object(t, c.old)
		status, hasStatus := old["status"]
		strategy.PrepareForCreate(cfg, av, kind, nil, old)
		if hasStatus {
			old["status"] = status
		}
		if err := defaults.MustFor(kube.Default()).Default(av, kind, old); err != nil {
			t.Fatal(err)
		}
		if err := defaults.MustFor(kube.Default()).Default(av, kind, obj); err != nil {
			t.Fatal(err)
		}
		switch c.subresource {
		case "", "scale":
			// A scale write stores the parent through the main resource's strategy.
			strategy.PrepareForUpdate(cfg, av, kind, nil, obj, old)
		case "status":
			strategy.PrepareForStatusUpdate(cfg, av, kind, obj, old)
		}
	} else {
		strategy.PrepareForCreate(cfg, av, kind, nil, obj)
	}
	if err := defaults.MustFor(kube.Default()).Default(av, kind, obj); err != nil {
		t.Fatal(err)
	}
	res, err := validation.Validate(cfg, av, kind, c.subresource, obj, old)
	if errors.Is(err, registry.ErrServerPanics) {
		return "the server panics: " + err.(registry.ServerPanic).Reason, 0, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if !res.Known {
		t.Fatalf("%s %s: validation not ported", av, kind)
	}
	if len(res.Errors) == 0 {
		return "", 0, res.Warnings
	}
	gv, _ := schema.ParseGroupVersion(av)
	name, _ := obj["metadata"].(map[string]any)["name"].(string)
	gk := schema.GroupKind{Group: gv.Group, Kind: kind}
	if c.unordered && c.want != "" {
		// The order of the errors a server ranging over a map reports (want is one of them).
		for perm := range permutations(res.Errors) {
			if m := apierrors.NewInvalid(gk, name, perm).ErrStatus.Message; m == c.want {
				return m, len(res.Errors), nil
			}
		}
	}
	return apierrors.NewInvalid(gk, name, res.Errors).ErrStatus.Message, len(res.Errors), nil
}

// permutations yields every order of errs (a handful of errors).
func permutations(errs field.ErrorList) iter.Seq[field.ErrorList] {
	return func(yield func(field.ErrorList) bool) {
		var rec func(k int) bool
		p := slices.Clone(errs)
		rec = func(k int) bool {
			if k == len(p) {
				return yield(slices.Clone(p))
			}
			for i := k; i < len(p); i++ {
				p[k], p[i] = p[i], p[k]
				if !rec(k + 1) {
					return false
				}
				p[k], p[i] = p[i], p[k]
			}
			return true
		}
		rec(0)
	}
}

func runWorkloadCases(t *testing.T, cases []workloadCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, warnings := c.validate(t)
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if !slices.Equal(warnings, c.warnings) {
				t.Errorf("warnings %q\nwant     %q", warnings, c.warnings)
			}
		})
	}
}

const deploymentSite = `apiVersion: apps/v1
kind: Deployment
metadata: {name: site, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000001, resourceVersion: "7"}
spec:
  selector: {matchLabels: {app: site}}
  template:
    metadata: {labels: {app: site}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
`

// edit replaces the first occurrence of from in doc by to (a scenario's change).
func edit(t testing.TB, doc, from, to string) string {
	t.Helper()
	if !strings.Contains(doc, from) {
		t.Fatalf("%q not in the document", from)
	}
	return strings.Replace(doc, from, to, 1)
}

// rules.md valid.builtin, valid.update: a Deployment's selector, template labels, rollout strategy and limits.
func TestDeploymentValidation(t *testing.T) { runWorkloadCases(t, deploymentCases(t)) }

func deploymentCases(t *testing.T) []workloadCase {
	site := deploymentSite
	return []workloadCase{
		{name: "valid create", new: site},
		{name: "V1 selector does not match the template's labels", new: edit(t, site, "labels: {app: site}", "labels: {app: sight}"),
			want: "Deployment.apps \"site\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"sight\"}: `selector` does not match template `labels`"},
		{name: "V2 selector is immutable", old: site,
			new:  strings.ReplaceAll(site, "{app: site}", "{app: site, track: stable}"),
			want: `Deployment.apps "site" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"site","track":"stable"}}: field is immutable`},
		{name: "V1 empty selector", new: edit(t, site, "selector: {matchLabels: {app: site}}", "selector: {}"),
			want: `Deployment.apps "site" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{name: "V1 maxUnavailable and maxSurge both 0",
			new:  edit(t, site, "spec:\n  selector", "spec:\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n  selector"),
			want: "Deployment.apps \"site\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{name: "V1 maxUnavailable above 100%",
			new:  edit(t, site, "spec:\n  selector", "spec:\n  strategy: {rollingUpdate: {maxUnavailable: 150%}}\n  selector"),
			want: `Deployment.apps "site" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%`},
		{name: "V1 Recreate with rollingUpdate",
			new:  edit(t, site, "spec:\n  selector", "spec:\n  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}\n  selector"),
			want: "Deployment.apps \"site\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{name: "V1 unknown strategy type",
			new:  edit(t, site, "spec:\n  selector", "spec:\n  strategy: {type: BlueGreen}\n  selector"),
			want: `Deployment.apps "site" is invalid: spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`},
		{name: "V1 progress deadline not above minReadySeconds",
			new:  edit(t, site, "spec:\n  selector", "spec:\n  minReadySeconds: 30\n  progressDeadlineSeconds: 30\n  selector"),
			want: `Deployment.apps "site" is invalid: spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds`},
		{name: "V1 negative revisionHistoryLimit and replicas",
			new:  edit(t, site, "spec:\n  selector", "spec:\n  replicas: -1\n  revisionHistoryLimit: -2\n  selector"),
			want: `Deployment.apps "site" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0]`},
		{name: "V1 rollback requested through the annotation",
			new:  edit(t, site, "uid:", `annotations: {deprecated.deployment.rollback.to: "-3"}, uid:`),
			want: `Deployment.apps "site" is invalid: spec.rollback.version: Invalid value: -3: must be greater than or equal to 0`},
		{name: "V6 name not a DNS subdomain", new: edit(t, site, "name: site", "name: Site"),
			want: `Deployment.apps "Site" is invalid: metadata.name: Invalid value: "Site": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{name: "V1 template restarts OnFailure", new: edit(t, site, "containers:", "restartPolicy: OnFailure\n      containers:"),
			want: `Deployment.apps "site" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{name: "status: collisionCount cannot go down", subresource: "status",
			old:  site + "status: {collisionCount: 3}\n",
			new:  site + "status: {collisionCount: 2}\n",
			want: `Deployment.apps "site" is invalid: status.collisionCount: Invalid value: 2: cannot be decremented`},
		{name: "status: counters above replicas", subresource: "status", old: site,
			new:  site + "status: {replicas: 1, readyReplicas: 2, availableReplicas: 2}\n",
			want: `Deployment.apps "site" is invalid: [status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas]`},
		{name: "scale writes validate the Deployment", subresource: "scale", old: site,
			new:  edit(t, site, "spec:\n  selector", "spec:\n  replicas: -4\n  selector"),
			want: `Deployment.apps "site" is invalid: spec.replicas: Invalid value: -4: must be greater than or equal to 0`},
		{name: "V2 allowed update: replicas, image and rollout strategy", old: site,
			new: edit(t, edit(t, site, "nginx:1.27", "nginx:1.28"), "spec:\n  selector", "spec:\n  replicas: 4\n  strategy: {type: Recreate}\n  selector")},
		{name: "V2 an update is validated as a create: template labels no longer selected", old: site,
			new:  edit(t, site, "labels: {app: site}", "labels: {app: web}"),
			want: "Deployment.apps \"site\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{name: "warning: a name that is no DNS label", new: edit(t, site, "name: site", "name: site.v2"),
			warnings: []string{"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"}},
		{name: "warning: the pod template's deprecated node label", new: edit(t, site, "containers:", "nodeSelector: {beta.kubernetes.io/os: linux}\n      containers:"),
			warnings: []string{`spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`}},
		{name: "warning: an update that moves the generation warns of the template again",
			old:      edit(t, site, "containers:", "nodeSelector: {beta.kubernetes.io/os: linux}\n      containers:"),
			new:      edit(t, edit(t, site, "containers:", "nodeSelector: {beta.kubernetes.io/os: linux}\n      containers:"), "spec:\n  selector", "spec:\n  replicas: 3\n  selector"),
			warnings: []string{`spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`}},
		{name: "warning: none when only the labels change (the generation stays)",
			old: edit(t, site, "containers:", "nodeSelector: {beta.kubernetes.io/os: linux}\n      containers:"),
			new: edit(t, edit(t, site, "containers:", "nodeSelector: {beta.kubernetes.io/os: linux}\n      containers:"), "uid:", "labels: {team: web}, uid:")},
	}
}

const statefulSetKafka = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: streaming, uid: 1b0e5c1a-0000-4000-8000-000000000002, resourceVersion: "7"}
spec:
  serviceName: kafka
  replicas: 3
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      containers: [{name: kafka, image: kafka:3.8}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 10Gi}}
`

// rules.md valid.builtin, valid.update: a StatefulSet's update may change only replicas, the template, the update
// strategy, the retention policy, minReadySeconds and ordinals; each other field that
// changes is reported as immutable, with its new value.
func TestStatefulSetValidation(t *testing.T) {
	kafka := statefulSetKafka
	runWorkloadCases(t, statefulSetCases(t))
	// The claim templates print as the internal type: Go field names but for the promoted
	// metadata fields, without the kind and apiVersion conversion drops, with the defaults.
	t.Run("V2 volumeClaimTemplates", func(t *testing.T) {
		got := workloadCase{old: kafka, new: edit(t, kafka, "storage: 10Gi", "storage: 20Gi")}.run(t)
		prefix := `StatefulSet.apps "kafka" is invalid: spec.volumeClaimTemplates: Invalid value: [{"name":"data","Spec":{"AccessModes":["ReadWriteOnce"],"Selector":null,"Resources":{"Limits":null,"Requests":{"storage":"20Gi"}},"VolumeName":"","StorageClassName":null,"VolumeMode":"Filesystem",`
		if !strings.HasPrefix(got, prefix) || !strings.HasSuffix(got, ": field is immutable") {
			t.Errorf("got %s\nwant %s…: field is immutable", got, prefix)
		}
	})
}

func statefulSetCases(t *testing.T) []workloadCase {
	kafka := statefulSetKafka
	return []workloadCase{
		{name: "valid create", new: kafka},
		{name: "allowed update: replicas, template, strategy, ordinals", old: kafka,
			new: edit(t, edit(t, kafka, "replicas: 3", "replicas: 5\n  minReadySeconds: 10\n  ordinals: {start: 1}\n  updateStrategy: {type: OnDelete}\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}"), "kafka:3.8", "kafka:3.9")},
		{name: "V2 serviceName", old: kafka, new: edit(t, kafka, "serviceName: kafka", "serviceName: kafka-headless"),
			want: `StatefulSet.apps "kafka" is invalid: spec.serviceName: Invalid value: "kafka-headless": field is immutable`},
		{name: "V2 podManagementPolicy and selector", old: kafka,
			new:  strings.ReplaceAll(edit(t, kafka, "replicas: 3", "replicas: 3\n  podManagementPolicy: Parallel"), "{app: kafka}", "{app: broker}"),
			want: `StatefulSet.apps "kafka" is invalid: [spec.selector: Invalid value: {"matchLabels":{"app":"broker"}}: field is immutable, spec.podManagementPolicy: Invalid value: "Parallel": field is immutable]`},
		{name: "V1 unknown update strategy", new: edit(t, kafka, "replicas: 3", "replicas: 3\n  updateStrategy: {type: BlueGreen}"),
			want: `StatefulSet.apps "kafka" is invalid: spec.updateStrategy: Invalid value: {"Type":"BlueGreen","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'`},
		{name: "V1 maxUnavailable 0", new: edit(t, kafka, "replicas: 3", "replicas: 3\n  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}"),
			want: `StatefulSet.apps "kafka" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0`},
		{name: "V1 retention policy", new: edit(t, kafka, "replicas: 3", "replicas: 3\n  persistentVolumeClaimRetentionPolicy: {whenDeleted: Keep}"),
			want: `StatefulSet.apps "kafka" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"`},
		{name: "V1 negative ordinals start", new: edit(t, kafka, "replicas: 3", "replicas: 3\n  ordinals: {start: -1}"),
			want: `StatefulSet.apps "kafka" is invalid: spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0`},
		{name: "V1 serviceName not a DNS label on create", new: edit(t, kafka, "serviceName: kafka", "serviceName: Kafka"),
			want: `StatefulSet.apps "kafka" is invalid: spec.serviceName: Invalid value: "Kafka": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{name: "V6 name must be a DNS label", new: edit(t, kafka, "name: kafka,", "name: kafka.main,"),
			want: `StatefulSet.apps "kafka.main" is invalid: metadata.name: Invalid value: "kafka.main": must not contain dots`},
		{name: "status: available above ready", subresource: "status", old: kafka,
			new:  kafka + "status: {replicas: 3, readyReplicas: 1, availableReplicas: 2}\n",
			want: `StatefulSet.apps "kafka" is invalid: status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas`},
		{name: "warning: fractional claim size and negative history limit on create",
			new: edit(t, edit(t, kafka, "storage: 10Gi", "storage: 1500m"), "replicas: 3", "replicas: 3\n  revisionHistoryLimit: -1"),
			warnings: []string{
				`spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer`,
				"spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended"}},
		{name: "warning: a stored fractional claim size on every update (path spelled Spec)",
			old:      edit(t, kafka, "storage: 10Gi", "storage: 1500m"),
			new:      edit(t, edit(t, kafka, "storage: 10Gi", "storage: 1500m"), "replicas: 3", "replicas: 4"),
			warnings: []string{`spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer`}},
	}
}
