package celrules

import (
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

const maxRequestSize = apiservercel.DefaultMaxRequestSizeBytes

// DeclType is the CEL type of values of schema s: nil when s has no CEL type (an untyped
// node without int-or-string, a list without items, a map whose values have none).
// isResourceRoot adds apiVersion, kind and metadata to an object. server is the
// kube-apiserver minor: 1.37 bounds metadata.name and generateName (see
// WithTypeAndObjectMeta), earlier ones leave them unbounded; 1.34 bounds an int-or-string
// by its maxLength, earlier ones by the request's size alone.
func DeclType(server kube.Minor, s *crdschema.Schema, isResourceRoot bool) *apiservercel.DeclType {
	return declTyper{capNames: server.AtLeast(37), intOrStringMaxLength: server.AtLeast(34)}.of(s, isResourceRoot)
}

type declTyper struct{ capNames, intOrStringMaxLength bool }

func (d declTyper) of(s *crdschema.Schema, isResourceRoot bool) *apiservercel.DeclType {
	if s == nil {
		return nil
	}
	if s.XIntOrString {
		dyn := apiservercel.NewSimpleTypeWithMinSize("dyn", cel.DynType, nil, 1)
		if s.MaxLength != nil && d.intOrStringMaxLength {
			dyn.MaxElements = fromMaxLength(*s.MaxLength)
		} else {
			dyn.MaxElements = maxStringLength(s)
		}
		return dyn
	}
	if isResourceRoot {
		s = withTypeAndObjectMeta(s, d.capNames)
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		items := d.of(s.Items, s.Items.XEmbeddedResource)
		if items == nil {
			return nil
		}
		var max int64
		if s.MaxItems != nil {
			max = zeroIfNegative(*s.MaxItems)
		} else {
			max = (maxRequestSize - 2) / (items.MinSerializedSize + 1)
		}
		return apiservercel.NewListType(items, max)
	case "object":
		if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
			values := d.of(ap.Schema, ap.Schema.XEmbeddedResource)
			if values == nil {
				return nil
			}
			var max int64
			if s.MaxProperties != nil {
				max = zeroIfNegative(*s.MaxProperties)
			} else {
				max = (maxRequestSize - 2) / (values.MinSerializedSize + 6)
			}
			return apiservercel.NewMapType(apiservercel.StringType, values, max)
		}
		fields := make(map[string]*apiservercel.DeclField, len(s.Properties))
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		minSize := int64(2)
		for name, prop := range s.Properties {
			t := d.of(prop, prop.XEmbeddedResource)
			if t == nil {
				continue
			}
			if escaped, ok := apiservercel.Escape(name); ok {
				var enum []any
				if prop.Enum != nil {
					enum = append(enum, prop.Enum...)
				}
				var def any
				if prop.HasDefault {
					def = prop.Default
				}
				fields[escaped] = apiservercel.NewDeclField(escaped, t, required[name], enum, def)
			}
			if required[name] && !prop.HasDefault {
				minSize += int64(len(name)) + t.MinSerializedSize + 4
			}
		}
		obj := apiservercel.NewObjectType("object", fields)
		obj.MinSerializedSize = minSize
		return obj
	case "string":
		switch s.Format {
		case "byte":
			t := apiservercel.NewSimpleTypeWithMinSize("bytes", cel.BytesType, types.Bytes([]byte{}), apiservercel.MinStringSize)
			if s.MaxLength != nil {
				t.MaxElements = zeroIfNegative(*s.MaxLength)
			} else {
				t.MaxElements = maxStringLength(s)
			}
			return t
		case "duration":
			t := apiservercel.NewSimpleTypeWithMinSize("duration", cel.DurationType, types.Duration{Duration: time.Duration(0)}, int64(apiservercel.MinDurationSizeJSON))
			t.MaxElements = maxStringLength(s)
			return t
		case "date":
			t := apiservercel.NewSimpleTypeWithMinSize("timestamp", cel.TimestampType, types.Timestamp{Time: time.Time{}}, int64(apiservercel.JSONDateSize))
			t.MaxElements = maxStringLength(s)
			return t
		case "date-time":
			t := apiservercel.NewSimpleTypeWithMinSize("timestamp", cel.TimestampType, types.Timestamp{Time: time.Time{}}, int64(apiservercel.MinDatetimeSizeJSON))
			t.MaxElements = maxStringLength(s)
			return t
		}
		t := apiservercel.NewSimpleTypeWithMinSize("string", cel.StringType, types.String(""), apiservercel.MinStringSize)
		switch {
		case s.MaxLength != nil:
			t.MaxElements = fromMaxLength(*s.MaxLength)
		case len(s.Enum) > 0:
			var max int64
			for _, v := range s.Enum {
				if str, ok := v.(string); ok && int64(len(str)) > max {
					max = int64(len(str))
				}
			}
			t.MaxElements = max
		default:
			t.MaxElements = maxStringLength(s)
		}
		return t
	case "boolean":
		return apiservercel.BoolType
	case "number":
		return apiservercel.DoubleType
	case "integer":
		return apiservercel.IntType
	}
	return nil
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

// fromMaxLength: a string of maxLength characters may take 4 bytes per character.
func fromMaxLength(n int64) int64 { return zeroIfNegative(n) * 4 }

func maxStringLength(s *crdschema.Schema) int64 {
	if s.XIntOrString {
		return maxRequestSize - 2
	}
	switch s.Format {
	case "duration":
		return apiservercel.MaxDurationSizeJSON
	case "date":
		return apiservercel.JSONDateSize
	case "date-time":
		return apiservercel.MaxDatetimeSizeJSON
	}
	return maxRequestSize - 2
}

// nameMaxLength is the longest metadata.name of a custom resource (a DNS-1123 subdomain).
const nameMaxLength = 253

// WithTypeAndObjectMeta is s with the properties the server gives the root of a resource
// and every embedded resource: apiVersion and kind strings, and metadata with name and
// generateName (their lengths capped at what a name can be, as 1.37 caps them). s itself
// when it already has them.
func WithTypeAndObjectMeta(s *crdschema.Schema) *crdschema.Schema {
	return withTypeAndObjectMeta(s, true)
}

// withTypeAndObjectMeta is WithTypeAndObjectMeta, capNames false leaving name and
// generateName unbounded, as before 1.37 (where their CEL size, and so the estimated cost of
// rules reading them, came from the request size limit).
func withTypeAndObjectMeta(s *crdschema.Schema, capNames bool) *crdschema.Schema {
	isType := func(p *crdschema.Schema, t string) bool { return p != nil && p.Type == t }
	md := s.Properties["metadata"]
	if s.Properties != nil && isType(s.Properties["kind"], "string") && isType(s.Properties["apiVersion"], "string") &&
		isType(md, "object") && md.Properties != nil && isType(md.Properties["name"], "string") && isType(md.Properties["generateName"], "string") {
		return s
	}
	out := *s
	out.Items = nil
	out.Properties = make(map[string]*crdschema.Schema, len(s.Properties)+3)
	for k, p := range s.Properties {
		out.Properties[k] = p
	}
	out.Properties["kind"] = &crdschema.Schema{Type: "string"}
	out.Properties["apiVersion"] = &crdschema.Schema{Type: "string"}
	var existing map[string]*crdschema.Schema
	if md != nil {
		existing = md.Properties
	}
	name, generateName := &crdschema.Schema{Type: "string"}, &crdschema.Schema{Type: "string"}
	if capNames {
		name, generateName = cappedString(existing["name"], nameMaxLength), cappedString(existing["generateName"], nameMaxLength-1)
	}
	out.Properties["metadata"] = &crdschema.Schema{Type: "object", Properties: map[string]*crdschema.Schema{
		"name":         name,
		"generateName": generateName,
	}}
	return &out
}

func cappedString(existing *crdschema.Schema, max int64) *crdschema.Schema {
	if existing != nil && existing.MaxLength != nil && *existing.MaxLength < max {
		max = *existing.MaxLength
	}
	return &crdschema.Schema{Type: "string", MaxLength: &max}
}
