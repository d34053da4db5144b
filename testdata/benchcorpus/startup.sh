#!/bin/sh
# Times one small prediction (testdata/examples/hpa-owns-replicas, a whole process) beside a
# hello-world Go program built here, the two run alternately in rounds so that both see the
# same machine: the ratio of their total times is the figure (the product's promise: within
# 5x). Also prints the binary's size. Several binaries (a before and an after) are timed in
# the same rounds.
#
#   sh testdata/benchcorpus/startup.sh [BIN...]     ROUNDS (20) rounds of BATCH (10) runs each
set -eu
[ $# -gt 0 ] || set -- ./ssa-diff
ROUNDS=${ROUNDS:-20}
BATCH=${BATCH:-10}
EX=testdata/examples/hpa-owns-replicas
for b in "$@"; do
	[ -x "$b" ] || { echo "startup.sh: no binary at $b (make build)" >&2; exit 1; }
done
[ -f "$EX/manifest.yaml" ] || { echo "startup.sh: run from the repository root" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello, world") }
EOF
(cd "$tmp" && printf 'module hello\n\ngo 1.21\n' >go.mod && go build -o hello .)

ns() { date +%s%N; }
# batch CMD...: runs CMD BATCH times, prints the nanoseconds it took.
batch() {
	s=$(ns)
	i=0
	while [ "$i" -lt "$BATCH" ]; do
		"$@" >/dev/null 2>&1 || true
		i=$((i + 1))
	done
	echo $(($(ns) - s))
}

hello=0
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	hello=$((hello + $(batch "$tmp/hello")))
	i=0
	for b in "$@"; do
		t=$(batch "$b" --now 2026-12-02T10:00:00Z "$EX/manifest.yaml" "$EX/live.json")
		eval "pred$i=\$((\${pred$i:-0} + t))"
		i=$((i + 1))
	done
	r=$((r + 1))
done
n=$((ROUNDS * BATCH))
echo "$n runs each, alternately (load $(cut -d' ' -f1-3 /proc/loadavg))"
awk -v h="$hello" -v n="$n" 'BEGIN { printf "  %-44s %6.2f ms per run\n", "hello-world", h / n / 1e6 }'
i=0
for b in "$@"; do
	eval "p=\$pred$i"
	awk -v h="$hello" -v p="$p" -v n="$n" -v b="$b" -v size="$(wc -c <"$b")" 'BEGIN {
		printf "  %-44s %6.2f ms per run (%.1fx hello-world), %.1f MiB\n", "one small prediction, " b, p / n / 1e6, p / h, size / 1048576
	}'
	i=$((i + 1))
done
