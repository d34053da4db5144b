#!/bin/sh
# Runs every fuzz target of the main module (or those named) for DURATION each, and writes
# the executions of each to REPORT.
#
#   sh testdata/fuzz/run.sh [-o REPORT] [-m MINIMIZE] DURATION [Target...]
#
# DURATION is 2s, 10m, 1h or seconds. MINIMIZE is -fuzzminimizetime (default 200x). The
# targets are the Fuzz functions of the *_test.go files outside the modules nested in this
# one (conformance/*, the generators). Each package's test binary is built once, with the
# fuzzing instrumentation (`go test -c -fuzz`), and each target runs in its package's folder,
# with go test's fuzz cache: what it finds goes where `go test -fuzz` puts it, a failing input
# to the package's testdata/fuzz/<Target>/.
#
# Why not `go test -fuzz -fuzztime DURATION`: Go 1.26's fuzzing coordinator can report its
# own -fuzztime deadline as a failure, "context deadline exceeded" with no failing input
# (golang/go#75804, a race between the deadline's context and the workers' one; fixed in
# Go 1.27). The time limit here is an interrupt instead, SIGINT to the coordinator alone once
# DURATION is over, which the coordinator takes as a normal end (it stops its workers
# itself); -fuzztime is not given, so the racing deadline does not exist.
#
# Every target runs, failing or not; the exit status is 1 when one failed (its log is
# printed), 0 otherwise. REPORT has one line per target, tab-separated: name, package,
# executions, the time they took (the fuzzer's count, from its last line of statistics),
# and PASS or FAIL.
set -eu
report=
minimize=200x
while [ $# -gt 0 ]; do
	case $1 in
	-o) report=$2; shift 2 ;;
	-m) minimize=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-o REPORT] [-m MINIMIZE] DURATION [Target...]" >&2; exit 2; }
duration=$1
shift
case $duration in
*h) seconds=$((${duration%h} * 3600)) ;;
*m) seconds=$((${duration%m} * 60)) ;;
*s) seconds=${duration%s} ;;
*) seconds=$duration ;;
esac
case $seconds in '' | *[!0-9]*) echo "$0: DURATION $duration: want 2s, 10m, 1h or seconds" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
GO=${GO:-go}
module=$($GO list -m)
cache=$($GO env GOCACHE)/fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The targets: "dir Name" lines, outside the nested modules.
nested=$(find . -name go.mod ! -path ./go.mod -exec dirname {} \; | sed 's|^\./||')
find . -name '*_test.go' ! -path './testdata/*' | sed 's|^\./||' | sort | while read -r f; do
	for n in $nested; do
		case $f in "$n"/*) continue 2 ;; esac
	done
	sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*\*testing\.F).*/\1/p' "$f" | while read -r name; do
		echo "$(dirname "$f") $name"
	done
done >"$work/targets"
if [ $# -gt 0 ]; then
	for want in "$@"; do
		grep " $want\$" "$work/targets" || { echo "$0: no fuzz target $want" >&2; exit 2; }
	done >"$work/chosen"
	mv "$work/chosen" "$work/targets"
fi
echo "== $(wc -l <"$work/targets") fuzz targets, $duration each"

[ -z "$report" ] || : >"$report"
failed=0
built=
while read -r dir name; do
	bin=$work/$(echo "$dir" | tr / _).test
	case " $built " in
	*" $dir "*) ;;
	*)
		"$GO" test -c -fuzz "^$name\$" -o "$bin" "./$dir"
		built="$built $dir"
		;;
	esac
	echo "== $name in ./$dir for $duration"
	log=$work/$name.log
	(cd "$dir" && exec "$bin" -test.run='^$' -test.fuzz="^$name\$" -test.fuzzminimizetime="$minimize" \
		-test.fuzzcachedir="$cache/$module/$dir") >"$log" 2>&1 &
	pid=$!
	# The time limit: SIGINT once DURATION is over, then SIGKILL if it has not stopped a
	# minute later. The clock starts when the coordinator has (its first line of
	# statistics): SIGINT before it handles the signal would kill the test binary, as it
	# did one run in a hundred of 300 ms on a loaded machine. The watcher ends with the
	# target.
	(
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		until grep -q '^fuzz: elapsed' "$log"; do
			kill -0 "$pid" 2>/dev/null || exit 0
			sleep 0.1 & s=$!
			wait "$s"
		done
		sleep "$seconds" & s=$!
		wait "$s"
		kill -INT "$pid" 2>/dev/null || exit 0
		sleep 60 & s=$!
		wait "$s"
		kill -KILL "$pid" 2>/dev/null || true
	) &
	watcher=$!
	status=0
	wait "$pid" || status=$?
	kill "$watcher" 2>/dev/null || true
	wait "$watcher" 2>/dev/null || true
	# The coordinator's last line of statistics has the totals.
	last=$(grep '^fuzz: elapsed: .*execs: ' "$log" | tail -n 1 || true)
	execs=$(echo "$last" | sed -n 's/.*execs: \([0-9]*\) .*/\1/p')
	elapsed=$(echo "$last" | sed -n 's/^fuzz: elapsed: \([^,]*\),.*/\1/p')
	verdict=PASS
	if [ "$status" -ne 0 ] || ! grep -q '^PASS$' "$log"; then
		verdict=FAIL
		failed=1
		cat "$log"
	else
		grep '^fuzz: \|^--- \|^PASS' "$log" | tail -n 3
	fi
	[ -z "$report" ] || printf '%s\t%s\t%s\t%s\t%s\n' "$name" "./$dir" "${execs:-0}" "${elapsed:-0s}" "$verdict" >>"$report"
done <"$work/targets"
[ -z "$report" ] || { echo "== executions per target in $report:"; cat "$report"; }
exit "$failed"
