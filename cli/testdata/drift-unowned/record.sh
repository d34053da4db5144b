#!/bin/sh
# How the drift-unowned case was recorded from kube-apiserver 1.37.2 (kubectl 1.37.2,
# KUBECONFIG of a fresh server): fields nobody owns, and what an apply does to them.
#   partial: a ConfigMap created by kubectl create, its managedFields then replaced by an
#     update with one Apply entry of manager "me" owning .data.x (labels a and b and .data.z
#     are then owned by nobody); manifest.yaml, which sets only .metadata.labels.a, applied
#     by "me" with dry-run: server-dry-run.json.
#   none: the same ConfigMap with its managedFields cleared by an update (managedFields: []),
#     applied the same way: server-dry-run-none.json (the server gives every field it had to
#     a before-first-apply entry, so it keeps them).
set -eu
cd "$(dirname "$0")"
kubectl create namespace drift-unowned
for name in partial none; do
	cat <<YAML | kubectl create -f -
apiVersion: v1
kind: ConfigMap
metadata: {name: $name, namespace: drift-unowned, labels: {a: "1", b: "2"}}
data: {x: "1", z: "2"}
YAML
done
kubectl get cm partial -n drift-unowned -o json | python3 -c '
import json, sys
o = json.load(sys.stdin)
o["metadata"]["managedFields"] = [{"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:x": {}}}, "manager": "me", "operation": "Apply"}]
print(json.dumps(o))' | kubectl replace -f - >/dev/null
kubectl get cm none -n drift-unowned -o json | python3 -c '
import json, sys
o = json.load(sys.stdin)
o["metadata"]["managedFields"] = []
print(json.dumps(o))' | kubectl replace -f - >/dev/null
kubectl get cm partial -n drift-unowned -o json --show-managed-fields >live.json
kubectl get cm none -n drift-unowned -o json --show-managed-fields >live-none.json
kubectl apply --server-side --field-manager me --dry-run=server -f manifest.yaml -o json --show-managed-fields >server-dry-run.json
sed s/partial/none/ manifest.yaml | kubectl apply --server-side --field-manager me --dry-run=server -f - -o json --show-managed-fields >server-dry-run-none.json
