# Windows: puts the plugin's binary in $env:HELM_PLUGIN_DIR\bin (see install-binary.sh):
# from a release, helm-ssa-diff_TAG_windows_ARCH.zip downloaded (from the release, or
# $env:SSA_DIFF_RELEASE_URL) and checked against the release's checksums.txt; otherwise
# installed with go install.
$ErrorActionPreference = "Stop"
$dir = $env:HELM_PLUGIN_DIR
$bin = Join-Path $dir "bin\helm-ssa-diff.exe"
if ((Test-Path $bin) -and ($args[0] -ne "--force")) { exit 0 }
New-Item -ItemType Directory -Force -Path (Join-Path $dir "bin") | Out-Null
$tagFile = Join-Path $dir "release-tag"
if (Test-Path $tagFile) {
    $tag = (Get-Content $tagFile -Raw).Trim()
    $arch = if ($env:PROCESSOR_ARCHITECTURE -eq "ARM64") { "arm64" } else { "amd64" }
    $base = if ($env:SSA_DIFF_RELEASE_URL) { $env:SSA_DIFF_RELEASE_URL } else { "https://github.com/ssa-diff/ssa-diff/releases/download/$tag" }
    $name = "helm-ssa-diff_${tag}_windows_$arch.zip"
    $tmp = Join-Path ([System.IO.Path]::GetTempPath()) ([System.Guid]::NewGuid())
    New-Item -ItemType Directory -Path $tmp | Out-Null
    try {
        Invoke-WebRequest -UseBasicParsing -Uri "$base/$name" -OutFile (Join-Path $tmp $name)
        Invoke-WebRequest -UseBasicParsing -Uri "$base/checksums.txt" -OutFile (Join-Path $tmp "checksums.txt")
        $want = (Get-Content (Join-Path $tmp "checksums.txt") | Where-Object { ($_ -split "\s+")[1] -eq $name } | ForEach-Object { ($_ -split "\s+")[0] })
        if (-not $want) { throw "checksums.txt lists no $name" }
        $got = (Get-FileHash -Algorithm SHA256 (Join-Path $tmp $name)).Hash.ToLower()
        if ($got -ne $want) { throw "${name}: SHA-256 $got, checksums.txt says ${want}: not installed" }
        Expand-Archive -Path (Join-Path $tmp $name) -DestinationPath $tmp
        Move-Item -Force (Join-Path $tmp "helm-ssa-diff.exe") $bin
    } finally {
        Remove-Item -Recurse -Force $tmp
    }
    exit 0
}
$env:GOBIN = Join-Path $dir "bin"
$env:CGO_ENABLED = "0"
$version = if ($env:SSA_DIFF_VERSION) { $env:SSA_DIFF_VERSION } else { "latest" }
go install -tags kustomize_disable_go_plugin_support "github.com/ssa-diff/ssa-diff/cmd/helm-ssa-diff@$version"
