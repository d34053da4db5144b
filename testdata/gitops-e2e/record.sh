#!/usr/bin/env bash
# Records live.json and server-dry-run.json from a real kube-apiserver 1.37.2 (an empty one:
# see ../../../shared/tools/kube-apiserver, start.sh --fresh), as the cluster of the shop
# would be after a history of syncs and hands, then its answers to the repository's new
# revision:
#
#   1. the previous revision of the repository, synced by Argo CD (server-side apply with
#      force, manager argocd-controller, the Application "shop"'s tracking annotation):
#      prod had 3 replicas, image 1.4.0, a 768Mi memory limit and a PodDisruptionBudget
#      that the new revision no longer has;
#   2. the redis chart, installed by Helm at redis:7.2.5 (Update, manager helm);
#   3. the autoscaler scaling prod to 4 through /scale (manager kube-controller-manager);
#   4. someone raising prod's memory limit to 1Gi with kubectl edit (manager kubectl-edit);
#   5. live.json: kubectl get -A -o json --show-managed-fields, the shop's namespaces;
#   6. server-dry-run.json: the new revision applied as Argo CD applies it, with
#      --dry-run=server: the objects the server would store.
#
#   KUBECTL=/path/to/kubectl KUBECONFIG=... sh record.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
K=${KUBECTL:-kubectl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tracking annotation Argo CD's repo server adds to each object of the Application.
track() {
	python3 -c '
import sys, yaml
docs = [d for d in yaml.safe_load_all(sys.stdin) if d]
for d in docs:
    av = d["apiVersion"]
    group = av.split("/")[0] if "/" in av else ""
    md = d["metadata"]
    ns = md.get("namespace", sys.argv[1])
    md.setdefault("annotations", {})["argocd.argoproj.io/tracking-id"] = "shop:%s/%s:%s/%s" % (group, d["kind"], ns, md["name"])
sys.stdout.write(yaml.safe_dump_all(docs, sort_keys=False))' "$1"
}

# 1. The previous revision.
cp -r "$here/repo" "$tmp/rev1"
sed -i 's/newTag: 1.5.0/newTag: 1.4.0/; s/memory: 512Mi/memory: 768Mi/; s|^- ../../base$|- ../../base\n- pdb.yaml|' "$tmp/rev1/overlays/prod/kustomization.yaml"
sed -i 's/replicas: 6/replicas: 3/' "$tmp/rev1/overlays/prod/replicas.yaml"
cat >"$tmp/rev1/overlays/prod/pdb.yaml" <<'EOF'
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: web
EOF
"$K" apply --server-side -f "$here/operator-crd.yaml"
"$K" wait --for condition=established crd/backuppolicies.ops.example.com --timeout=60s
"$K" create namespace shop-prod
"$K" create namespace shop-staging
for env in prod staging; do
	"$K" kustomize "$tmp/rev1/overlays/$env" | track "shop-$env" >"$tmp/$env.yaml"
	"$K" apply --server-side --force-conflicts --field-manager=argocd-controller -f "$tmp/$env.yaml"
done

# 2. The chart, installed by Helm.
sed 's/redis:7.4.1/redis:7.2.5/' "$here/repo/helm-rendered.yaml" | python3 -c '
import sys, yaml
docs = [d for d in yaml.safe_load_all(sys.stdin) if d]
for d in docs:
    md = d["metadata"]
    md.setdefault("annotations", {}).update({"meta.helm.sh/release-name": "sessions", "meta.helm.sh/release-namespace": "shop-prod"})
    md["labels"]["app.kubernetes.io/managed-by"] = "Helm"
sys.stdout.write(yaml.safe_dump_all(docs, sort_keys=False))' >"$tmp/redis.yaml"
"$K" create -n shop-prod --field-manager=helm -f "$tmp/redis.yaml"

# 3. The autoscaler; 4. a hand.
"$K" patch deployment web -n shop-prod --subresource=scale --type=merge -p '{"spec":{"replicas":4}}' --field-manager=kube-controller-manager
"$K" patch deployment web -n shop-prod --type=json --field-manager=kubectl-edit \
	-p '[{"op":"replace","path":"/spec/template/spec/containers/0/resources/limits/memory","value":"1Gi"}]'

# 5. The live state, the shop's namespaces only (a real dump holds more).
"$K" get deploy,sts,svc,cm,pdb,backuppolicies.ops.example.com -A -o json --show-managed-fields >"$tmp/all.json"
python3 - "$tmp/all.json" "$here/live.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["items"] = [i for i in d["items"] if i["metadata"].get("namespace", "").startswith("shop-")]
with open(sys.argv[2], "w") as f:
    json.dump(d, f, indent=4)
    f.write("\n")
EOF

# 6. The new revision, as Argo CD would apply it, dry-run.
items="$tmp/items"
mkdir -p "$items"
for env in prod staging; do
	"$K" kustomize "$here/repo/overlays/$env" | track "shop-$env" >"$tmp/new-$env.yaml"
	"$K" apply --server-side --force-conflicts --field-manager=argocd-controller --dry-run=server -o json --show-managed-fields -f "$tmp/new-$env.yaml" >"$items/$env.json"
done
track shop-prod <"$here/repo/helm-rendered.yaml" >"$tmp/new-helm.yaml"
"$K" apply -n shop-prod --server-side --force-conflicts --field-manager=argocd-controller --dry-run=server -o json --show-managed-fields -f "$tmp/new-helm.yaml" >"$items/helm.json"
python3 - "$items" "$here/server-dry-run.json" <<'EOF'
import json, os, sys
out = {"apiVersion": "v1", "kind": "List", "items": []}
for name in ("prod.json", "staging.json", "helm.json"):
    d = json.load(open(os.path.join(sys.argv[1], name)))
    out["items"] += d["items"] if d.get("kind") == "List" else [d]
with open(sys.argv[2], "w") as f:
    json.dump(out, f, indent=4)
    f.write("\n")
EOF
echo "recorded $here/live.json and $here/server-dry-run.json"
