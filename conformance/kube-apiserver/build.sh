#!/bin/sh
# Builds kube-apiserver (v1.37.2 unless another release is given) and etcd v3.7.0 (the version
# 1.37.2 pins; it serves 1.34-1.36 too) from the Go module proxy into DIR, for make e2e. Each
# comes from a module of its own here (kube/, etcd/): the product's go.mod never requires
# k8s.io/kubernetes. Another release (v1.34.4, v1.35.4, v1.36.3) is built from a module
# written for it in a temporary folder: k8s.io/kubernetes at that release, each staging
# module its go.mod replaces pinned to the matching v0.Y.Z. Cold: ~10-15 min on 2 cores, ~1 GB
# of module cache per release, ~4 GB of build cache, ~2.3 GiB of memory at its peak.
#
#   sh conformance/kube-apiserver/build.sh DIR [vX.Y.Z]
set -eu
out=${1:?usage: build.sh DIR [vX.Y.Z]}
V=${2:-v1.37.2}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CGO_ENABLED=0 GOFLAGS=-mod=mod
minor=${V#v1.}
minor=${minor%%.*}
LD="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	LD="$LD -X $p.gitVersion=$V -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.gitCommit=module-proxy-$V"
done
start=$(date +%s)
[ -x "$out/etcd" ] || (cd "$here/etcd" && go build -trimpath -ldflags="-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3)
echo "built etcd in $(($(date +%s) - start)) s"
mod=$here/kube
if [ "$V" != v1.37.2 ]; then
	mod=$(mktemp -d "${TMPDIR:-/tmp}/kube-apiserver-$V.XXXXXX")
	trap 'rm -rf "$mod"' EXIT INT TERM
	cp "$here/kube/tools.go" "$mod/"
	gomod=$(cd "$mod" && go mod download -json "k8s.io/kubernetes@$V" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
	{
		printf 'module github.com/ssa-diff/ssa-diff/conformance/kube-apiserver/kube\n\ngo 1.26.0\n\ngodebug default=go1.26\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$V"
		grep -oE '^\s*k8s\.io/[A-Za-z0-9._/-]+ => \./staging' "$gomod" | awk -v s="v0.${V#v1.}" '{print "\t" $1 " => " $1 " " s}'
		printf ')\n'
	} >"$mod/go.mod"
	(cd "$mod" && go mod tidy >/dev/null)
fi
start=$(date +%s)
(cd "$mod" && go build -trimpath -ldflags="$LD" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
echo "built kube-apiserver $V in $(($(date +%s) - start)) s"
