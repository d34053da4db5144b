#!/usr/bin/env bash
# Runs the gate for the GitHub Action (action.yml): ONE prediction writes the annotations
# on standard output (-o github: the runner reads workflow commands there), and beside them
# the markdown report, the JSON report and (with INPUT_REPORT) the HTML report
# (--output-file FORMAT=PATH, --report-html). The markdown report is appended to
# $GITHUB_STEP_SUMMARY, linking the run's page, where the HTML report is an artifact. The
# step outputs: exit-code (ssa-diff's status), markdown, json and report (the files'
# paths). The step passes on 0 (nothing changes) and 1 (changes) and fails with ssa-diff's
# status on any other: 2 (could not predict), 3 (the server would reject), 4 (a policy).
#
# Inputs come from the environment: INPUT_MANIFESTS (paths), INPUT_LIVE (a path or empty),
# INPUT_ARGS (flags, split at whitespace), INPUT_SUMMARY and INPUT_REPORT (true or false).
set -uo pipefail
SSA_DIFF=${SSA_DIFF:-ssa-diff}
read -r -a manifests <<<"${INPUT_MANIFESTS:-}"
read -r -a extra <<<"${INPUT_ARGS:-}"
if [ "${#manifests[@]}" -eq 0 ]; then
	echo "::error title=ssa-diff::the action's manifests input is empty"
	echo "exit-code=2" >>"${GITHUB_OUTPUT:-/dev/null}"
	exit 2
fi
args=("${extra[@]}")
for m in "${manifests[@]}"; do
	args+=(-f "$m")
done
[ -n "${INPUT_LIVE:-}" ] && args+=("$INPUT_LIVE")

out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ssa-diff"
mkdir -p "$out"
markdown="$out/report.md" json="$out/report.json" report=""
rm -f "$markdown" "$json"
files=(--output-file "markdown=$markdown" --output-file "json=$json")
if [ "${INPUT_REPORT:-true}" = true ]; then
	report="$out/ssa-diff-report.html"
	rm -f "$report"
	files+=(--report-html "$report")
	if [ -n "${GITHUB_RUN_ID:-}" ]; then
		# The run's page lists its artifacts, the report among them.
		files+=(--report-url "${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/${GITHUB_RUN_ID}")
	fi
fi
"$SSA_DIFF" "${args[@]}" -o github "${files[@]}"
status=$?

{
	echo "exit-code=$status"
	[ -f "$markdown" ] && echo "markdown=$markdown"
	[ -f "$json" ] && echo "json=$json"
	[ -n "$report" ] && [ -f "$report" ] && echo "report=$report"
} >>"${GITHUB_OUTPUT:-/dev/null}"
if [ "${INPUT_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$markdown" ]; then
	cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
fi
case $status in
0 | 1) exit 0 ;;
2) echo "::error title=ssa-diff::exit 2: ssa-diff could not predict (see the log above)" ;;
3) echo "::error title=ssa-diff::exit 3: the server would reject at least one apply" ;;
4) echo "::error title=ssa-diff::exit 4: a --fail-on or --protect policy fails" ;;
*) echo "::error title=ssa-diff::exit $status" ;;
esac
exit "$status"
