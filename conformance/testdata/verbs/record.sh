#!/bin/sh
# Records the cases of cases.yaml from the kube-apiserver of each ORACLE_HOME given (bin/ with
# kube-apiserver and etcd; start.sh and stop.sh beside it, as
# ../../../../shared/tools/kube-apiserver/README.md builds them), one server at a time, each
# on a fresh etcd, with ../record.py. The newest minor's cases (1.37) are this folder's own
# case folders; an older minor's go to <minor>/ (the minor its /version reports), where the
# Go tests replay them at that minor (TestVerbsCases, cli's TestRecordedVerbs).
#
#   sh record.sh /work/oracle/v1.33.13 /work/oracle/v1.35.4 /work/oracle/v1.36.3
#   sh record.sh /work/oracle/v1.36.3 -- kubectl-debug ephemeral-apply     # some cases only
#   OUT=. sh record.sh /work/oracle/v1.37.2                                # the 1.37 folders
#
# kubectl is the ORACLE_HOME's bin/kubectl, or $KUBECTL for a home without one (1.33–1.36
# here: 1.37's kubectl talks to them; the kubectl cases are kubectl 1.37's requests to an
# older server). The servers run from a temporary copy of start.sh and stop.sh on
# APISERVER_PORT (16483), ETCD_PORT (23783) and ETCD_PEER_PORT (23883). Recording every case
# takes about three minutes per server. Case folders whose case left cases.yaml are removed
# when every case is recorded.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
homes=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do homes="$homes $1"; shift; done
[ "${1:-}" = "--" ] && shift
[ -n "$homes" ] || { echo "usage: record.sh ORACLE_HOME... [-- NAME...]" >&2; exit 2; }
export APISERVER_PORT=${APISERVER_PORT:-16483} ETCD_PORT=${ETCD_PORT:-23783} ETCD_PEER_PORT=${ETCD_PEER_PORT:-23883}
export ETCD_URL=http://127.0.0.1:$ETCD_PORT
out=${OUT:-$here/\{minor\}}
for home in $homes; do
	home=$(cd "$home" && pwd)
	run=$(mktemp -d "${TMPDIR:-/tmp}/ssa-diff-record.XXXXXX")
	ln -s "$home/bin" "$run/bin"
	cp "$home/start.sh" "$home/stop.sh" "$run/"
	trap 'ORACLE_HOME=$run "$run/stop.sh" --wipe >/dev/null; rm -rf "$run"' EXIT INT TERM
	ORACLE_HOME=$run "$run/start.sh" --fresh >/dev/null
	kubectl=$home/bin/kubectl
	[ -x "$kubectl" ] || kubectl=${KUBECTL:?"$home/bin has no kubectl: set KUBECTL"}
	KUBECTL=$kubectl KUBECONFIG=$run/run/kubeconfig python3 "$here/../record.py" --dir "$here" --out "$out" \
		"https://127.0.0.1:$APISERVER_PORT" oracle-admin-token "$run/run/pki/ca.crt" "$@"
	ORACLE_HOME=$run "$run/stop.sh" --wipe >/dev/null
	rm -rf "$run"
	trap - EXIT INT TERM
done
if [ $# -eq 0 ]; then
	names=$(python3 -c 'import sys, yaml; print("\n".join(c["name"] for c in yaml.safe_load(open(sys.argv[1]))))' "$here/cases.yaml")
	for d in "$here"/1.*/*/; do
		[ -d "$d" ] || continue
		n=$(basename "$d")
		echo "$names" | grep -qx "$n" || { echo "removing $d (no such case in cases.yaml)"; rm -rf "$d"; }
	done
fi
