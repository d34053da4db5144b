package core

import (
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// IsValidIPForLegacyField checks an IP address of a field that predates strict parsing, as
// the server cfg does (pkg/apis/core/validation/validation.go IsValidIPForLegacyField):
// with StrictIPCIDRValidation on (1.36 on), a new value may not have leading zeros or an
// IPv4-mapped IPv6 form; values the stored object already had are kept. With it off
// (1.34, 1.35) they are accepted, and the warnings say they are not canonical.
func IsValidIPForLegacyField(cfg *serverconfig.Config, fldPath *field.Path, value string, validOldIPs []string) field.ErrorList {
	return validation.IsValidIPForLegacyField(fldPath, value, cfg.Enabled(features.StrictIPCIDRValidation), validOldIPs)
}

// IsValidCIDRForLegacyField is IsValidIPForLegacyField for a CIDR value.
func IsValidCIDRForLegacyField(cfg *serverconfig.Config, fldPath *field.Path, value string, validOldCIDRs []string) field.ErrorList {
	return validation.IsValidCIDRForLegacyField(fldPath, value, cfg.Enabled(features.StrictIPCIDRValidation), validOldCIDRs)
}
