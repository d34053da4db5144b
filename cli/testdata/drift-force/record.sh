#!/bin/sh
# How live.json, server-refused.txt and server-forced.json were recorded from kube-apiserver
# 1.37.2 (kubectl 1.37.2, KUBECONFIG of a fresh server): the drift example's history in
# namespace drift-force (applied by kubectl, then kubectl annotate, set env and edit), and
# manifest.yaml — which sets terminationGracePeriodSeconds, owned by kubectl edit — applied
# server-side with dry-run: refused with a conflict (server-refused.txt), and with
# --force-conflicts (server-forced.json).
set -eu
cd "$(dirname "$0")"
cat >/tmp/drift-v1.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: drift-force
  annotations:
    team: shop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env:
        - name: MODE
          value: prod
YAML
kubectl create namespace drift-force
kubectl apply --server-side -f /tmp/drift-v1.yaml
kubectl annotate deploy/web -n drift-force oncall=alice
kubectl set env deploy/web -n drift-force DEBUG=true
KUBE_EDITOR="sed -i s/terminationGracePeriodSeconds:\ 30/terminationGracePeriodSeconds:\ 45/" kubectl edit deploy/web -n drift-force
kubectl get deploy web -n drift-force -o json --show-managed-fields >live.json
kubectl apply --server-side --dry-run=server -f manifest.yaml 2>server-refused.txt && exit 1 || true
kubectl apply --server-side --dry-run=server --force-conflicts -f manifest.yaml -o json --show-managed-fields >server-forced.json
