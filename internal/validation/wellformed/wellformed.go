package wellformed

import "strings"

// The lengths apimachinery allows (content.LabelValueMaxLength and the name part of a label
// key, DNS1123LabelMaxLength, DNS1123SubdomainMaxLength, TotalAnnotationSizeLimitB).
const (
	labelMaxLength        = 63
	dnsLabelMaxLength     = 63
	dnsSubdomainMaxLength = 253
	annotationsMaxSize    = 256 * 1024
)

// LabelKey reports whether content.IsLabelKey (validation.IsQualifiedName) accepts s: a
// name of at most 63 characters of ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], with an
// optional DNS-1123 subdomain and '/' before it.
func LabelKey(s string) bool { return labelKey(s, false) }

// labelKey is LabelKey, of s lowercased (ASCII only) when fold is set.
func labelKey(s string, fold bool) bool {
	name := s
	if i := strings.IndexByte(s, '/'); i >= 0 {
		name = s[i+1:]
		if strings.IndexByte(name, '/') >= 0 || !subdomain(s[:i], fold) {
			return false
		}
	}
	return len(name) <= labelMaxLength && labelName(name)
}

// LabelValue reports whether content.IsLabelValue accepts s: empty, or at most 63
// characters of ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
func LabelValue(s string) bool {
	return s == "" || len(s) <= labelMaxLength && labelName(s)
}

// labelName: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], of any length.
func labelName(s string) bool {
	if s == "" || !alphanumeric(s[0]) || !alphanumeric(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !alphanumeric(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// DNS1123Label reports whether IsDNS1123Label accepts s: at most 63 characters of
// [a-z0-9]([-a-z0-9]*[a-z0-9])?.
func DNS1123Label(s string) bool {
	return len(s) <= dnsLabelMaxLength && dnsLabel(s, false)
}

// DNS1123Subdomain reports whether IsDNS1123Subdomain accepts s: at most 253 characters of
// DNS-1123 labels (of any length) joined by dots.
func DNS1123Subdomain(s string) bool { return subdomain(s, false) }

func subdomain(s string, fold bool) bool {
	if len(s) > dnsSubdomainMaxLength {
		return false
	}
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return dnsLabel(s, fold)
		}
		if !dnsLabel(s[:i], fold) {
			return false
		}
		s = s[i+1:]
	}
}

// dnsLabel: [a-z0-9]([-a-z0-9]*[a-z0-9])?, of any length; capitals count as small letters
// when fold is set.
func dnsLabel(s string, fold bool) bool {
	if s == "" || !lowerAlphanumeric(s[0], fold) || !lowerAlphanumeric(s[len(s)-1], fold) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !lowerAlphanumeric(c, fold) && c != '-' {
			return false
		}
	}
	return true
}

// ConfigMapKey reports whether validation.IsConfigMapKey accepts s: 1 to 253 characters of
// [-._a-zA-Z0-9], neither "." nor starting with "..".
func ConfigMapKey(s string) bool {
	if s == "" || len(s) > dnsSubdomainMaxLength || s == "." || strings.HasPrefix(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alphanumeric(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// PortName reports whether validation.IsValidPortName accepts s: 1 to 15 characters of
// [-a-z0-9], at least one a letter, no "--", no '-' first or last.
func PortName(s string) bool {
	if s == "" || len(s) > 15 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z':
			letter = true
		case '0' <= c && c <= '9', c == '-':
		default:
			return false
		}
	}
	return letter
}

// Labels reports whether metav1validation.ValidateLabels finds nothing wrong with labels:
// every key a LabelKey, every value a LabelValue.
func Labels(labels map[string]string) bool {
	for k, v := range labels {
		if !LabelKey(k) || !LabelValue(v) {
			return false
		}
	}
	return true
}

// Annotations reports whether apimachinery's ValidateAnnotations finds nothing wrong with
// annotations: every key, lowercased, a LabelKey, and keys and values 256 KiB at most in
// all. A key with a byte outside ASCII is left to apimachinery (false): lowercased, some
// (the Kelvin sign) become ASCII letters.
func Annotations(annotations map[string]string) bool {
	size := 0
	for k, v := range annotations {
		if !ascii(k) || !labelKey(k, true) {
			return false
		}
		size += len(k) + len(v)
	}
	return size <= annotationsMaxSize
}

func alphanumeric(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func lowerAlphanumeric(c byte, fold bool) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || fold && 'A' <= c && c <= 'Z'
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
