package differential

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
)

// Engine is the engine under test, ssa-diff's merge.Engine, on the embedded schema plus
// the Widget CRD, with server hooks that do nothing (the oracle runs no defaulting and no
// registry rules either).
type Engine struct {
	e *merge.Engine
}

// NewEngine builds the engine under test at a minor: that minor's schemas, Go types and
// conversions, as the oracle of that minor (InProcessMinor in-process, the others as a
// process, see Oracles) links them.
func NewEngine(minor kube.Minor) (*Engine, error) {
	reg, err := schema.NewRegistry(minor)
	if err != nil {
		return nil, fmt.Errorf("the schemas of %s: %w", minor, err)
	}
	if err := reg.AddCRD("widgets.yaml", widgetsCRD); err != nil {
		return nil, fmt.Errorf("adding the Widget CRD: %w", err)
	}
	cfg, err := serverconfig.For(minor)
	if err != nil {
		return nil, fmt.Errorf("the server configuration of %s: %w", minor, err)
	}
	types, ok := defaults.For(minor)
	if !ok {
		return nil, fmt.Errorf("no Go types generated for %s", minor)
	}
	h := noHooks{FieldManagementOnly: server.FieldManagementOnly{Kubernetes: minor}, cfg: cfg, types: types}
	return &Engine{e: merge.New(reg, h)}, nil
}

// InProcessMinor is the minor of the field manager this module links in-process
// (k8s.io/apiserver of its go.mod).
const InProcessMinor = kube.Minor(37)

// noHooks is the server without registry rules (but the reset fields, which
// server.FieldManagementOnly restores) and without the defaulting of built-in kinds (Go
// code the oracle does not run either; their objects are only checked to decode), converting the kinds served at several versions as
// the server's scheme does; custom resources get their CRD's structural defaults, as the
// oracle decodes them with apiextensions' own code. A create starts from apiVersion and
// kind alone, as the oracle's object creater makes it.
type noHooks struct {
	server.FieldManagementOnly
	cfg   *serverconfig.Config
	types defaults.Release
}

func (h noHooks) Default(t *schema.Type, obj map[string]any) error {
	if t.Source == schema.SourceBuiltin {
		return h.decodes(t, obj)
	}
	if t.Default != nil {
		t.Default(obj)
	}
	return nil
}

// decodes refuses a built-in object that its Go type does not decode (a quantity "10%", an
// int-or-string true), with the error the product's model gives (internal/defaults'
// decoding, whose Refusal words it as the server does), leaving obj as it is: the oracle
// decodes every built-in object it stores, as the server does, but runs no defaulting.
func (h noHooks) decodes(t *schema.Type, obj map[string]any) error {
	av, kind := t.GVK.APIVersion(), t.GVK.Kind
	if !h.types.Known(av, kind) {
		return nil
	}
	return h.types.Normalize(av, kind, unstructured.DeepCopyObject(obj))
}

// DefaultOwned is Default: the custom resource's defaults are written in place either way.
func (h noHooks) DefaultOwned(t *schema.Type, obj map[string]any) error { return h.Default(t, obj) }

// DefaultApplied is Default for an apply's merged object: a custom resource gets its
// CRD's structural defaults keeping the nulls its schema does not allow, as
// apiextensions-apiserver defaults the merged object without decoding it.
func (h noHooks) DefaultApplied(t *schema.Type, obj map[string]any) error {
	if t.Source != schema.SourceBuiltin && t.DefaultKeepingNulls != nil {
		t.DefaultKeepingNulls(obj)
		return nil
	}
	return h.Default(t, obj)
}

// ReadStored reads a custom resource as apiextensions-apiserver decodes it from storage,
// without the nulls its schema does not allow (the oracle answers with the object read
// back); a built-in object as given.
func (noHooks) ReadStored(t *schema.Type, obj map[string]any) map[string]any {
	if t.Source == schema.SourceBuiltin {
		return obj
	}
	return t.ReadNulls(obj)
}

func (h noHooks) EmptyObject(t *schema.Type) map[string]any {
	if t.Source == schema.SourceBuiltin && conversion.Versions(t.GVK.Group, t.GVK.Kind) != nil {
		// A kind the oracle serves with the server's scheme: its creater makes the Go
		// zero value, as the server's does.
		if obj, ok := h.types.EmptyObject(t.GVK.APIVersion(), t.GVK.Kind); ok {
			return obj
		}
	}
	return map[string]any{"apiVersion": t.GVK.APIVersion(), "kind": t.GVK.Kind}
}

// SemanticallyEqual compares built-in objects decoded into their Go types, as the store
// does before it writes (the oracle's store keeps times when only they changed).
func (h noHooks) SemanticallyEqual(t *schema.Type, a, b map[string]any) bool {
	av, kind := t.GVK.APIVersion(), t.GVK.Kind
	if t.Source != schema.SourceBuiltin || !h.types.Known(av, kind) {
		return false
	}
	return h.types.Equal(av, kind, defaults.Semantic, unstructured.WithoutManagedFields(a), unstructured.WithoutManagedFields(b))
}

// Validate refuses nothing: the oracle runs no validation.
func (noHooks) Validate(*schema.Type, string, map[string]any, map[string]any) server.Validation {
	return server.Validation{}
}

// Hub, Convert and DecodeBody are the server's scheme's conversion, which the oracle runs.
func (noHooks) Hub(t *schema.Type) string {
	if t.Source != schema.SourceBuiltin {
		return ""
	}
	return conversion.Hub(t.GVK.Group, t.GVK.Kind)
}

func (h noHooks) Convert(obj map[string]any, apiVersion string) (map[string]any, error) {
	return conversion.Convert(h.cfg, obj, apiVersion)
}

func (h noHooks) DecodeBody(obj map[string]any) ([]string, error) {
	return conversion.DecodeBody(h.cfg, obj)
}

func (e *Engine) request(req oracle.Request) merge.Request {
	src := req.Live
	if src == nil {
		src = req.Object
	}
	md, _ := src["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	return merge.Request{
		Live:   req.Live,
		Object: req.Object,
		Endpoint: merge.Endpoint{
			GVK:       schema.GVK{Group: req.GVK.Group, Version: req.GVK.Version, Kind: req.GVK.Kind},
			Namespace: ns, Name: name, Subresource: req.Subresource,
		},
		Manager: req.Manager,
		Force:   req.Force,
		Now:     req.Now,
	}
}

// Apply implements Predictor.
func (e *Engine) Apply(req oracle.Request) (oracle.Response, error) {
	res, err := e.e.Apply(e.request(req))
	return response(res, err)
}

// Update implements Predictor.
func (e *Engine) Update(req oracle.Request) (oracle.Response, error) {
	res, err := e.e.Update(e.request(req))
	return response(res, err)
}

func response(res *merge.Result, err error) (oracle.Response, error) {
	if err != nil {
		return oracle.Response{}, err
	}
	if s := res.Rejection; s != nil {
		st := &oracle.Status{Code: s.Code, Reason: s.Reason, Message: s.Message}
		if s.Details != nil {
			for _, c := range s.Details.Causes {
				st.Causes = append(st.Causes, oracle.Cause{Reason: c.Reason, Message: c.Message, Field: c.Field})
			}
		}
		return oracle.Response{Error: st}, nil
	}
	return oracle.Response{Object: res.Object}, nil
}
