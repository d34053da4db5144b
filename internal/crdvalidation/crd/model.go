package crd

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// Definition is a CRD in the server's internal shape (what its validation sees), read from
// the apiextensions.k8s.io/v1 object.
type Definition struct {
	Name        string
	Annotations map[string]string
	Metadata    map[string]any
	Spec        Spec
	// StoredVersions is status.storedVersions as the registry prepares it.
	StoredVersions []string
}

// Spec is the internal spec: Validation, Subresources, Columns and SelectableFields are set
// at the top when every version has the same (and then not per version).
type Spec struct {
	Group                 string
	Version               string
	Names                 Names
	Scope                 string
	Validation            *Validation
	Subresources          *Subresources
	Versions              []Version
	Columns               []Column
	SelectableFields      []SelectableField
	Conversion            *Conversion
	PreserveUnknownFields *bool
}

// Names are spec.names (and status.acceptedNames).
type Names struct {
	Plural, Singular string
	ShortNames       []string
	Kind, ListKind   string
	Categories       []string
}

// Validation is a schema: raw as written (for comparisons), parsed.
type Validation struct {
	Raw    any
	Schema *crdschema.Schema
}

// Version is one entry of spec.versions.
type Version struct {
	Name               string
	Served, Storage    bool
	Deprecated         bool
	DeprecationWarning *string
	Schema             *Validation
	Subresources       *Subresources
	Columns            []Column
	SelectableFields   []SelectableField
	raw                map[string]any
}

// Subresources are a version's subresources.
type Subresources struct {
	Status bool
	Scale  *Scale
	raw    any
}

// Scale is the scale subresource.
type Scale struct {
	SpecReplicasPath, StatusReplicasPath string
	LabelSelectorPath                    *string
}

// Column is an additional printer column.
type Column struct {
	Name, Type, Format, Description string
	Priority                        int32
	JSONPath                        string
}

// SelectableField is a selectable field.
type SelectableField struct{ JSONPath string }

// Conversion is spec.conversion.
type Conversion struct {
	Strategy                 string
	Webhook                  *WebhookClientConfig
	ConversionReviewVersions []string
}

// WebhookClientConfig is a conversion webhook's client configuration.
type WebhookClientConfig struct {
	URL      *string
	Service  *ServiceReference
	CABundle []byte
}

// ServiceReference names a webhook's service.
type ServiceReference struct {
	Namespace, Name string
	Path            *string
	Port            int32
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func strPtr(m map[string]any, k string) *string {
	if s, ok := m[k].(string); ok {
		return &s
	}
	return nil
}

func boolean(m map[string]any, k string) bool {
	b, _ := m[k].(bool)
	return b
}

func strs(v any) []string {
	l, _ := v.([]any)
	if l == nil {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func integer(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

// Read reads a v1 CRD object as the server's internal version, status as the registry
// prepares it (storedVersions: the stored ones of old, or none, plus the storage version).
func Read(o, old map[string]any) (*Definition, error) {
	d := &Definition{Metadata: obj(o["metadata"])}
	d.Name = str(d.Metadata, "name")
	if a := obj(d.Metadata["annotations"]); a != nil {
		d.Annotations = map[string]string{}
		for k, v := range a {
			s, _ := v.(string)
			d.Annotations[k] = s
		}
	}
	spec := obj(o["spec"])
	d.Spec.Group = str(spec, "group")
	d.Spec.Scope = str(spec, "scope")
	d.Spec.Names = readNames(obj(spec["names"]))
	// v1's preserveUnknownFields is a plain boolean: the internal version always has one.
	b, _ := spec["preserveUnknownFields"].(bool)
	d.Spec.PreserveUnknownFields = &b
	if c := obj(spec["conversion"]); c != nil {
		d.Spec.Conversion = readConversion(c)
	}
	versions, _ := spec["versions"].([]any)
	for _, rv := range versions {
		v := obj(rv)
		ver := Version{Name: str(v, "name"), Served: boolean(v, "served"), Storage: boolean(v, "storage"), Deprecated: boolean(v, "deprecated"),
			DeprecationWarning: strPtr(v, "deprecationWarning"), raw: v}
		if s := obj(v["schema"]); s != nil {
			val := &Validation{Raw: s["openAPIV3Schema"]}
			if val.Raw != nil {
				parsed, err := crdschema.Parse(val.Raw)
				if err != nil {
					return nil, err
				}
				val.Schema = parsed
			}
			ver.Schema = val
		}
		if s, ok := v["subresources"].(map[string]any); ok {
			ver.Subresources = readSubresources(s)
		}
		for _, c := range listOf(v["additionalPrinterColumns"]) {
			cm := obj(c)
			ver.Columns = append(ver.Columns, Column{Name: str(cm, "name"), Type: str(cm, "type"), Format: str(cm, "format"),
				Description: str(cm, "description"), Priority: int32(integer(cm["priority"])), JSONPath: str(cm, "jsonPath")})
		}
		for _, f := range listOf(v["selectableFields"]) {
			ver.SelectableFields = append(ver.SelectableFields, SelectableField{JSONPath: str(obj(f), "jsonPath")})
		}
		d.Spec.Versions = append(d.Spec.Versions, ver)
	}
	d.hoist()
	d.prepareStatus(old)
	return d, nil
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

func readNames(m map[string]any) Names {
	return Names{Plural: str(m, "plural"), Singular: str(m, "singular"), ShortNames: strs(m["shortNames"]), Kind: str(m, "kind"),
		ListKind: str(m, "listKind"), Categories: strs(m["categories"])}
}

func readSubresources(m map[string]any) *Subresources {
	s := &Subresources{raw: m}
	if st, ok := m["status"]; ok && st != nil {
		s.Status = true
	}
	if sc := obj(m["scale"]); sc != nil {
		s.Scale = &Scale{SpecReplicasPath: str(sc, "specReplicasPath"), StatusReplicasPath: str(sc, "statusReplicasPath"), LabelSelectorPath: strPtr(sc, "labelSelectorPath")}
	}
	return s
}

func readConversion(m map[string]any) *Conversion {
	c := &Conversion{Strategy: str(m, "strategy")}
	if w := obj(m["webhook"]); w != nil {
		c.ConversionReviewVersions = strs(w["conversionReviewVersions"])
		if cc := obj(w["clientConfig"]); cc != nil {
			wc := &WebhookClientConfig{URL: strPtr(cc, "url")}
			if s := obj(cc["service"]); s != nil {
				port := int32(443)
				if p, ok := s["port"]; ok {
					port = int32(integer(p))
				}
				wc.Service = &ServiceReference{Namespace: str(s, "namespace"), Name: str(s, "name"), Path: strPtr(s, "path"), Port: port}
			}
			if b, ok := cc["caBundle"].(string); ok {
				wc.CABundle = []byte(b)
			}
			c.Webhook = wc
		}
	}
	return c
}

// hoist moves what every version has alike to the top, as the conversion to the internal
// version does.
func (d *Definition) hoist() {
	vs := d.Spec.Versions
	if len(vs) == 0 {
		return
	}
	d.Spec.Version = vs[0].Name
	same := func(f func(v Version) any) bool {
		first := f(vs[0])
		for _, v := range vs[1:] {
			if !unstructured.Equal(normalizeEmpty(f(v)), normalizeEmpty(first)) {
				return false
			}
		}
		return true
	}
	if same(func(v Version) any { return v.raw["subresources"] }) {
		d.Spec.Subresources = vs[0].Subresources
		for i := range vs {
			vs[i].Subresources = nil
		}
	}
	if same(func(v Version) any { return v.raw["schema"] }) {
		d.Spec.Validation = vs[0].Schema
		for i := range vs {
			vs[i].Schema = nil
		}
	}
	if same(func(v Version) any { return v.raw["additionalPrinterColumns"] }) {
		d.Spec.Columns = vs[0].Columns
		for i := range vs {
			vs[i].Columns = nil
		}
	}
	if same(func(v Version) any { return v.raw["selectableFields"] }) {
		d.Spec.SelectableFields = vs[0].SelectableFields
		for i := range vs {
			vs[i].SelectableFields = nil
		}
	}
}

// normalizeEmpty: an empty list is the same as no list once converted.
func normalizeEmpty(v any) any {
	if l, ok := v.([]any); ok && len(l) == 0 {
		return nil
	}
	return v
}

func (d *Definition) prepareStatus(old map[string]any) {
	if old != nil {
		d.StoredVersions = strs(obj(old["status"])["storedVersions"])
	}
	for _, v := range d.Spec.Versions {
		if v.Storage {
			stored := false
			for _, s := range d.StoredVersions {
				if s == v.Name {
					stored = true
				}
			}
			if !stored {
				d.StoredVersions = append(d.StoredVersions, v.Name)
			}
			break
		}
	}
}

// SchemaOf is the schema version v is validated with.
func (d *Definition) SchemaOf(v string) *crdschema.Schema {
	if d.Spec.Validation != nil {
		return d.Spec.Validation.Schema
	}
	for _, ver := range d.Spec.Versions {
		if ver.Name == v && ver.Schema != nil {
			return ver.Schema.Schema
		}
	}
	return nil
}
