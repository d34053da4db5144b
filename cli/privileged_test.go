package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Privileged containers are allowed by default, as kubeadm, kind, k3s and the managed
// clusters run kube-apiserver (--allow-privileged=true): a privileged node agent is
// created. --allow-privileged=false predicts a server started without the flag: it refuses
// the agent (exit 3), and the refusal's advice names the flag.
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
	for _, args := range [][]string{nil, {"--allow-privileged"}, {"--allow-privileged=true"}} {
		out, _, code := run(t, "", append(append([]string{"--now", "2026-12-03T09:00:00Z"}, args...), manifest)...)
		if code != 1 || !strings.Contains(out, "DaemonSet kube-system/node-agent: create") || strings.Contains(out, "cluster-policy") {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
	}
	out, _, code := run(t, "", "--now", "2026-12-03T09:00:00Z", "--allow-privileged=false", manifest)
	if code != 3 || !strings.Contains(out, "privileged: Forbidden: disallowed by cluster policy") || !strings.Contains(out, "[cluster-policy]") || !strings.Contains(out, "without --allow-privileged=false") {
		t.Fatalf("--allow-privileged=false: exit %d\n%s", code, out)
	}
}
