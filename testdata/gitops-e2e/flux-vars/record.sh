#!/usr/bin/env bash
# Records live.json and server-dry-run.json from a real kube-apiserver 1.37.2 (an empty one:
# see ../../../../shared/tools/kube-apiserver, start.sh --fresh):
#
#   1. the ConfigMap cluster-vars in flux-system (postBuild.substituteFrom);
#   2. a previous revision of rendered/ (1 replica, image 0.9, label cluster: old), applied
#      as kustomize-controller applies it (server-side, force, manager kustomize-controller);
#   3. someone annotating the pod template with another manager (hotfix);
#   4. live.json: those objects, kubectl get -o json --show-managed-fields;
#   5. server-dry-run.json: rendered/ as kustomize-controller sends it — its owner labels,
#      and the empty strategy and resources its normalization adds to a Deployment — with
#      --dry-run=server: the objects the server would store.
#
# cli/gitops_test.go predicts repo/ with kustomization.yaml (targetNamespace, postBuild)
# against live.json and compares each object with server-dry-run.json.
#
#   KUBECTL=/path/to/kubectl KUBECONFIG=... bash record.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
K=${KUBECTL:-kubectl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$K create namespace shop-vars >/dev/null
$K create namespace flux-system >/dev/null
$K apply --server-side --field-manager kubectl -f "$here/vars.yaml" >/dev/null
sed -e 's/replicas: 2/replicas: 1/' -e 's/web:1.0/web:0.9/' -e 's/    cluster: prod-eu/    cluster: old/' "$here/rendered/app.yaml" |
	$K apply --server-side --force-conflicts --field-manager kustomize-controller -f - >/dev/null
$K -n shop-vars patch deployment web --type merge --field-manager hotfix \
	-p '{"spec":{"template":{"metadata":{"annotations":{"debug":"on"}}}}}' >/dev/null
{
	echo '{"apiVersion": "v1", "kind": "List", "items": ['
	$K -n flux-system get configmap cluster-vars -o json --show-managed-fields
	echo ','
	$K -n shop-vars get deployment web -o json --show-managed-fields
	echo ','
	$K -n shop-vars get configmap script -o json --show-managed-fields
	echo ','
	$K get clusterrole web-reader-prod-eu -o json --show-managed-fields
	echo ']}'
} | python3 -c 'import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=1); print()' >"$here/live.json"
python3 - "$here/rendered/app.yaml" >"$tmp/sent.json" <<'PY'
import json, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
for d in docs:
    d["metadata"].setdefault("labels", {}).update({"kustomize.toolkit.fluxcd.io/name": "shop-vars", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"})
    if d["kind"] == "Deployment":
        d["spec"]["strategy"] = {}
        for c in d["spec"]["template"]["spec"]["containers"]:
            c["resources"] = {}
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": docs}))
PY
$K apply --server-side --dry-run=server --force-conflicts --field-manager kustomize-controller \
	-f "$tmp/sent.json" -o json --show-managed-fields |
	python3 -c 'import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=1); print()' >"$here/server-dry-run.json"
