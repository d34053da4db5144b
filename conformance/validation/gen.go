package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
	"sigs.k8s.io/yaml"
)

// decodeJSON decodes JSON the way the engine holds objects: integers as int64.
func decodeJSON(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	m, ok := fromNumbers(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	return m, nil
}

func fromNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = fromNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = fromNumbers(e)
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

// Seeds are realistic valid objects of a kind: testdata/seeds/*.yaml and the objects of the
// recorded cases (../shared/fixtures) of that kind.
func Seeds(gvk schema.GroupVersionKind, fixtures string) ([]map[string]any, error) {
	var files []string
	for _, pattern := range []string{"testdata/seeds/*.yaml", filepath.Join(fixtures, "*", "manifest.yaml"), filepath.Join(fixtures, "*", "live.json")} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	sort.Strings(files)
	var out []map[string]any
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, doc := range strings.Split(string(b), "\n---") {
			j, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil || len(bytes.TrimSpace(j)) == 0 || string(j) == "null" {
				continue
			}
			obj, err := decodeJSON(j)
			if err != nil {
				continue
			}
			if obj["apiVersion"] != gvk.GroupVersion().String() || obj["kind"] != gvk.Kind {
				continue
			}
			md, _ := obj["metadata"].(map[string]any)
			delete(md, "managedFields")
			delete(md, "resourceVersion")
			out = append(out, obj)
		}
	}
	return out, nil
}

// mutation is one change to an object, described for a report.
type mutation struct {
	path string
	what string
}

// badValues are what a mutation sets a leaf to.
var badValues = []any{"", "Bad_Value!", "-1", "a", "UPPER", "x.y", "10.0.0.1", "::1", "300Mi", "0.5", "*",
	"a/b/c", strings.Repeat("a", 64), strings.Repeat("b", 254), int64(-1), int64(0), int64(1), int64(65536),
	int64(1) << 40, 0.5, true, false, nil}

// Mutate returns a copy of obj with 1 to 3 random changes: a leaf set to an edge or invalid
// value, a field removed, a list emptied or an item repeated, a map given a bad key.
func Mutate(obj map[string]any, r *rand.Rand) (map[string]any, []mutation) {
	return MutateFrom(obj, r, nil)
}

// Pool holds, by field name, the values the seeds of a kind give that field: a mutation
// that sets a field to another of them (another Service type, another secret type, another
// valid IP) reaches the rules that tie fields together, which invalid values seldom do.
type Pool map[string][]any

// NewPool is the pool of the leaves of seeds.
func NewPool(seeds []map[string]any) Pool {
	p := Pool{}
	seen := map[string]bool{}
	var walk func(name string, v any)
	walk = func(name string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(k, e)
			}
		case []any:
			for _, e := range x {
				walk(name, e)
			}
		default:
			key := fmt.Sprintf("%s=%#v", name, x)
			if name != "" && !seen[key] {
				seen[key] = true
				p[name] = append(p[name], x)
			}
		}
	}
	for _, s := range seeds {
		walk("", s)
	}
	for name, words := range fieldWords {
		if len(p[name]) > 0 {
			p[name] = append(p[name], words...)
		}
	}
	for _, vs := range p {
		sort.Slice(vs, func(i, j int) bool { return fmt.Sprint(vs[i]) < fmt.Sprint(vs[j]) })
	}
	return p
}

// MutateFrom is Mutate that also sets leaves to values of pool (nil: none).
func MutateFrom(obj map[string]any, r *rand.Rand, pool Pool) (map[string]any, []mutation) {
	out := deepCopy(obj).(map[string]any)
	var done []mutation
	for n := 1 + r.IntN(3); n > 0; n-- {
		var paths []string
		collect(out, "", &paths)
		if len(paths) == 0 {
			break
		}
		p := paths[r.IntN(len(paths))]
		if m, ok := fromPool(out, p, r, pool); ok {
			done = append(done, m)
		} else if m, ok := mutateAt(out, p, r); ok {
			done = append(done, m)
		}
	}
	return out, done
}

// collect lists the paths of every value below v ("/"-separated, list indexes as numbers),
// apiVersion and kind aside.
func collect(v any, prefix string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if prefix == "" && (k == "apiVersion" || k == "kind") {
				continue
			}
			p := prefix + "/" + k
			*out = append(*out, p)
			collect(x[k], p, out)
		}
	case []any:
		for i, e := range x {
			p := fmt.Sprintf("%s/%d", prefix, i)
			*out = append(*out, p)
			collect(e, p, out)
		}
	}
}

func mutateAt(obj map[string]any, path string, r *rand.Rand) (mutation, bool) {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var parent any = obj
	for _, p := range parts[:len(parts)-1] {
		parent = child(parent, p)
	}
	last := parts[len(parts)-1]
	cur := child(parent, last)
	set := func(v any) {
		switch pa := parent.(type) {
		case map[string]any:
			pa[last] = v
		case []any:
			var i int
			fmt.Sscan(last, &i)
			pa[i] = v
		}
	}
	switch c := cur.(type) {
	case []any:
		switch r.IntN(3) {
		case 0:
			set([]any{})
			return mutation{path, "emptied"}, true
		case 1:
			if len(c) > 0 {
				set(append(c, deepCopy(c[0])))
				return mutation{path, "first item repeated"}, true
			}
		}
	case map[string]any:
		if r.IntN(2) == 0 {
			c["Bad Key!"] = "x"
			return mutation{path, "bad key added"}, true
		}
	}
	if r.IntN(4) == 0 {
		if pa, ok := parent.(map[string]any); ok {
			delete(pa, last)
			return mutation{path, "removed"}, true
		}
	}
	v := badValues[r.IntN(len(badValues))]
	if r.IntN(2) == 0 {
		// Half the time a value of the leaf's own type, which the server decodes: the
		// write reaches validation instead of being refused as a bad body.
		if same, ok := sameTypeValue(cur, r); ok {
			v = same
		}
	}
	set(v)
	return mutation{path, fmt.Sprintf("set to %#v", v)}, true
}

// sameTypeValue is an edge or invalid value of the same JSON type as cur: another word of
// the vocabulary (other enum values, names, paths) or a bad string, an edge number, the
// other boolean.
func sameTypeValue(cur any, r *rand.Rand) (any, bool) {
	switch c := cur.(type) {
	case string:
		if r.IntN(2) == 0 {
			return vocabulary[r.IntN(len(vocabulary))], true
		}
		var strs []any
		for _, b := range badValues {
			if _, ok := b.(string); ok {
				strs = append(strs, b)
			}
		}
		return strs[r.IntN(len(strs))], true
	case int64:
		return []int64{-1, 0, 1, 2, 255, 256, 65535, 65536, 1 << 31, -(1 << 31) - 1, c + 1, c - 1}[r.IntN(12)], true
	case bool:
		return !c, true
	}
	return nil, false
}

func child(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		return x[key]
	case []any:
		var i int
		fmt.Sscan(key, &i)
		if i < len(x) {
			return x[i]
		}
	}
	return nil
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

var vocabulary = []string{"", "a", "web", "Bad_Name!", "TCP", "UDP", "SCTP", "Always", "Never", "OnFailure",
	"IfNotPresent", "ClusterIP", "NodePort", "LoadBalancer", "None", "10.0.0.1", "10.0.0.0/24", "::1", "25%",
	"RollingUpdate", "Recreate", "OnDelete", "Opaque", "kubernetes.io/tls", "app", "example.com/key",
	"nginx:1.27", "/data", "data", "http", "Exists", "Equal", "In", "NotIn", "NoSchedule", "cpu", "memory",
	// More enum values and names the kinds built on pods and volumes use.
	"Bound", "Pending", "Running", "ReadWriteOnce", "ReadWriteOncePod", "Filesystem", "Block", "Retain", "Recycle",
	"RuntimeDefault", "Localhost", "Unconfined", "linux", "windows", "Burstable", "NotRequired", "RestartContainer",
	"storage", "hugepages-2Mi", "example.com/gpu", "SIGTERM", "DoNotSchedule", "ScheduleAnyway", "Honor",
	// Paths, hosts, CIDRs and enum values of the networking, rbac, storage, scheduling, node,
	// discovery and coordination kinds.
	"/a//b", "/docs/..", "/x/./y", "%2F", "*.example.com", "*", "fd00::/8", "10.0.0.0/8", "192.168.1.0/24",
	"0.0.0.0/0", "010.0.0.0/8", "Cluster", "Namespace", "Ingress", "Egress", "Exact", "Prefix",
	"ImplementationSpecific", "rbac.authorization.k8s.io", "Role", "ClusterRole", "ServiceAccount", "User",
	"Group", "get", "Delete", "Immediate", "WaitForFirstConsumer", "Persistent", "Ephemeral", "File",
	"ReadWriteOnceWithFSType", "IPv4", "IPv6", "FQDN", "system-node-critical", "system-cluster-critical",
	"PreemptLowerPriority", "OldestEmulationVersion", "kubernetes.io/hostname", "beta.kubernetes.io/os"}

// fieldWords are values, valid and not, of the fields whose rules parse them — a CronJob's
// schedule (robfig/cron: fields, ranges, steps, names, descriptors, a time zone prefix) and
// time zone (IANA names, malformed ones): NewPool offers them where the seeds have such a
// field and random CronJobs take them, so that writes reach each error of the parsers,
// which the vocabulary's words (one field, no digits) never do.
var fieldWords = map[string][]any{
	"schedule": {"0 0 31 2 *", "*/0 * * * *", "5-1 * * * *", "60 * * * *", "* 24 * * *", "* * 0 * *",
		"* * 32 * *", "* * * 0 *", "* * * 13 *", "* * * * 7", "* * * * 8", "* * * * SUN-SAT", "* * * FOO *",
		"0 0 1 jan-dec *", "jan * * * *", "0 0 * * mon,wed,FRI", "@every 5m", "@every -1s", "@every x",
		"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly", "@reboot", "@",
		"? * * * *", "1,2,,3 * * * *", "1-2-3 * * * *", "*/5/2 * * * *", "1-5/2 * * * *", "*/61 * * * *",
		"0-59/15 * * * *", "-5 * * * *", "5- * * * *", "0 0 * * 1#2", "0 0 L * *", " 0  * * * * ",
		"TZ=UTC 0 * * * *", "CRON_TZ=Europe/Berlin 0 2 * * *", "CRON_TZ=Bad/Zone 0 * * * *", "TZ= * * * * *",
		"TZ=UTC", "0 0 * * * *", "0 0 * *", "*/2147483648 * * * *", "99999999999999999999 * * * *", "0 12 * * ?"},
	"timeZone": {"UTC", "Etc/UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "GMT+0",
		"Etc/GMT+5", "EST5EDT", "local", "Local", "utc", "Europe/berlin", "Mars/Olympus", "Europe/", "/UTC",
		"Europe//Berlin", "./UTC", "-UTC", "Europe/Berlin_Area_Too_Long", "Europe/Berlin ", "US/Pacific-New"},
}

var quantities = []string{"0", "1", "0.5", "100m", "1Gi", "2Gi", "500Mi", "-1", "1e3", "1234567n"}

// Filler fills random objects with values that steer validation into its branches.
func Filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.5).NumElements(0, 2).MaxDepth(12).Funcs(
		func(s *string, c randfill.Continue) { *s = vocabulary[c.Intn(len(vocabulary))] },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(int32(c.Intn(70000)) - 1)
			} else {
				*v = intstr.FromString(vocabulary[c.Intn(len(vocabulary))])
			}
		},
		func(n *int32, c randfill.Continue) { *n = []int32{-1, 0, 1, 2, 3, 80, 65536}[c.Intn(7)] },
		func(n *int64, c randfill.Continue) { *n = []int64{-1, 0, 1, 2, 30, 3600}[c.Intn(6)] },
		func(t *metav1.Time, c randfill.Continue) {
			*t = metav1.NewTime(time.Unix(1700000000+int64(c.Intn(1000000)), 0))
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(time.Unix(1700000000+int64(c.Intn(1000000)), 0))
		},
		func(r *runtime.RawExtension, c randfill.Continue) { r.Raw = []byte(`{"a":1}`) },
		func(f *metav1.FieldsV1, c randfill.Continue) { f.SetRawString(`{"f:a":{}}`) },
		func(s *batchv1.CronJobSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			words := fieldWords["schedule"]
			s.Schedule = words[c.Intn(len(words))].(string)
			if s.TimeZone != nil {
				zones := fieldWords["timeZone"]
				tz := zones[c.Intn(len(zones))].(string)
				s.TimeZone = &tz
			}
		},
		func(m *metav1.ObjectMeta, c randfill.Continue) {
			m.Name = []string{"web", "a", "Bad_Name", "x.y"}[c.Intn(4)]
			m.Namespace = "ns"
			if c.Intn(3) == 0 {
				m.Labels = map[string]string{vocabulary[c.Intn(len(vocabulary))]: vocabulary[c.Intn(len(vocabulary))]}
			}
		},
	)
}

// Random is a random object of the kind, as JSON at its served version.
func Random(s *runtime.Scheme, gvk schema.GroupVersionKind, f *randfill.Filler) ([]byte, error) {
	typ, ok := s.AllKnownTypes()[gvk]
	if !ok {
		return nil, fmt.Errorf("%s unknown", gvk)
	}
	obj := reflect.New(typ).Interface().(runtime.Object)
	f.Fill(obj)
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return json.Marshal(obj)
}

// fromPool sets the leaf at path to another value the seeds give a field of its name, one
// time in three when there is one.
func fromPool(obj map[string]any, path string, r *rand.Rand, pool Pool) (mutation, bool) {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	name := ""
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			name = p
		}
	}
	vs := pool[name]
	if len(vs) == 0 || r.IntN(3) != 0 {
		return mutation{}, false
	}
	var parent any = obj
	for _, p := range parts[:len(parts)-1] {
		parent = child(parent, p)
	}
	last := parts[len(parts)-1]
	switch child(parent, last).(type) {
	case map[string]any, []any:
		return mutation{}, false
	}
	v := vs[r.IntN(len(vs))]
	switch pa := parent.(type) {
	case map[string]any:
		pa[last] = v
	case []any:
		i, _ := strconv.Atoi(last)
		pa[i] = v
	default:
		return mutation{}, false
	}
	return mutation{path, fmt.Sprintf("set to %#v (from the seeds)", v)}, true
}
