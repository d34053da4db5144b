HPA = "horizontalpodautoscalers"

HPA_V2_PLATFORM = """apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: front
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: front}
  minReplicas: 2
  maxReplicas: 8
  metrics:
  - type: Pods
    pods:
      metric: {name: qps}
      target: {type: AverageValue, averageValue: "10"}
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 70}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 120
"""

HPA_V1_LEGACY = """apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: front
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: front}
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
"""


def setup_apply(av, manager, body, text):
    return {"verb": "apply", "apiVersion": av, "resource": HPA, "name": "front", "manager": manager, "body": body, "text": text}


CASES = [
    {
        "name": "hpa-v1-over-v2-metrics-conflict",
        "description": "An HPA applied at autoscaling/v2 by platform with a Pods metric and a CPU target; team-app applies through autoscaling/v1 with another CPU target. v1's targetCPUUtilizationPercentage is v2's spec.metrics, which platform owns (atomic): conflict at autoscaling/v2, compared after converting the object through the internal version.",
        "rules": ["V7", "O10", "C1"],
        "setup": [setup_apply("autoscaling/v2", "platform", HPA_V2_PLATFORM, "apply as platform at autoscaling/v2: Pods metric qps and CPU 70%, behavior.scaleDown")],
        "liveAt": ("autoscaling/v1", HPA),
        "request": {"apiVersion": "autoscaling/v1", "resource": HPA, "name": "front", "manager": "team-app",
                    "body": """apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: front
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: front}
  maxReplicas: 8
  targetCPUUtilizationPercentage: 60
"""},
    },
    {
        "name": "hpa-v1-over-v2-metrics-force",
        "description": "The same apply through autoscaling/v1, forced: team-app takes spec.metrics from platform (its v2 entry loses it), and the answer at v1 keeps the Pods metric and the behavior in annotations.",
        "rules": ["V7", "O10", "F1"],
        "setup": [setup_apply("autoscaling/v2", "platform", HPA_V2_PLATFORM, "apply as platform at autoscaling/v2: Pods metric qps and CPU 70%, behavior.scaleDown")],
        "liveAt": ("autoscaling/v2", HPA),
        "request": {"apiVersion": "autoscaling/v1", "resource": HPA, "name": "front", "manager": "team-app", "force": True,
                    "body": """apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: front
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: front}
  maxReplicas: 8
  targetCPUUtilizationPercentage: 60
"""},
    },
    {
        "name": "hpa-v1-over-v2-keeps-annotations",
        "description": "A v1 apply that changes only labels and maxReplicas over an HPA with metrics v1 cannot express: no conflict (same maxReplicas owner value), the answer at v1 carries the other metrics, the behavior and the current state in annotations; the stored metrics come back in v1's order.",
        "rules": ["V7"],
        "setup": [setup_apply("autoscaling/v2", "platform", HPA_V2_PLATFORM, "apply as platform at autoscaling/v2: Pods metric qps and CPU 70%, behavior.scaleDown")],
        "liveAt": ("autoscaling/v2", HPA),
        "request": {"apiVersion": "autoscaling/v1", "resource": HPA, "name": "front", "manager": "labeller",
                    "body": """apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: front
  labels: {tier: web}
"""},
    },
    {
        "name": "hpa-v2-over-v1-conflict",
        "description": "An HPA applied at autoscaling/v1 by legacy (targetCPUUtilizationPercentage 50); platform applies at autoscaling/v2 with its own metrics: legacy owns the v1 field, which is v2's spec.metrics: conflict using autoscaling/v1.",
        "rules": ["V7", "O10", "C1"],
        "setup": [setup_apply("autoscaling/v1", "legacy", HPA_V1_LEGACY, "apply as legacy at autoscaling/v1: maxReplicas 5, targetCPUUtilizationPercentage 50")],
        "liveAt": ("autoscaling/v1", HPA),
        "request": {"apiVersion": "autoscaling/v2", "resource": HPA, "name": "front", "manager": "platform", "body": HPA_V2_PLATFORM},
    },
    {
        "name": "hpa-v2-over-v1-force",
        "description": "The same apply at autoscaling/v2, forced: platform takes spec.maxReplicas and the CPU target from legacy, whose v1 entry keeps what it still owns.",
        "rules": ["V7", "O10", "F1"],
        "setup": [setup_apply("autoscaling/v1", "legacy", HPA_V1_LEGACY, "apply as legacy at autoscaling/v1: maxReplicas 5, targetCPUUtilizationPercentage 50")],
        "liveAt": ("autoscaling/v2", HPA),
        "request": {"apiVersion": "autoscaling/v2", "resource": HPA, "name": "front", "manager": "platform", "force": True, "body": HPA_V2_PLATFORM},
    },
    {
        "name": "hpa-v2-same-values-over-v1",
        "description": "platform applies at autoscaling/v2 exactly what legacy's v1 apply said (CPU 50%, maxReplicas 5): no conflict, the two managers co-own, each at its own version.",
        "rules": ["V7", "O10", "B2"],
        "setup": [setup_apply("autoscaling/v1", "legacy", HPA_V1_LEGACY, "apply as legacy at autoscaling/v1: maxReplicas 5, targetCPUUtilizationPercentage 50")],
        "liveAt": ("autoscaling/v1", HPA),
        "request": {"apiVersion": "autoscaling/v2", "resource": HPA, "name": "front", "manager": "platform",
                    "body": """apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: front
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: front}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 50}
"""},
    },
    {
        "name": "unserved-apps-v1beta1-deployment",
        "description": "A PATCH to apps/v1beta1, a version of a served group that kube-apiserver 1.37 no longer serves: the group's handler answers 404 NotFound.",
        "rules": ["V5"],
        "families": ["unserved"],
        "request": {"apiVersion": "apps/v1beta1", "resource": "deployments", "name": "web", "manager": "deployer",
                    "body": """apiVersion: apps/v1beta1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
"""},
    },
    {
        "name": "unserved-unknown-kind-in-apps",
        "description": "A PATCH for a kind the apps/v1 group does not have (a typo): 404 NotFound from the group's handler.",
        "rules": ["V5"],
        "families": ["unserved"],
        "request": {"apiVersion": "apps/v1", "resource": "deploymnets", "name": "web", "manager": "deployer",
                    "body": """apiVersion: apps/v1
kind: Deploymnet
metadata:
  name: web
"""},
    },
    {
        "name": "unserved-kubectl-apps-v1beta1",
        "description": "kubectl apply --server-side of a Deployment at apps/v1beta1: kubectl finds no such kind in discovery and sends nothing; it exits 1.",
        "rules": ["V5"],
        "families": ["unserved"],
        "request": {"mode": "kubectl", "apiVersion": "apps/v1", "resource": "deployments", "name": "web", "code": 404,
                    "body": """apiVersion: apps/v1beta1
kind: Deployment
metadata:
  name: web
  namespace: unserved-kubectl-apps-v1beta1
spec:
  replicas: 1
"""},
    },
]

GADGET_CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.probe.example.com
spec:
  group: probe.example.com
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              color: {type: string}
"""

CASES += [
    {
        "name": "crd-none-v1-over-v2-conflict",
        "description": "A custom resource written at v2 by ops (size 3, tags a and b); team applies at v1 (conversion strategy None: apiVersion rewritten, fields kept) with size 4 and tag c: conflict with ops on .spec.size, compared at v2; the set items merge.",
        "rules": ["V7", "O10", "C1"],
        "crds": GADGET_CRD,
        "setup": [{"verb": "apply", "apiVersion": "probe.example.com/v2", "resource": "gadgets", "name": "g1", "manager": "ops",
                   "body": "apiVersion: probe.example.com/v2\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 3\n  tags: [a, b]\n  color: red\n",
                   "text": "apply as ops at probe.example.com/v2: size 3, tags a and b, color red"}],
        "liveAt": ("probe.example.com/v2", "gadgets"),
        "request": {"apiVersion": "probe.example.com/v1", "resource": "gadgets", "name": "g1", "manager": "team",
                    "body": "apiVersion: probe.example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 4\n  tags: [c]\n"},
    },
    {
        "name": "crd-none-v1-over-v2-shared",
        "description": "The same custom resource; team applies at v1 ops' size and a new tag: no conflict, team co-owns .spec.size at v1 and owns its tag; color (unknown to v1) stays.",
        "rules": ["V7", "O10", "B2"],
        "crds": GADGET_CRD,
        "setup": [{"verb": "apply", "apiVersion": "probe.example.com/v2", "resource": "gadgets", "name": "g1", "manager": "ops",
                   "body": "apiVersion: probe.example.com/v2\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 3\n  tags: [a, b]\n  color: red\n",
                   "text": "apply as ops at probe.example.com/v2: size 3, tags a and b, color red"}],
        "liveAt": ("probe.example.com/v2", "gadgets"),
        "request": {"apiVersion": "probe.example.com/v1", "resource": "gadgets", "name": "g1", "manager": "team",
                    "body": "apiVersion: probe.example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 3\n  tags: [c]\n"},
    },
]
