#!/usr/bin/env bash
# Records how Flux's kustomize-controller applies a Deployment under spec.ignore, from the
# real thing: fluxcd/pkg/ssa v0.83.0 (kustomize-controller v1.10.1's), driven by
# test/fluxssa with the options kustomize-controller sets, against a real kube-apiserver
# 1.37.2 (an empty one: ../../shared/tools/kube-apiserver, start.sh --fresh). Each case
# has its own namespace:
#
#   1. revision 1 (deployment.yaml.in: image web:1, version "1") applied by fluxssa;
#   2. the case's drift (drift in the case table below: another manager's write);
#   3. live.json: the object, kubectl get -o json --show-managed-fields;
#   4. manifest.yaml (revision 1 or 2: image web:2, version "2") applied by fluxssa with
#      ignore.json as spec.ignore; action.txt: its change set;
#   5. want.json: the object after it.
#
# appliers TestFluxIgnoreIsKustomizeControllers predicts 4 from live.json and compares.
#
#   (cd ../../test/fluxssa && GOTOOLCHAIN=go1.27.3 go build -o /tmp/fluxssa .)
#   KUBECTL=/path/to/kubectl KUBECONFIG=... FLUXSSA=/tmp/fluxssa bash record.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
K=${KUBECTL:-kubectl}
F=${FLUXSSA:-fluxssa}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

revision() { # NS REVISION
	sed -e "s/NS/$1/" -e "s/VERSION/$2/" -e "s/IMAGE/web:$2/" "$here/deployment.yaml.in"
}
pretty() { python3 -c 'import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=1); print()'; }

# case | revision synced | ignore rules | drift (shell, $NS and $K set)
cases=(
"replicas-other-applier-unchanged|1|[{\"paths\":[\"/spec/replicas\"],\"target\":{\"kind\":\"Deployment\"}}]|\$K -n \$NS apply --server-side --force-conflicts --field-manager hpa -f - <<<'{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":5}}'"
"replicas-other-applier-left-out|2|[{\"paths\":[\"/spec/replicas\"],\"target\":{\"kind\":\"Deployment\"}}]|\$K -n \$NS apply --server-side --force-conflicts --field-manager hpa -f - <<<'{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":5}}'"
"replicas-without-rules|2|[]|\$K -n \$NS apply --server-side --force-conflicts --field-manager hpa -f - <<<'{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":5}}'"
"replicas-target-not-selected|1|[{\"paths\":[\"/spec/replicas\"],\"target\":{\"kind\":\"StatefulSet\"}}]|\$K -n \$NS apply --server-side --force-conflicts --field-manager hpa -f - <<<'{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":5}}'"
"update-manager-adopted|2|[{\"paths\":[\"/spec/minReadySeconds\"]}]|\$K -n \$NS patch deployment web --type merge --field-manager hotfix -p '{\"spec\":{\"minReadySeconds\":30}}'"
"label-ignored-unchanged|1|[{\"paths\":[\"/metadata/labels/team\"],\"target\":{\"labelSelector\":\"app=web\"}}]|\$K -n \$NS label deployment web team=checkout --overwrite"
"container-image-other-applier|2|[{\"paths\":[\"/spec/template/spec/containers/0/image\"]}]|\$K -n \$NS apply --server-side --force-conflicts --field-manager hotfix -f - <<<'{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"web:hotfix\"}]}}}}'"
"untargeted-rules-last-counts|2|[{\"paths\":[\"/spec/replicas\"]},{\"paths\":[\"/spec/minReadySeconds\"]}]|\$K -n \$NS apply --server-side --force-conflicts --field-manager hpa -f - <<<'{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":5}}'"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name rev rules drift <<<"$c"
	NS=fi-$(printf '%s' "$name" | md5sum | cut -c1-8)
	d=$here/$name
	mkdir -p "$d"
	$K create namespace "$NS" >/dev/null
	revision "$NS" 1 >"$tmp/r1.yaml"
	"$F" "$tmp/r1.yaml" >/dev/null
	eval "$drift" >/dev/null
	$K -n "$NS" get deployment web -o json --show-managed-fields | pretty >"$d/live.json"
	revision "$NS" "$rev" >"$d/manifest.yaml"
	printf '%s\n' "$rules" >"$d/ignore.json"
	"$F" -ignore "$d/ignore.json" "$d/manifest.yaml" >"$d/action.txt"
	$K -n "$NS" get deployment web -o json --show-managed-fields | pretty >"$d/want.json"
	echo "$name: $(cat "$d/action.txt")"
done
