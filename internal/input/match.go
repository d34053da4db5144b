package input

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/schema"
)

// Identity names an object as the API server addresses it; the version is not part of it.
type Identity struct {
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String prints the identity as kind[.group] [namespace/]name.
func (id Identity) String() string {
	k := id.Kind
	if id.Group != "" {
		k += "." + id.Group
	}
	if id.Namespace != "" {
		return k + " " + id.Namespace + "/" + id.Name
	}
	return k + " " + id.Name
}

// Scope tells whether a kind is namespaced; known is false for a kind it has no schema for.
type Scope func(gvk schema.GVK) (namespaced, known bool)

// Pair is a manifest and the live object it applies to.
type Pair struct {
	Manifest *Object
	// Live is the matching live object, or nil: the apply creates the object.
	Live *Object
	// GVK is the manifest's group, version and kind.
	GVK schema.GVK
	// ID is where the apply goes: the manifest's identity, or the live object's when the two
	// were paired by position (Mismatched).
	ID Identity
	// Mismatched is set when the only manifest and the only live object were paired although
	// their identities differ; the request then goes to the live object's endpoint.
	Mismatched bool
	// Err says why the manifest cannot be predicted (it cannot be identified).
	Err error
	// Warnings are notes about the pairing.
	Warnings []string
	// GenerateName is the prefix of a create that names no name but a generateName
	// (GenerateNames): the server assigns the name, and ID's is empty.
	GenerateName string
}

// Matching is the outcome of Match.
type Matching struct {
	// Pairs has one element per manifest, in the manifests' order.
	Pairs []Pair
	// Errors are live objects that cannot be identified.
	Errors []error
	// Warnings are notes about the live objects (duplicates).
	Warnings []string
}

// objectMeta reads apiVersion, kind, namespace and name, checking their types.
func objectMeta(o *Object) (gvk schema.GVK, ns, name string, err error) {
	str := func(v any, ptr string, required bool) (string, error) {
		if v == nil {
			if required {
				return "", o.Errorf(ptr, "required field is missing")
			}
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", o.Errorf(ptr, "must be a string, not a %s", typeName(v))
		}
		if s == "" && required {
			return "", o.Errorf(ptr, "must not be empty")
		}
		return s, nil
	}
	if h := o.head; h != nil {
		// A deferred object was deferred because its identity was all there, as strings.
		return schema.GVKFromAPIVersionKind(h.apiVersion, h.kind), h.namespace, h.name, nil
	}
	apiVersion, err := str(o.Object["apiVersion"], "/apiVersion", true)
	if err != nil {
		return gvk, "", "", err
	}
	kind, err := str(o.Object["kind"], "/kind", true)
	if err != nil {
		return gvk, "", "", err
	}
	gvk = schema.GVKFromAPIVersionKind(apiVersion, kind)
	var md map[string]any
	switch m := o.Object["metadata"].(type) {
	case map[string]any:
		md = m
	case nil:
		return gvk, "", "", o.Errorf("/metadata", "required field is missing")
	default:
		return gvk, "", "", o.Errorf("/metadata", "must be a map, not a %s", typeName(m))
	}
	if ns, err = str(md["namespace"], "/metadata/namespace", false); err != nil {
		return gvk, "", "", err
	}
	if name, err = str(md["name"], "/metadata/name", true); err != nil {
		if md["name"] == nil && md["generateName"] != nil {
			err = o.Errorf("/metadata/name", "required: server-side apply cannot use generateName")
		}
		return gvk, "", "", err
	}
	return gvk, ns, name, nil
}

type groupKind struct{ group, kind string }

// MatchOption changes how Match pairs.
type MatchOption func(*matchOptions)

type matchOptions struct {
	rawRequests   bool
	liveErrors    int
	scale         bool
	generateNames bool
}

// GenerateNames says the manifests are created (a POST): one that names no name but a
// generateName is a create of a new object, paired with no live object; the server names
// it (rules.md create.generate-name).
func GenerateNames() MatchOption { return func(o *matchOptions) { o.generateNames = true } }

// generateNameOf is the namespace and prefix of a manifest that names no name but a
// generateName.
func generateNameOf(o *Object) (ns, prefix string, ok bool) {
	md, _ := o.Object["metadata"].(map[string]any)
	g, _ := md["generateName"].(string)
	if md == nil || md["name"] != nil || g == "" {
		return "", "", false
	}
	ns, _ = md["namespace"].(string)
	return ns, g, true
}

// ScaleBodies says the manifests are the bodies of requests to /scale: an autoscaling/v1
// Scale is paired with the live object of its namespace and name (the first, when several
// kinds have one of that name), whose endpoint the request goes to (Mismatched).
func ScaleBodies() MatchOption { return func(o *matchOptions) { o.scale = true } }

// LiveIncomplete says n live documents could not be read. A manifest no live object
// matches then cannot be predicted as a create: its live object may be among them.
func LiveIncomplete(n int) MatchOption { return func(o *matchOptions) { o.liveErrors = n } }

// RawRequests says the manifests are request bodies sent as they are to an endpoint of the
// user's choosing (the api applier): the only manifest is then sent to the only live
// object's endpoint even when their identities differ, and the server's answer to that (a
// kind or name that does not match the URL) is the prediction. Without it the manifests
// are kubectl's: kubectl sends each to its own endpoint, so the only manifest and the only
// live object are paired only when they differ in nothing but a namespace the manifest
// leaves to the default, and kubectl's own refusals (no kind, no name) are errors.
func RawRequests() MatchOption { return func(o *matchOptions) { o.rawRequests = true } }

// Match pairs each manifest with the live object of the same group, kind, namespace and
// name. Namespaced objects without a namespace get defaultNamespace. For kinds scope does
// not know, an object is taken as namespaced unless it has no namespace and a live object of
// the same group, kind and name has none either. When exactly one manifest and one live
// object are given and do not match, they may be paired anyway (Mismatched; see
// RawRequests).
func Match(manifests, live []*Object, scope Scope, defaultNamespace string, opts ...MatchOption) Matching {
	var mo matchOptions
	for _, o := range opts {
		o(&mo)
	}
	type liveMeta struct {
		o    *Object
		gvk  schema.GVK
		ns   string
		name string
		err  error
	}
	lives := make([]liveMeta, len(live))
	clusterScoped := map[groupKind]map[string]bool{} // unknown kinds: names seen without a namespace
	for i, o := range live {
		gvk, ns, name, err := objectMeta(o)
		lives[i] = liveMeta{o, gvk, ns, name, err}
		if err == nil && ns == "" {
			gk := groupKind{gvk.Group, gvk.Kind}
			if clusterScoped[gk] == nil {
				clusterScoped[gk] = map[string]bool{}
			}
			clusterScoped[gk][name] = true
		}
	}
	namespaced := func(gvk schema.GVK, ns, name string) bool {
		if scope != nil {
			if n, known := scope(gvk); known {
				return n
			}
		}
		return ns != "" || !clusterScoped[groupKind{gvk.Group, gvk.Kind}][name]
	}
	identity := func(gvk schema.GVK, ns, name string) Identity {
		id := Identity{Group: gvk.Group, Kind: gvk.Kind, Name: name}
		if namespaced(gvk, ns, name) {
			id.Namespace = ns
			if id.Namespace == "" {
				id.Namespace = defaultNamespace
			}
		}
		return id
	}

	var m Matching
	index := map[Identity]int{}
	for i, l := range lives {
		if l.err != nil {
			m.Errors = append(m.Errors, l.err)
			continue
		}
		id := identity(l.gvk, l.ns, l.name)
		if j, dup := index[id]; dup {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s: %s is also at %s; the first one is used", l.o.Source, id, lives[j].o.Source))
			continue
		}
		index[id] = i
	}

	// One manifest and one live object read as an object (not a List's item, which says
	// what exists and so that the manifest's object does not).
	oneToOne := len(manifests) == 1 && len(live) == 1 && lives[0].err == nil && live[0].Source.Item == nil && mo.liveErrors == 0
	unreadable := mo.liveErrors
	for _, l := range lives {
		if l.err != nil {
			unreadable++
		}
	}
	if len(lives) == 0 {
		lives = append(lives, liveMeta{}) // lives[0] is read only when oneToOne
	}
	for _, o := range manifests {
		p := Pair{Manifest: o}
		gvk, ns, name, err := objectMeta(o)
		generated := false
		if err != nil && mo.generateNames && gvk.Kind != "" {
			if ns, p.GenerateName, generated = generateNameOf(o); generated {
				err = nil
			}
		}
		p.GVK = gvk
		if generated {
			p.ID = identity(gvk, ns, "")
		} else if err == nil {
			p.ID = identity(gvk, ns, name)
			if i, ok := index[p.ID]; ok {
				p.Live = lives[i].o
			}
		}
		l := lives[0]
		if p.Live == nil && mo.scale && err == nil && gvk.Group == "autoscaling" && gvk.Kind == "Scale" {
			for _, c := range lives {
				if c.o == nil || c.err != nil || c.name != name {
					continue
				}
				if id := identity(c.gvk, c.ns, c.name); id.Namespace == identity(gvk, ns, name).Namespace {
					p.Live, p.Mismatched, p.ID = c.o, true, id
					break
				}
			}
		}
		switch {
		case p.Live != nil, generated:
		case oneToOne && mo.rawRequests:
			p.Live, p.Mismatched, p.Err = l.o, true, nil
			p.ID = identity(l.gvk, l.ns, l.name)
			what := "it"
			if err == nil {
				what = identity(gvk, ns, name).String()
			}
			p.Warnings = append(p.Warnings, fmt.Sprintf(
				"the only manifest (%s) and the only live object (%s) do not match; predicting the request to the live object's endpoint", what, p.ID))
		case oneToOne && err == nil && ns == "" && gvk.Group == l.gvk.Group && gvk.Kind == l.gvk.Kind && name == l.name:
			// The manifest leaves its namespace to kubectl's context, which is the live
			// object's: kubectl sends the body without a namespace to that endpoint.
			p.Live = l.o
			p.ID = identity(l.gvk, l.ns, l.name)
			p.Warnings = append(p.Warnings, fmt.Sprintf(
				"the manifest names no namespace; predicting the apply in the live object's namespace %q, as kubectl would with that namespace in its context (or with -n %s)", l.ns, l.ns))
		case oneToOne && err == nil:
			p.Err = o.Errorf("", "this manifest is %s, but the only live object (%s) is %s: kubectl would apply to %s, whose live state was not given. Give that object's live state (kubectl get ... -o json --show-managed-fields), or use --applier api to predict this body sent to the live object's endpoint",
				p.ID, l.o.Source.Short(), identity(l.gvk, l.ns, l.name), p.ID)
		case err != nil:
			p.Err = err
		case unreadable > 0:
			p.Err = o.Errorf("", "no live object matches %s, but the live input could not all be read (%d error%s, reported with it): its live state may be in what was not read, so the apply is not predicted as a create", p.ID, unreadable, plural(unreadable))
		}
		m.Pairs = append(m.Pairs, p)
	}
	return m
}

// HasManagedFields reports whether a live object carries metadata.managedFields.
func HasManagedFields(obj map[string]any) bool {
	md, _ := obj["metadata"].(map[string]any)
	_, ok := md["managedFields"]
	return ok
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
