#!/bin/sh
# Records the cases of cases.yaml from the kube-apiserver of each ORACLE_HOME given (bin/ with
# kube-apiserver, etcd and that release's kubectl; start.sh and stop.sh beside it, as
# ../../../../shared/tools/kube-apiserver/README.md builds them), one server at a time, each
# on a fresh etcd, into <minor>/ (the minor its /version reports), with ../record.py
# --admission: the server runs its whole default admission chain — start.sh disables the
# ServiceAccount plugin, this copy of it does not — every case namespace gets its default
# ServiceAccount, and each case its admission.json. The token's user is in group
# system:masters and the server authorizes everything (--authorization-mode=AlwaysAllow):
# the cases say so (authorization).
#
#   sh record.sh /work/oracle/v1.37.2
#   sh record.sh /work/oracle/v1.37.2 -- vap-deny psa-restricted-pod     # some cases only
#   KUBECTL=/work/oracle/v1.37.2/bin/kubectl sh record.sh /work/oracle/v1.33.13 /work/oracle/v1.35.4
#
# kubectl is the ORACLE_HOME's bin/kubectl, or $KUBECTL for a home without one (1.37's
# kubectl talks to the older servers). A case with minMinor is recorded from servers of
# that minor on only (the MutatingAdmissionPolicy cases: admissionregistration.k8s.io/v1
# is served from 1.36; 1.34 and 1.35 serve v1beta1 only with its feature gate on, which a
# default server has off).
#
# The MutatingAdmissionPolicy cases at v1beta1 (gated/, its gen.py), from a 1.34 or 1.35
# server with the gate on:
#
#   DIR=gated SERVER_FLAGS='--feature-gates=MutatingAdmissionPolicy=true --runtime-config=admissionregistration.k8s.io/v1beta1=true' \
#     KUBECTL=/work/oracle/v1.37.2/bin/kubectl sh record.sh /work/oracle/v1.35.4
#
# Ports: APISERVER_PORT (16482), ETCD_PORT (23782), ETCD_PEER_PORT (23882). Case folders
# whose case left cases.yaml are removed when every case is recorded.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${DIR:-$here}
homes=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do homes="$homes $1"; shift; done
[ "${1:-}" = "--" ] && shift
[ -n "$homes" ] || { echo "usage: record.sh ORACLE_HOME... [-- NAME...]" >&2; exit 2; }
export APISERVER_PORT=${APISERVER_PORT:-16482} ETCD_PORT=${ETCD_PORT:-23782} ETCD_PEER_PORT=${ETCD_PEER_PORT:-23882}
for home in $homes; do
	home=$(cd "$home" && pwd)
	run=$(mktemp -d "${TMPDIR:-/tmp}/ssa-diff-record.XXXXXX")
	ln -s "$home/bin" "$run/bin"
	sed "s|--disable-admission-plugins=ServiceAccount|--disable-admission-plugins= ${SERVER_FLAGS:-}|" "$home/start.sh" >"$run/start.sh"
	chmod +x "$run/start.sh"
	cp "$home/stop.sh" "$run/"
	trap 'ORACLE_HOME=$run "$run/stop.sh" --wipe >/dev/null; rm -rf "$run"' EXIT INT TERM
	ORACLE_HOME=$run "$run/start.sh" --fresh >/dev/null
	kubectl=$home/bin/kubectl
	[ -x "$kubectl" ] || kubectl=${KUBECTL:?"$home/bin has no kubectl: set KUBECTL"}
	KUBECTL=$kubectl KUBECONFIG=$run/run/kubeconfig python3 "$here/../record.py" --dir "$dir" --out "$dir/{minor}" \
		--admission --authorization '* *=allow' --authorization '* /*=allow' \
		"https://127.0.0.1:$APISERVER_PORT" oracle-admin-token "$run/run/pki/ca.crt" "$@"
	ORACLE_HOME=$run "$run/stop.sh" --wipe >/dev/null
	rm -rf "$run"
	trap - EXIT INT TERM
done
if [ $# -eq 0 ]; then
	names=$(python3 -c 'import sys, yaml; print("\n".join(c["name"] for c in yaml.safe_load(open(sys.argv[1]))))' "$dir/cases.yaml")
	for d in "$dir"/1.*/*/; do
		[ -d "$d" ] || continue
		n=$(basename "$d")
		echo "$names" | grep -qx "$n" || { echo "removing $d (no such case in cases.yaml)"; rm -rf "$d"; }
	done
fi
