//go:build tools

// Package tools pins the etcd that make e2e builds: v3.7.0, the version Kubernetes 1.37.2
// pins in its build/dependencies.yaml.
package tools

import _ "go.etcd.io/etcd/server/v3"
