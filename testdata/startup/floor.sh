#!/bin/sh
# The floor under ssa-diff's start-up: what a program costs that links the third-party
# packages ssa-diff's own packages import and does nothing (it prints "hello"), and the same
# program without the groups a plain run does not use — CEL (cel-go, cel.dev/expr, genproto,
# k8s.io/apiserver's CEL packages, the protobuf packages they import), the cluster client
# (client-go) and kustomize — and one linking only the core a plain run cannot do without
# (structured-merge-diff, apimachinery, kube-openapi, the YAML and JSON libraries, pflag). Go initialises every package a binary links before main, so
# these programs are what moving a group behind a helper program (as ssa-diff-admission)
# could save at most; docs/performance.md reads their figures.
#
#   sh testdata/startup/floor.sh [BIN]    (from the repository's root; RUNS rounds, default 40)
#
# Each program, hello-world and BIN's plain run (the example of startup.sh) run in turn in
# the same loop; printed: binary size, medians of wall and CPU time and their ratio to
# hello-world. With INSTR=1 also each program's instructions (callgrind; GOGC=off
# GOMAXPROCS=1, as initcost.sh).
set -eu
bin=${1:-./ssa-diff}
RUNS=${RUNS:-40}
TAGS=${TAGS:-kustomize_disable_go_plugin_support}
here=$(dirname "$0")
# Inside the module (so its go.mod picks every version); "_" keeps ./... patterns off it.
work=$(mktemp -d ./_floor.XXXXXX)
trap 'rm -rf "$work"' EXIT
go list -tags "$TAGS" -deps -json . >"$work/deps.json"
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
dec, text, i, pkgs = json.JSONDecoder(), open(work + "/deps.json").read(), 0, []
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i == len(text):
        break
    p, i = dec.raw_decode(text, i)
    pkgs.append(p)
mod = "github.com/ssa-diff/ssa-diff"
own = [p for p in pkgs if p["ImportPath"] == mod or p["ImportPath"].startswith(mod + "/")]
third = sorted({imp for p in own for imp in p.get("Imports", [])
                if "." in imp.split("/")[0] and not imp.startswith(mod) and "/internal/" not in imp})
cel = ("github.com/google/cel-go", "cel.dev/expr", "google.golang.org/genproto", "google.golang.org/protobuf",
       "k8s.io/apiserver/pkg/cel", "k8s.io/apiserver/pkg/apis/cel")
groups = {
    "all": (),
    "no-cel": cel,
    "no-cel-client": cel + ("k8s.io/client-go",),
    "no-cel-client-kustomize": cel + ("k8s.io/client-go", "sigs.k8s.io/kustomize"),
}
# The libraries the merge core, the schemas, defaulting and validation of built-in kinds
# are built on, which no plain run can do without: everything else left out.
core = ("sigs.k8s.io/structured-merge-diff", "k8s.io/apimachinery", "k8s.io/kube-openapi",
        "sigs.k8s.io/yaml", "sigs.k8s.io/json", "go.yaml.in", "k8s.io/utils", "github.com/spf13/pflag")
groups["core"] = tuple(imp for imp in third if not imp.startswith(core))
for name, cut in groups.items():
    os.makedirs(f"{work}/{name}")
    with open(f"{work}/{name}/main.go", "w") as f:
        f.write('package main\n\nimport (\n\t"fmt"\n\n')
        for imp in third:
            if not imp.startswith(cut):
                f.write(f'\t_ "{imp}"\n')
        f.write(')\n\nfunc main() { fmt.Println("hello") }\n')
PY
mkdir -p "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hello/main.go"
for p in hello all no-cel no-cel-client no-cel-client-kustomize core; do
	CGO_ENABLED=0 go build -trimpath -tags "$TAGS" -o "$work/bin/$p" "./$work/$p"
done
ex=$here/../examples/hpa-owns-replicas
python3 - "$work/bin" "$bin" "$ex" "$RUNS" "${INSTR:-}" <<'PY'
import os, resource, statistics, subprocess, sys, time
bindir, ssadiff, ex, runs, instr = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
names = ["hello", "all", "no-cel", "no-cel-client", "no-cel-client-kustomize", "core"]
cmds = [(n, [f"{bindir}/{n}"]) for n in names]
cmds.append(("ssa-diff plain", [ssadiff, "--now", "2026-12-02T12:00:00Z", ex + "/manifest.yaml", ex + "/live.json"]))
def once(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
walls, cpus = [[] for _ in cmds], [[] for _ in cmds]
for r in range(runs + 3):
    for i, (_, c) in enumerate(cmds):
        w, c = once(c)
        if r >= 3:
            walls[i].append(w)
            cpus[i].append(c)
def instructions(cmd):
    env = dict(os.environ, GODEBUG="asyncpreemptoff=1", GOGC="off", GOMAXPROCS="1")
    for _ in range(6):  # valgrind 3.19 stops some runs with SIGILL (the runtime's rdtscp)
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if "SIGILL" not in p.stderr:
            for l in p.stderr.splitlines():
                if "Collected" in l:
                    return f"{int(l.split()[-1]) / 1e6:.2f} M"
    return "?"
w0, c0 = statistics.median(walls[0]), statistics.median(cpus[0])
print(f"medians of {runs} runs, in turn; ratios to hello-world ({w0*1000:.2f} ms wall, {c0*1000:.2f} ms CPU)")
for i, (name, cmd) in enumerate(cmds):
    w, c = statistics.median(walls[i]), statistics.median(cpus[i])
    size = os.path.getsize(cmd[0])
    extra = f"  {instructions(cmd)} instructions" if instr else ""
    print(f"{name:26s} {size/1e6:6.1f} MB  wall {w*1000:7.2f} ms {w/w0:5.2f}x  CPU {c*1000:7.2f} ms {c/c0:5.2f}x{extra}")
PY
