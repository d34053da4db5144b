package resource

import (
	"fmt"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/cellib"
	"github.com/ssa-diff/ssa-diff/kube"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// The DRA environment of a selector a write adds. Of the device types the server declares,
// gate DRAConsumableCapacity (on from 1.36) selects the one with allowMultipleAllocations
// (k8s.io/dynamic-resource-allocation cel/compile.go: deviceTypeV134ConsumableCapacity, else
// deviceTypeV131); the default DRAListTypeAttributes (off) keeps attributes scalar and the
// lists library's includes, which comes with list attributes, out.
type draEnv struct {
	env *cel.Env
	// device is the device variable's type; attribute the type of one attribute's value.
	device, attribute *apiservercel.DeclType
}

// bounded is t with a known maximum size (string length, or one for a bool), which the cost
// estimate uses.
func bounded(t *apiservercel.DeclType, max int64) *apiservercel.DeclType {
	c := *t
	c.MaxElements = max
	return &c
}

// selectorEnvs are the environments of each supported minor without and with
// allowMultipleAllocations, built on first use (the table too).
var selectorEnvs = sync.OnceValue(func() map[int][2]func() (*draEnv, error) {
	m := map[int][2]func() (*draEnv, error){}
	for _, v := range kube.Minors() {
		m[int(v)] = [2]func() (*draEnv, error){
			sync.OnceValues(func() (*draEnv, error) { return newSelectorEnv(v, false) }),
			sync.OnceValues(func() (*draEnv, error) { return newSelectorEnv(v, true) }),
		}
	}
	return m
})

// selectorEnv is the environment of the server cfg describes.
func selectorEnv(cfg *serverconfig.Config) (*draEnv, error) {
	envs, ok := selectorEnvs()[int(cfg.Minor)]
	if !ok {
		return nil, fmt.Errorf("no CEL environment of DRA selectors for Kubernetes %s", cfg.Minor)
	}
	if cfg.Enabled(features.DRAConsumableCapacity) {
		return envs[1]()
	}
	return envs[0]()
}

func newSelectorEnv(server kube.Minor, multipleAllocations bool) (*draEnv, error) {
	base, err := cellib.Env(server, cellib.New)
	if err != nil {
		return nil, err
	}
	domain := bounded(apiservercel.StringType, api.DeviceMaxDomainLength)
	id := bounded(apiservercel.StringType, api.DeviceMaxIDLength)
	perDevice := int64(api.ResourceSliceMaxAttributesAndCapacitiesPerDevice)
	attribute := bounded(apiservercel.AnyType, api.DeviceAttributeMaxValueLength)
	attributes := apiservercel.NewMapType(domain, apiservercel.NewMapType(id, attribute, perDevice), perDevice)
	capacity := apiservercel.NewMapType(domain, apiservercel.NewMapType(id, apiservercel.QuantityDeclType, perDevice), perDevice)
	fields := map[string]*apiservercel.DeclField{}
	declared := []*apiservercel.DeclField{
		apiservercel.NewDeclField("driver", bounded(apiservercel.StringType, api.DriverNameMaxLength), true, nil, nil),
		apiservercel.NewDeclField("attributes", attributes, true, nil, nil),
		apiservercel.NewDeclField("capacity", capacity, true, nil, nil),
	}
	if multipleAllocations {
		declared = append(declared, apiservercel.NewDeclField("allowMultipleAllocations", bounded(apiservercel.BoolType, 1), true, nil, nil))
	}
	for _, f := range declared {
		fields[f.Name] = f
	}
	device := apiservercel.NewObjectType("kubernetes.DRADevice", fields)
	provider := apiservercel.NewDeclTypeProvider(device)
	provider.SetRecognizeKeywordAsFieldName(true)
	providerOpts, err := provider.EnvOptions(base.CELTypeProvider())
	if err != nil {
		return nil, err
	}
	opts := append([]cel.EnvOption{ext.Bindings(ext.BindingsVersion(0)), cel.Variable("device", device.CelType())}, providerOpts...)
	env, err := base.Extend(cellib.Bundle(opts, nil))
	if err != nil {
		return nil, err
	}
	return &draEnv{env: env, device: device, attribute: attribute}, nil
}

// validateSelectorExpression is the server's check of a selector expression it has not
// stored yet: its length, that it compiles to a bool (or an attribute value), and its
// estimated cost.
func validateSelectorExpression(cfg *serverconfig.Config, expr string, fldPath *field.Path) field.ErrorList {
	if len(expr) > api.CELSelectorExpressionMaxLength {
		return field.ErrorList{field.TooLong(fldPath, "", api.CELSelectorExpressionMaxLength)}
	}
	e, err := selectorEnv(cfg)
	if err != nil {
		return field.ErrorList{field.InternalError(fldPath, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("unexpected error loading CEL environment: %v", err)})}
	}
	ast, issues := e.env.Compile(expr)
	if issues != nil {
		return field.ErrorList{field.Invalid(fldPath, expr, "compilation failed: "+cellib.IssuesText(cfg.Minor, issues))}
	}
	out := ast.OutputType()
	if !out.IsExactType(cel.BoolType) && !out.IsExactType(e.attribute.CelType()) {
		return field.ErrorList{field.Invalid(fldPath, expr, fmt.Sprintf("must evaluate to %v or the unknown type, not %v", cel.BoolType.String(), out.String()))}
	}
	est, err := e.env.EstimateCost(ast, &cellib.Estimator{Sizes: deviceSizes{e}, Server: cfg.Minor})
	if err != nil {
		return field.ErrorList{field.InternalError(fldPath, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "cost estimation failed: " + err.Error()})}
	}
	if est.Max > api.CELSelectorExpressionMaxCost {
		return field.ErrorList{field.Forbidden(fldPath, "too complex, exceeds cost limit")}
	}
	return nil
}

// deviceSizes gives the cost estimate the largest size of what an expression reaches
// through the device variable: the declared bound of the field, map or value at the end
// of its path.
type deviceSizes struct{ e *draEnv }

func (s deviceSizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	path := n.Path()
	if len(path) == 0 || path[0] != "device" {
		return nil
	}
	t := s.e.device
	for _, step := range path[1:] {
		switch step {
		case "@items", "@values":
			if t.ElemType == nil {
				return nil
			}
			t = t.ElemType
		case "@keys":
			if t.KeyType == nil {
				return nil
			}
			t = t.KeyType
		default:
			f, ok := t.Fields[step]
			switch {
			case ok && f.Type != nil:
				t = f.Type
			case !ok && t.ElemType == s.e.attribute:
				// An attribute selected by name from a domain's map.
				t = s.e.attribute
			default:
				return nil
			}
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(t.MaxElements)}
}

func (deviceSizes) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}
