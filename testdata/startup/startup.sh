#!/bin/sh
# Measures the whole-process start-up of one small prediction against a hello-world Go
# program built by the same toolchain, run alternately in the same loop (so both see the
# same machine load): the ratio of the medians is the figure, and it must stay under MAX
# (default 5) for the first binary. More binaries (an older build, say) are measured in the
# same loop, for comparison.
#
#   sh testdata/startup/startup.sh [BIN [OTHER-BIN...]]     RUNS (default 200) rounds
set -eu
[ $# -gt 0 ] || set -- ./ssa-diff
RUNS=${RUNS:-200}
MAX=${MAX:-5}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/hello"
cat >"$tmp/hello/main.go" <<'GO'
package main

import "fmt"

func main() { fmt.Println("hello") }
GO
printf 'module hello\n\ngo 1.26\n' >"$tmp/hello/go.mod"
(cd "$tmp/hello" && go build -o "$tmp/hello-bin" .)
ex=$here/../examples/hpa-owns-replicas
python3 - "$tmp/hello-bin" "$ex/manifest.yaml" "$ex/live.json" "$RUNS" "$MAX" "$@" <<'PY'
import resource, subprocess, sys, time, statistics
hello, manifest, live, runs, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
bins = sys.argv[6:]
def once(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
cmds = [[hello]] + [[b, "--now", "2026-12-02T12:00:00Z", manifest, live] for b in bins]
times = [[] for _ in cmds]
cpus = [[] for _ in cmds]
for r in range(runs + 5):
    for i, c in enumerate(cmds):
        t, cpu = once(c)
        if r >= 5:
            times[i].append(t)
            cpus[i].append(cpu)
med = [statistics.median(t) for t in times]
cpu = [statistics.median(c) for c in cpus]
print(f"hello-world {med[0]*1000:.2f} ms wall, {cpu[0]*1000:.2f} ms CPU (medians of {runs} runs, alternating)")
ok = True
for i, b in enumerate(bins):
    ratio = med[i + 1] / med[0]
    print(f"{b}: one prediction {med[i+1]*1000:.2f} ms wall, {ratio:.1f}x hello-world" + (f" (limit {limit:g}x)" if i == 0 else "") + f"; {cpu[i+1]*1000:.2f} ms CPU, {cpu[i+1]/cpu[0]:.1f}x")
    if i == 0 and ratio > limit:
        ok = False
sys.exit(0 if ok else 1)
PY
