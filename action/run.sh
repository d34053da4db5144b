#!/usr/bin/env bash
# Runs the gate for the GitHub Action (action.yml): annotations on standard output (the
# runner reads workflow commands there), the markdown report appended to
# $GITHUB_STEP_SUMMARY, the exit status in the step output exit-code; the step fails as
# ssa-diff's exit status says (0 and 1 pass).
#
# Inputs come from the environment: INPUT_MANIFESTS (paths), INPUT_LIVE (a path or empty),
# INPUT_ARGS (flags, split at whitespace), INPUT_SUMMARY (true or false).
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

"$SSA_DIFF" "${args[@]}" -o github
status=$?
if [ "${INPUT_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	# The same prediction once more, as the pull-request report; its status is the first's.
	"$SSA_DIFF" "${args[@]}" -o markdown >>"$GITHUB_STEP_SUMMARY" 2>/dev/null || true
fi
echo "exit-code=$status" >>"${GITHUB_OUTPUT:-/dev/null}"
case $status in
0 | 1) exit 0 ;;
*) exit "$status" ;;
esac
