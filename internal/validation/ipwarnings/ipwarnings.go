// Package ipwarnings is the warnings kube-apiserver gives for IP addresses and CIDRs written
// in non-standard forms (leading zeros, IPv4-mapped IPv6) that a field parsed the legacy way
// still accepts: k8s.io/apimachinery's GetWarningsForIP and GetWarningsForCIDR, worded as
// the server's release words them.
package ipwarnings

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The wording of a non-standard form's warning: Kubernetes 1.36 (apimachinery v0.36) says
// the form "is invalid"; 1.34 and 1.35 said it "will be considered invalid in a future
// Kubernetes release" (pkg/util/validation/ip.go GetWarningsForIP, GetWarningsForCIDR).
const (
	invalid       = " is invalid: use "
	futureInvalid = " will be considered invalid in a future Kubernetes release: use "
)

// IP is GetWarningsForIP on the server cfg describes.
func IP(cfg *serverconfig.Config, fldPath *field.Path, value string) []string {
	return worded(cfg, validation.GetWarningsForIP(fldPath, value))
}

// CIDR is GetWarningsForCIDR on the server cfg describes.
func CIDR(cfg *serverconfig.Config, fldPath *field.Path, value string) []string {
	return worded(cfg, validation.GetWarningsForCIDR(fldPath, value))
}

func worded(cfg *serverconfig.Config, warnings []string) []string {
	if cfg.AtLeast(36) {
		return warnings
	}
	for i, w := range warnings {
		// The suggested form follows the wording; the value quoted before it cannot hold it.
		if j := strings.LastIndex(w, invalid); j >= 0 {
			warnings[i] = w[:j] + futureInvalid + w[j+len(invalid):]
		}
	}
	return warnings
}
