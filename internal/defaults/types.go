package defaults

// typeKind says how a Go API type is represented in JSON.
type typeKind uint8

const (
	kindString typeKind = iota
	kindBool
	kindInt
	kindUint
	kindFloat
	kindBytes   // []byte: base64 in JSON
	kindStruct  // a Go struct: a JSON object with known fields
	kindPointer // *elem: absent or null when nil
	kindSlice   // []elem
	kindMap     // map[string]elem
	// Types with their own JSON form.
	kindQuantity    // resource.Quantity: canonical string
	kindIntOrString // intstr.IntOrString: an integer or a string, as given
	kindTime        // metav1.Time: RFC 3339 in UTC, whole seconds; null when zero
	kindMicroTime   // metav1.MicroTime: RFC 3339 in UTC with microseconds
	kindDuration    // metav1.Duration: Go duration string
	kindRaw         // RawExtension, apiextensions JSON, FieldsV1, any: kept verbatim
	// apiextensions.k8s.io/v1 schema unions.
	kindSchemaOrArray       // a schema or a list of schemas
	kindSchemaOrBool        // a schema or a boolean
	kindSchemaOrStringArray // a schema or a list of strings
)

// fieldFlags are the JSON tag options that matter for encoding.
type fieldFlags uint8

const (
	omitEmpty fieldFlags = 1 << iota // `json:",omitempty"`
	omitZero                         // `json:",omitzero"`
	inline                           // an embedded struct whose fields are promoted
)

// typeDef describes one Go API type. Types refer to each other by their index
// in generatedTypes.
type typeDef struct {
	name   string // OpenAPI-style name, e.g. io.k8s.api.apps.v1.Deployment; "*X", "[]X", "map[string]X" for composites
	kind   typeKind
	elem   int        // element type of pointers, slices, maps and schema unions
	fields []fieldDef // struct fields in declaration order
}

// fieldDef describes one struct field.
type fieldDef struct {
	name   string // JSON name; empty for inline fields
	typ    int
	flags  fieldFlags
	marker string // the `+default=` marker value as JSON, if any
}

// rootType returns the index of the Go type that kube-apiserver decodes an
// object of the given apiVersion and kind into.
func rootType(apiVersion, kind string) (int, bool) {
	i, ok := generatedKinds[apiVersion+"/"+kind]
	return i, ok
}

// Known reports whether apiVersion and kind name a built-in kind of
// Kubernetes 1.37 that this package can default.
func Known(apiVersion, kind string) bool {
	_, ok := rootType(apiVersion, kind)
	return ok
}

// TypeName returns the OpenAPI name of the Go type behind a built-in kind
// (e.g. "io.k8s.api.apps.v1.Deployment"), or "" when the kind is not built in.
func TypeName(apiVersion, kind string) string {
	i, ok := rootType(apiVersion, kind)
	if !ok {
		return ""
	}
	return generatedTypes[i].name
}
