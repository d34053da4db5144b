#!/bin/sh
# Instructions each package's initialisation executes in a plain run (hpa-owns-replicas),
# exactly: callgrind dumps its counts before and after every runtime.doInit1 (one call per
# package with initialisation), and GODEBUG=inittrace=1 in the same run names the packages
# in the same order. Prints "instructions package" lines, largest first, then the sum by
# module. inittrace's own printing adds ~8 k instructions to each package (subtracted).
# valgrind 3.19 stops some runs with SIGILL (the runtime's rdtscp): retried.
#
#   sh testdata/startup/initcost.sh [BIN]      TOP lines (default 40)
set -eu
bin=${1:-./ssa-diff}
here=$(cd "$(dirname "$0")" && pwd)
ex=$here/../examples/hpa-owns-replicas
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
ok=
for try in 1 2 3 4 5 6; do
	rm -f "$d"/cg*
	rc=0
	GODEBUG=asyncpreemptoff=1,inittrace=1 GOGC=off GOMAXPROCS=1 valgrind --tool=callgrind \
		--callgrind-out-file="$d/cg" --dump-before=runtime.doInit1 --dump-after=runtime.doInit1 \
		"$bin" --now 2026-12-02T12:00:00Z "$ex/manifest.yaml" "$ex/live.json" >/dev/null 2>"$d/log" || rc=$?
	if [ "$rc" = 3 ] && ! grep -q SIGILL "$d/log"; then ok=1; break; fi
done
[ -n "$ok" ] || { echo "initcost: no complete run in 6 tries" >&2; exit 1; }
python3 - "$d" "${TOP:-40}" <<'PY'
import collections, glob, os, sys
d, top = sys.argv[1], int(sys.argv[2])
names = [l.split()[1] for l in open(d + "/log") if l.startswith("init ")]
after = []
for f in sorted(glob.glob(d + "/cg.*"), key=lambda f: int(f.rsplit(".", 1)[1])):
    total, trigger = 0, ""
    for l in open(f):
        if l.startswith("totals:"):
            total = int(l.split()[1])
        elif l.startswith("desc: Trigger"):
            trigger = l
    if "dump-after" in trigger:
        after.append(total)
# the runtime's own packages initialise before inittrace is on: the first calls
costs = [c - 8000 for c in after[len(after) - len(names):]]
rows = sorted(zip(costs, names), reverse=True)
print(f"{len(names)} packages, {sum(costs)/1e6:.2f} M instructions of initialisation")
for c, n in rows[:top]:
    print(f"{c:>10,} {n}")
mods = collections.Counter()
for c, n in rows:
    p = n.split("/")
    mods["std" if "." not in p[0] else "/".join(p[:3 if p[0] in ("github.com", "golang.org", "go.yaml.in") else 2])] += c
print("by module:")
for m, c in mods.most_common(top):
    print(f"{c:>10,} {m}")
PY
