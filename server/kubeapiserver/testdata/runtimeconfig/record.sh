#!/usr/bin/env bash
# Records, for each --runtime-config of configs.txt, what a real kube-apiserver serves
# (its discovery: "group/version resource" lines, the core group as "/v1") or the error it
# refuses to start with ("error: ..."), into MINOR/NAME.txt.
#
#   APISERVER_PORT=17190 ETCD_PORT=27191 ETCD_PEER_PORT=27192 \
#     sh server/kubeapiserver/testdata/runtimeconfig/record.sh /work/oracle/v1.34.4 /work/oracle/v1.37.2
#
# Each ORACLE is a folder holding bin/kube-apiserver and bin/etcd; it is copied to a
# scratch folder and started there with ../shared/tools/kube-apiserver/start.sh (fresh
# etcd each time), its --runtime-config added. SKIP_RECORDED=1 keeps the recordings that exist.
# (A configuration kube-apiserver crashes on, as 1.34.4 does with v1/configmaps=false — a
# panic in the core storage — is not one to keep: nothing predicts a crash.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shared=${SHARED:-$(cd "$here/../../../.." && pwd)/../shared}
token=oracle-admin-token
for oracle in "$@"; do
  version=$("$oracle/bin/kube-apiserver" --version | sed 's/^Kubernetes v//')
  minor=$(echo "$version" | cut -d. -f1,2)
  home=$(mktemp -d)
  mkdir -p "$home/bin" "$here/$minor"
  cp "$oracle/bin/kube-apiserver" "$oracle/bin/etcd" "$home/bin/"
  grep -v '^[[:space:]]*#' "$here/configs.txt" | while IFS=$'\t' read -r name value; do
    [ -n "$name" ] || continue
    flag=""
    [ -z "$value" ] || flag="--runtime-config=$value"
    sed "s|--disable-admission-plugins=ServiceAccount|--disable-admission-plugins=ServiceAccount $flag|" \
      "$shared/tools/kube-apiserver/start.sh" >"$home/start.sh"
    cp "$shared/tools/kube-apiserver/stop.sh" "$home/stop.sh"
    out="$here/$minor/$name.txt"
    if [ -n "${SKIP_RECORDED:-}" ] && [ -s "$out" ]; then continue; fi
    {
      echo "# kube-apiserver $version --runtime-config='$value' (record.sh)"
      if ORACLE_HOME=$home READY_TIMEOUT=300 bash "$home/start.sh" --fresh >"$home/start.log" 2>&1; then
        python3 "$here/discovery.py" "https://127.0.0.1:$APISERVER_PORT" "$token"
      else
        # The server's own words: the error it exits with.
        grep '"command failed"' "$home/logs/kube-apiserver.log" | tail -1 | sed 's/^/error: /'
      fi
    } >"$out"
    ORACLE_HOME=$home bash "$home/stop.sh" --wipe >/dev/null 2>&1 || true
    if [ "$(grep -vc '^#' "$out")" = 0 ]; then
      # Not ready in time (a loaded machine), or a crash: nothing to keep; a rerun with
      # SKIP_RECORDED=1 tries again.
      rm -f "$out"
      echo "$minor $name: not recorded (see $home/logs/kube-apiserver.log)"
      continue
    fi
    echo "$minor $name: $(grep -vc '^#' "$out") lines"
  done
  rm -rf "$home"
done
