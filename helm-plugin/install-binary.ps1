# Windows: puts the plugin's binary in $env:HELM_PLUGIN_DIR\bin (see install-binary.sh).
$ErrorActionPreference = "Stop"
$dir = $env:HELM_PLUGIN_DIR
$bin = Join-Path $dir "bin\helm-ssa-diff.exe"
if (Test-Path $bin) { exit 0 }
New-Item -ItemType Directory -Force -Path (Join-Path $dir "bin") | Out-Null
$env:GOBIN = Join-Path $dir "bin"
$env:CGO_ENABLED = "0"
$version = if ($env:SSA_DIFF_VERSION) { $env:SSA_DIFF_VERSION } else { "latest" }
go install -tags kustomize_disable_go_plugin_support "github.com/ssa-diff/ssa-diff/cmd/helm-ssa-diff@$version"
