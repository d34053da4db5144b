#!/usr/bin/env bash
# Installs ssa-diff for the GitHub Action (action.yml) into $RUNNER_TEMP/ssa-diff/bin and adds
# that directory to $GITHUB_PATH.
#
# By default it downloads a release: SSA_DIFF_VERSION (v1.2.3 or latest); empty, the tag
# the action is used at (GITHUB_ACTION_REF, when it is one: uses: ssa-diff/ssa-diff@v1.2.3),
# else the latest release (GitHub's API). The archive for RUNNER_OS and RUNNER_ARCH and the
# release's checksums.txt come from SSA_DIFF_DOWNLOAD_URL/TAG/; an archive whose SHA-256
# is not the one checksums.txt gives it is refused. SSA_DIFF_BUILD=true builds the action's
# own source ($GITHUB_ACTION_PATH) with Go instead, as the release build does.
set -euo pipefail

fail() {
	echo "::error title=ssa-diff install::$*"
	exit 1
}

bin="${RUNNER_TEMP:-/tmp}/ssa-diff/bin"
mkdir -p "$bin"

if [ "${SSA_DIFF_BUILD:-false}" = true ]; then
	src="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
	exe=ssa-diff
	[ "${RUNNER_OS:-}" = Windows ] && exe=ssa-diff.exe
	commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
	(cd "$src" && CGO_ENABLED=0 go build -trimpath -tags kustomize_disable_go_plugin_support \
		-ldflags "-s -w -X github.com/ssa-diff/ssa-diff/cli.linkedVersion=${GITHUB_ACTION_REF:-devel} -X github.com/ssa-diff/ssa-diff/cli.linkedCommit=$commit" \
		-o "$bin/$exe" .)
	echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
	"$bin/$exe" version
	exit 0
fi

case "${RUNNER_OS:-}" in
Linux) os=linux ;;
macOS) os=darwin ;;
Windows) os=windows ;;
*) fail "no release for RUNNER_OS '${RUNNER_OS:-}' (Linux, macOS, Windows): set build-from-source: true" ;;
esac
case "${RUNNER_ARCH:-}" in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*) fail "no release for RUNNER_ARCH '${RUNNER_ARCH:-}' (X64, ARM64): set build-from-source: true" ;;
esac

repo=${SSA_DIFF_REPOSITORY:-ssa-diff/ssa-diff}
version=${SSA_DIFF_VERSION:-}
if [ -z "$version" ]; then
	ref=${GITHUB_ACTION_REF:-}
	if [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
		version=$ref
	else
		version=latest
	fi
fi
if [ "$version" = latest ]; then
	auth=()
	[ -n "${GITHUB_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $GITHUB_TOKEN")
	latest=$(curl -fsSL --retry 3 ${auth[@]+"${auth[@]}"} -H "Accept: application/vnd.github+json" "${GITHUB_API_URL:-https://api.github.com}/repos/$repo/releases/latest") ||
		fail "could not read the latest release of $repo"
	version=$(jq -r '.tag_name // empty' <<<"$latest")
	[ -n "$version" ] || fail "the latest release of $repo has no tag"
fi
case "$version" in
v*) ;;
*) version="v$version" ;;
esac

ext=tar.gz
[ "$os" = windows ] && ext=zip
archive="ssa-diff_${version}_${os}_${arch}.${ext}"
base="${SSA_DIFF_DOWNLOAD_URL:-https://github.com/$repo/releases/download}/$version"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/$archive" "$base/$archive" || fail "could not download $base/$archive"
curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$base/checksums.txt" || fail "could not download $base/checksums.txt"

want=$(awk -v name="$archive" '$2 == name { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || fail "$archive is not in the release's checksums.txt"
if command -v sha256sum >/dev/null; then
	got=$(sha256sum "$tmp/$archive" | awk '{ print $1 }')
else
	got=$(shasum -a 256 "$tmp/$archive" | awk '{ print $1 }')
fi
[ "$got" = "$want" ] || fail "$archive refused: its SHA-256 is $got, the release's checksums.txt says $want"

mkdir -p "$tmp/x"
if [ "$ext" = zip ]; then
	if command -v unzip >/dev/null; then
		unzip -q -o "$tmp/$archive" -d "$tmp/x"
	else
		7z x -y -o"$tmp/x" "$tmp/$archive" >/dev/null
	fi
	exe=ssa-diff.exe
else
	tar -xzf "$tmp/$archive" -C "$tmp/x"
	exe=ssa-diff
fi
cp "$tmp/x/$exe" "$bin/$exe"
chmod +x "$bin/$exe"
echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
echo "ssa-diff $version ($archive, SHA-256 $got as checksums.txt says)"
"$bin/$exe" version
