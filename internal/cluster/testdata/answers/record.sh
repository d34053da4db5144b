#!/bin/sh
# Records the answers of a real kube-apiserver that TestRecordedAnswers replays: each GET
# sent as ssa-diff sends it (Accept: application/json, a user agent that is not curl's, so
# that the server writes compact JSON, not the indented JSON it writes for curl), and
# written as {request, status, headers (content-type, content-encoding, warning,
# retry-after), body}, the body byte for byte.
#
#   sh record.sh URL TOKEN CACERT        (the server of /work/shared/tools/kube-apiserver)
#
# The objects it reads are made first: namespace shop, ConfigMaps cm-00 … cm-11 (data a=1),
# Deployment chat (kubectl create deployment chat --image=chat:1). Recorded from
# kube-apiserver v1.37.2 (etcd 3.7.0).
set -eu
url=$1 token=$2 cacert=$3
here=$(cd "$(dirname "$0")" && pwd)
kubectl() { command kubectl --server "$url" --token "$token" --certificate-authority "$cacert" "$@"; }
kubectl get ns shop >/dev/null 2>&1 || {
	kubectl create ns shop
	for i in 00 01 02 03 04 05 06 07 08 09 10 11; do kubectl -n shop create configmap "cm-$i" --from-literal=a=1; done
	kubectl -n shop create deployment chat --image=chat:1
}
rec() {
	curl -s -D "$here/.headers" -o "$here/.body" --cacert "$cacert" -H "Authorization: Bearer $token" \
		-H 'Accept: application/json' -A 'ssa-diff/v0 (linux/amd64) kubernetes/test' "$url$2"
	python3 - "$here" "$1" "$2" <<'PY'
import json, sys
here, name, path = sys.argv[1:]
lines = open(here + '/.headers').read().splitlines()
headers = {}
for l in lines[1:]:
    k, sep, v = l.partition(':')
    if sep and k.strip().lower() in ('content-type', 'content-encoding', 'warning', 'retry-after'):
        headers[k.strip().lower()] = v.strip()
body = open(here + '/.body', encoding='utf-8', newline='').read()
with open('%s/%s.json' % (here, name), 'w') as f:
    json.dump({"request": "GET " + path, "status": int(lines[0].split()[1]), "headers": headers, "body": body}, f, indent=2, ensure_ascii=False)
    f.write('\n')
PY
	rm -f "$here/.headers" "$here/.body"
}
rec version /version
rec api /api
rec api-v1 /api/v1
rec apis-apps /apis/apps
rec apis-apps-v1 /apis/apps/v1
rec apis-not-served /apis/nosuch.example.com
rec apis-version-not-served /apis/nosuch.example.com/v1
rec get-configmap /api/v1/namespaces/shop/configmaps/cm-00
rec get-deployment /apis/apps/v1/namespaces/shop/deployments/chat
rec get-configmap-missing /api/v1/namespaces/shop/configmaps/missing
rec get-deployment-missing /apis/apps/v1/namespaces/shop/deployments/missing
rec get-crd-missing /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com
rec list-configmaps-first-page '/api/v1/namespaces/shop/configmaps?limit=5'
next=$(python3 -c "import json,sys; print(json.loads(json.load(open(sys.argv[1]))['body'])['metadata']['continue'])" "$here/list-configmaps-first-page.json")
rec list-configmaps-next-page "/api/v1/namespaces/shop/configmaps?continue=$next&limit=500"
rec list-configmaps-empty-namespace '/api/v1/namespaces/nosuchns/configmaps?limit=500'
