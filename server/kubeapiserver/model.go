package kubeapiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/admission"
	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation"
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/strategy"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// Config is the cluster a Model predicts: the Kubernetes minor its kube-apiserver runs and
// the flags of it that change what a write stores or whether it is refused.
type Config struct {
	// Minor is the kube-apiserver's Kubernetes minor, one of kube.Minors(). It has no
	// default: New refuses the zero Minor.
	Minor kube.Minor
	// ForbidPrivileged is kube-apiserver run with --allow-privileged=false, the flag's own
	// default, which refuses privileged and hostProcess containers (422 "disallowed by
	// cluster policy"): a server started without the flag, as a hand-assembled control
	// plane or a bare test server is. The zero Config allows them, as kubeadm, kind, k3s
	// and the managed clusters run kube-apiserver (--allow-privileged=true), so that an
	// embedder predicts what real clusters do.
	ForbidPrivileged bool
	// ServiceIPFamilies are the IP families of the cluster's service IP ranges
	// (kube-apiserver's --service-cluster-ip-range), the primary one first: ["IPv4"] or
	// ["IPv6"] for a single-stack cluster, both for a dual-stack one (ParseServiceIPFamilies
	// reads them). They decide a Service's IP families and which it may ask for: a
	// single-stack cluster refuses RequireDualStack and the other family (422), a
	// dual-stack one gives PreferDualStack and RequireDualStack Services both families.
	// Empty: not declared; refusals are those of the recording server, an IPv4 cluster,
	// and the families it adds are left to Result.Assigned.
	ServiceIPFamilies []string
	// FeatureGates are kube-apiserver's --feature-gates, by gate name (ParseFeatureGates
	// reads the flag): gates the cluster turns on or off against its minor's defaults. They reach
	// every gate switch of the model: the registry, validation and admission, the
	// MutatingAdmissionPolicy plugin included (1.34 and 1.35 run it only with its gate on).
	// New refuses what that minor's server refuses, in its words ("unrecognized feature
	// gate: Name", a gate locked to its default). Empty: the minor's defaults.
	FeatureGates FeatureGates
	// DisableAdmission is kube-apiserver without the admission plugins that fill in a
	// write (--disable-admission-plugins naming Priority, DefaultTolerationSeconds,
	// StorageObjectInUseProtection and TaintNodesByCondition): what the registry alone
	// stores. The zero Config runs them, as every kube-apiserver does by default.
	DisableAdmission bool
	// Cluster is what the cluster holds that its admission chain reads (package
	// clusterstate): Namespaces, PriorityClasses, StorageClasses, IngressClasses, the
	// admission policies with their bindings and param objects. Nil: a bare cluster, as a
	// freshly started kube-apiserver is.
	Cluster *clusterstate.State
	// User sends the writes (kubectl's --as, --as-group): the policies' request.userInfo.
	// Authorization answers the authorizer checks of the policies for it; a check it does
	// not answer is predicted as the server's "no opinion", and the prediction says so.
	User          clusterstate.User
	Authorization clusterstate.Authorization
	// AdmissionHelper is the path of the ssa-diff-admission program
	// (cmd/ssa-diff-admission), which runs PodSecurity and the admission policies of
	// Cluster through Kubernetes' own libraries; it is started on the first write that
	// needs it. "": that admission is not predicted, and the writes it would see say so.
	// The same program prints the go-cmp diff 1.32 and 1.33 put in refusing a changed
	// ephemeral container (rules.md sub.ephemeralcontainers), started apart on the first
	// such refusal; "": the message is predicted without it, and the write says so.
	AdmissionHelper string
	// AdmissionLibrary runs that admission in this process instead (ssa-diff's own tests
	// and programs: package internal/admission/library); it wins over AdmissionHelper.
	AdmissionLibrary func(wire.Setup) (wire.Library, error)
	// Diff prints those diffs in this process instead (ssa-diff's own tests and programs:
	// package internal/api/gocmp's Print); it wins over AdmissionHelper.
	Diff func(wire.Diff) (string, error)
}

// Model is kube-apiserver around field management, for the cluster of a Config: the
// defaulting of the built-in kinds (package internal/defaults), their conversion
// (internal/conversion), their registry rules (internal/strategy) and validation
// (internal/validation), and for custom resources and CRDs apiextensions-apiserver's
// defaults, status reset, generation and validation (internal/crdvalidation). It is a
// server.Model, immutable and safe for concurrent use.
type Model struct {
	cfg Config
	// server is cfg as the ports of the server's code take it: the minor, its default
	// feature gates, the service IP families.
	server *serverconfig.Config
	// defaults is the decoding and defaulting of the built-in kinds at cfg.Version.
	defaults defaults.Release
	// customResources validates custom resources as the server's minor does.
	customResources crdvalidation.Validator
	// admission is the admission chain of cfg's cluster.
	admission *admission.Chain
	// diff prints what the server prints with go-cmp (cfg.Diff, or differ's helper); nil
	// when neither is given.
	diff   func(wire.Diff) (string, error)
	differ *wire.Differ
}

var _ server.Model = (*Model)(nil)

// New returns the model of the cluster cfg describes. It fails for a Kubernetes minor
// ssa-diff does not predict and for service IP families ParseServiceIPFamilies refuses.
func New(cfg Config) (*Model, error) {
	if cfg.Minor == 0 {
		return nil, fmt.Errorf("no Kubernetes minor given: say which kube-apiserver to predict (%s)", supportedList())
	}
	if !cfg.Minor.IsSupported() {
		return nil, fmt.Errorf("kube-apiserver %s is not predicted: the supported minors are %s", cfg.Minor, supportedList())
	}
	if err := tablesOf(cfg.Minor); err != nil {
		return nil, err
	}
	if len(cfg.ServiceIPFamilies) > 0 {
		fams, err := ParseServiceIPFamilies(strings.Join(cfg.ServiceIPFamilies, ","))
		if err != nil {
			return nil, err
		}
		cfg.ServiceIPFamilies = fams
	}
	server := serverconfig.MustFor(cfg.Minor)
	server.ServiceIPFamilies = cfg.ServiceIPFamilies
	if len(cfg.FeatureGates) > 0 {
		gates, err := server.Gates.Apply(cfg.Minor, features.Settings(cfg.FeatureGates))
		if err != nil {
			return nil, fmt.Errorf("--feature-gates of kube-apiserver %s: %w", cfg.Minor, err)
		}
		server.Gates = gates
	}
	d, _ := defaults.For(cfg.Minor)
	m := &Model{cfg: cfg, server: server, defaults: d, customResources: customResources(server)}
	library := cfg.AdmissionLibrary
	if library == nil && cfg.AdmissionHelper != "" {
		helper := cfg.AdmissionHelper
		library = func(s wire.Setup) (wire.Library, error) { return wire.Exec(helper, s) }
	}
	m.admission = admission.New(admission.Config{Minor: int(cfg.Minor), Gates: &server.Gates, State: cfg.Cluster, User: cfg.User,
		Authorization: cfg.Authorization, Library: library, Stored: m.stored})
	m.diff = cfg.Diff
	if m.diff == nil && cfg.AdmissionHelper != "" {
		m.differ = wire.NewDiffer(cfg.AdmissionHelper)
		m.diff = m.differ.Diff
	}
	return m, nil
}

// NeedsHelper reports whether a model of cfg may start the ssa-diff-admission program
// (AdmissionHelper): its cluster holds objects its admission may send there, or its
// server prints go-cmp's diffs (1.32, 1.33), which the program prints.
func (cfg Config) NeedsHelper() bool {
	return cfg.Cluster != nil || (&serverconfig.Config{Minor: cfg.Minor}).PrintsGoCmpDiffs()
}

// Close stops what the model started: the admission helper, when a write needed it, and
// the one that printed diffs.
func (m *Model) Close() error {
	err := m.admission.Close()
	if m.differ != nil {
		err = errors.Join(err, m.differ.Close())
	}
	return err
}

// stored is obj, an object of the cluster state, as the server stores it: a built-in
// kind's defaulted.
func (m *Model) stored(obj map[string]any) map[string]any {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if !m.defaults.Known(av, kind) {
		return obj
	}
	out := unstructured.DeepCopyObject(obj)
	if err := m.defaults.Default(av, kind, out); err != nil {
		return obj
	}
	return out
}

// Config returns the cluster the model predicts.
func (m *Model) Config() Config {
	c := m.cfg
	c.ServiceIPFamilies = append([]string(nil), c.ServiceIPFamilies...)
	if c.FeatureGates != nil {
		c.FeatureGates = maps.Clone(c.FeatureGates)
	}
	return c
}

func supportedList() string {
	var out []string
	for _, v := range kube.Minors() {
		out = append(out, v.String())
	}
	return strings.Join(out, ", ")
}

// FeatureGates are kube-apiserver's --feature-gates settings, by gate name: on (true) or
// off. As a flag.Value it reads the flag as the server does, a repeat adding its settings
// (ParseFeatureGates), and prints them by name.
type FeatureGates map[string]bool

// Set adds the settings of a --feature-gates value.
func (f *FeatureGates) Set(s string) error {
	m, err := ParseFeatureGates(s)
	if err != nil {
		return err
	}
	if *f == nil {
		*f = FeatureGates{}
	}
	maps.Copy(*f, m)
	return nil
}

// String is the settings as the flag spells them, by name: "A=true,B=false".
func (f *FeatureGates) String() string { return features.Settings(*f).String() }

// CheckFor is CheckFeatureGates at the minor of reg, the schemas a program predicts with;
// nil for a nil reg (nothing read yet: nothing to check).
func (f FeatureGates) CheckFor(reg *schema.Registry) error {
	if reg == nil {
		return nil
	}
	return CheckFeatureGates(reg.Minor(), f)
}

// Type names the flag's value in usage.
func (f *FeatureGates) Type() string { return "gates" }

// ParseFeatureGates reads kube-apiserver's --feature-gates value, "Name=true,Other=false",
// as the server reads it, and refuses what it refuses in its words ("missing bool value for
// Name", "invalid value of Name=v, err: …"). Whether the names are gates of a minor, and
// may be set, New checks for the Config's minor.
func ParseFeatureGates(s string) (FeatureGates, error) {
	m, err := features.ParseSettings(s)
	if err != nil {
		return nil, err
	}
	return FeatureGates(m), nil
}

// CheckFeatureGates refuses feature gates the server of minor v refuses at start-up, in
// its words, as New does: a program that learns its minor late says so before it predicts.
func CheckFeatureGates(v kube.Minor, gates FeatureGates) error {
	if len(gates) == 0 {
		return nil
	}
	def, ok := features.Defaults(v)
	if !ok {
		return fmt.Errorf("the feature gates of Kubernetes %s are not generated", v)
	}
	if _, err := def.Apply(v, features.Settings(gates)); err != nil {
		return fmt.Errorf("--feature-gates of kube-apiserver %s: %w", v, err)
	}
	return nil
}

// ParseServiceIPFamilies reads a cluster's service IP families as a comma-separated list,
// the primary first: "IPv4", "IPv6", "IPv4,IPv6" or "IPv6,IPv4".
func ParseServiceIPFamilies(s string) ([]string, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return nil, fmt.Errorf("service IP families %q: at most two (the primary first)", s)
	}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p != "IPv4" && p != "IPv6" {
			return nil, fmt.Errorf("service IP families %q: %q is not IPv4 or IPv6", s, p)
		}
		if i == 1 && p == parts[0] {
			return nil, fmt.Errorf("service IP families %q: %s twice", s, p)
		}
		parts[i] = p
	}
	return parts, nil
}

func (m *Model) builtinKnown(t *schema.Type) bool {
	return t.Source == schema.SourceBuiltin && m.defaults.Known(t.GVK.APIVersion(), t.GVK.Kind)
}

// Default runs the kind's defaulting.
func (m *Model) Default(t *schema.Type, obj map[string]any) error {
	if m.builtinKnown(t) {
		return m.defaults.Default(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	if t.Default != nil {
		t.Default(obj)
	}
	return nil
}

// DefaultOwned is Default of an object whose maps and lists only the caller holds, none
// of them twice: a built-in kind's are rewritten in place (defaults.Release.DefaultOwned)
// instead of copied first.
func (m *Model) DefaultOwned(t *schema.Type, obj map[string]any) error {
	if m.builtinKnown(t) {
		return m.defaults.DefaultOwned(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	return m.Default(t, obj)
}

// ReadStored reads a live built-in object as the server holds it (defaults.ReadStored: a
// pod template's creationTimestamp: null, which servers before 1.34 printed and no
// supported minor holds; a status a dump left out), and a custom resource as
// apiextensions-apiserver decodes it from storage (its schema's PruneNulls); any other
// object as given.
func (m *Model) ReadStored(t *schema.Type, obj map[string]any) map[string]any {
	if m.builtinKnown(t) {
		return m.defaults.ReadStored(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	return t.ReadNulls(obj)
}

// DefaultApplied is Default for the merged object of an apply: a custom resource keeps
// the nulls its schema does not allow, which apiextensions-apiserver's validation then
// refuses (422 "must be of type object: \"null\""); only a decoded body loses them. The
// object is the merge's own (server.Defaulter): DefaultOwned.
func (m *Model) DefaultApplied(t *schema.Type, obj map[string]any) error {
	if !m.builtinKnown(t) && t.DefaultKeepingNulls != nil {
		t.DefaultKeepingNulls(obj)
		return nil
	}
	return m.DefaultOwned(t, obj)
}

// EmptyObject is the kind's zero value as the server encodes it.
func (m *Model) EmptyObject(t *schema.Type) map[string]any {
	if m.builtinKnown(t) {
		if obj, ok := m.defaults.EmptyObject(t.GVK.APIVersion(), t.GVK.Kind); ok {
			return obj
		}
	}
	return server.FieldManagementOnly{Kubernetes: m.cfg.Minor}.EmptyObject(t)
}

// AllowCreateOnUpdate reports the built-in kinds whose strategy lets a PUT create
// (strategy.AllowCreateOnUpdate); custom resources never do.
func (m *Model) AllowCreateOnUpdate(t *schema.Type) bool {
	return t.Source == schema.SourceBuiltin && strategy.AllowCreateOnUpdate(t.GVK.APIVersion(), t.GVK.Kind)
}

// PatchMeta is the strategic merge patch metadata of a built-in kind's Go type
// (defaults.Release.PatchMeta); a custom resource has none.
func (m *Model) PatchMeta(t *schema.Type) (strategicpatch.LookupPatchMeta, bool) {
	if !m.builtinKnown(t) {
		return nil, false
	}
	return m.defaults.PatchMeta(t.GVK.APIVersion(), t.GVK.Kind)
}

// PrepareForCreate applies the registry's create rules and the read-back defaulting;
// decoded is the object as the request decoded it, before defaulting (see
// strategy.NeedsDecoded; nil when not kept).
func (m *Model) PrepareForCreate(t *schema.Type, decoded, obj map[string]any) error {
	// The store fills creationTimestamp and uid (Assigned; an apply naming a uid is refused
	// before: rules.md create.uid; a POST's is replaced), and never stores selfLink. From 1.37 it also wipes the system fields a
	// create may not set when the create comes through apply or PUT (store.Update:
	// rest.WipeObjectMetaSystemFields, which only a POST ran before): on 1.34-1.36 such a
	// create keeps the body's deletionTimestamp and deletionGracePeriodSeconds.
	md := unstructured.EnsureObject(obj, "metadata")
	wipe := []string{"creationTimestamp", "selfLink", "uid"}
	if m.server.AtLeast(37) {
		wipe = append(wipe, "deletionTimestamp", "deletionGracePeriodSeconds")
	}
	for _, k := range wipe {
		delete(md, k)
	}
	// The store names an object created with generateName and no name (after the mutating
	// admission, before the registry's rules and validation): rules.md create.generate-name.
	if g := unstructured.Str(md, "generateName"); g != "" && unstructured.Str(md, "name") == "" {
		md["name"] = strategy.GeneratedName(g)
	}
	if m.builtinKnown(t) {
		strategy.PrepareForCreate(m.server, t.GVK.APIVersion(), t.GVK.Kind, decoded, obj)
		// obj is the caller's own (server.Strategy), and the rules copy what they take.
		return m.defaults.DefaultOwned(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	if t.Source != schema.SourceBuiltin {
		// Custom resources: generation starts at 1; with a status subresource, status is
		// dropped. The object is then read back from storage, which applies the schema's
		// defaults again: a status with a default comes back with it.
		unstructured.EnsureObject(obj, "metadata")["generation"] = int64(1)
		if t.Status {
			delete(obj, "status")
			// The read from storage defaults the object again; all but the status that
			// was just dropped has its defaults already.
			if t.Default != nil {
				root := map[string]any{}
				t.Default(root)
				if st, ok := root["status"]; ok {
					obj["status"] = st
				}
			}
		}
	}
	return nil
}

// Validate runs the registry's validation: for built-in kinds, package internal/validation
// (the kind's strategy in the order the generic registry runs it); for every kind, that an
// update keeps the uid.
func (m *Model) Validate(t *schema.Type, subresource string, obj, old map[string]any) server.Validation {
	// Custom resources of a CRD, and CRDs themselves: apiextensions-apiserver's validation.
	if v, ok := m.validateCustomResource(t, subresource, obj, old); ok {
		return v
	}
	if t.Source == schema.SourceBuiltin {
		cfg, diffs := m.server, (*writeDiffer)(nil)
		if subresource == "ephemeralcontainers" {
			// Only this write's validation prints a diff through the Differ: one of its
			// own says what it could not print.
			c := *m.server
			diffs = &writeDiffer{diff: m.diff}
			c.Differ, cfg = diffs, &c
		}
		res, err := validation.ValidateWrite(cfg, t.GVK.APIVersion(), t.GVK.Kind, subresource, obj, old)
		if err != nil {
			return server.Validation{Errors: server.UIDChanged(obj, old), NotPredicted: fmt.Sprintf("the validation of %s %s is not predicted: %v", t.GVK.APIVersion(), t.GVK.Kind, err)}
		}
		if res.Known {
			if !m.cfg.ForbidPrivileged {
				res.Errors = validation.WithoutPrivilegedPolicy(res.Errors)
			}
			return server.Validation{Errors: res.Errors, Warnings: res.Warnings, NotPredicted: strings.Join(append(res.CannotPredict, diffs.failures()...), "; ")}
		}
		return server.Validation{Errors: server.UIDChanged(obj, old), NotPredicted: notPortedMessage(t, subresource)}
	}
	return server.Validation{Errors: server.UIDChanged(obj, old)}
}

// PrepareForUpdate applies the registry's update rules and the read-back defaulting;
// decoded is the new object as the request decoded it, before defaulting (see
// strategy.NeedsDecoded; nil when not kept).
func (m *Model) PrepareForUpdate(t *schema.Type, subresource string, decoded, obj, old map[string]any) error {
	if m.builtinKnown(t) {
		av, kind := t.GVK.APIVersion(), t.GVK.Kind
		switch subresource {
		case "":
			strategy.PrepareForUpdate(m.server, av, kind, decoded, obj, old)
		case "status":
			strategy.PrepareForStatusUpdate(m.server, av, kind, obj, old)
		case "resize":
			strategy.PrepareForResizeUpdate(m.server, obj, old)
		case "ephemeralcontainers":
			strategy.PrepareForEphemeralContainersUpdate(m.server, obj, old)
		default:
			server.RestoreResetFields(t, subresource, obj, old)
		}
		// obj is the caller's own (server.Strategy), and the rules copy what they take
		// from old and decoded: the read-back defaulting rewrites it in place.
		return m.defaults.DefaultOwned(av, kind, obj)
	}
	server.RestoreResetFields(t, subresource, obj, old)
	if t.Source != schema.SourceBuiltin {
		// Through the main resource (and /scale, which writes through it), a custom
		// resource's generation moves when anything but metadata changes (status too, when
		// there is no status subresource to keep it), compared as the decoded JSON values
		// they are. /status keeps the old object but its status.
		if g, ok := unstructured.Object(old, "metadata")["generation"]; ok && subresource != "status" {
			unstructured.EnsureObject(obj, "metadata")["generation"] = g
			if !sameExceptMetadata(obj, old) {
				if n, ok := g.(int64); ok {
					unstructured.EnsureObject(obj, "metadata")["generation"] = n + 1
				}
			}
		}
		// The read from storage defaults the object again: the new parts have their
		// defaults already, and the stored status was read with them.
	}
	return nil
}

// Admit runs the mutating phase of kube-apiserver's admission chain (package
// internal/admission): the plugins that fill in or refuse a write, fed by Config.Cluster,
// then the mutating admission policies.
func (m *Model) Admit(req server.AdmissionRequest) server.Admission {
	if m.cfg.DisableAdmission || req.Type.Source == schema.SourceDeduced {
		return server.Admission{}
	}
	return m.admission.Mutate(admission.Write{AdmissionRequest: req, Convert: m.convertKind(req.Type)})
}

// ValidateAdmission runs the validating phase: PodSecurity and the validating admission
// policies of Config.Cluster.
func (m *Model) ValidateAdmission(req server.AdmissionRequest) server.Admission {
	if m.cfg.DisableAdmission || req.Type.Source == schema.SourceDeduced {
		return server.Admission{}
	}
	return m.admission.Validate(admission.Write{AdmissionRequest: req, Convert: m.convertKind(req.Type)})
}

// convertKind converts objects of t's kind between its versions, as the server does:
// through Go code for a built-in kind that needs it, by apiVersion alone otherwise.
func (m *Model) convertKind(t *schema.Type) func(map[string]any, string) (map[string]any, error) {
	if m.Hub(t) != "" {
		return m.Convert
	}
	return func(obj map[string]any, apiVersion string) (map[string]any, error) {
		out := unstructured.DeepCopyObject(obj)
		out["apiVersion"] = apiVersion
		return out, nil
	}
}

// CreateAddsToDefaults reports whether a create of the kind may store, outside status and
// the metadata only the server writes (and the name and namespace), a value Default does
// not give the object sent, or have values assigned there: a built-in kind whose create
// strategy adds or assigns some (strategy.CreateAddsToDefaults), or that the admission
// chain fills in on a create (admission.Chain.MutatesCreate); a built-in kind whose
// registry rules run at another version, and every custom resource, are said to.
func (m *Model) CreateAddsToDefaults(t *schema.Type) bool {
	if !m.builtinKnown(t) {
		return true
	}
	if hub := m.Hub(t); hub != "" && hub != t.GVK.Version {
		return true
	}
	if strategy.CreateAddsToDefaults(t.GVK.APIVersion(), t.GVK.Kind) {
		return true
	}
	return !m.cfg.DisableAdmission && m.admission.MutatesCreate(t.GVK.Group, t.GVK.Kind)
}

// KeepDecoded reports whether the built-in kind's registry rules look at the object as
// decoded before defaulting (strategy.NeedsDecoded).
func (m *Model) KeepDecoded(t *schema.Type, subresource string, create bool) bool {
	return subresource == "" && m.builtinKnown(t) && strategy.NeedsDecoded(t.GVK.APIVersion(), t.GVK.Kind, create)
}

// Assigned lists the values the server assigns in obj, the object a write stores: those of
// strategy.Assigned for built-in kinds; the uid and creation time of a create, and the
// resourceVersion of every write, for the others.
func (m *Model) Assigned(t *schema.Type, create bool, obj map[string]any) []string {
	var out []string
	if m.builtinKnown(t) {
		for _, a := range strategy.Assigned(t.GVK.APIVersion(), t.GVK.Kind, obj, create) {
			out = append(out, a.String())
		}
		if create && !m.cfg.DisableAdmission {
			out = append(out, m.admission.Assigned(t.GVK.Group, t.GVK.Kind, obj)...)
		}
		return out
	}
	if create {
		md := unstructured.Object(obj, "metadata")
		if g := unstructured.Str(md, "generateName"); g != "" && unstructured.Str(md, "name") == strategy.GeneratedName(g) {
			out = append(out, ".metadata.name") // rules.md create.generate-name
		}
		out = append(out, ".metadata.uid", ".metadata.creationTimestamp")
	}
	return append(out, ".metadata.resourceVersion")
}

// sameExceptMetadata compares two objects as the custom resource strategy does: everything
// but metadata.
func sameExceptMetadata(a, b map[string]any) bool {
	if len(a)-hasKey(a, "metadata") != len(b)-hasKey(b, "metadata") {
		return false
	}
	for k, v := range a {
		if k == "metadata" {
			continue
		}
		w, ok := b[k]
		if !ok || !unstructured.Equal(v, w) {
			return false
		}
	}
	return true
}

func hasKey(m map[string]any, k string) int {
	if _, ok := m[k]; ok {
		return 1
	}
	return 0
}

// notPortedMessage says that a built-in kind's validation is not predicted: the write may
// still be refused by the server.
func notPortedMessage(t *schema.Type, subresource string) string {
	what := t.GVK.APIVersion() + " " + t.GVK.Kind
	if subresource != "" {
		what += " (" + subresource + ")"
	}
	return "the validation of " + what + " is not predicted: the server may still refuse the write (422)"
}

// SemanticallyEqual compares two built-in objects, managedFields aside, once decoded into
// their Go type, as the store does before it writes (rules.md time.store-ignores-time-only);
// custom resources compare as JSON (false: the engine's comparison).
func (m *Model) SemanticallyEqual(t *schema.Type, a, b map[string]any) bool {
	if !m.builtinKnown(t) {
		return false
	}
	return m.defaults.Equal(t.GVK.APIVersion(), t.GVK.Kind, defaults.Semantic, unstructured.WithoutManagedFields(a), unstructured.WithoutManagedFields(b))
}

// ErrorGroup is the group a 422 names the kind with: an events.k8s.io Event is validated,
// and reported, as a core one.
func (m *Model) ErrorGroup(group, kind string) string { return validation.ErrorGroup(group, kind) }

// Hub is the version of a built-in kind served at several versions whose shape is its
// internal version (package internal/conversion); "" for every other kind.
func (m *Model) Hub(t *schema.Type) string {
	if t.Source != schema.SourceBuiltin {
		return ""
	}
	return conversion.Hub(t.GVK.Group, t.GVK.Kind)
}

// Convert converts a built-in object between the versions of its kind, as the server
// converts it through its internal version.
func (m *Model) Convert(obj map[string]any, apiVersion string) (map[string]any, error) {
	return conversion.Convert(m.server, obj, apiVersion)
}

// DecodeBody checks that a request body decodes into its Go type, as the server decodes a
// JSON body (the 400 it answers otherwise).
func (m *Model) DecodeBody(obj map[string]any) ([]string, error) {
	return conversion.DecodeBody(m.server, obj)
}

// MustNew is New for a configuration known to be valid: it panics where New fails.
func MustNew(cfg Config) *Model {
	m, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return m
}

// Minor is the Kubernetes minor the model predicts.
func (m *Model) Minor() kube.Minor { return m.cfg.Minor }

// writeDiffer is the Differ of one write's validation: it asks diff, and keeps what it
// could not print for the write to say.
type writeDiffer struct {
	diff   func(wire.Diff) (string, error)
	failed []string
}

// EphemeralContainers asks for the go-cmp diff of two ephemeral containers.
func (n *writeDiffer) EphemeralContainers(minor kube.Minor, old, new apicore.EphemeralContainer) (string, error) {
	d, err := n.print(minor, wire.EphemeralContainerType, old, new)
	if err != nil {
		n.failed = append(n.failed, fmt.Sprintf("the difference kube-apiserver %s prints in refusing a changed ephemeral container (go-cmp's cmp.Diff) is not predicted, the message is without it: %v", minor, err))
	}
	return d, err
}

func (n *writeDiffer) print(minor kube.Minor, typ string, old, new any) (string, error) {
	if n.diff == nil {
		return "", fmt.Errorf("no %s program is configured", wire.HelperName)
	}
	o, err := json.Marshal(old)
	if err != nil {
		return "", err
	}
	nw, err := json.Marshal(new)
	if err != nil {
		return "", err
	}
	return n.diff(wire.Diff{Minor: int(minor), Type: typ, Old: o, New: nw})
}

// failures are what it could not print; none for a nil writeDiffer.
func (n *writeDiffer) failures() []string {
	if n == nil {
		return nil
	}
	return n.failed
}
