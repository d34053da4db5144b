package resource

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"

	"github.com/google/uuid"
	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The group's name rules: devices, requests and counters are DNS labels, device classes DNS
// subdomains.
var (
	validateDeviceName      = core.ValidateDNS1123Label
	validateDeviceClassName = core.ValidateDNS1123Subdomain
	validateRequestName     = core.ValidateDNS1123Label
	validateCounterName     = core.ValidateDNS1123Label
)

// driverCover says which errors of a driver name a beta declarative rule also reports.
type driverCover struct{ required, size, format bool }

// coveredDriver: every error of the driver name is covered.
var coveredDriver = driverCover{true, true, true}

// validateDriverName: a driver is named as a CSI driver is, a DNS subdomain in any case of
// at most 63 characters.
func validateDriverName(cfg *serverconfig.Config, name string, fldPath *field.Path, cover driverCover) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		e := field.Required(fldPath, "")
		if cover.required {
			e = e.MarkCoveredByDeclarative()
		}
		if cfg.AtLeast(35) {
			return field.ErrorList{e}
		}
		// Kubernetes 1.35 stopped checking an empty name further; 1.34 went on, and the
		// empty name failed the DNS check too (core ValidateCSIDriverName in 1.34).
		errs = append(errs, e)
	}
	if len(name) > 63 {
		e := field.TooLong(fldPath, "", 63)
		if cover.size {
			e = e.WithOrigin("maxLength").MarkCoveredByDeclarative()
		}
		errs = append(errs, e)
	}
	for _, msg := range wellformed.IsDNS1123Subdomain(strings.ToLower(name)) {
		e := field.Invalid(fldPath, name, msg)
		if cover.format {
			e = e.WithOrigin("format=k8s-long-name-caseless").MarkCoveredByDeclarative()
		}
		errs = append(errs, e)
	}
	return errs
}

// validatePoolName: a pool name is required, at most 253 characters of DNS subdomains
// separated by slashes.
func validatePoolName(cfg *serverconfig.Config, name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var errs field.ErrorList
	if len(name) > api.PoolNameMaxLength {
		errs = append(errs, field.TooLong(fldPath, "", api.PoolNameMaxLength).WithOrigin("format=k8s-resource-pool-name"))
	}
	for _, part := range strings.Split(name, "/") {
		errs = append(errs, core.ValidateDNS1123Subdomain(part, fldPath).WithOrigin("format=k8s-resource-pool-name")...)
	}
	return errs
}

// validateUID: a UID in the normalized RFC 4122 form.
func validateUID(cfg *serverconfig.Config, uid string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if err := uuid.Validate(uid); err != nil {
		errs = append(errs, field.Invalid(fldPath, uid, fmt.Sprintf("error validating uid: %v", err)))
	} else if len(uid) != 36 || uid != strings.ToLower(uid) {
		errs = append(errs, field.Invalid(fldPath, uid, "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters"))
	}
	return errs.WithOrigin("format=k8s-uuid")
}

// validateQualifiedName: a C identifier, optionally preceded by a driver-name domain and a
// slash. (The server accepts more than one slash: it checks the first two parts only.)
func validateQualifiedName(cfg *serverconfig.Config, name api.QualifiedName, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	// Kubernetes 1.35 made the empty parts Invalid and left an empty name to the C
	// identifier's check; 1.34 answered them Required (pkg/apis/resource/validation/
	// validation.go validateQualifiedName in 1.34).
	empty := func(detail string) *field.Error {
		if !cfg.AtLeast(35) {
			return field.Required(fldPath, detail)
		}
		return field.Invalid(fldPath, "", detail)
	}
	if name == "" && !cfg.AtLeast(35) {
		return field.ErrorList{field.Required(fldPath, "name required")}
	}
	parts := strings.Split(string(name), "/")
	switch len(parts) {
	case 1:
		errs = append(errs, validateCIdentifier(cfg, parts[0], fldPath)...)
	case 2:
		if parts[0] == "" {
			errs = append(errs, empty("the domain must not be empty"))
		} else {
			errs = append(errs, validateDriverName(cfg, parts[0], fldPath, driverCover{})...)
		}
		if parts[1] == "" {
			errs = append(errs, empty("the name must not be empty"))
		} else {
			errs = append(errs, validateCIdentifier(cfg, parts[1], fldPath)...)
		}
	}
	return errs
}

// validateFullyQualifiedName: a qualified name that has its domain.
func validateFullyQualifiedName(cfg *serverconfig.Config, name api.FullyQualifiedName, fldPath *field.Path) field.ErrorList {
	errs := validateQualifiedName(cfg, api.QualifiedName(name), fldPath)
	switch {
	case !cfg.AtLeast(35):
		// 1.34's words, and no second error for an empty name.
		if name != "" && !strings.Contains(string(name), "/") {
			errs = append(errs, field.Invalid(fldPath, name, "must include a domain"))
		}
	case !strings.Contains(string(name), "/"):
		errs = append(errs, field.Invalid(fldPath, name, "a fully qualified name must be a domain and a name separated by a slash"))
	}
	return errs.WithOrigin("format=k8s-resource-fully-qualified-name")
}

// validateCIdentifier: a C identifier of at most 32 characters.
func validateCIdentifier(cfg *serverconfig.Config, id string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(id) > api.DeviceMaxIDLength {
		errs = append(errs, field.TooLong(fldPath, "", api.DeviceMaxIDLength))
	}
	for _, msg := range content.IsCIdentifier(id) {
		errs = append(errs, field.Invalid(fldPath, id, msg))
	}
	return errs
}

// validateLabelValue: a label value (the server's own loop: no origin).
func validateLabelValue(cfg *serverconfig.Config, value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsValidLabelValue(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	return errs
}
