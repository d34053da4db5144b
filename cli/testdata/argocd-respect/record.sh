#!/bin/sh
# How live.json and server-dry-run.json were recorded from kube-apiserver 1.37.2 (kubectl
# 1.37.2, KUBECONFIG of a fresh server): the Deployment of manifest.yaml applied by
# kubectl, then scaled to 5 through /scale by "hpa-controller" (as an autoscaler does);
# server-dry-run.json is what Argo CD sends with RespectIgnoreDifferences=true and
# ignoreDifferences /spec/replicas (application.yaml): manifest.yaml with the live
# replicas (5) and the tracking annotation Argo CD adds, applied server-side by
# argocd-controller.
set -eu
cd "$(dirname "$0")"
kubectl create namespace argocd-respect
kubectl apply --server-side -f manifest.yaml
kubectl patch deploy/chat -n argocd-respect --subresource scale --type merge -p "{\"spec\":{\"replicas\":5}}" --field-manager hpa-controller
kubectl get deploy chat -n argocd-respect -o json --show-managed-fields >live.json
sed 's/replicas: 2/replicas: 5/; s#^  namespace: argocd-respect#  namespace: argocd-respect\n  annotations:\n    argocd.argoproj.io/tracking-id: chat:apps/Deployment:argocd-respect/chat#' manifest.yaml |
	kubectl apply --server-side --field-manager argocd-controller --dry-run=server -f - -o json --show-managed-fields >server-dry-run.json
