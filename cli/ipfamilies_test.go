package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// --service-ip-families declares the cluster's service IP families (rules.md
// valid.service-ip-families): by default a Service requiring dual stack is refused as the
// recording server, an IPv4 cluster, refuses it (exit 3), and the advice names the flag;
// declared dual-stack, it is created with both families; a value that is no list of
// families is a usage error.
func TestServiceIPFamilies(t *testing.T) {
	dir := writeFiles(t, map[string]string{"svc.yaml": `apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop}
spec:
  ipFamilyPolicy: RequireDualStack
  selector: {app: api}
  ports: [{port: 443}]
`})
	manifest := filepath.Join(dir, "svc.yaml")
	out, _, code := run(t, "", "--now", "2026-12-03T09:00:00Z", manifest)
	if code != 3 || !strings.Contains(out, "this cluster is not configured for dual-stack services") || !strings.Contains(out, "--service-ip-families IPv4,IPv6") {
		t.Fatalf("default: exit %d\n%s", code, out)
	}
	out, _, code = run(t, "", "--now", "2026-12-03T09:00:00Z", "--service-ip-families", "IPv4,IPv6", manifest)
	if code != 1 || !strings.Contains(out, "v1 Service shop/api: create") || !strings.Contains(out, "  - IPv4\n+  - IPv6\n") || strings.Contains(out, "cluster-policy") {
		t.Fatalf("--service-ip-families IPv4,IPv6: exit %d\n%s", code, out)
	}
	for _, bad := range []string{"ipv4", "IPv4,IPv4", "IPv4,IPv6,IPv4", ""} {
		_, errOut, code := run(t, "", "--service-ip-families", bad, manifest)
		if code != 2 || !strings.Contains(errOut, `invalid argument "`+bad+`" for "--service-ip-families"`) {
			t.Errorf("--service-ip-families %q: exit %d\n%s", bad, code, errOut)
		}
	}
}
