package validation

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/api"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/admissionregistration"
	"github.com/ssa-diff/ssa-diff/internal/validation/apiregistration"
	"github.com/ssa-diff/ssa-diff/internal/validation/apps"
	"github.com/ssa-diff/ssa-diff/internal/validation/autoscaling"
	"github.com/ssa-diff/ssa-diff/internal/validation/batch"
	"github.com/ssa-diff/ssa-diff/internal/validation/certificates"
	"github.com/ssa-diff/ssa-diff/internal/validation/coordination"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/discovery"
	"github.com/ssa-diff/ssa-diff/internal/validation/flowcontrol"
	"github.com/ssa-diff/ssa-diff/internal/validation/networking"
	"github.com/ssa-diff/ssa-diff/internal/validation/node"
	"github.com/ssa-diff/ssa-diff/internal/validation/objectmeta"
	"github.com/ssa-diff/ssa-diff/internal/validation/policy"
	"github.com/ssa-diff/ssa-diff/internal/validation/rbac"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/scheduling"
	"github.com/ssa-diff/ssa-diff/internal/validation/storage"
	"github.com/ssa-diff/ssa-diff/internal/validation/storagemigration"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Result is what the registry's validation says of a write.
type Result struct {
	// Errors, when there are any, refuse the write (422 Invalid), in the server's order.
	Errors field.ErrorList
	// Warnings are the server's warnings for the write.
	Warnings []string
	// Known is false when the kind's validation is not ported: nothing was checked.
	Known bool
	// CannotPredict says what the server also checks against state of the cluster that no
	// prediction can see (registry.Strategy.CannotPredict): the write may be refused for it.
	CannotPredict []string
}

// Validate runs the registry's validation of a write of a built-in kind: obj is the object
// about to be stored, old the stored object on an update (nil on a create), both as the
// JSON of the served version apiVersion; subresource is "" or "status" ("scale" writes the
// parent through the main resource). An error means an object could not be decoded into
// its internal type.
func Validate(cfg *serverconfig.Config, apiVersion, kind, subresource string, obj, old map[string]any) (Result, error) {
	return validate(cfg, apiVersion, kind, subresource, obj, old, false)
}

// ValidateWrite is Validate preceded by what the kind's REST storage does before the
// registry validates (a Service's allocator: the values it assigns, the checks it makes
// first, for the families of cfg's service IP ranges). The engine predicts writes with
// it; Validate alone is the strategy's part.
func ValidateWrite(cfg *serverconfig.Config, apiVersion, kind, subresource string, obj, old map[string]any) (Result, error) {
	return validate(cfg, apiVersion, kind, subresource, obj, old, true)
}

// validate is Validate, preceded by the REST storage's part when storage is true.
func validate(cfg *serverconfig.Config, apiVersion, kind, subresource string, obj, old map[string]any, storage bool) (res Result, err error) {
	defer func() { res = laidOut(cfg, worded(cfg, res)) }()
	defer func() {
		// A validator panics with registry.ServerPanic where the server's own validation
		// panics, with registry.NotPredicted where the answer depends on the cluster; any
		// other panic is a bug of ours, reported rather than crashing.
		if r := recover(); r != nil {
			if p, ok := r.(registry.ServerPanic); ok {
				res, err = Result{}, p
				return
			}
			if p, ok := r.(registry.NotPredicted); ok {
				res, err = Result{}, p
				return
			}
			res, err = Result{}, fmt.Errorf("validating %s %s: %v", apiVersion, kind, r)
		}
	}()
	group, version := splitAPIVersion(apiVersion)
	s := strategyFor(cfg, group, kind)
	if s == nil || (subresource == "status" && old != nil && s.ValidateStatusUpdate == nil) || (subresource == "resize" && s.ValidateResizeUpdate == nil) ||
		(subresource == "ephemeralcontainers" && s.ValidateEphemeralContainersUpdate == nil) {
		return Result{}, nil
	}
	newObj, err := decode(group, version, kind, obj)
	if err != nil || newObj == nil {
		return Result{}, err
	}
	res = Result{Known: true}
	var oldObj any
	if old != nil {
		if oldObj, err = decode(group, version, kind, old); err != nil {
			return Result{}, fmt.Errorf("the stored object: %w", err)
		}
	}
	if storage && subresource == "" && s.BeginWrite != nil {
		if res.Errors = s.BeginWrite(newObj, oldObj); len(res.Errors) > 0 {
			return res, nil
		}
		if s.CannotPredict != nil {
			res.CannotPredict = s.CannotPredict(newObj, oldObj)
		}
	}
	if old == nil {
		res.Errors = registry.ValidateCreate(cfg, s, newObj)
		if len(res.Errors) == 0 && s.WarningsOnCreate != nil {
			res.Warnings = objectmeta.Warnings(cfg, s.WarningsOnCreate(newObj))
		}
		return res, nil
	}
	res.Errors = registry.ValidateUpdate(cfg, s, newObj, oldObj, subresource)
	warnings := s.WarningsOnUpdate
	switch subresource {
	case "status":
		warnings = s.WarningsOnStatusUpdate
	case "resize", "ephemeralcontainers":
		warnings = nil // the resize and ephemeral containers strategies warn of nothing
	}
	if len(res.Errors) == 0 && warnings != nil {
		res.Warnings = objectmeta.Warnings(cfg, warnings(newObj, oldObj))
	}
	return res, nil
}

// ErrorGroup is the group the server names a kind with in its 422 message: the group of the
// first API group its scheme registered the kind's internal type under. That is the
// kind's own group but for an events.k8s.io Event, whose internal type is the core
// group's Event ("Event \"x\" is invalid", not "Event.events.k8s.io").
func ErrorGroup(group, kind string) string {
	if group == "events.k8s.io" && kind == "Event" {
		return ""
	}
	return group
}

// strategyFor is the ported strategy of a kind, nil when there is none.
func strategyFor(cfg *serverconfig.Config, group, kind string) *registry.Strategy {
	switch group {
	case "":
		return core.Strategy(cfg, kind)
	case "events.k8s.io":
		return core.EventsStrategy(cfg, kind)
	case "apps":
		return apps.Strategy(cfg, kind)
	case "batch":
		return batch.Strategy(cfg, kind)
	case "autoscaling":
		return autoscaling.Strategy(cfg, kind)
	case "policy":
		return policy.Strategy(cfg, kind)
	case "admissionregistration.k8s.io":
		return admissionregistration.Strategy(cfg, kind)
	case "flowcontrol.apiserver.k8s.io":
		return flowcontrol.Strategy(cfg, kind)
	case "certificates.k8s.io":
		return certificates.Strategy(cfg, kind)
	case "apiregistration.k8s.io":
		return apiregistration.Strategy(cfg, kind)
	case "storagemigration.k8s.io":
		return storagemigration.Strategy(cfg, kind)
	case "networking.k8s.io":
		return networking.Strategy(cfg, kind)
	case "rbac.authorization.k8s.io":
		return rbac.Strategy(cfg, kind)
	case "storage.k8s.io":
		return storage.Strategy(cfg, kind)
	case "scheduling.k8s.io":
		return scheduling.Strategy(cfg, kind)
	case "node.k8s.io":
		return node.Strategy(cfg, kind)
	case "discovery.k8s.io":
		return discovery.Strategy(cfg, kind)
	case "coordination.k8s.io":
		return coordination.Strategy(cfg, kind)
	case "resource.k8s.io":
		return resource.Strategy(cfg, kind)
	}
	return nil
}

// decode is obj as the kind's internal type, without the fields of its own managedFields
// entries, which no validation reads (api.DecodeToValidate).
func decode(group, version, kind string, obj map[string]any) (any, error) {
	out := api.New(group, version, kind)
	if out == nil {
		return nil, nil
	}
	if err := api.DecodeToValidate(obj, out); err != nil {
		return nil, err
	}
	return out, nil
}

func splitAPIVersion(apiVersion string) (group, version string) {
	if g, v, ok := strings.Cut(apiVersion, "/"); ok {
		return g, v
	}
	return "", apiVersion
}

// WithoutPrivilegedPolicy returns errs without the errors only a server run with
// kube-apiserver's --allow-privileged=false reports (privileged and hostProcess
// containers): the answer of a server run with --allow-privileged=true, as most clusters
// are. No other rule depends on the flag.
func WithoutPrivilegedPolicy(errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if !core.IsPrivilegedPolicyError(e) {
			out = append(out, e)
		}
	}
	return out
}
