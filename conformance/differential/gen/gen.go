package gen

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Generator makes random values of SMD types. It is deterministic for a given source and
// is not safe for concurrent use.
type Generator struct {
	schema *smdschema.Schema
	rnd    *rand.Rand
	// Hints are dotted field paths (list items add nothing: "spec.ports.port") that the
	// generator prefers: a field on a hint is chosen with high probability.
	hints []string
	// budget bounds the scalars one Value call makes.
	budget int
	// PartialKeys lets list-map items leave out key fields that have no default (as long
	// as one key field stays): valid where the schema does not require them (CRDs).
	PartialKeys bool
	// Fractions lets numbers have a fraction wherever the schema says "numeric": valid for
	// a custom resource's number, and for a built-in kind decoded into its Go types on the
	// oracle's side (which refuses it as the server does). A built-in kind's numbers are
	// otherwise Go integers: an object holding a fraction there is one no API server
	// stores, and what the server decides on decoded objects (the store's no-op check, a
	// /scale's replica count) has no answer for it.
	Fractions bool
	// Texts lets strings hold the characters whose text in fieldsV1's k: and v: elements
	// differs between structured-merge-diff v6 and v7 (& < > U+2028 U+2029, a backspace
	// and a form feed), and fractions have small and large exponents (1e-7, 2.5e-9,
	// 1e21): valid in a custom resource, whose strings and numbers no built-in rule checks.
	Texts bool
	// sorted holds each map type's fields in name order: a custom resource's schema lists
	// them in the order its OpenAPI properties map was walked, which changes from process
	// to process, and a seed must make the same sequence in every process.
	sorted map[*smdschema.Map][]smdschema.StructField
}

// fields returns m's fields in name order.
func (g *Generator) fields(m *smdschema.Map) []smdschema.StructField {
	if fs, ok := g.sorted[m]; ok {
		return fs
	}
	fs := append([]smdschema.StructField(nil), m.Fields...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	if g.sorted == nil {
		g.sorted = map[*smdschema.Map][]smdschema.StructField{}
	}
	g.sorted[m] = fs
	return fs
}

// New returns a generator over s drawing from rnd.
func New(s *smdschema.Schema, rnd *rand.Rand, hints ...string) *Generator {
	return &Generator{schema: s, rnd: rnd, hints: hints}
}

// Rand is the generator's source.
func (g *Generator) Rand() *rand.Rand { return g.rnd }

// Schema is the generator's schema.
func (g *Generator) Schema() *smdschema.Schema { return g.schema }

const maxDepth = 12

// skipMeta are the metadata fields random objects never carry: the server or the
// harness owns them.
var skipMeta = map[string]bool{
	"name": true, "namespace": true, "uid": true, "resourceVersion": true, "generation": true,
	"creationTimestamp": true, "deletionTimestamp": true, "deletionGracePeriodSeconds": true,
	"managedFields": true, "selfLink": true, "generateName": true,
}

// skipped reports whether a random object leaves out field name of the struct at path:
// the metadata fields of skipMeta, and an embedded object's managedFields (a pod
// template's): the oracle runs no registry strategy, and the store's no-op check ignores
// the time of every managedFields entry, so a template whose entries differ in their
// times alone kept the object's times there (differential seed 1201275), where
// kube-apiserver 1.37.2 writes the object, the template's change having moved its
// generation (a Deployment's, checked).
func skipped(path, name string) bool {
	return path == "metadata" && skipMeta[name] || name == "managedFields" && strings.HasSuffix(path, ".metadata")
}

// Value returns a random value of type tr, at the dotted field path path, made of at most
// about budget scalars.
func (g *Generator) Value(tr smdschema.TypeRef, path string, budget int) any {
	g.budget = budget
	return g.value(tr, path, 0)
}

func (g *Generator) resolve(tr smdschema.TypeRef) smdschema.Atom {
	a, ok := g.schema.Resolve(tr)
	if !ok {
		panic(fmt.Sprintf("gen: unresolvable type %v", describe(tr)))
	}
	return a
}

func describe(tr smdschema.TypeRef) string {
	if tr.NamedType != nil {
		return *tr.NamedType
	}
	return "inline type"
}

func (g *Generator) value(tr smdschema.TypeRef, path string, depth int) any {
	a := g.resolve(tr)
	if a.Scalar != nil && *a.Scalar == smdschema.Untyped && (tr.NamedType == nil || *tr.NamedType != "__untyped_deduced_") {
		// int-or-string and other untyped scalars: the API server's validation takes
		// scalars only.
		if tr.NamedType != nil {
			if v, ok := g.goScalar(*tr.NamedType); ok {
				return v
			}
		}
		return g.scalar(*a.Scalar, path)
	}
	kinds := []string{}
	if a.Scalar != nil {
		kinds = append(kinds, "scalar")
	}
	if a.Map != nil && depth < maxDepth {
		kinds = append(kinds, "map")
	}
	if a.List != nil && depth < maxDepth {
		kinds = append(kinds, "list")
	}
	if len(kinds) == 0 {
		if a.Map != nil {
			return map[string]any{}
		}
		if a.List != nil {
			return []any{}
		}
		return g.scalar(smdschema.Untyped, path)
	}
	kind := kinds[0]
	if len(kinds) > 1 {
		// Untyped (deduced) atoms: mostly scalars, so that values stay small.
		if g.rnd.Intn(3) == 0 || depth > 4 {
			kind = "scalar"
		} else {
			kind = kinds[1+g.rnd.Intn(len(kinds)-1)]
		}
	}
	switch kind {
	case "scalar":
		return g.scalar(*a.Scalar, path)
	case "map":
		return g.mapValue(a.Map, path, depth)
	default:
		return g.listValue(a.List, path, depth)
	}
}

// vocabularies keep values few, so that managers often agree and often conflict.
var (
	stringVocab = []string{"a", "b", "c", "web", "api", "x"}
	keyVocab    = []string{"app", "tier", "env", "team", "example.com/role", "k"}
	fieldVocab  = map[string][]string{
		"protocol":    {"TCP", "UDP", "SCTP"},
		"name":        {"web", "api", "db", "sidecar", "init"},
		"image":       {"nginx:1.27", "busybox", "redis:7"},
		"type":        {"Ready", "Available", "Progressing", "ClusterIP"},
		"status":      {"True", "False", "Unknown"},
		"host":        {"a.example.com", "b.example.com", "c.example.com"},
		"path":        {"/", "/api", "/v1", "/healthz"},
		"mountPath":   {"/data", "/etc/config", "/tmp"},
		"key":         {"k1", "k2", "node-role"},
		"operator":    {"Exists", "Equal", "In"},
		"effect":      {"NoSchedule", "NoExecute"},
		"uid":         {"11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222"},
		"ip":          {"10.0.0.1", "10.0.0.2"},
		"ipFamilies":  {"IPv4", "IPv6"},
		"finalizers":  {"example.com/a", "example.com/b", "kubernetes.io/pvc-protection"},
		"devicePath":  {"/dev/xvda", "/dev/xvdb"},
		"topologyKey": {"kubernetes.io/hostname", "topology.kubernetes.io/zone"},
	}
)

func lastField(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

func (g *Generator) scalar(s smdschema.Scalar, path string) any {
	g.budget--
	switch s {
	case smdschema.Numeric:
		if g.rnd.Intn(12) == 0 {
			fractions := []float64{0.5, 1.5, 2.25}
			if g.Texts {
				fractions = textFractions
			}
			if f := fractions[g.rnd.Intn(len(fractions))]; g.Fractions {
				return f
			}
		}
		if lastField(path) == "port" || strings.HasSuffix(path, "Port") {
			return int64([]int{80, 443, 8080, 53}[g.rnd.Intn(4)])
		}
		return int64(g.rnd.Intn(5))
	case smdschema.Boolean:
		return g.rnd.Intn(2) == 0
	case smdschema.String:
		return g.str(path)
	default: // untyped: int-or-string, quantities, times, deduced values
		if isTime(path) {
			// metav1.Time and MicroTime are untyped to structured-merge-diff, but every
			// object an API server stores holds an RFC 3339 time there: Go's decoding
			// refuses anything else, and the store's no-op check (its timestamps kept)
			// compares the decoded objects, which it could not decode (differential seed
			// 902: a Service condition's lastTransitionTime "250m").
			return timeVocab[g.rnd.Intn(len(timeVocab))]
		}
		switch g.rnd.Intn(4) {
		case 0:
			return int64(g.rnd.Intn(4) * 10)
		case 1:
			return g.rnd.Intn(2) == 0
		default:
			return []string{"10%", "1", "250m", "1Gi", "http"}[g.rnd.Intn(5)]
		}
	}
}

// Go types of the built-in kinds' untyped scalars (their OpenAPI names).
const (
	intOrStringType = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
	quantityType    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	timeType        = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
	microTimeType   = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
)

// refusedOneIn is how rarely goScalar writes a value its Go type refuses.
const refusedOneIn = 16

// goScalar returns a value of a built-in kind's untyped scalar of named type name, when the
// name is one of a Go type that decodes only some scalars: an int-or-string (an integer or
// a string), a quantity (an integer or a quantity's text), a time (RFC 3339: a time field
// not named …Time, a container state's startedAt). One value in refusedOneIn is one the
// Go type refuses (true, "10%", "http", "250m"): the server refuses the write when it
// decodes the object (a 500 for an apply, a 400 for an update's body), and the engine must
// say so in its words; more would waste the steps of the sequence on refused writes
// (differential seeds 901030, 901192 and 1201511 stored such values before the oracle
// refused them).
func (g *Generator) goScalar(name string) (any, bool) {
	var valid []any
	switch name {
	case intOrStringType:
		valid = []any{int64(0), int64(10), int64(80), int64(8080), "http", "web", "10%", "25%"}
	case quantityType:
		valid = []any{int64(0), int64(1), int64(2), "1", "250m", "500m", "1Gi", "64Mi"}
	case timeType, microTimeType:
		valid = make([]any, len(timeVocab))
		for i, t := range timeVocab {
			valid[i] = t
		}
	default:
		return nil, false
	}
	g.budget--
	if g.rnd.Intn(refusedOneIn) == 0 {
		refused := []any{true, false}
		switch name {
		case quantityType:
			refused = append(refused, "10%", "http")
		case timeType, microTimeType:
			refused = append(refused, "250m", int64(1))
		}
		return refused[g.rnd.Intn(len(refused))], true
	}
	return valid[g.rnd.Intn(len(valid))], true
}

// bytesFields are the built-in kinds' fields of Go type []byte, or maps of them, that the
// run covers: ConfigMap's binaryData (a Secret's data and a webhook's caBundle are such
// fields too, in kinds the run does not cover). structured-merge-diff types them as
// strings, but the JSON of a []byte is base64, and every object an API server stores holds
// base64 there: the server refuses anything else when it decodes the object into its Go
// type ("illegal base64 data"), and so does the store's no-op check, which compares decoded
// objects (differential seed 778483: a ConfigMap's binaryData "b" made the oracle's check
// fall back to comparing the objects unstructured, where an empty data map differs from
// none, and stamp a time the server keeps).
var bytesFields = []string{"binaryData"}

// bytesVocab are the values the generator writes into []byte fields: base64 texts.
var bytesVocab = []string{"YQ==", "Yg==", "aGVsbG8=", ""}

// isBytes reports whether the field at path is one of bytesFields or lies under one (an
// element of a map of them, whose key may hold dots).
func isBytes(path string) bool {
	for _, f := range bytesFields {
		if path == f || strings.HasSuffix(path, "."+f) || strings.HasPrefix(path, f+".") || strings.Contains(path, "."+f+".") {
			return true
		}
	}
	return false
}

// timeVocab are the times the generator writes into time fields.
var timeVocab = []string{"2024-01-01T00:00:00Z", "2024-01-01T00:00:01Z", "2024-02-01T12:00:00Z"}

// isTime reports whether the field at path is a metav1.Time or MicroTime: built-in kinds
// name theirs …Time or …Timestamp (lastTransitionTime, startTime, creationTimestamp), and
// a managedFields entry's is its time (in an embedded object's metadata: a pod template's;
// differential seed range 1800001: "250m" there).
func isTime(path string) bool {
	f := lastField(path)
	return f == "time" || strings.HasSuffix(f, "Time") || strings.HasSuffix(f, "Timestamp")
}

// textVocab and textFractions are what Texts adds: strings and numbers written otherwise
// by structured-merge-diff v7 (1.38) than by v4 and v6 inside k: and v: elements.
var (
	textVocab     = []string{"A&B<C>", "line\u2028break", "para\u2029sep", "bell\bform\f"}
	textFractions = []float64{0.5, 1.5, 2.25, 1e-7, 2.5e-9, 1e21}
)

func (g *Generator) str(path string) string {
	if g.Texts && g.rnd.Intn(5) == 0 {
		return textVocab[g.rnd.Intn(len(textVocab))]
	}
	if isBytes(path) {
		return bytesVocab[g.rnd.Intn(len(bytesVocab))]
	}
	if v, ok := fieldVocab[lastField(path)]; ok {
		return v[g.rnd.Intn(len(v))]
	}
	return stringVocab[g.rnd.Intn(len(stringVocab))]
}

// onHint reports whether path.field lies on a hint.
func (g *Generator) onHint(path string) bool {
	for _, h := range g.hints {
		if h == path || strings.HasPrefix(h, path+".") {
			return true
		}
	}
	return false
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func (g *Generator) mapValue(m *smdschema.Map, path string, depth int) map[string]any {
	out := map[string]any{}
	if len(m.Fields) > 0 {
		p := 2.0 / float64(len(m.Fields)+1)
		if depth == 0 {
			p = 0.5
		}
		for _, f := range g.fields(m) {
			fp := join(path, f.Name)
			if skipped(path, f.Name) {
				continue
			}
			if depth == 0 && (f.Name == "apiVersion" || f.Name == "kind") {
				continue
			}
			chance := p
			if g.onHint(fp) {
				chance = 0.85
			}
			if g.budget <= 0 && !g.onHint(fp) {
				chance = 0
			}
			if g.rnd.Float64() < chance {
				out[f.Name] = g.value(f.Type, fp, depth+1)
			}
		}
	}
	if m.ElementType.NamedType != nil || m.ElementType.Inlined != (smdschema.Atom{}) {
		if len(m.Fields) == 0 || g.rnd.Intn(4) == 0 {
			n := 1 + g.rnd.Intn(3)
			if g.rnd.Intn(8) == 0 {
				n = 0
			}
			for i := 0; i < n && g.budget > -5; i++ {
				k := keyVocab[g.rnd.Intn(len(keyVocab))]
				if _, taken := out[k]; taken {
					continue
				}
				out[k] = g.value(m.ElementType, join(path, k), depth+1)
			}
		}
	}
	return out
}

func (g *Generator) listValue(l *smdschema.List, path string, depth int) []any {
	n := 1 + g.rnd.Intn(3)
	if g.rnd.Intn(10) == 0 {
		n = 0
	}
	var out []any
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		var item any
		if l.ElementRelationship == smdschema.Associative && len(l.Keys) > 0 {
			item = g.keyedItem(l, path, depth)
		} else {
			item = g.value(l.ElementType, path, depth+1)
		}
		if l.ElementRelationship == smdschema.Associative {
			id := g.identity(l, item)
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, item)
	}
	if out == nil {
		out = []any{}
	}
	return out
}

// keyedItem makes an item of a list-map: a struct with every key field set (key fields
// that have a default are sometimes left out, as clients do).
func (g *Generator) keyedItem(l *smdschema.List, path string, depth int) any {
	v := g.value(l.ElementType, path, depth+1)
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	et := g.resolve(l.ElementType)
	for _, k := range l.Keys {
		var f *smdschema.StructField
		if et.Map != nil {
			if sf, ok := et.Map.FindField(k); ok {
				f = &sf
			}
		}
		if f == nil {
			m[k] = g.str(join(path, k))
			continue
		}
		if f.Default != nil && g.rnd.Intn(3) == 0 {
			delete(m, k)
			continue
		}
		m[k] = g.keyScalar(f.Type, join(path, k))
	}
	if g.PartialKeys && len(l.Keys) > 1 && g.rnd.Intn(6) == 0 {
		k := l.Keys[g.rnd.Intn(len(l.Keys))]
		v, had := m[k]
		delete(m, k)
		present := false
		for _, kk := range l.Keys {
			_, ok := m[kk]
			present = present || ok
		}
		if !present && had {
			m[k] = v // one key field at least
		}
	}
	return m
}

func (g *Generator) keyScalar(tr smdschema.TypeRef, path string) any {
	a := g.resolve(tr)
	if a.Scalar != nil {
		return g.scalar(*a.Scalar, path)
	}
	return g.str(path)
}

// identity is what makes an item unique in an associative list: its key values (defaults
// filled in), or the whole value for a set.
func (g *Generator) identity(l *smdschema.List, item any) string {
	if len(l.Keys) == 0 {
		return canonical(item)
	}
	m, _ := item.(map[string]any)
	et := g.resolve(l.ElementType)
	var parts []string
	for _, k := range l.Keys {
		v, ok := m[k]
		if !ok && et.Map != nil {
			if f, found := et.Map.FindField(k); found {
				v = f.Default
			}
		}
		parts = append(parts, canonical(v))
	}
	return strings.Join(parts, "|")
}

func canonical(v any) string {
	if v == nil {
		return "null"
	}
	return value.ToString(value.NewValueInterface(v))
}

// sortedKeys returns the keys of m in order: generation never depends on map order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
