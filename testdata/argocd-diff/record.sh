#!/usr/bin/env bash
# Records what Argo CD's application controller shows of a Deployment — Synced or
# OutOfSync, and the two sides of its diff — from the real thing: argo-cd v3.6.2's
# util/argo/diff.StateDiffs with server-side diff (an Application synced with
# ServerSideApply=true), driven by test/argocddiff, against a real kube-apiserver 1.37.2
# (an empty one: ../../shared/tools/kube-apiserver, start.sh --fresh). Each case has its
# own namespace:
#
#   1. the synced revision (deployment.yaml.in: image web:1, version "1", note "a")
#      applied as Argo CD's sync applies it (server-side, forced, argocd-controller);
#   2. the case's drift (a shell command: another manager's write), if any;
#   3. live.json: the object, kubectl get -o json --show-managed-fields;
#   4. manifest.json (the revision in Git now) compared by argocddiff with ignore.json as
#      the Application's ignoreDifferences; want.json: its answer (modified,
#      normalizedLive, predictedLive).
#
# judge TestArgoCDCompareIsArgoCDs predicts 4 from live.json and compares.
#
#   (cd ../../test/argocddiff && GOTOOLCHAIN=go1.27.3 go build -o /tmp/argocddiff .)
#   KUBECTL=/path/to/kubectl KUBECONFIG=... ARGOCDDIFF=/tmp/argocddiff bash record.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
K=${KUBECTL:-kubectl}
A=${ARGOCDDIFF:-argocddiff}

revision() { # NS IMAGE-VERSION NOTE
	sed -e "s/NS/$1/g" -e "s/VERSION/$2/" -e "s/IMAGE/web:$2/" -e "s/NOTE/$3/" "$here/deployment.yaml.in"
}
pretty() { python3 -c 'import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=1); print()'; }
tojson() { python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout, indent=1); print()'; }
hpa() { # REPLICAS: another applier of spec.replicas, as an autoscaler
	$K -n "$NS" apply --server-side --force-conflicts --field-manager hpa -f - <<<"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":$1}}"
}

# case | revision in Git (version note) | ignoreDifferences | drift (shell; $NS and $K set)
cases=(
"in-sync|1 a|[]|true"
"image-changed|2 a|[]|true"
"label-added-by-kubectl|1 a|[]|\$K -n \$NS label deployment web team=checkout"
"image-edited-on-cluster|1 a|[]|\$K -n \$NS patch deployment web --type json --field-manager kubectl-edit -p '[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\"web:hotfix\"}]'"
"replicas-other-applier|1 a|[]|hpa 5"
"replicas-ignored-json-pointer|1 a|[{\"group\":\"apps\",\"kind\":\"Deployment\",\"jsonPointers\":[\"/spec/replicas\"]}]|hpa 5"
"replicas-ignored-jq|1 a|[{\"group\":\"apps\",\"kind\":\"Deployment\",\"jqPathExpressions\":[\".spec.replicas\"]}]|hpa 5"
"replicas-ignored-manager|1 a|[{\"group\":\"apps\",\"kind\":\"Deployment\",\"managedFieldsManagers\":[\"hpa\"]}]|hpa 5"
"replicas-ignored-other-kind|1 a|[{\"group\":\"apps\",\"kind\":\"StatefulSet\",\"jsonPointers\":[\"/spec/replicas\"]}]|hpa 5"
"annotation-removed-from-git|1 -|[]|true"
"note-changed-ignored|1 b|[{\"group\":\"*\",\"kind\":\"*\",\"jsonPointers\":[\"/metadata/annotations/example.com~1note\"]}]|true"
"image-ignored-jq-all-containers|2 a|[{\"group\":\"apps\",\"kind\":\"Deployment\",\"jqPathExpressions\":[\".spec.template.spec.containers[].image\"]}]|true"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name rev rules drift <<<"$c"
	read -r version note <<<"$rev"
	NS=ad-$(printf '%s' "$name" | md5sum | cut -c1-8)
	d=$here/$name
	mkdir -p "$d"
	$K create namespace "$NS" >/dev/null
	revision "$NS" 1 a | $K apply --server-side --force-conflicts --field-manager argocd-controller -f - >/dev/null
	eval "$drift" >/dev/null
	$K -n "$NS" get deployment web -o json --show-managed-fields | pretty >"$d/live.json"
	if [ "$note" = - ]; then
		revision "$NS" "$version" a | grep -v example.com/note | tojson >"$d/manifest.json"
	else
		revision "$NS" "$version" "$note" | tojson >"$d/manifest.json"
	fi
	printf '%s\n' "$rules" >"$d/ignore.json"
	"$A" -ignore "$d/ignore.json" "$d/manifest.json" >"$d/want.json"
	echo "$name: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["modified"])' "$d/want.json")"
done
