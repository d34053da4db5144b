#!/usr/bin/env bash
# Runs the gate for the GitHub Action (action.yml): annotations on standard output (the
# runner reads workflow commands there), the HTML report written beside them from the same
# prediction (the action uploads it as an artifact), the markdown report appended to
# $GITHUB_STEP_SUMMARY with a link to the run's page, where the artifact is; the exit
# status in the step output exit-code, the HTML report's path in report; the step fails as
# ssa-diff's exit status says (0 and 1 pass).
#
# Inputs come from the environment: INPUT_MANIFESTS (paths), INPUT_LIVE (a path or empty),
# INPUT_ARGS (flags, split at whitespace), INPUT_SUMMARY and INPUT_REPORT (true or false).
set -uo pipefail
SSA_DIFF=${SSA_DIFF:-ssa-diff}
read -r -a manifests <<<"${INPUT_MANIFESTS:-}"
read -r -a extra <<<"${INPUT_ARGS:-}"
if [ "${#manifests[@]}" -eq 0 ]; then
	echo "::error title=ssa-diff::the action's manifests input is empty"
	exit 2
fi
args=("${extra[@]}")
for m in "${manifests[@]}"; do
	args+=(-f "$m")
done
[ -n "${INPUT_LIVE:-}" ] && args+=("$INPUT_LIVE")

report="" html=() link=()
if [ "${INPUT_REPORT:-true}" = true ]; then
	report="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ssa-diff-report.html"
	html=(--report-html "$report")
	if [ -n "${GITHUB_RUN_ID:-}" ]; then
		# The run's page lists its artifacts, the report among them.
		link=(--report-url "${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/${GITHUB_RUN_ID}")
	fi
fi
"$SSA_DIFF" "${args[@]}" -o github "${html[@]}"
status=$?
if [ "${INPUT_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	# The same prediction once more, as the pull-request report; its status is the first's.
	"$SSA_DIFF" "${args[@]}" -o markdown "${link[@]}" >>"$GITHUB_STEP_SUMMARY" 2>/dev/null || true
fi
echo "exit-code=$status" >>"${GITHUB_OUTPUT:-/dev/null}"
[ -n "$report" ] && [ -f "$report" ] && echo "report=$report" >>"${GITHUB_OUTPUT:-/dev/null}"
case $status in
0 | 1) exit 0 ;;
*) exit "$status" ;;
esac
