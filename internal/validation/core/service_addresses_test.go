package core

import (
	"strings"
	"testing"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// A cluster IP asked for by address is the allocator's to take or refuse, against the
// service ranges and the addresses other Services hold, none of which a prediction sees:
// each one a write asks for anew is named; addresses the stored Service already holds,
// None, and ExternalName Services are not.
func TestServiceRequestedAddresses(t *testing.T) {
	svc := func(typ api.ServiceType, ips ...string) *api.Service {
		s := &api.Service{}
		s.Spec.Type, s.Spec.ClusterIPs = typ, ips
		if len(ips) > 0 {
			s.Spec.ClusterIP = ips[0]
		}
		return s
	}
	for _, c := range []struct {
		name     string
		svc, old *api.Service
		want     []string // the addresses named
	}{
		{"create, one address", svc(api.ServiceTypeClusterIP, "10.96.0.10"), nil, []string{`spec.clusterIPs[0] "10.96.0.10"`}},
		{"create, dual-stack", svc(api.ServiceTypeClusterIP, "10.96.0.10", "fd00:10:96::a"), nil, []string{`spec.clusterIPs[0] "10.96.0.10"`, `spec.clusterIPs[1] "fd00:10:96::a"`}},
		{"create, allocated by the server", svc(api.ServiceTypeClusterIP), nil, nil},
		{"headless", svc(api.ServiceTypeClusterIP, "None"), nil, nil},
		{"ExternalName", svc(api.ServiceTypeExternalName, "10.96.0.10"), nil, nil},
		{"update keeping its address", svc(api.ServiceTypeClusterIP, "10.96.0.10"), svc(api.ServiceTypeClusterIP, "10.96.0.10"), nil},
		{"update adding a secondary address", svc(api.ServiceTypeClusterIP, "10.96.0.10", "fd00:10:96::a"), svc(api.ServiceTypeClusterIP, "10.96.0.10"), []string{`spec.clusterIPs[1] "fd00:10:96::a"`}},
		{"not an address: validation's", svc(api.ServiceTypeClusterIP, "bad"), nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ServiceRequestedAddresses(c.svc, c.old)
			if len(c.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("got %q, want nothing", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], "is not predicted") || !strings.Contains(got[0], "--service-cluster-ip-range") {
				t.Fatalf("got %q", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("%q does not name %s", got[0], w)
				}
			}
		})
	}
}
