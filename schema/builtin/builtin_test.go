package builtin

import (
	"crypto/sha256"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// yamlFile is the readable copy of a release's schema.
func yamlFile(r Release) string {
	if r.Minor() == kube.Newest() {
		return "schema.yaml"
	}
	return "schema-" + r.Minor().String() + ".yaml"
}

// TestReleases pins the embedded releases: one per supported minor, oldest first.
func TestReleases(t *testing.T) {
	var got []string
	for _, r := range Releases() {
		got = append(got, r.Kubernetes())
		if back, ok := For(r.Minor()); !ok || back != r {
			t.Errorf("For(%s) = %v, %v", r.Minor(), back, ok)
		}
	}
	var want []string
	for _, m := range kube.Minors() {
		want = append(want, m.Release())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("releases %v, want one per minor of kube.Minors: %v (make generate)", got, want)
	}
	if r, ok := For(0); ok {
		t.Errorf("For(the zero Minor) = %v: no minor has no release", r)
	}
	before := kube.Minors()[0] - 1
	if _, ok := For(before); ok {
		t.Errorf("For(%s), older than the oldest listed, found a release", before)
	}
}

// TestSchemaYAMLEqualsGoValues proves, for every release, that the readable copy and the
// decoded template hold the same schema, and that SMD's validating parser accepts it.
func TestSchemaYAMLEqualsGoValues(t *testing.T) {
	copies := readCopies(t)
	for _, r := range Releases() {
		for _, d := range diffCopy(r, copies[r.index]) {
			t.Error(d)
		}
	}
}

// readCopies parses the readable copy of every release, checking its header.
func readCopies(t *testing.T) [][]schema.TypeDef {
	var copies [][]schema.TypeDef
	for _, r := range Releases() {
		text, err := os.ReadFile(yamlFile(r))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(text), "# SMD schema of every built-in type of Kubernetes "+r.Kubernetes()+",") {
			t.Errorf("%s is not the schema of %s", yamlFile(r), r.Kubernetes())
		}
		parser, err := typed.NewParser(typed.YAMLObject(text))
		if err != nil {
			t.Fatalf("SMD rejects %s: %v", yamlFile(r), err)
		}
		copies = append(copies, parser.Schema.Types)
	}
	return copies
}

// diffCopy lists the differences of the release's NewSchema from its readable copy's types.
func diffCopy(r Release, want []schema.TypeDef) []string {
	got := r.NewSchema().Types
	if len(got) != r.TypeCount() || len(want) != r.TypeCount() {
		return []string{fmt.Sprintf("%s: NewSchema has %d types, %s %d, TypeCount %d", r.Kubernetes(), len(got), yamlFile(r), len(want), r.TypeCount())}
	}
	var diffs []string
	for i := range want {
		if d := diffTypeDef(&got[i], &want[i]); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s: type %d (%s): %s", r.Kubernetes(), i, want[i].Name, d))
		}
	}
	return diffs
}

// TestWrongRecordsFound: a record of the template changed in any of its parts makes
// TestSchemaYAMLEqualsGoValues' comparison fail for some release. Each case changes one
// record of the tables (found by what it holds), compares, and puts it back.
func TestWrongRecordsFound(t *testing.T) {
	copies := readCopies(t)
	anyDiff := func() bool {
		for _, r := range Releases() {
			if len(diffCopy(r, copies[r.index])) > 0 {
				return true
			}
		}
		return false
	}
	if anyDiff() {
		t.Fatal("the template differs from the copies before any change")
	}
	// each returns the record's refs and lets the case find one by what it holds.
	refs := func(keep func(*ref) bool) *ref {
		for i := range fields {
			if keep(&fields[i].typ) {
				return &fields[i].typ
			}
		}
		for i := range lists {
			if keep(&lists[i].elem) {
				return &lists[i].elem
			}
		}
		for i := range maps {
			if keep(&maps[i].elem) {
				return &maps[i].elem
			}
		}
		return nil
	}
	other := func(i uint16) uint16 { return (i + 1) % uint16(len(strs)) }
	for _, c := range []struct {
		name   string
		change func() (undo func())
	}{
		{"a type's name", func() func() { p := &template[0].name; old := *p; *p = other(old); return func() { *p = old } }},
		{"a string", func() func() { p := &strs[template[0].name]; old := *p; *p += "x"; return func() { *p = old } }},
		{"a release's type", func() func() { p := &releaseTypes[0]; old := *p; *p++; return func() { *p = old } }},
		{"a field's name", func() func() { p := &fields[0].name; old := *p; *p = other(old); return func() { *p = old } }},
		{"a field's default", func() func() {
			for i := range fields {
				if f := &fields[i]; f.def != 0 {
					old := f.def
					f.def = old%uint16(len(defaults)) + 1
					return func() { f.def = old }
				}
			}
			return nil
		}},
		{"a field's default added", func() func() {
			for i := range fields {
				if f := &fields[i]; f.def == 0 {
					f.def = 1
					return func() { f.def = 0 }
				}
			}
			return nil
		}},
		{"a reference's named type", func() func() {
			r := refs(func(r *ref) bool { return r.named != 0 })
			old := r.named
			r.named = other(old-1) + 1
			return func() { r.named = old }
		}},
		{"a reference's scalar", func() func() {
			r := refs(func(r *ref) bool { return r.scalar != 0 })
			old := r.scalar
			r.scalar = old%uint8(len(scalars)-1) + 1
			return func() { r.scalar = old }
		}},
		{"a reference's relationship override", func() func() {
			r := refs(func(r *ref) bool { return r.rel&^nullableBit != 0 })
			old := r.rel
			r.rel ^= 1
			return func() { r.rel = old }
		}},
		{"a reference's nullability", func() func() {
			r := refs(func(*ref) bool { return true })
			old := r.rel
			r.rel ^= nullableBit
			return func() { r.rel = old }
		}},
		{"a list's key", func() func() { p := &keys[0]; old := *p; *p = other(old); return func() { *p = old } }},
		{"a list's keys", func() func() {
			for i := range lists {
				if l := &lists[i]; l.nkeys > 1 {
					l.nkeys--
					return func() { l.nkeys++ }
				}
			}
			return nil
		}},
		{"a list's relationship", func() func() {
			p := &lists[0].relationship
			old := *p
			*p = old%uint8(len(relationships)-1) + 1
			return func() { *p = old }
		}},
		{"a map's relationship", func() func() {
			p := &maps[0].relationship
			old := *p
			*p = old%uint8(len(relationships)-1) + 1
			return func() { *p = old }
		}},
		{"a map's fields", func() func() {
			for i := range maps {
				if m := &maps[i]; m.nfields > 1 {
					m.fields++
					return func() { m.fields-- }
				}
			}
			return nil
		}},
		{"a union's discriminator", func() func() {
			for i := range unions {
				if u := &unions[i]; u.discriminator != 0 {
					old := u.discriminator
					u.discriminator = other(old-1) + 1
					return func() { u.discriminator = old }
				}
			}
			return nil
		}},
		{"a union's deduction", func() func() { u := &unions[0]; u.deduce = !u.deduce; return func() { u.deduce = !u.deduce } }},
		{"a union member's value", func() func() { p := &unionFields[0].value; old := *p; *p = other(old); return func() { *p = old } }},
	} {
		undo := c.change()
		if undo == nil {
			t.Errorf("%s: the template has no record to change", c.name)
			continue
		}
		found := anyDiff()
		undo()
		if !found {
			t.Errorf("%s changed: no release differs from its copy", c.name)
		}
	}
	if anyDiff() {
		t.Fatal("the template differs from the copies after the changes were undone")
	}
}

// TestRelease137Unchanged pins 1.37.2's schema and kinds to what ssa-diff embedded before
// it embedded several releases (the apply configurations of client-go,
// apiextensions-apiserver and kube-aggregator v0.37.2, 1,014 types and 153 kinds): its
// readable schema after the header, byte for byte, and the kinds as the generator wrote them.
// A regeneration that changes them must say why and update these hashes.
func TestRelease137Unchanged(t *testing.T) {
	r, ok := For(37)
	if !ok {
		t.Fatal("no release of 1.37")
	}
	text, err := os.ReadFile(yamlFile(r))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfterN(string(text), "\n", 4)
	if sum := fmt.Sprintf("%x", sha256.Sum256([]byte(lines[3]))); sum != "c7fd18ad69ac632c7fa83ab32473e288c6db3c89c52763f52913642e14d1526a" {
		t.Errorf("the schema of %s changed: sha256 %s", r.Kubernetes(), sum)
	}
	var b strings.Builder
	for _, k := range r.Kinds() {
		fmt.Fprintf(&b, "{Group: %q, Version: %q, Kind: %q, TypeName: %q, Resource: %q, Namespaced: %t, Status: %t, Scale: %t},\n",
			k.Group, k.Version, k.Kind, k.TypeName, k.Resource, k.Namespaced, k.Status, k.Scale)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256([]byte(b.String()))); sum != "d506193b0dc4307d3eb1c494dcaf84c6d4e9463c7b309b5f46fede508406bbe1" {
		t.Errorf("the kinds of %s changed: sha256 %s", r.Kubernetes(), sum)
	}
}

// TestSchemaResolves checks, for every release, that every named reference resolves and
// that every kind's type exists.
func TestSchemaResolves(t *testing.T) {
	for _, r := range Releases() {
		testSchemaResolves(t, r)
	}
}

func testSchemaResolves(t *testing.T, r Release) {
	s := r.NewSchema()
	var check func(where string, a *schema.Atom)
	checkRef := func(where string, r *schema.TypeRef) {
		if r.NamedType != nil {
			if _, ok := s.FindNamedType(*r.NamedType); !ok {
				t.Errorf("%s: reference to unknown type %q", where, *r.NamedType)
			}
		}
		check(where, &r.Inlined)
	}
	check = func(where string, a *schema.Atom) {
		if a.List != nil {
			checkRef(where+"[]", &a.List.ElementType)
		}
		if a.Map != nil {
			for i := range a.Map.Fields {
				checkRef(where+"."+a.Map.Fields[i].Name, &a.Map.Fields[i].Type)
			}
			checkRef(where+"{}", &a.Map.ElementType)
		}
	}
	for i := range s.Types {
		check(s.Types[i].Name, &s.Types[i].Atom)
	}
	for _, k := range r.Kinds() {
		if _, ok := s.FindNamedType(k.TypeName); !ok {
			t.Errorf("%s: %s/%s %s: type %s missing", r.Kubernetes(), k.Group, k.Version, k.Kind, k.TypeName)
		}
	}
}

// TestKinds pins facts of the GVK index that the engine relies on.
func TestKinds(t *testing.T) {
	kinds := map[string]Kind{}
	for _, k := range mustRelease(t, kube.Default()).Kinds() {
		key := k.Group + "/" + k.Version + "/" + k.Kind
		if _, dup := kinds[key]; dup {
			t.Errorf("duplicate kind %s", key)
		}
		kinds[key] = k
	}
	if len(kinds) != 153 {
		t.Errorf("%d kinds, want 153 (149 from client-go, CRD and APIService in v1 and v1beta1)", len(kinds))
	}
	for key, want := range map[string]Kind{
		"/v1/Pod":                                          {Resource: "pods", Namespaced: true, Status: true},
		"/v1/Endpoints":                                    {Resource: "endpoints", Namespaced: true},
		"/v1/Namespace":                                    {Resource: "namespaces", Status: true},
		"/v1/ReplicationController":                        {Resource: "replicationcontrollers", Namespaced: true, Status: true, Scale: true},
		"/v1/ConfigMap":                                    {Resource: "configmaps", Namespaced: true},
		"apps/v1/Deployment":                               {Resource: "deployments", Namespaced: true, Status: true, Scale: true},
		"apps/v1/DaemonSet":                                {Resource: "daemonsets", Namespaced: true, Status: true},
		"networking.k8s.io/v1/Ingress":                     {Resource: "ingresses", Namespaced: true, Status: true},
		"networking.k8s.io/v1/NetworkPolicy":               {Resource: "networkpolicies", Namespaced: true},
		"networking.k8s.io/v1/IngressClass":                {Resource: "ingressclasses"},
		"rbac.authorization.k8s.io/v1/ClusterRoleBinding":  {Resource: "clusterrolebindings"},
		"storage.k8s.io/v1/StorageClass":                   {Resource: "storageclasses"},
		"autoscaling/v2/HorizontalPodAutoscaler":           {Resource: "horizontalpodautoscalers", Namespaced: true, Status: true},
		"policy/v1/PodDisruptionBudget":                    {Resource: "poddisruptionbudgets", Namespaced: true, Status: true},
		"apiextensions.k8s.io/v1/CustomResourceDefinition": {Resource: "customresourcedefinitions", Status: true},
		"apiregistration.k8s.io/v1/APIService":             {Resource: "apiservices", Status: true},
	} {
		got, ok := kinds[key]
		if !ok {
			t.Errorf("%s missing", key)
			continue
		}
		got.Group, got.Version, got.Kind, got.TypeName = "", "", "", ""
		if got != want {
			t.Errorf("%s: got %+v, want %+v", key, got, want)
		}
	}
	for key, k := range kinds {
		if k.Resource != strings.ToLower(k.Resource) {
			t.Errorf("%s: resource %q is not lowercase", key, k.Resource)
		}
	}
}

// diffTypeDef compares two types member by member. SMD's own Equals
// methods compare element-relationship overrides by pointer and only one
// member of multi-member atoms, so they cannot be used here.
func diffTypeDef(a, b *schema.TypeDef) string {
	if a.Name != b.Name {
		return "name " + a.Name + " != " + b.Name
	}
	return diffAtom(&a.Atom, &b.Atom)
}

func diffAtom(a, b *schema.Atom) string {
	switch {
	case (a.Scalar == nil) != (b.Scalar == nil), a.Scalar != nil && *a.Scalar != *b.Scalar:
		return "scalar differs"
	case (a.List == nil) != (b.List == nil):
		return "list presence differs"
	case (a.Map == nil) != (b.Map == nil):
		return "map presence differs"
	}
	if a.List != nil {
		if a.List.ElementRelationship != b.List.ElementRelationship || !reflect.DeepEqual(a.List.Keys, b.List.Keys) {
			return "list relationship or keys differ"
		}
		if d := diffRef(&a.List.ElementType, &b.List.ElementType); d != "" {
			return "list element: " + d
		}
	}
	if a.Map != nil {
		if a.Map.ElementRelationship != b.Map.ElementRelationship {
			return "map relationship differs"
		}
		if !reflect.DeepEqual(a.Map.Unions, b.Map.Unions) {
			return "unions differ"
		}
		if d := diffRef(&a.Map.ElementType, &b.Map.ElementType); d != "" {
			return "map element: " + d
		}
		if len(a.Map.Fields) != len(b.Map.Fields) {
			return "field count differs"
		}
		for i := range a.Map.Fields {
			fa, fb := &a.Map.Fields[i], &b.Map.Fields[i]
			if fa.Name != fb.Name {
				return "field " + fa.Name + " != " + fb.Name
			}
			if !reflect.DeepEqual(emptyMapsMade(fa.Default), emptyMapsMade(fb.Default)) {
				return "field " + fa.Name + ": default differs"
			}
			if d := diffRef(&fa.Type, &fb.Type); d != "" {
				return "field " + fa.Name + ": " + d
			}
		}
	}
	return ""
}

func diffRef(a, b *schema.TypeRef) string {
	if (a.NamedType == nil) != (b.NamedType == nil) || a.NamedType != nil && *a.NamedType != *b.NamedType {
		return "named type differs"
	}
	if (a.ElementRelationship == nil) != (b.ElementRelationship == nil) ||
		a.ElementRelationship != nil && *a.ElementRelationship != *b.ElementRelationship {
		return "relationship override differs"
	}
	if a.Nullable != b.Nullable {
		return "nullable differs"
	}
	return diffAtom(&a.Inlined, &b.Inlined)
}

func BenchmarkNewSchema(b *testing.B) {
	newest := mustRelease(b, kube.Newest())
	b.ReportAllocs()
	for b.Loop() {
		newest.NewSchema()
	}
}

// TestNewSchemaIsFresh: two schemas share no value that SMD caches
// lookups in, so using one never changes the other.
func TestNewSchemaIsFresh(t *testing.T) {
	maps := func(s *schema.Schema) map[*schema.Map]bool {
		seen := map[*schema.Map]bool{}
		var atom func(a *schema.Atom)
		ref := func(r *schema.TypeRef) { atom(&r.Inlined) }
		atom = func(a *schema.Atom) {
			if a.List != nil {
				ref(&a.List.ElementType)
			}
			if a.Map != nil {
				seen[a.Map] = true
				for i := range a.Map.Fields {
					ref(&a.Map.Fields[i].Type)
				}
				ref(&a.Map.ElementType)
			}
		}
		for i := range s.Types {
			atom(&s.Types[i].Atom)
		}
		return seen
	}
	newest := mustRelease(t, kube.Newest())
	a, b := maps(newest.NewSchema()), maps(newest.NewSchema())
	if len(a) < newest.TypeCount()/2 {
		t.Fatalf("only %d maps", len(a))
	}
	for m := range a {
		if b[m] {
			t.Fatal("a map is shared between schemas")
		}
	}
}

// TestKindsPerRelease pins kinds that exist, or differ, in some releases only (the notes
// of each release: k8s.io/api's register.go files and the registry's storage providers).
func TestKindsPerRelease(t *testing.T) {
	for _, r := range Releases() {
		m := int(r.Minor())
		kinds := map[string]Kind{}
		for _, k := range r.Kinds() {
			key := k.Group + "/" + k.Version + "/" + k.Kind
			if _, dup := kinds[key]; dup {
				t.Errorf("%s: duplicate kind %s", r.Kubernetes(), key)
			}
			kinds[key] = k
		}
		for key, since := range map[string]int{
			"admissionregistration.k8s.io/v1/MutatingAdmissionPolicy": 36,
			"certificates.k8s.io/v1/ClusterTrustBundle":               37,
			"certificates.k8s.io/v1/PodCertificateRequest":            37,
			"resource.k8s.io/v1/DeviceTaintRule":                      37,
			"storagemigration.k8s.io/v1/StorageVersionMigration":      37,
			"/v1/Pod": int(kube.Minors()[0]), // in every release
		} {
			if _, ok := kinds[key]; ok != (m >= since) {
				t.Errorf("%s: %s present %v, want from 1.%d", r.Kubernetes(), key, ok, since)
			}
		}
		if _, ok := kinds["autoscaling/v2beta2/HorizontalPodAutoscaler"]; ok != (m <= 35) {
			t.Errorf("%s: autoscaling/v2beta2 HorizontalPodAutoscaler present %v, want until 1.35", r.Kubernetes(), ok)
		}
		if k := kinds["storage.k8s.io/v1/CSINode"]; k.Resource != "csinodes" || k.Status != (m >= 37) {
			t.Errorf("%s: CSINode %+v: /status from 1.37", r.Kubernetes(), k)
		}
	}
}

// mustRelease is the release of minor m.
func mustRelease(t testing.TB, m kube.Minor) Release {
	r, ok := For(m)
	if !ok {
		t.Fatalf("no release of %s", m)
	}
	return r
}

// emptyMapsMade is the default value v with every nil map made an empty one: the template
// writes an empty object as a nil map (data, where an empty map is made by code at start-up),
// SMD's YAML parser gives an empty map; to SMD, which only reads defaults, they are the same.
func emptyMapsMade(v any) any {
	switch v := v.(type) {
	case map[any]any:
		out := make(map[any]any, len(v))
		for k, x := range v {
			out[k] = emptyMapsMade(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = emptyMapsMade(x)
		}
		return out
	}
	return v
}

// TestTemplateIsData holds the template to values the linker lays out as data: a default
// that is a map (or holds one) would be made by code run at every start-up, writing into
// the template's pages; empty objects are written as nil maps, others as object and made
// maps by NewSchema, which must hand out no object.
func TestTemplateIsData(t *testing.T) {
	var holdsMap func(v any) bool
	holdsMap = func(v any) bool {
		switch v := v.(type) {
		case map[any]any:
			return v != nil
		case map[string]any:
			return v != nil
		case []any:
			for _, x := range v {
				if holdsMap(x) {
					return true
				}
			}
		case object:
			for _, x := range v {
				if holdsMap(x.value) {
					return true
				}
			}
		}
		return false
	}
	walkDefaults := func(types []schema.TypeDef, f func(name, field string, v any)) {
		var atom func(name string, a *schema.Atom)
		atom = func(name string, a *schema.Atom) {
			if a.List != nil {
				atom(name, &a.List.ElementType.Inlined)
			}
			if a.Map != nil {
				atom(name, &a.Map.ElementType.Inlined)
				for i := range a.Map.Fields {
					fd := &a.Map.Fields[i]
					if fd.Default != nil {
						f(name, fd.Name, fd.Default)
					}
					atom(name, &fd.Type.Inlined)
				}
			}
		}
		for i := range types {
			atom(types[i].Name, &types[i].Atom)
		}
	}
	objects := 0
	for _, v := range defaults {
		if holdsMap(v) {
			t.Errorf("the template's default %#v holds a map", v)
		}
		if holdsObject(v) {
			objects++
		}
	}
	if objects == 0 {
		t.Fatal("no object default in the template: the test proves nothing")
	}
	for _, r := range Releases() {
		walkDefaults(r.NewSchema().Types, func(name, field string, v any) {
			if holdsObject(v) {
				t.Errorf("%s %s.%s: NewSchema hands out the template's object %#v", r.Kubernetes(), name, field, v)
			}
		})
	}
}

// TestReleaseTypesSortedByName: each release lists its types strictly sorted by name, which
// Closure and Type's lookup by bisection rely on.
func TestReleaseTypesSortedByName(t *testing.T) {
	for _, r := range Releases() {
		idx := r.types()
		for i := 1; i < len(idx); i++ {
			if a, b := str(template[idx[i-1]].name), str(template[idx[i]].name); a >= b {
				t.Fatalf("%s: type %d %q after %q", r.Kubernetes(), i, b, a)
			}
		}
	}
}

// TestClosureIsWhatTheKindReaches: for every kind of every release, Closure of its type is
// exactly the types of NewSchema that SMD reaches from it (its own lookups in the whole
// schema, followed through every reference), equal value for value and in the release's
// order, and fresh as NewSchema's are; Type is the one type of NewSchema.
func TestClosureIsWhatTheKindReaches(t *testing.T) {
	for _, r := range Releases() {
		whole := r.NewSchema()
		reachable := func(name string) []schema.TypeDef {
			seen := map[string]bool{}
			var visit func(name string)
			visit = func(name string) {
				if seen[name] {
					return
				}
				td, ok := whole.FindNamedType(name)
				if !ok {
					return
				}
				seen[name] = true
				forEachNamedRefOf(&td.Atom, visit)
			}
			visit(name)
			var out []schema.TypeDef
			for _, td := range whole.Types {
				if seen[td.Name] {
					out = append(out, td)
				}
			}
			return out
		}
		names := map[string]bool{}
		for _, k := range r.Kinds() {
			names[k.TypeName] = true
		}
		for name := range names {
			got, want := r.Closure(name), reachable(name)
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%s: Closure(%s) has %d types, %d reachable", r.Kubernetes(), name, len(got), len(want))
			}
			for i := range want {
				if got[i].Name != want[i].Name {
					t.Fatalf("%s: Closure(%s) type %d is %s, want %s", r.Kubernetes(), name, i, got[i].Name, want[i].Name)
				}
				if d := diffTypeDef(&got[i], &want[i]); d != "" {
					t.Errorf("%s: Closure(%s): %s: %s", r.Kubernetes(), name, want[i].Name, d)
				}
			}
			one, ok := r.Type(name)
			if want, _ := whole.FindNamedType(name); !ok || diffTypeDef(&one, &want) != "" {
				t.Errorf("%s: Type(%s) is not NewSchema's", r.Kubernetes(), name)
			}
		}
		if _, ok := r.Type("io.k8s.api.apps.v1.NoSuchType"); ok {
			t.Errorf("%s: Type of a name the release does not have", r.Kubernetes())
		}
		if got := r.Closure("io.k8s.api.apps.v1.NoSuchType"); len(got) != 0 {
			t.Errorf("%s: Closure of a name the release does not have: %d types", r.Kubernetes(), len(got))
		}
	}
	newest := mustRelease(t, kube.Newest())
	deployment := newest.Closure("io.k8s.api.apps.v1.Deployment")
	if n := len(deployment); n > newest.TypeCount()/4 {
		t.Errorf("a Deployment's closure has %d of %d types", n, newest.TypeCount())
	}
	a, b := &schema.Schema{Types: deployment}, &schema.Schema{Types: newest.Closure("io.k8s.api.apps.v1.Deployment")}
	ta, _ := a.FindNamedType("io.k8s.api.apps.v1.Deployment")
	tb, _ := b.FindNamedType("io.k8s.api.apps.v1.Deployment")
	if ta.Map == tb.Map {
		t.Error("Closure shares a map with another Closure")
	}
}

// forEachNamedRefOf calls f with every reference by name of a decoded atom, at any depth of
// its inlined atoms.
func forEachNamedRefOf(a *schema.Atom, f func(name string)) {
	ref := func(r *schema.TypeRef) {
		if r.NamedType != nil {
			f(*r.NamedType)
		}
		forEachNamedRefOf(&r.Inlined, f)
	}
	if a.List != nil {
		ref(&a.List.ElementType)
	}
	if a.Map != nil {
		ref(&a.Map.ElementType)
		for i := range a.Map.Fields {
			ref(&a.Map.Fields[i].Type)
		}
	}
}

func BenchmarkClosureDeployment(b *testing.B) {
	newest := mustRelease(b, kube.Newest())
	b.ReportAllocs()
	for b.Loop() {
		newest.Closure("io.k8s.api.apps.v1.Deployment")
	}
}

// TestKindTableSearched: the kind table is sorted by group, kind and version (what
// KindRange's bisection needs), a release having one entry of each; KindRange gives exactly the positions of a kind, and of a
// group, and FindKind finds every kind of every release at its position, and no other.
func TestKindTableSearched(t *testing.T) {
	key := func(k Kind) string { return k.Group + "\x00" + k.Kind + "\x00" + k.Version }
	for i := 1; i < KindPositions(); i++ {
		if key(kinds[i-1].Kind) > key(kinds[i].Kind) || key(kinds[i-1].Kind) == key(kinds[i].Kind) && kinds[i-1].releases&kinds[i].releases != 0 {
			t.Fatalf("the kind table is not sorted at %d: %v after %v", i, kinds[i].Kind, kinds[i-1].Kind)
		}
	}
	for _, r := range Releases() {
		n := 0
		for i := 0; i < KindPositions(); i++ {
			k, in := r.KindAt(i)
			if in {
				n++
			}
			lo, hi := KindRange(k.Group, k.Kind)
			glo, ghi := KindRange(k.Group, "")
			if i < lo || i >= hi || i < glo || i >= ghi || (lo > 0 && kinds[lo-1].Group == k.Group && kinds[lo-1].Kind.Kind == k.Kind) ||
				(hi < len(kinds) && kinds[hi].Group == k.Group && kinds[hi].Kind.Kind == k.Kind) ||
				(glo > 0 && kinds[glo-1].Group == k.Group) || (ghi < len(kinds) && kinds[ghi].Group == k.Group) {
				t.Fatalf("%v at %d: KindRange [%d, %d), of the group [%d, %d)", k, i, lo, hi, glo, ghi)
			}
			at, ok := r.FindKind(k.Group, k.Version, k.Kind)
			if in && (!ok || at != i) || !in && ok && (key(kinds[at].Kind) != key(k) || kinds[at].releases&(1<<r.index) == 0) {
				t.Errorf("%s: FindKind(%v) = %d, %t; at %d, in the release %t", r.Kubernetes(), k, at, ok, i, in)
			}
		}
		if n != len(r.Kinds()) {
			t.Errorf("%s: KindAt reports %d kinds, Kinds %d", r.Kubernetes(), n, len(r.Kinds()))
		}
		for _, missing := range [][3]string{{"apps", "v1", "Deploymnet"}, {"app", "v1", "Deployment"}, {"apps", "v9", "Deployment"}, {"", "", ""}, {"zzz", "v1", "X"}} {
			if _, ok := r.FindKind(missing[0], missing[1], missing[2]); ok {
				t.Errorf("%s: FindKind finds %v", r.Kubernetes(), missing)
			}
		}
	}
}
