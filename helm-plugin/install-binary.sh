#!/bin/sh
# Puts the plugin's binary in $HELM_PLUGIN_DIR/bin (Helm runs this on `helm plugin install`
# and, with --force, on `helm plugin update`).
#
# Installed from a release (helm plugin install …/ssa-diff-X.Y.Z.tgz), the plugin holds
# release-tag: the archive of this platform, helm-ssa-diff_TAG_OS_ARCH.tar.gz, is
# downloaded from the release (or from $SSA_DIFF_RELEASE_URL, a folder holding the
# release's files: a mirror, or a local copy) with the release's checksums.txt, and its
# SHA-256 checked before the binary is unpacked; a mismatch or a missing entry fails the
# install. Installed from a clone (helm plugin install ./helm-plugin), the binary is built
# with go from the clone; otherwise installed with `go install` from the module proxy
# ($SSA_DIFF_VERSION, default latest).
set -eu
dir=${HELM_PLUGIN_DIR:?HELM_PLUGIN_DIR is not set: run through helm plugin install}
bin=$dir/bin/helm-ssa-diff
mode=${1:-install} # --force: helm plugin update
if [ "$mode" != "--force" ] && [ -x "$bin" ]; then
	exit 0
fi
fail() {
	echo "helm ssa-diff: $*" >&2
	if [ "$mode" != "--force" ]; then
		# Helm keeps the folder of a plugin whose install hook failed: it is listed, cannot
		# run, and a second install says "plugin already exists".
		echo "helm ssa-diff: the plugin is not usable: helm plugin uninstall ssa-diff, then install it again" >&2
	fi
	exit 1
}
fetch() { # URL FILE
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$2" "$1" || fail "could not download $1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1" || fail "could not download $1"
	else
		fail "neither curl nor wget is installed: download $1 yourself"
	fi
}
sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}
# listed warns when Helm installed the plugin outside the folders it lists and runs plugins
# from: Helm 4.3 installs an archive (a file or a URL) in $HELM_DATA_HOME/plugins even when
# HELM_PLUGINS names other folders (helm/helm#32646), where `helm plugin list` does not see it.
listed() {
	[ -n "${HELM_PLUGINS:-}" ] || return 0
	parent=$(cd "$(dirname "$dir")" && pwd -P)
	first=
	old_ifs=$IFS
	IFS=:
	for p in $HELM_PLUGINS; do
		[ -n "$first" ] || first=$p
		if [ -d "$p" ] && [ "$(cd "$p" && pwd -P)" = "$parent" ]; then
			IFS=$old_ifs
			return 0
		fi
	done
	IFS=$old_ifs
	echo "helm ssa-diff: Helm installed the plugin in $dir, but HELM_PLUGINS=$HELM_PLUGINS does not include $parent: \`helm plugin list\` will not list it nor \`helm ssa-diff\` run it (Helm installs archives in \$HELM_DATA_HOME/plugins whatever HELM_PLUGINS says, helm/helm#32646). Move it: mkdir -p \"$first\" && mv \"$dir\" \"$first/\" (or install with HELM_PLUGINS unset)" >&2
}
mkdir -p "$dir/bin"
if [ -f "$dir/release-tag" ]; then
	tag=$(cat "$dir/release-tag")
	os=$(uname -s | tr '[:upper:]' '[:lower:]')
	case $os in
	linux | darwin) ;;
	*) fail "no release archive for the OS $os (linux, darwin; windows runs install-binary.ps1)" ;;
	esac
	case $(uname -m) in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) fail "no release archive for the architecture $(uname -m) (amd64, arm64)" ;;
	esac
	base=${SSA_DIFF_RELEASE_URL:-https://github.com/ssa-diff/ssa-diff/releases/download/$tag}
	name=helm-ssa-diff_${tag}_${os}_${arch}.tar.gz
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	fetch "$base/$name" "$tmp/$name"
	fetch "$base/checksums.txt" "$tmp/checksums.txt"
	want=$(awk -v n="$name" '$2 == n { print $1 }' "$tmp/checksums.txt")
	[ -n "$want" ] || fail "$base/checksums.txt lists no $name"
	got=$(sha256 "$tmp/$name")
	[ "$got" = "$want" ] || fail "$name: SHA-256 $got, checksums.txt says $want: not installed"
	tar -xzf "$tmp/$name" -C "$tmp" helm-ssa-diff || fail "$name holds no helm-ssa-diff"
	chmod 0755 "$tmp/helm-ssa-diff"
	mv "$tmp/helm-ssa-diff" "$bin"
	echo "helm ssa-diff: installed $bin ($name, SHA-256 checked)"
	listed
	exit 0
fi
src=$(cd "$dir" && pwd -P)/..
if [ -f "$src/go.mod" ] && grep -q '^module github.com/ssa-diff/ssa-diff$' "$src/go.mod"; then
	(cd "$src" && CGO_ENABLED=0 go build -tags kustomize_disable_go_plugin_support -o "$bin" ./cmd/helm-ssa-diff)
else
	GOBIN=$dir/bin CGO_ENABLED=0 go install -tags kustomize_disable_go_plugin_support "github.com/ssa-diff/ssa-diff/cmd/helm-ssa-diff@${SSA_DIFF_VERSION:-latest}"
fi
echo "helm ssa-diff: installed $bin"
listed
