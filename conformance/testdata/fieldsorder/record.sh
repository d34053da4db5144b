#!/usr/bin/env bash
# Records the cases of cases.yaml (record.py) and, for each case's object after its final
# apply, the other views a user sees of the same managedFields:
#   views/CASE/get.json          GET, JSON (the bytes the server answers)
#   views/CASE/get.yaml          GET, Accept: application/yaml
#   views/CASE/kubectl-get.json  kubectl get -o json --show-managed-fields
#   views/CASE/apply.json        the PATCH answer of the final apply sent again (a no-op), JSON
#   views/CASE/kubectl-apply.json  kubectl apply --server-side -o json --show-managed-fields
#                                of the same manifest (a no-op)
# usage: record.sh URL TOKEN CACERT   (start.sh --fresh's output; KUBECONFIG and KUBECTL set)
set -euo pipefail
URL=$1 TOKEN=$2 CACERT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
KUBECTL=${KUBECTL:-kubectl}
python3 "$HERE/../record.py" --dir "$HERE" "$URL" "$TOKEN" "$CACERT"
curl_() { curl -sS --cacert "$CACERT" -H "Authorization: Bearer $TOKEN" "$@"; }
path_of() { # path_of CASE -> the object's path
  case $1 in
    service-ports-element-order) echo /api/v1/namespaces/$1/services/telemetry ;;
    configmap-keys-element-order) echo /api/v1/namespaces/$1/configmaps/settings ;;
    cr-ports-byte-order) echo /apis/order.example.com/v1/namespaces/$1/listeners/edge ;;
  esac
}
kind_of() {
  case $1 in
    service-ports-element-order) echo service/telemetry ;;
    configmap-keys-element-order) echo configmap/settings ;;
    cr-ports-byte-order) echo listeners.order.example.com/edge ;;
  esac
}
for c in service-ports-element-order configmap-keys-element-order cr-ports-byte-order; do
  d=$HERE/views/$c; mkdir -p "$d"; p=$(path_of $c)
  curl_ "$URL$p" > "$d/get.json"
  curl_ -H 'Accept: application/yaml' "$URL$p" > "$d/get.yaml"
  "$KUBECTL" get -n $c "$(kind_of $c)" -o json --show-managed-fields > "$d/kubectl-get.json"
  python3 - "$HERE/$c/manifest.yaml" > /tmp/fieldsorder-body.json <<'PY'
import json, sys, yaml
print(json.dumps(yaml.safe_load(open(sys.argv[1]))))
PY
  curl_ -X PATCH -H 'Content-Type: application/apply-patch+yaml' --data-binary @/tmp/fieldsorder-body.json \
    "$URL$p?fieldManager=ops" > "$d/apply.json"
  "$KUBECTL" apply --server-side --field-manager ops -o json --show-managed-fields -f "$HERE/$c/manifest.yaml" > "$d/kubectl-apply.json"
done
