#!/bin/sh
# Every output of the command for a set of inputs, one file each (stdout, stderr and the exit
# status), to compare two builds byte for byte when a change must not change any output
# (a refactoring of the command, issue #35):
#
#   sh test/outputs/outputs.sh BIN OUTDIR [CORPUS]     (run from the repository's root)
#   diff -r OUTDIR-before OUTDIR-after
#
# The examples (testdata/examples) × every format × variants (appliers, --summary,
# --show-managed-fields, --prune, --output-file), the GitOps repository (testdata/gitops-e2e:
# the gate, --argocd-application, --flux-kustomization-file, helm), the 1,000-object corpus
# (CORPUS: make bench-corpus's testdata/bench-corpus/1000) × formats × appliers, its shards and
# their merge, and bad input (testdata/bad).
set -u
BIN=$1; O=$2; C=${3:-testdata/bench-corpus/1000}
NOW=2026-12-01T12:00:00Z
mkdir -p "$O"
n=0
run() { # name args...
	name=$1; shift
	"$BIN" "$@" >"$O/$name.out" 2>"$O/$name.err" </dev/null
	echo $? >"$O/$name.rc"
	n=$((n + 1))
}
FORMATS=$("$BIN" --help | sed -n 's/.*Output format: \(.*\)\./\1/p' | tr -d ,)
for ex in testdata/examples/*/; do
	e=$(basename "$ex")
	args=$(sed -n 's/^ssa-diff //p' "$ex/command")
	for f in $FORMATS; do
		run "ex.$e.$f" --now $NOW -o $f $args
		run "ex.$e.$f.summary" --now $NOW -o $f --summary $args
	done
	run "ex.$e.mf" --now $NOW --show-managed-fields --show-secrets $args
	for a in api argocd flux; do
		run "ex.$e.$a" --now $NOW --applier $a -o json $args
		run "ex.$e.$a.text" --now $NOW --applier $a $args
	done
	run "ex.$e.force" --now $NOW --force-conflicts -o markdown $args
	run "ex.$e.fail" --now $NOW --fail-on all -o github $args
	run "ex.$e.kube135" --now $NOW --kube-version 1.35 -o json $args
	rm -rf "$O/files.$e"; mkdir -p "$O/files.$e"
	run "ex.$e.files" --now $NOW --output-file "$O/files.$e/r.txt" --output-file "json=$O/files.$e/r.json" --output-file "html=$O/files.$e/r.html" $args
done
G=testdata/gitops-e2e
for f in text json github junit markdown; do
	run "gitops.gate.$f" --now $NOW --applier argocd --argocd-app shop --prune --fail-on all -o $f -k $G/repo/overlays/prod $G/live.json
	run "gitops.app.$f" --now $NOW --argocd-application $G/config/application.yaml --prune -o $f -k $G/repo/overlays/prod $G/live.json
	run "gitops.flux.$f" --now $NOW --flux-kustomization-file $G/config/kustomization.yaml -o $f -k $G/repo/overlays/prod $G/live.json
	run "gitops.fluxvars.$f" --now $NOW --flux-kustomization-file $G/flux-vars/kustomization.yaml -o $f $G/flux-vars/repo --flux-substitute-from $G/flux-vars/vars.yaml
	run "gitops.fluxlive.$f" --now $NOW --flux-kustomization-file $G/flux-vars/kustomization.yaml -o $f $G/flux-vars/repo $G/flux-vars/live.json
	run "gitops.kubectl.$f" --now $NOW --prune -l app.kubernetes.io/part-of=shop -o $f -k $G/repo/overlays/prod $G/live.json
done
run gitops.helm --now $NOW --applier helm --helm-release redis -n shop-prod $G/repo/helm-rendered.yaml $G/live.json
for b in testdata/bad/*; do
	run "bad.$(basename "$b")" --now $NOW -o json "$b" testdata/examples/drift/live.json
done
if [ -f "$C/live.json" ]; then
	for f in text json markdown github junit yaml diff; do
		run "corpus.$f" --now $NOW -o $f "$C/repo" "$C/live.json"
	done
	run corpus.api --now $NOW --applier api -o json "$C/repo" "$C/live.json"
	run corpus.argocd --now $NOW --applier argocd --argocd-app platform --prune -o json "$C/repo" "$C/live.json"
	run corpus.flux --now $NOW --applier flux --flux-kustomization flux-system/apps --prune -o json "$C/repo" "$C/live.json"
	for a in api argocd flux; do
		run "corpus.$a.md" --now $NOW --applier $a -o markdown --summary "$C/repo" "$C/live.json"
	done
	run corpus.jobs1 --now $NOW -o junit --jobs 1 "$C/repo" "$C/live.json"
	for i in 1 2 3; do
		run "corpus.shard$i" --now $NOW -o json --shard $i/3 "$C/repo" "$C/live.json"
		cp "$O/corpus.shard$i.out" "$O/shard$i.json"
	done
	for f in text json markdown; do
		run "corpus.merge.$f" merge -o $f "$O/shard1.json" "$O/shard2.json" "$O/shard3.json"
	done
fi
echo "$n runs" >"$O/count"
