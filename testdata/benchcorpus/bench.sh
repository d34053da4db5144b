#!/bin/sh
# Times the ssa-diff binary on the generated corpora (make bench-corpus), each figure beside
# a baseline measured the same way in the same run: `cat` of the same inputs (reading them),
# and `ssa-diff --help` (start-up). Each command runs RUNS times; the fastest run is shown,
# with its user+system CPU time and peak memory (max RSS), and the input size for scale.
#
#   sh testdata/benchcorpus/bench.sh [BIN] [CORPUS]
set -eu
BIN=${1:-./ssa-diff}
CORPUS=${2:-testdata/bench-corpus}
RUNS=${RUNS:-3}
NOW=2026-12-01T12:00:00Z
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench.sh: needs /usr/bin/time (GNU time)" >&2; exit 1; }

# best LABEL CMD...: the fastest of RUNS runs: wall s, cpu s, max RSS MiB.
best() {
	label=$1
	shift
	out=""
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		"$TIME" -f "%e %U %S %M" -o /tmp/ssa-diff-bench.$$ "$@" >/dev/null 2>&1 || true
		line=$(tail -n 1 /tmp/ssa-diff-bench.$$)
		out="$out$line
"
		i=$((i + 1))
	done
	rm -f /tmp/ssa-diff-bench.$$
	echo "$out" | awk -v label="$label" 'NF == 4 { if (best == "" || $1 < bw) { bw = $1; bc = $2 + $3; bm = $4; best = 1 } }
		END { printf "  %-44s %7.3f s wall %7.3f s cpu %7.1f MiB max RSS\n", label, bw, bc, bm / 1024 }'
}

echo "ssa-diff $(uname -m), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); fastest of $RUNS runs"
best "baseline: $BIN --help (start-up)" "$BIN" --help
for n in 1000 10000; do
	d=$CORPUS/$n
	[ -f "$d/live.json" ] || { echo "no corpus in $d (make bench-corpus)"; continue; }
	files=$(find "$d/repo" -type f | wc -l)
	size=$(du -sb "$d/repo" "$d/live.json" | awk '{ s += $1 } END { printf "%.1f", s / 1048576 }')
	objects=$(grep -c '^kind:' $(find "$d/repo" -type f) | awk -F: '{ s += $2 } END { print s }')
	echo "$n: $objects manifest objects in $files files + live.json, $size MiB of input"
	# Default limits: a dump is one JSON List, read item by item.
	lim=""
	best "baseline: cat of the inputs" sh -c "find '$d/repo' -type f -exec cat {} + >/dev/null; cat '$d/live.json' >/dev/null"
	best "-o json (kubectl)" "$BIN" $lim --now $NOW -o json "$d/repo" "$d/live.json"
	[ "$n" = 1000 ] || { best "--applier argocd -o github --summary" "$BIN" $lim --now $NOW --applier argocd --argocd-app platform -o github --summary "$d/repo" "$d/live.json"; continue; }
	best "-o text (kubectl)" "$BIN" $lim --now $NOW -o text "$d/repo" "$d/live.json"
	best "-o html (kubectl)" "$BIN" $lim --now $NOW -o html "$d/repo" "$d/live.json"
	best "--applier argocd -o github --summary" "$BIN" $lim --now $NOW --applier argocd --argocd-app platform -o github --summary "$d/repo" "$d/live.json"
	best "--applier flux -o markdown" "$BIN" $lim --now $NOW --applier flux --flux-kustomization flux-system/apps -o markdown "$d/repo" "$d/live.json"
	best "--applier argocd -o junit --jobs 1" "$BIN" $lim --now $NOW --applier argocd --argocd-app platform -o junit --jobs 1 "$d/repo" "$d/live.json"
done
