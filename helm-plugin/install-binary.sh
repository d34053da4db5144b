#!/bin/sh
# Puts the plugin's binary in $HELM_PLUGIN_DIR/bin (Helm runs this on `helm plugin install`
# and `helm plugin update`): kept when a release archive brought it; built with go from the
# clone the plugin was installed from (helm plugin install ./helm-plugin); otherwise
# installed with `go install` from the module proxy ($SSA_DIFF_VERSION, default latest).
set -eu
dir=${HELM_PLUGIN_DIR:?HELM_PLUGIN_DIR is not set: run through helm plugin install}
bin=$dir/bin/helm-ssa-diff
if [ "${1:-}" != "--force" ] && [ -x "$bin" ]; then
	exit 0
fi
mkdir -p "$dir/bin"
src=$(cd "$dir" && pwd -P)/..
if [ -f "$src/go.mod" ] && grep -q '^module github.com/ssa-diff/ssa-diff$' "$src/go.mod"; then
	(cd "$src" && CGO_ENABLED=0 go build -tags kustomize_disable_go_plugin_support -o "$bin" ./cmd/helm-ssa-diff)
else
	GOBIN=$dir/bin CGO_ENABLED=0 go install -tags kustomize_disable_go_plugin_support "github.com/ssa-diff/ssa-diff/cmd/helm-ssa-diff@${SSA_DIFF_VERSION:-latest}"
fi
echo "helm ssa-diff: installed $bin"
