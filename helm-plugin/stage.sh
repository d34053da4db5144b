#!/bin/sh
# Stages the Helm plugin of a release (goreleaser's before hook, .goreleaser.yaml): the
# plugin's files in helm-plugin/dist/ssa-diff, plugin.yaml's version set to the release's
# (VERSION, semver without its v) and release-tag naming the tag (TAG) whose archives the
# install hook downloads. goreleaser packs that folder as ssa-diff-VERSION.tgz.
#   sh helm-plugin/stage.sh TAG VERSION
set -eu
tag=${1:?usage: stage.sh TAG VERSION}
version=${2:?usage: stage.sh TAG VERSION}
here=$(cd "$(dirname "$0")" && pwd -P)
out=$here/dist/ssa-diff
rm -rf "$here/dist"
mkdir -p "$out"
sed "s/^version: .*/version: $version/" "$here/plugin.yaml" >"$out/plugin.yaml"
grep -q "^version: $version\$" "$out/plugin.yaml"
cp "$here/install-binary.sh" "$here/install-binary.ps1" "$out/"
chmod 0755 "$out/install-binary.sh"
printf '%s\n' "$tag" >"$out/release-tag"
