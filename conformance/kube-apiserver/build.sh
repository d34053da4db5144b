#!/bin/sh
# Builds kube-apiserver v1.37.2 and etcd v3.7.0 (the version it pins) from the Go module proxy
# into DIR, for make e2e. Each comes from a module of its own here (kube/, etcd/): the
# product's go.mod never requires k8s.io/kubernetes. Cold: ~10-15 min on 2 cores, ~1 GB of
# module cache, ~4 GB of build cache, ~2.3 GiB of memory at its peak.
#
#   sh conformance/kube-apiserver/build.sh DIR
set -eu
out=${1:?usage: build.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CGO_ENABLED=0 GOFLAGS=-mod=mod
V=v1.37.2
LD="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	LD="$LD -X $p.gitVersion=$V -X $p.gitMajor=1 -X $p.gitMinor=37 -X $p.gitTreeState=clean -X $p.gitCommit=module-proxy-$V"
done
start=$(date +%s)
(cd "$here/etcd" && go build -trimpath -ldflags="-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3)
echo "built etcd in $(($(date +%s) - start)) s"
start=$(date +%s)
(cd "$here/kube" && go build -trimpath -ldflags="$LD" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
echo "built kube-apiserver in $(($(date +%s) - start)) s"
