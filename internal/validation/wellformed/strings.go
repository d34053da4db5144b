package wellformed

import "k8s.io/apimachinery/pkg/util/validation"

// The checks of k8s.io/apimachinery/pkg/util/validation a validator calls on a string and
// ranges over the messages of: each is that function, which runs only when the value is not
// well formed (nil otherwise, as the function answers it).

// IsDNS1123Label is validation.IsDNS1123Label.
func IsDNS1123Label(value string) []string {
	if DNS1123Label(value) {
		return nil
	}
	return validation.IsDNS1123Label(value)
}

// IsDNS1123Subdomain is validation.IsDNS1123Subdomain.
func IsDNS1123Subdomain(value string) []string {
	if DNS1123Subdomain(value) {
		return nil
	}
	return validation.IsDNS1123Subdomain(value)
}

// IsQualifiedName is validation.IsQualifiedName (content.IsLabelKey).
func IsQualifiedName(value string) []string {
	if LabelKey(value) {
		return nil
	}
	return validation.IsQualifiedName(value)
}

// IsValidLabelValue is validation.IsValidLabelValue (content.IsLabelValue).
func IsValidLabelValue(value string) []string {
	if LabelValue(value) {
		return nil
	}
	return validation.IsValidLabelValue(value)
}

// IsConfigMapKey is validation.IsConfigMapKey.
func IsConfigMapKey(value string) []string {
	if ConfigMapKey(value) {
		return nil
	}
	return validation.IsConfigMapKey(value)
}

// IsValidPortName is validation.IsValidPortName.
func IsValidPortName(value string) []string {
	if PortName(value) {
		return nil
	}
	return validation.IsValidPortName(value)
}
