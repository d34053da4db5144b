package core

import (
	"fmt"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateLimitRange checks a LimitRange, on create and update alike: each limit's type
// (once), its resource names, and that its bounds are in order — min ≤ default request ≤
// default ≤ max, and a limit/request ratio between 1 and max/min. (A LimitRange created
// without a name gets a generated one: PrepareForCreate.)
func ValidateLimitRange(lr *api.LimitRange) field.ErrorList {
	errs := ValidateObjectMeta(&lr.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	types := map[api.LimitType]bool{}
	for i := range lr.Spec.Limits {
		p := field.NewPath("spec", "limits").Index(i)
		limit := &lr.Spec.Limits[i]
		errs = append(errs, limitRangeType(limit.Type, p.Child("type"))...)
		if types[limit.Type] {
			errs = append(errs, field.Duplicate(p.Child("type"), limit.Type))
		}
		types[limit.Type] = true

		// Every resource named anywhere in the limit, and its quantity in each list.
		keys := map[string]bool{}
		collect := func(list api.ResourceList, name string) map[string]resource.Quantity {
			out := map[string]resource.Quantity{}
			for k, q := range list {
				errs = append(errs, limitRangeResourceName(limit.Type, k, p.Child(name).Key(string(k)))...)
				keys[string(k)] = true
				out[string(k)] = q
			}
			return out
		}
		maxes := collect(limit.Max, "max")
		mins := collect(limit.Min, "min")
		var defaults, defaultRequests map[string]resource.Quantity
		if limit.Type == api.LimitTypePod {
			const detail = "may not be specified when `type` is 'Pod'"
			if len(limit.Default) > 0 {
				errs = append(errs, field.Forbidden(p.Child("default"), detail))
			}
			if len(limit.DefaultRequest) > 0 {
				errs = append(errs, field.Forbidden(p.Child("defaultRequest"), detail))
			}
		} else {
			defaults = collect(limit.Default, "default")
			defaultRequests = collect(limit.DefaultRequest, "defaultRequest")
		}
		if limit.Type == api.LimitTypePersistentVolumeClaim {
			_, min := limit.Min[api.ResourceStorage]
			_, max := limit.Max[api.ResourceStorage]
			if !min && !max {
				errs = append(errs, field.Required(p.Child("limits"), "either minimum or maximum storage value is required, but neither was provided"))
			}
		}
		ratios := collect(limit.MaxLimitRequestRatio, "maxLimitRequestRatio")

		for k := range keys {
			min, hasMin := mins[k]
			max, hasMax := maxes[k]
			def, hasDef := defaults[k]
			req, hasReq := defaultRequests[k]
			ratio, hasRatio := ratios[k]
			if hasMin && hasMax && min.Cmp(max) > 0 {
				errs = append(errs, field.Invalid(p.Child("min").Key(k), min, fmt.Sprintf("min value %s is greater than max value %s", min.String(), max.String())))
			}
			if hasReq && hasMin && min.Cmp(req) > 0 {
				errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(k), req, fmt.Sprintf("min value %s is greater than default request value %s", min.String(), req.String())))
			}
			if hasReq && hasMax && req.Cmp(max) > 0 {
				errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(k), req, fmt.Sprintf("default request value %s is greater than max value %s", req.String(), max.String())))
			}
			if hasReq && hasDef && req.Cmp(def) > 0 {
				errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(k), req, fmt.Sprintf("default request value %s is greater than default limit value %s", req.String(), def.String())))
			}
			if hasDef && hasMin && min.Cmp(def) > 0 {
				errs = append(errs, field.Invalid(p.Child("default").Key(k), min, fmt.Sprintf("min value %s is greater than default value %s", min.String(), def.String())))
			}
			if hasDef && hasMax && def.Cmp(max) > 0 {
				// The server prints the max here, not the default.
				errs = append(errs, field.Invalid(p.Child("default").Key(k), max, fmt.Sprintf("default value %s is greater than max value %s", def.String(), max.String())))
			}
			if hasRatio && ratio.Cmp(*resource.NewQuantity(1, resource.DecimalSI)) < 0 {
				errs = append(errs, field.Invalid(p.Child("maxLimitRequestRatio").Key(k), ratio, fmt.Sprintf("ratio %s is less than 1", ratio.String())))
			}
			if hasRatio && hasMin && hasMax {
				// Compared in thousandths when every value allows it, else in units.
				r, lo, hi := float64(ratio.Value()), min.Value(), max.Value()
				if ratio.Value() < resource.MaxMilliValue && lo < resource.MaxMilliValue && hi < resource.MaxMilliValue {
					r, lo, hi = float64(ratio.MilliValue())/1000, min.MilliValue(), max.MilliValue()
				}
				if bound := float64(hi) / float64(lo); r > bound {
					errs = append(errs, field.Invalid(p.Child("maxLimitRequestRatio").Key(k), ratio, fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), bound)))
				}
			}
			// Resources that cannot be overcommitted (hugepages, extended ones) need the
			// default request and the default to be equal.
			if !isOvercommitAllowed(api.ResourceName(k)) && hasDef && hasReq && def.Cmp(req) != 0 {
				errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(k), req, fmt.Sprintf("default value %s must equal to defaultRequest value %s in %s", def.String(), req.String(), k)))
			}
		}
	}
	return errs
}

// limitRangeType: a qualified name, and Pod, Container or PersistentVolumeClaim unless it
// has a domain prefix.
func limitRangeType(t api.LimitType, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsQualifiedName(string(t)) {
		errs = append(errs, field.Invalid(fldPath, t, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	if !strings.Contains(string(t), "/") {
		switch t {
		case api.LimitTypePod, api.LimitTypeContainer, api.LimitTypePersistentVolumeClaim:
		default:
			errs = append(errs, field.Invalid(fldPath, t, "must be a standard limit type or fully qualified"))
		}
	}
	return errs
}

// limitRangeResourceName: container resources for Pod and Container limits, any resource
// name for the others (storage, for claims).
func limitRangeResourceName(t api.LimitType, name api.ResourceName, fldPath *field.Path) field.ErrorList {
	if t == api.LimitTypePod || t == api.LimitTypeContainer {
		return ValidateContainerResourceName(name, fldPath)
	}
	return validateResourceName(name, fldPath)
}
