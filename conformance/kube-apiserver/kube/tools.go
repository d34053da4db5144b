//go:build tools

// Package tools pins the kube-apiserver that make e2e builds: k8s.io/kubernetes v1.37.2,
// its staging modules replaced by their published v0.37.2 (as importing it always needs).
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
