package kubeapiserver

import (
	"slices"
	"testing"
)

// ParseServiceIPFamilies reads --service-ip-families: one or two families, IPv4 or IPv6,
// the primary first, never one twice (rules.md valid.service-ip-families).
func TestParseServiceIPFamilies(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"IPv4", []string{"IPv4"}},
		{"IPv6", []string{"IPv6"}},
		{"IPv4,IPv6", []string{"IPv4", "IPv6"}},
		{"IPv6, IPv4", []string{"IPv6", "IPv4"}},
		{"", nil},
		{"ipv4", nil},
		{"IPv4,IPv4", nil},
		{"IPv4,IPv6,IPv4", nil},
		{"IPv4,", nil},
	} {
		got, err := ParseServiceIPFamilies(c.in)
		if c.want == nil {
			if err == nil {
				t.Errorf("%q: got %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, %v, want %v", c.in, got, err, c.want)
		}
	}
}
