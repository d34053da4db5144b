// Command oracle134 is the differential harness's oracle at Kubernetes 1.34: the field
// management of package oracle (../oracle, which the harness's BuildOracle ports into
// this module's build directory with structured-merge-diff v6's import path) linked
// against k8s.io/apimachinery, k8s.io/apiserver, k8s.io/apiextensions-apiserver and
// k8s.io/client-go v0.34.4 and k8s.io/kubernetes v1.34.4's scheme — the code
// kube-apiserver 1.34.4 runs, structured-merge-diff v6 — in a module of its own, since
// the harness links v0.37.
//
// The program is oraclemain's (../oraclemain, written once for every process oracle):
// BuildOracle copies it into this module's build directory beside the ported package
// oracle, with this module's import paths, and keeps this module's minor.go. The harness
// (conformance/differential, `-diff.minor 1.34`) runs it as a process speaking JSON lines
// (oraclemain's doc.go).
package main
