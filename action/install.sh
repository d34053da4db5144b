#!/usr/bin/env bash
# Installs ssa-diff for the GitHub Action (action.yml) into $RUNNER_TEMP/ssa-diff/bin and adds
# it to $GITHUB_PATH: an ssa-diff already on the PATH is kept; SSA_DIFF_VERSION downloads
# that release's archive and checks it against the release's checksums; otherwise the
# action's own source ($GITHUB_ACTION_PATH) is built as the release build does.
set -euo pipefail
if command -v ssa-diff >/dev/null 2>&1 && [ -z "${SSA_DIFF_VERSION:-}" ]; then
	echo "ssa-diff: using $(command -v ssa-diff)"
	exit 0
fi
bin="${RUNNER_TEMP:-/tmp}/ssa-diff/bin"
mkdir -p "$bin"
if [ -n "${SSA_DIFF_VERSION:-}" ]; then
	version="${SSA_DIFF_VERSION#v}"
	case "$(uname -s)" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	*) os=windows ;;
	esac
	case "$(uname -m)" in
	x86_64 | amd64) arch=amd64 ;;
	*) arch=arm64 ;;
	esac
	ext=tar.gz
	[ "$os" = windows ] && ext=zip
	archive="ssa-diff_${version}_${os}_${arch}.${ext}"
	base="https://github.com/ssa-diff/ssa-diff/releases/download/v${version}"
	tmp=$(mktemp -d)
	curl -fsSL -o "$tmp/$archive" "$base/$archive"
	curl -fsSL -o "$tmp/checksums.txt" "$base/checksums.txt"
	(cd "$tmp" && grep " $archive\$" checksums.txt | sha256sum -c -)
	if [ "$ext" = zip ]; then
		unzip -q -o "$tmp/$archive" -d "$tmp/x"
	else
		mkdir -p "$tmp/x" && tar -xzf "$tmp/$archive" -C "$tmp/x"
	fi
	cp "$tmp"/x/ssa-diff* "$bin/"
else
	src="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
	(cd "$src" && CGO_ENABLED=0 go build -trimpath -tags kustomize_disable_go_plugin_support -ldflags "-s -w -X github.com/ssa-diff/ssa-diff/cli.linkedVersion=${GITHUB_ACTION_REF:-devel}" -o "$bin/ssa-diff" .)
fi
echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
"$bin/ssa-diff" version
