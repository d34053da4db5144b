#!/usr/bin/env bash
# Posts the markdown report (INPUT_MARKDOWN, a file) as a comment on the pull request the
# workflow runs for, or updates the comment posted before: the one whose body starts with
# the hidden marker <!-- ssa-diff-comment: INPUT_COMMENT_KEY -->, so that a pull request
# keeps one comment per gate however often it is pushed to. Through GitHub's REST API
# (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN); the pull request's number from the
# event (GITHUB_EVENT_PATH). The comment's address is the step output comment-url. A token
# that may not comment (a fork's pull request gets a read-only one) is a warning, not a
# failure of the gate.
set -euo pipefail

markdown=${INPUT_MARKDOWN:?INPUT_MARKDOWN is not set}
marker="<!-- ssa-diff-comment: ${INPUT_COMMENT_KEY:-ssa-diff} -->"
pr=$(jq -r '.pull_request.number // (if .issue.pull_request then .issue.number else empty end) // empty' "${GITHUB_EVENT_PATH:-/dev/null}" 2>/dev/null || true)
if [ -z "$pr" ]; then
	echo "::notice title=ssa-diff::not a pull request's workflow run (${GITHUB_EVENT_NAME:-no event}): no comment"
	exit 0
fi
api="${GITHUB_API_URL:-https://api.github.com}/repos/${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}"
headers=(-H "Authorization: Bearer ${GITHUB_TOKEN:-}" -H "Accept: application/vnd.github+json" -H "X-GitHub-Api-Version: 2022-11-28")
body=$(jq -Rs --arg marker "$marker" '{body: ($marker + "\n" + .)}' <"$markdown")

warn() {
	echo "::warning title=ssa-diff comment::$* (the workflow needs permissions: pull-requests: write; a fork's pull request gets a read-only token)"
	exit 0
}

# The comment posted before, if any: the issue's comments, 100 a page.
id=""
page=1
while :; do
	comments=$(curl -fsS --retry 3 "${headers[@]}" "$api/issues/$pr/comments?per_page=100&page=$page") || warn "could not list the comments of #$pr"
	id=$(jq -r --arg marker "$marker" '[.[] | select(.body | startswith($marker))][0].id // empty' <<<"$comments")
	if [ -n "$id" ] || [ "$(jq length <<<"$comments")" -lt 100 ]; then
		break
	fi
	page=$((page + 1))
done

if [ -n "$id" ]; then
	answer=$(curl -fsS --retry 3 -X PATCH "${headers[@]}" -d "$body" "$api/issues/comments/$id") || warn "could not update comment $id on #$pr"
	echo "ssa-diff: updated the comment on #$pr"
else
	answer=$(curl -fsS --retry 3 -X POST "${headers[@]}" -d "$body" "$api/issues/$pr/comments") || warn "could not comment on #$pr"
	echo "ssa-diff: commented on #$pr"
fi
echo "comment-url=$(jq -r '.html_url // empty' <<<"$answer")" >>"${GITHUB_OUTPUT:-/dev/null}"
