package core

import "k8s.io/apimachinery/pkg/util/validation/field"

// What the validation of other groups (storage, node, discovery) calls with the server's
// names.

// NodeLabelDeprecatedMessage is the server's warning for a deprecated node label key, and
// whether the key is one (storage topologies, RuntimeClass node selectors).
func NodeLabelDeprecatedMessage(key string) (string, bool) {
	msg, ok := deprecatedNodeLabels()[key]
	return msg, ok
}

// ValidateEndpointIP refuses the addresses an endpoint cannot have (EndpointSlice
// addresses): unparsable, unspecified, loopback and link-local ones.
func ValidateEndpointIP(ip string, fldPath *field.Path) field.ErrorList {
	return validateEndpointIP(ip, fldPath)
}
