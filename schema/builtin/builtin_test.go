package builtin

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// TestSchemaYAMLEqualsGoValues proves that the readable copy and the Go
// literals hold the same schema, and that SMD's validating parser accepts
// it.
func TestSchemaYAMLEqualsGoValues(t *testing.T) {
	text, err := os.ReadFile("schema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	parser, err := typed.NewParser(typed.YAMLObject(text))
	if err != nil {
		t.Fatalf("SMD rejects schema.yaml: %v", err)
	}
	got := NewSchema().Types
	want := parser.Schema.Types
	if len(got) != TypeCount || len(want) != TypeCount {
		t.Fatalf("NewSchema has %d types, schema.yaml %d, TypeCount %d", len(got), len(want), TypeCount)
	}
	for i := range want {
		if d := diffTypeDef(&got[i], &want[i]); d != "" {
			t.Errorf("type %d (%s): %s", i, want[i].Name, d)
		}
	}
}

// TestSchemaResolves checks that every named reference resolves and that
// every kind's type exists.
func TestSchemaResolves(t *testing.T) {
	s := NewSchema()
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
	for _, k := range Kinds() {
		if _, ok := s.FindNamedType(k.TypeName); !ok {
			t.Errorf("%s/%s %s: type %s missing", k.Group, k.Version, k.Kind, k.TypeName)
		}
	}
}

// TestKinds pins facts of the GVK index that the engine relies on.
func TestKinds(t *testing.T) {
	kinds := map[string]Kind{}
	for _, k := range Kinds() {
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
			if !reflect.DeepEqual(fa.Default, fb.Default) {
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
	b.ReportAllocs()
	for b.Loop() {
		NewSchema()
	}
}

// TestNewSchemaIsFresh: two schemas share no value that SMD caches
// lookups in, so using one never changes the other or the template.
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
	a, b := maps(NewSchema()), maps(NewSchema())
	tmpl := map[*schema.Map]bool{}
	for i := range template {
		tmpl[template[i].Map] = true
	}
	if len(a) < TypeCount/2 {
		t.Fatalf("only %d maps", len(a))
	}
	for m := range a {
		if b[m] || tmpl[m] {
			t.Fatal("a map is shared between schemas or with the template")
		}
	}
}
