#!/bin/sh
# How live.json and server-dry-run.json were recorded from kube-apiserver 1.37.2 (kubectl
# 1.37.2, KUBECONFIG of a fresh server): the Deployment applied server-side by kubectl with
# an annotation the manifest no longer has (team), then changed on the cluster by kubectl
# annotate (oncall), kubectl set env (DEBUG) and kubectl edit (terminationGracePeriodSeconds
# 30 → 45); server-dry-run.json is the server's answer to manifest.yaml applied server-side.
set -eu
cd "$(dirname "$0")"
cat >/tmp/drift-v1.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: drift-demo
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
kubectl create namespace drift-demo
kubectl apply --server-side -f /tmp/drift-v1.yaml
kubectl annotate deploy/web -n drift-demo oncall=alice
kubectl set env deploy/web -n drift-demo DEBUG=true
KUBE_EDITOR="sed -i s/terminationGracePeriodSeconds:\ 30/terminationGracePeriodSeconds:\ 45/" kubectl edit deploy/web -n drift-demo
kubectl get deploy web -n drift-demo -o json --show-managed-fields >live.json
kubectl apply --server-side --dry-run=server -f manifest.yaml -o json --show-managed-fields >server-dry-run.json
