package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// --allow-privileged predicts a kube-apiserver run with --allow-privileged=true: a
// privileged node agent is created instead of refused (exit 3), and the refusal's advice
// names the flag.
func TestAllowPrivileged(t *testing.T) {
	dir := writeFiles(t, map[string]string{"agent.yaml": `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
  namespace: kube-system
spec:
  selector:
    matchLabels: {app: node-agent}
  template:
    metadata:
      labels: {app: node-agent}
    spec:
      containers:
      - name: agent
        image: registry.example.com/node-agent:2.0.1
        securityContext: {privileged: true}
`})
	manifest := filepath.Join(dir, "agent.yaml")
	out, _, code := run(t, "", "--now", "2026-12-03T09:00:00Z", manifest)
	if code != 3 || !strings.Contains(out, "privileged: Forbidden: disallowed by cluster policy") || !strings.Contains(out, "[cluster-policy]") {
		t.Fatalf("default: exit %d\n%s", code, out)
	}
	out, _, code = run(t, "", "--now", "2026-12-03T09:00:00Z", "--allow-privileged", manifest)
	if code != 1 || !strings.Contains(out, "DaemonSet kube-system/node-agent: create") || strings.Contains(out, "cluster-policy") {
		t.Fatalf("--allow-privileged: exit %d\n%s", code, out)
	}
}
