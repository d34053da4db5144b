#!/usr/bin/env python3
"""Writes cases.yaml: the admission cases record.sh records (python3 gen.py).

Each case has its own namespace, named like the case; the policies of a case bind to that
namespace alone (namespaceSelector on kubernetes.io/metadata.name), so that the cases
recorded after it, whose admission.json hold it too, are not changed by it.
"""
import sys

import yaml

cases = []


def block(dumper, s):
    """Multi-line strings (the objects) as literal blocks."""
    if "\n" in s:
        return dumper.represent_scalar("tag:yaml.org,2002:str", s, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", s)


yaml.SafeDumper.add_representer(str, block)


def dump(obj):
    return yaml.safe_dump(obj, sort_keys=False)


def deploy(ns, replicas=5, labels=None, name="web"):
    md = {"name": name, "namespace": ns}
    if labels:
        md["labels"] = labels
    return dump({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": md,
                 "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                          "template": {"metadata": {"labels": {"app": name}},
                                       "spec": {"containers": [{"name": name, "image": "nginx:1.27"}]}}}})


def vap(name, rules, validations, extra=None):
    spec = {"matchConstraints": {"resourceRules": rules}, "validations": validations}
    if extra:
        spec.update(extra)
    return dump({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
                 "metadata": {"name": name}, "spec": spec})


def binding(name, policy, ns, actions=("Deny",), extra=None):
    spec = {"policyName": policy, "validationActions": list(actions),
            "matchResources": {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": ns}}}}
    if extra:
        spec.update(extra)
    return dump({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
                 "metadata": {"name": name}, "spec": spec})


DEPLOY_RULE = [{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": ["deployments"]}]
MAX3 = [{"expression": "object.spec.replicas <= 3", "messageExpression": "'replicas must be at most 3, not ' + string(object.spec.replicas)"}]


def policy_case(name, desc, validations=MAX3, actions=("Deny",), manifest=None, rules=DEPLOY_RULE, pextra=None, bextra=None,
                extra_setup=(), **kw):
    c = {"name": name, "description": desc, "rules": ["admission.validating-policy"], "families": ["admission", "policy"],
         "wait": 2.5,
         "setup": list(extra_setup) + [
             {"what": "ValidatingAdmissionPolicy adm-%s" % name, "manager": "policy-admin",
              "object": vap("adm-" + name, rules, validations, pextra)},
             {"what": "ValidatingAdmissionPolicyBinding adm-%s (%s) for namespace %s" % (name, ", ".join(actions), name),
              "manager": "policy-admin", "object": binding("adm-" + name, "adm-" + name, name, actions, bextra)}],
         "manager": "deployer", "manifest": manifest or deploy(name)}
    c.update(kw)
    cases.append(c)


def cm(ns, name, data, labels=None):
    md = {"name": name, "namespace": ns}
    if labels:
        md["labels"] = labels
    return dump({"apiVersion": "v1", "kind": "ConfigMap", "metadata": md, "data": data})


# ---- ValidatingAdmissionPolicy ---------------------------------------------------------------

policy_case("vap-deny", "A ValidatingAdmissionPolicy whose binding denies: replicas above 3 refused with the messageExpression; "
            "a validation without reason answers 422 Invalid worded as a 403.")
policy_case("vap-deny-reason-forbidden", "A validation with reason Forbidden: 403.",
            validations=[{"expression": "object.spec.replicas <= 3", "message": "too many replicas", "reason": "Forbidden"}])
policy_case("vap-warn", "A Warn binding: the write is admitted with the server's warning.", actions=("Warn",))
policy_case("vap-audit", "An Audit binding: admitted, nothing the client sees.", actions=("Audit",))
policy_case("vap-deny-audit", "Deny and Audit on one binding (Deny and Warn together are refused): refused.",
            actions=("Deny", "Audit"))
policy_case("vap-admitted", "A policy that holds: admitted, no warning.", manifest=deploy("vap-admitted", replicas=2))
policy_case("vap-message-static", "A validation with a message and no messageExpression.",
            validations=[{"expression": "object.spec.replicas <= 3", "message": "at most 3 replicas"}])
policy_case("vap-second-validation", "Two validations, the second failing: its message.",
            validations=[{"expression": "object.metadata.name.size() < 20"},
                         {"expression": "has(object.metadata.labels) && 'team' in object.metadata.labels", "message": "a team label is required"}])
policy_case("vap-expression-message-default", "A failing validation with neither message nor messageExpression: the server words it from the expression.",
            validations=[{"expression": "object.spec.replicas <= 3"}])
policy_case("vap-variables", "Variables used by the validation and the messageExpression.",
            validations=[{"expression": "variables.replicas <= variables.limit",
                          "messageExpression": "'replicas ' + string(variables.replicas) + ' above ' + string(variables.limit)"}],
            pextra={"variables": [{"name": "replicas", "expression": "object.spec.replicas"},
                                  {"name": "limit", "expression": "has(object.metadata.labels) && 'big' in object.metadata.labels ? 10 : 2"}]})
policy_case("vap-match-conditions", "matchConditions that exclude the object: admitted although the validation fails.",
            pextra={"matchConditions": [{"name": "not-canary", "expression": "!has(object.metadata.labels) || !('canary' in object.metadata.labels)"}]},
            manifest=deploy("vap-match-conditions", labels={"canary": "true"}))
policy_case("vap-match-conditions-match", "matchConditions that hold: refused.",
            pextra={"matchConditions": [{"name": "not-canary", "expression": "!has(object.metadata.labels) || !('canary' in object.metadata.labels)"}]})
policy_case("vap-object-selector", "A binding's objectSelector that the object's labels do not match: admitted.",
            bextra={"matchResources": {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "vap-object-selector"}},
                                       "objectSelector": {"matchLabels": {"tier": "prod"}}}})
policy_case("vap-object-selector-match", "A binding's objectSelector that the object's labels match: refused.",
            bextra={"matchResources": {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "vap-object-selector-match"}},
                                       "objectSelector": {"matchLabels": {"tier": "prod"}}}},
            manifest=deploy("vap-object-selector-match", labels={"tier": "prod"}))
policy_case("vap-namespace-object", "A validation reading namespaceObject's labels (the case namespace is labelled max-replicas=2).",
            validations=[{"expression": "object.spec.replicas <= int(namespaceObject.metadata.labels['max-replicas'])",
                          "messageExpression": "'namespace allows ' + namespaceObject.metadata.labels['max-replicas'] + ' replicas'"}],
            namespace={"labels": {"max-replicas": "2"}}, manifest=deploy("vap-namespace-object", replicas=3))
policy_case("vap-namespace-label-selector", "A binding selecting namespaces by a label the case namespace lacks: admitted.",
            bextra={"matchResources": {"namespaceSelector": {"matchLabels": {"env": "prod"}}}})
policy_case("vap-userinfo", "A validation on request.userInfo: the requester (the recording's token) is refused.",
            validations=[{"expression": "request.userInfo.username != 'oracle-admin'",
                          "messageExpression": "'user ' + request.userInfo.username + ' may not deploy here'"}])
policy_case("vap-authorizer", "A validation asking the authorizer: may the requester delete deployments here? The server allows everything, so the policy denies.",
            validations=[{"expression": "!authorizer.group('apps').resource('deployments').namespace(object.metadata.namespace).check('delete').allowed()",
                          "message": "deployers may not be able to delete"}])
policy_case("vap-request-fields", "A validation reading request.operation, request.kind, request.resource and request.options.",
            validations=[{"expression": "false",
                          "messageExpression": "request.operation + ' ' + request.kind.group + '/' + request.kind.version + '/' + request.kind.kind + ' ' + "
                                               "request.resource.resource + ' by ' + request.options.fieldManager + ' as ' + request.options.kind"}])
policy_case("vap-runtime-error-fail", "A validation erroring at run time (a missing key) with failurePolicy Fail: refused with the error.",
            validations=[{"expression": "object.metadata.annotations['owner'] == 'me'"}])
policy_case("vap-runtime-error-ignore", "The same with failurePolicy Ignore: admitted.",
            validations=[{"expression": "object.metadata.annotations['owner'] == 'me'"}], pextra={"failurePolicy": "Ignore"})
policy_case("vap-update-oldobject", "A transition rule on an update: replicas may not drop (live 5, applied 2).",
            validations=[{"expression": "oldObject == null || object.spec.replicas >= oldObject.spec.replicas",
                          "messageExpression": "'replicas may not drop from ' + string(oldObject.spec.replicas)"}],
            extra_setup=[{"what": "apply as deployer: Deployment web with 5 replicas", "manager": "deployer", "object": deploy("vap-update-oldobject", replicas=5)}],
            manifest=deploy("vap-update-oldobject", replicas=2))
policy_case("vap-update-operation-create-only", "A policy on CREATE only: an update of an existing object with too many replicas is admitted.",
            rules=[{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["deployments"]}],
            extra_setup=[{"what": "apply as deployer: Deployment web with 2 replicas", "manager": "deployer",
                          "object": deploy("vap-update-operation-create-only", replicas=2)}],
            manifest=deploy("vap-update-operation-create-only", replicas=6))
policy_case("vap-params-configmap", "paramKind ConfigMap, the binding's paramRef by name in the case namespace: the limit comes from the param.",
            validations=[{"expression": "object.spec.replicas <= int(params.data.maxReplicas)", "messageExpression": "'at most ' + params.data.maxReplicas + ' replicas'"}],
            pextra={"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}},
            bextra={"paramRef": {"name": "limits", "parameterNotFoundAction": "Deny"}},
            extra_setup=[{"what": "ConfigMap limits (maxReplicas 4)", "manager": "policy-admin", "object": cm("vap-params-configmap", "limits", {"maxReplicas": "4"})}])
policy_case("vap-params-missing-deny", "A paramRef to a ConfigMap that does not exist, parameterNotFoundAction Deny: refused.",
            validations=[{"expression": "object.spec.replicas <= int(params.data.maxReplicas)"}],
            pextra={"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}},
            bextra={"paramRef": {"name": "absent", "parameterNotFoundAction": "Deny"}})
policy_case("vap-params-missing-allow", "The same with parameterNotFoundAction Allow: admitted.",
            validations=[{"expression": "object.spec.replicas <= int(params.data.maxReplicas)"}],
            pextra={"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}},
            bextra={"paramRef": {"name": "absent", "parameterNotFoundAction": "Allow"}})
policy_case("vap-params-selector", "A paramRef selecting two ConfigMaps by label: the policy is evaluated once per param, the stricter refuses.",
            validations=[{"expression": "object.spec.replicas <= int(params.data.maxReplicas)", "messageExpression": "params.metadata.name + ' allows ' + params.data.maxReplicas"}],
            pextra={"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}},
            bextra={"paramRef": {"selector": {"matchLabels": {"policy": "replicas"}}, "parameterNotFoundAction": "Deny"}},
            extra_setup=[{"what": "ConfigMap loose (maxReplicas 10)", "manager": "policy-admin",
                          "object": cm("vap-params-selector", "loose", {"maxReplicas": "10"}, {"policy": "replicas"})},
                         {"what": "ConfigMap strict (maxReplicas 1)", "manager": "policy-admin",
                          "object": cm("vap-params-selector", "strict", {"maxReplicas": "1"}, {"policy": "replicas"})}])


def hpa(ns, maxr):
    return dump({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web", "namespace": ns},
                 "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "minReplicas": 1, "maxReplicas": maxr,
                          "targetCPUUtilizationPercentage": 80}})


HPA_V2 = [{"apiGroups": ["autoscaling"], "apiVersions": ["v2"], "operations": ["CREATE", "UPDATE"], "resources": ["horizontalpodautoscalers"]}]
policy_case("vap-match-equivalent", "A rule on autoscaling/v2 HorizontalPodAutoscalers, matchPolicy Equivalent: an autoscaling/v1 request matches, "
            "and the policy sees the object converted to v2.",
            rules=HPA_V2, validations=[{"expression": "object.spec.maxReplicas <= 5 && object.spec.metrics.size() == 1",
                                        "messageExpression": "'maxReplicas ' + string(object.spec.maxReplicas) + ' with ' + string(object.spec.metrics.size()) + ' metric(s) at ' + object.apiVersion"}],
            manifest=hpa("vap-match-equivalent", 8), manager="scaler")
policy_case("vap-match-exact", "The same rule with matchPolicy Exact: the autoscaling/v1 request does not match.",
            rules=HPA_V2, validations=[{"expression": "object.spec.maxReplicas <= 5"}],
            pextra={"matchConstraints": {"resourceRules": HPA_V2, "matchPolicy": "Exact"}},
            manifest=hpa("vap-match-exact", 8), manager="scaler")
policy_case("vap-status-subresource", "A rule on deployments/status: an apply of the status is refused.",
            rules=[{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["UPDATE"], "resources": ["deployments/status"]}],
            validations=[{"expression": "!has(object.status.replicas) || object.status.replicas <= 3", "message": "status says too many"}],
            extra_setup=[{"what": "apply as deployer: Deployment web", "manager": "deployer", "object": deploy("vap-status-subresource", replicas=2)}],
            manifest=dump({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "vap-status-subresource"},
                           "status": {"replicas": 7}}),
            subresource="status", manager="controller")
policy_case("vap-kubectl", "kubectl apply --server-side refused by a policy: kubectl's error text.", mode="kubectl")
cases[-1].pop("manager")
CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.adm.example.com}
spec:
  group: adm.example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
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
"""
policy_case("vap-custom-resource", "A policy on a custom resource: refused.",
            rules=[{"apiGroups": ["adm.example.com"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": ["widgets"]}],
            validations=[{"expression": "object.spec.size < 10", "messageExpression": "'size ' + string(object.spec.size) + ' too big'"}],
            extra_setup=[{"what": "CRD widgets.adm.example.com", "manager": "crd-admin", "object": CRD}],
            manifest=dump({"apiVersion": "adm.example.com/v1", "kind": "Widget", "metadata": {"name": "big", "namespace": "vap-custom-resource"},
                           "spec": {"size": 12}}),
            manager="widgeteer")


# ---- PodSecurity -------------------------------------------------------------------------------

def pod(ns, name="app", security=None, spec_extra=None):
    c = {"name": "app", "image": "nginx:1.27"}
    if security:
        c["securityContext"] = security
    spec = {"containers": [c]}
    if spec_extra:
        spec.update(spec_extra)
    return dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns}, "spec": spec})


RESTRICTED_OK = {"allowPrivilegeEscalation": False, "runAsNonRoot": True, "capabilities": {"drop": ["ALL"]},
                 "seccompProfile": {"type": "RuntimeDefault"}}


def psa(name, desc, labels, manifest, **kw):
    c = {"name": name, "description": desc, "rules": ["admission.pod-security"], "families": ["admission", "pod-security"],
         "namespace": {"labels": labels}, "manager": "deployer", "manifest": manifest}
    c.update(kw)
    cases.append(c)


psa("psa-restricted-pod", "A Pod without a restricted securityContext in a namespace enforcing restricted: 403 with every violation.",
    {"pod-security.kubernetes.io/enforce": "restricted"}, pod("psa-restricted-pod"))
psa("psa-restricted-pod-ok", "A Pod meeting restricted in that namespace: admitted.",
    {"pod-security.kubernetes.io/enforce": "restricted"}, pod("psa-restricted-pod-ok", security=RESTRICTED_OK))
psa("psa-restricted-deployment", "A Deployment whose template violates restricted, where restricted is enforced: admitted with the warning "
    "(enforcement is on Pods).", {"pod-security.kubernetes.io/enforce": "restricted"}, deploy("psa-restricted-deployment", replicas=1))
psa("psa-baseline-host-network", "A Pod on the host network in a namespace enforcing baseline: refused.",
    {"pod-security.kubernetes.io/enforce": "baseline"}, pod("psa-baseline-host-network", spec_extra={"hostNetwork": True}))
psa("psa-warn-level", "warn=restricted alone: the Pod is admitted with the warning.",
    {"pod-security.kubernetes.io/warn": "restricted"}, pod("psa-warn-level"))
psa("psa-audit-level", "audit=restricted alone: admitted, nothing the client sees.",
    {"pod-security.kubernetes.io/audit": "restricted"}, pod("psa-audit-level"))
psa("psa-enforce-and-warn", "enforce=baseline, warn=restricted: a Pod meeting baseline but not restricted is admitted with the restricted warning.",
    {"pod-security.kubernetes.io/enforce": "baseline", "pod-security.kubernetes.io/warn": "restricted"}, pod("psa-enforce-and-warn"))
psa("psa-version-pinned", "enforce=restricted at version v1.23, whose restricted did not yet require seccomp.",
    {"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "v1.23"},
    pod("psa-version-pinned", security={"allowPrivilegeEscalation": False, "runAsNonRoot": True, "capabilities": {"drop": ["ALL"]}}))
cases.append({"name": "psa-namespace-invalid-level", "description": "A Namespace labelled with an unknown enforce level: PodSecurity refuses the namespace.",
              "rules": ["admission.pod-security"], "families": ["admission", "pod-security"], "createNamespace": False, "manager": "admin",
              "manifest": dump({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "psa-namespace-invalid-level",
                                "labels": {"pod-security.kubernetes.io/enforce": "strictest"}}})})

# ---- NamespaceLifecycle --------------------------------------------------------------------------

cases.append({"name": "lifecycle-missing-namespace", "description": "A create into a namespace that does not exist: 404 for the namespace.",
              "rules": ["admission.namespace-lifecycle"], "families": ["admission"], "createNamespace": False, "manager": "deployer",
              "manifest": cm("lifecycle-missing-namespace", "settings", {"a": "1"})})
cases.append({"name": "lifecycle-terminating", "description": "A create into a namespace being deleted (no controller finishes the deletion): 403.",
              "rules": ["admission.namespace-lifecycle"], "families": ["admission"], "manager": "deployer", "deleteNamespace": True,
              "manifest": cm("lifecycle-terminating", "settings", {"a": "1"})})

# ---- default classes, priority -------------------------------------------------------------------

SC = dump({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
           "metadata": {"name": "adm-standard", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
           "provisioner": "example.com/disk"})


def pvc(ns, cls=None):
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
    if cls is not None:
        spec["storageClassName"] = cls
    return dump({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": ns}, "spec": spec})


cases.append({"name": "default-storageclass", "description": "A PersistentVolumeClaim without a class gets the default StorageClass (and the protection finalizer).",
              "rules": ["admission.default-storage-class"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "StorageClass adm-standard, the default", "manager": "storage-admin", "object": SC}], "manifest": pvc("default-storageclass")})
cases.append({"name": "default-storageclass-empty", "description": "storageClassName \"\" asks for no class: kept.",
              "rules": ["admission.default-storage-class"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "StorageClass adm-standard, the default", "manager": "storage-admin", "object": SC}],
              "manifest": pvc("default-storageclass-empty", "")})
IC = dump({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
           "metadata": {"name": "adm-nginx", "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"}},
           "spec": {"controller": "example.com/ingress"}})
cases.append({"name": "default-ingressclass", "description": "An Ingress without a class gets the default IngressClass.",
              "rules": ["admission.default-ingress-class"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "IngressClass adm-nginx, the default", "manager": "net-admin", "object": IC}],
              "manifest": dump({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "web", "namespace": "default-ingressclass"},
                                "spec": {"defaultBackend": {"service": {"name": "web", "port": {"number": 80}}}}})})
cases.append({"name": "priority-class-named", "description": "A Pod naming a PriorityClass the cluster holds gets its value and preemption policy.",
              "rules": ["admission.priority"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "PriorityClass adm-batch (100, Never)", "manager": "sched-admin",
                         "object": dump({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "adm-batch"},
                                         "value": 100, "preemptionPolicy": "Never"})}],
              "manifest": pod("priority-class-named", spec_extra={"priorityClassName": "adm-batch"})})
cases.append({"name": "priority-class-missing", "description": "A Pod naming a PriorityClass that does not exist: 403.",
              "rules": ["admission.priority"], "families": ["admission"], "manager": "deployer",
              "manifest": pod("priority-class-missing", spec_extra={"priorityClassName": "adm-absent"})})

# ---- LimitRanger, RuntimeClass, ServiceAccount ----------------------------------------------

def limitrange(ns, limits):
    return dump({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "limits", "namespace": ns}, "spec": {"limits": limits}})


cases.append({"name": "limitrange-defaults", "description": "A Pod created without resources in a namespace with a LimitRange: its containers get the "
              "default limits and requests, and the annotation says which.",
              "rules": ["admission.limit-ranger"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "LimitRange limits: Container default cpu 500m memory 256Mi, defaultRequest cpu 100m", "manager": "admin",
                         "object": limitrange("limitrange-defaults", [{"type": "Container", "default": {"cpu": "500m", "memory": "256Mi"},
                                                                          "defaultRequest": {"cpu": "100m"}}])}],
              "manifest": dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "limitrange-defaults"},
                                "spec": {"initContainers": [{"name": "init", "image": "busybox:1.37", "resources": {"limits": {"memory": "64Mi"}}}],
                                         "containers": [{"name": "app", "image": "nginx:1.27"}]}})})
cases.append({"name": "limitrange-max", "description": "A Pod whose container's limit is above the LimitRange's max: 403.",
              "rules": ["admission.limit-ranger"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "LimitRange limits: Container max cpu 1", "manager": "admin",
                         "object": limitrange("limitrange-max", [{"type": "Container", "max": {"cpu": "1"}}])}],
              "manifest": pod("limitrange-max", spec_extra={"containers": [{"name": "app", "image": "nginx:1.27",
                                                                            "resources": {"limits": {"cpu": "2"}, "requests": {"cpu": "500m"}}}]})})
cases.append({"name": "limitrange-claim-max", "description": "A PersistentVolumeClaim asking more storage than the LimitRange's max: 403.",
              "rules": ["admission.limit-ranger"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "LimitRange limits: PersistentVolumeClaim max storage 5Gi", "manager": "admin",
                         "object": limitrange("limitrange-claim-max", [{"type": "PersistentVolumeClaim", "max": {"storage": "5Gi"}}])}],
              "manifest": dump({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "limitrange-claim-max"},
                                "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "", "resources": {"requests": {"storage": "10Gi"}}}})})
RC = dump({"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "adm-sandboxed"}, "handler": "runsc",
           "overhead": {"podFixed": {"cpu": "250m", "memory": "120Mi"}},
           "scheduling": {"nodeSelector": {"sandbox": "true"}, "tolerations": [{"key": "sandbox", "operator": "Exists", "effect": "NoSchedule"}]}})
cases.append({"name": "runtimeclass-overhead", "description": "A Pod naming a RuntimeClass gets its overhead, node selector and tolerations.",
              "rules": ["admission.runtime-class"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "RuntimeClass adm-sandboxed (overhead, scheduling)", "manager": "admin", "object": RC}],
              "manifest": pod("runtimeclass-overhead", spec_extra={"runtimeClassName": "adm-sandboxed", "nodeSelector": {"zone": "a"}})})
cases.append({"name": "runtimeclass-missing", "description": "A Pod naming a RuntimeClass that does not exist: 403.",
              "rules": ["admission.runtime-class"], "families": ["admission"], "manager": "deployer",
              "manifest": pod("runtimeclass-missing", spec_extra={"runtimeClassName": "adm-absent"})})
cases.append({"name": "serviceaccount-missing", "description": "A Pod naming a ServiceAccount that does not exist: 403 (after the server's retries).",
              "rules": ["admission.service-account"], "families": ["admission"], "manager": "deployer",
              "manifest": pod("serviceaccount-missing", spec_extra={"serviceAccountName": "builder"})})
cases.append({"name": "serviceaccount-no-automount", "description": "A Pod of an account that does not mount its token and lists an image pull secret: "
              "no token volume, the pull secret.",
              "rules": ["admission.service-account"], "families": ["admission"], "manager": "deployer",
              "setup": [{"what": "ServiceAccount builder (automountServiceAccountToken false, imagePullSecrets registry)", "manager": "admin",
                         "object": dump({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "builder", "namespace": "serviceaccount-no-automount"},
                                         "automountServiceAccountToken": False, "imagePullSecrets": [{"name": "registry"}]})}],
              "manifest": pod("serviceaccount-no-automount", spec_extra={"serviceAccountName": "builder"})})

# ---- MutatingAdmissionPolicy (v1 from 1.36) ---------------------------------------------------

def mutating_case(name, desc, rules, mutations, manifest, extra_setup=(), pextra=None, bextra=None, **kw):
    spec = {"matchConstraints": {"resourceRules": rules}, "mutations": mutations, "reinvocationPolicy": "Never"}
    if pextra:
        spec.update(pextra)
    bspec = {"policyName": "adm-" + name, "matchResources": {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": name}}}}
    if bextra:
        bspec.update(bextra)
    c = {"name": name, "description": desc, "rules": ["admission.mutating-policy"], "families": ["admission", "policy"], "wait": 2.5, "minMinor": 36,
         "setup": list(extra_setup) + [
             {"what": "MutatingAdmissionPolicy adm-" + name, "manager": "policy-admin",
              "object": dump({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicy", "metadata": {"name": "adm-" + name}, "spec": spec})},
             {"what": "MutatingAdmissionPolicyBinding adm-%s for namespace %s" % (name, name), "manager": "policy-admin",
              "object": dump({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicyBinding", "metadata": {"name": "adm-" + name}, "spec": bspec})}],
         "manager": "deployer", "manifest": manifest}
    c.update(kw)
    cases.append(c)


CM_RULES = [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": ["configmaps"]}]
mutating_case("map-apply-configuration", "A MutatingAdmissionPolicy whose ApplyConfiguration adds a label: stored, owned by nobody.",
              CM_RULES, [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": 'Object{metadata: Object.metadata{labels: {"team": "platform"}}}'}}],
              cm("map-apply-configuration", "settings", {"a": "1"}))
mutating_case("map-json-patch", "A JSONPatch mutation adding a label to a Deployment's Pod template.",
              DEPLOY_RULE, [{"patchType": "JSONPatch", "jsonPatch": {"expression": '[JSONPatch{op: "add", path: "/spec/template/metadata/labels/injected", value: "true"}]'}}],
              deploy("map-json-patch", replicas=2))
mutating_case("map-overrides-applied-value", "An update whose applied label the policy overwrites: the server stores the policy's value, "
              "and the applier's managedFields still claim the label.",
              CM_RULES, [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": 'Object{metadata: Object.metadata{labels: {"tier": "gold"}}}'}}],
              dump({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "map-overrides-applied-value", "labels": {"tier": "bronze"}}, "data": {"a": "2"}}),
              extra_setup=[{"what": "apply as deployer: ConfigMap settings", "manager": "deployer",
                            "object": cm("map-overrides-applied-value", "settings", {"a": "1"})}])
mutating_case("map-params", "A mutation whose value comes from a param ConfigMap.",
              CM_RULES, [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": 'Object{metadata: Object.metadata{annotations: {"owner": params.data.owner}}}'}}],
              cm("map-params", "settings", {"a": "1"}),
              extra_setup=[{"what": "ConfigMap defaults (owner platform-team)", "manager": "policy-admin", "object": cm("map-params", "defaults", {"owner": "platform-team"})}],
              pextra={"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}},
              bextra={"paramRef": {"name": "defaults", "parameterNotFoundAction": "Deny"}})
mutating_case("map-then-validating", "A mutating policy adds the label a validating policy requires: admitted (the mutating phase runs first).",
              CM_RULES, [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": 'Object{metadata: Object.metadata{labels: {"checked": "yes"}}}'}}],
              cm("map-then-validating", "settings", {"a": "1"}),
              extra_setup=[{"what": "ValidatingAdmissionPolicy adm-map-then-validating-vap: the label checked is required", "manager": "policy-admin",
                            "object": vap("adm-map-then-validating-vap", CM_RULES, [{"expression": "has(object.metadata.labels) && 'checked' in object.metadata.labels"}])},
                           {"what": "its binding (Deny)", "manager": "policy-admin",
                            "object": binding("adm-map-then-validating-vap", "adm-map-then-validating-vap", "map-then-validating")}])

# ---- ResourceQuota (no quota controller runs: each quota's status is written, as the
# controller would, by a setup step) -------------------------------------------------------------

def quota_case(name, desc, hard, used, manifest, scopes=None):
    """A ResourceQuota case: a quota and its status (what the quota controller would write),
    then the write it admits or refuses."""
    spec = {"hard": hard}
    if scopes:
        spec["scopes"] = scopes
    status = {"hard": hard}
    if used is not None:
        status["used"] = used
    q = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "quota", "namespace": name}}
    cases.append({"name": name, "description": desc, "rules": ["admission.resource-quota"], "families": ["admission"], "manager": "deployer",
                  "wait": 1.5,
                  "setup": [{"what": "ResourceQuota quota: hard " + ", ".join("%s %s" % kv for kv in hard.items()), "manager": "admin",
                             "object": dump(dict(q, spec=spec))},
                            {"what": "its status, as the quota controller writes it: used " + (", ".join("%s %s" % kv for kv in used.items()) if used else "unknown"),
                             "manager": "quota-controller", "subresource": "status", "object": dump(dict(q, status=status))}],
                  "manifest": manifest})


quota_case("quota-count-exceeded", "A ConfigMap created where the quota's configmaps are at their limit: 403 exceeded quota.",
           {"configmaps": "2"}, {"configmaps": "2"}, cm("quota-count-exceeded", "settings", {"a": "1"}))
quota_case("quota-count-admitted", "A ConfigMap created below the quota's limit: admitted.",
           {"configmaps": "2"}, {"configmaps": "1"}, cm("quota-count-admitted", "settings", {"a": "1"}))
quota_case("quota-count-group-resource", "A Deployment created where count/deployments.apps is at its limit: 403.",
           {"count/deployments.apps": "1"}, {"count/deployments.apps": "1"}, deploy("quota-count-group-resource", replicas=1))
quota_case("quota-compute-exceeded", "A Pod whose requests and limits take the quota's requests.cpu and limits.memory above their limits: 403, "
           "every resource exceeded.",
           {"pods": "5", "requests.cpu": "1", "limits.memory": "1Gi"}, {"pods": "1", "requests.cpu": "600m", "limits.memory": "1000Mi"},
           pod("quota-compute-exceeded", spec_extra={"containers": [{"name": "app", "image": "nginx:1.27",
               "resources": {"requests": {"cpu": "500m", "memory": "64Mi"}, "limits": {"cpu": "1", "memory": "128Mi"}}}]}))
quota_case("quota-must-specify", "A Pod without resources where a quota limits requests.cpu and limits.memory: 403 must specify.",
           {"requests.cpu": "4", "limits.memory": "4Gi"}, {"requests.cpu": "0", "limits.memory": "0"}, pod("quota-must-specify"))
quota_case("quota-status-unknown", "A quota whose status has no usage yet refuses the ConfigMap it counts: 403 status unknown.",
           {"configmaps": "5"}, None, cm("quota-status-unknown", "settings", {"a": "1"}))
quota_case("quota-service-nodeports", "A LoadBalancer Service whose node ports take services.nodeports above its limit: 403.",
           {"services.loadbalancers": "2", "services.nodeports": "3"}, {"services.loadbalancers": "0", "services.nodeports": "2"},
           dump({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "quota-service-nodeports"},
                 "spec": {"type": "LoadBalancer", "selector": {"app": "web"}, "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}]}}))

# ---- ResourceQuota scopes: a scoped quota counts only the objects in every scope
# (rules.md admission.resource-quota-scopes) -------------------------------------------------

def scoped_quota_case(name, desc, hard, used, manifest, scopes=None, selector=None, extra_setup=None):
    """A quota_case whose quota has scopes and/or a scopeSelector's expressions."""
    quota_case(name, desc, hard, used, manifest)
    c = cases[-1]
    import yaml as y
    q = y.safe_load(c["setup"][0]["object"])
    if scopes:
        q["spec"]["scopes"] = scopes
    if selector:
        q["spec"]["scopeSelector"] = {"matchExpressions": selector}
    c["setup"][0]["object"] = dump(q)
    c["setup"][0]["what"] += (", scopes " + ", ".join(scopes) if scopes else "") + \
        (", scopeSelector " + "; ".join("%s %s %s" % (e["scopeName"], e["operator"], ",".join(e.get("values", []))) for e in selector) if selector else "")
    c["rules"] = ["admission.resource-quota-scopes"]
    if extra_setup:
        c["setup"] = extra_setup + c["setup"]


CPU = {"requests": {"cpu": "500m", "memory": "64Mi"}, "limits": {"cpu": "500m", "memory": "64Mi"}}
def rpod(ns, resources=None, **extra):
    c = {"name": "app", "image": "nginx:1.27"}
    if resources:
        c["resources"] = resources
    spec = {"containers": [c]}
    spec.update(extra)
    return dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": ns}, "spec": spec})


scoped_quota_case("quota-scope-besteffort", "A Pod without resources where a BestEffort quota's pods are at their limit: 403.",
                  {"pods": "1"}, {"pods": "1"}, rpod("quota-scope-besteffort"), scopes=["BestEffort"])
scoped_quota_case("quota-scope-besteffort-other", "A Pod with resources where a BestEffort quota's pods are at their limit: "
                  "not in the scope, admitted.", {"pods": "1"}, {"pods": "1"}, rpod("quota-scope-besteffort-other", CPU), scopes=["BestEffort"])
scoped_quota_case("quota-scope-notbesteffort-notterminating", "A Pod with resources and no deadline, in a NotBestEffort and "
                  "NotTerminating quota whose requests.cpu it takes above the limit: 403.",
                  {"requests.cpu": "1"}, {"requests.cpu": "600m"}, rpod("quota-scope-notbesteffort-notterminating", CPU),
                  scopes=["NotBestEffort", "NotTerminating"])
scoped_quota_case("quota-scope-terminating-other", "A Pod without activeDeadlineSeconds where a Terminating quota's pods are at "
                  "their limit: not in the scope, admitted.", {"pods": "1"}, {"pods": "1"}, rpod("quota-scope-terminating-other", CPU),
                  scopes=["Terminating"])
scoped_quota_case("quota-scope-terminating", "A Pod with activeDeadlineSeconds where a Terminating quota's pods are at their "
                  "limit: 403.", {"pods": "1"}, {"pods": "1"}, rpod("quota-scope-terminating", CPU, activeDeadlineSeconds=60),
                  scopes=["Terminating"])
PC = {"what": "PriorityClass adm-quota-high (value 1000)", "manager": "admin",
      "object": dump({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "adm-quota-high"}, "value": 1000})}
scoped_quota_case("quota-scope-priorityclass-in", "A Pod of PriorityClass adm-quota-high where a quota selecting that class "
                  "(scopeSelector PriorityClass In) is at its limit: 403.", {"pods": "1"}, {"pods": "1"},
                  rpod("quota-scope-priorityclass-in", CPU, priorityClassName="adm-quota-high"),
                  selector=[{"scopeName": "PriorityClass", "operator": "In", "values": ["adm-quota-high"]}], extra_setup=[PC])
scoped_quota_case("quota-scope-priorityclass-notin", "A Pod of no PriorityClass where a quota of the classes NotIn "
                  "adm-quota-high is at its limit: the pod is in that scope, 403.", {"pods": "1"}, {"pods": "1"},
                  rpod("quota-scope-priorityclass-notin", CPU),
                  selector=[{"scopeName": "PriorityClass", "operator": "NotIn", "values": ["adm-quota-high"]}])
scoped_quota_case("quota-scope-priorityclass-exists-other", "A Pod of no PriorityClass where a quota of pods with any class "
                  "(PriorityClass Exists) is at its limit: not in the scope, admitted.", {"pods": "1"}, {"pods": "1"},
                  rpod("quota-scope-priorityclass-exists-other", CPU),
                  selector=[{"scopeName": "PriorityClass", "operator": "Exists"}])
scoped_quota_case("quota-scope-cross-namespace-affinity", "A Pod whose anti-affinity term names namespaces, where a "
                  "CrossNamespacePodAffinity quota's pods are at their limit: 403.", {"pods": "1"}, {"pods": "1"},
                  rpod("quota-scope-cross-namespace-affinity", CPU, affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                      {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "kubernetes.io/hostname", "namespaces": ["other"]}]}}),
                  scopes=["CrossNamespacePodAffinity"])
scoped_quota_case("quota-scope-volume-attributes-class", "A claim of VolumeAttributesClass adm-gold where a quota of that class "
                  "(scopeSelector VolumeAttributesClass In) is at its limit: 403.",
                  {"persistentvolumeclaims": "1"}, {"persistentvolumeclaims": "1"},
                  dump({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "quota-scope-volume-attributes-class"},
                        "spec": {"accessModes": ["ReadWriteOnce"], "volumeAttributesClassName": "adm-gold", "resources": {"requests": {"storage": "1Gi"}}}}),
                  selector=[{"scopeName": "VolumeAttributesClass", "operator": "In", "values": ["adm-gold"]}])
scoped_quota_case("quota-scope-volume-attributes-class-other", "A claim of no VolumeAttributesClass where a quota of class "
                  "adm-gold is at its limit: not in the scope, admitted.",
                  {"persistentvolumeclaims": "1"}, {"persistentvolumeclaims": "1"},
                  dump({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "quota-scope-volume-attributes-class-other"},
                        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
                  selector=[{"scopeName": "VolumeAttributesClass", "operator": "In", "values": ["adm-gold"]}])
# A Pod's /resize is counted as an update: the quota is written after the pod exists.
quota_case("quota-resize-exceeded", "A /resize raising a Pod's cpu by 200m where the quota's requests.cpu has 100m left: 403.",
           {"requests.cpu": "1", "limits.cpu": "1"}, {"requests.cpu": "900m", "limits.cpu": "900m"},
           '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"300m"},"limits":{"cpu":"300m"}}}]}}\n')
cases[-1]["setup"].insert(0, {"what": "apply as deployer: Pod app, cpu 100m, memory 64Mi (Guaranteed)", "manager": "deployer",
                              "object": rpod("quota-resize-exceeded", {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "100m", "memory": "64Mi"}})})
cases[-1].update(verb="patch", patchType="strategic", subresource="resize", manager="resizer",
                 target="apiVersion: v1\nkind: Pod\nmetadata:\n  name: app\n  namespace: quota-resize-exceeded\n",
                 rules=["admission.resource-quota", "sub.resize"])
quota_case("quota-resize-admitted", "A /resize raising a Pod's cpu by 200m where the quota's requests.cpu has 500m left: admitted.",
           {"requests.cpu": "1", "limits.cpu": "1"}, {"requests.cpu": "500m", "limits.cpu": "500m"},
           '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"300m"},"limits":{"cpu":"300m"}}}]}}\n')
cases[-1]["setup"].insert(0, {"what": "apply as deployer: Pod app, cpu 100m, memory 64Mi (Guaranteed)", "manager": "deployer",
                              "object": rpod("quota-resize-admitted", {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "100m", "memory": "64Mi"}})})
cases[-1].update(verb="patch", patchType="strategic", subresource="resize", manager="resizer",
                 target="apiVersion: v1\nkind: Pod\nmetadata:\n  name: app\n  namespace: quota-resize-admitted\n",
                 rules=["admission.resource-quota", "sub.resize"])

# LimitRanger checks a Pod's /resize against the LimitRange (its defaults and max).
for lrname, desc, cpu in (("limitrange-resize-max", "A /resize taking a container's cpu limit above the LimitRange's max: 403.", "300m"),
                          ("limitrange-resize-admitted", "A /resize within the LimitRange's max: admitted.", "200m")):
    cases.append({"name": lrname, "description": desc, "rules": ["admission.limit-ranger", "sub.resize"], "families": ["admission"],
                  "setup": [{"what": "apply as deployer: Pod app, cpu 100m, memory 64Mi (Guaranteed)", "manager": "deployer",
                             "object": rpod(lrname, {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "100m", "memory": "64Mi"}})},
                            {"what": "LimitRange limits: Container max cpu 250m", "manager": "admin",
                             "object": limitrange(lrname, [{"type": "Container", "max": {"cpu": "250m"}}])}],
                  "verb": "patch", "patchType": "strategic", "subresource": "resize", "manager": "resizer",
                  "target": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: app\n  namespace: %s\n" % lrname,
                  "manifest": '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"%s"},"limits":{"cpu":"%s"}}}]}}\n' % (cpu, cpu)})

# ---- Pod updates a quota's Terminating scope sees, and the subresources of a Pod under PodSecurity
# and the admission policies: /resize, /ephemeralcontainers, pod-level resources (#39) --------

def ns_labelled(ns, labels):
    return {"what": "the namespace labelled " + ", ".join("%s=%s" % kv for kv in labels.items()), "manager": "admin",
            "object": dump({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": labels}})}


def pod_target(ns, name="app"):
    return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\n  namespace: %s\n" % (name, ns)


for qname, desc, scopes, patch in (
        ("quota-scope-terminating-update", "An update setting activeDeadlineSeconds on a Pod where a Terminating quota's pods are at "
         "their limit: the pod enters the scope, but an update is charged the difference of its usage: admitted.",
         ["Terminating"], '{"spec":{"activeDeadlineSeconds":60}}\n'),
        ("quota-scope-notterminating-update", "An update setting activeDeadlineSeconds on a Pod where a NotTerminating quota's pods "
         "are at their limit: the pod leaves the scope: admitted.", ["NotTerminating"], '{"spec":{"activeDeadlineSeconds":60}}\n'),
        ("quota-scope-terminating-unset", "An update removing a Pod's activeDeadlineSeconds, where a NotTerminating quota is at its "
         "limit: refused by validation first (422).", ["NotTerminating"], '{"spec":{"activeDeadlineSeconds":null}}\n')):
    extra = {"activeDeadlineSeconds": 120} if qname.endswith("unset") else {}
    scoped_quota_case(qname, desc, {"pods": "1", "requests.cpu": "1"}, {"pods": "1", "requests.cpu": "1"}, patch, scopes=scopes)
    cases[-1]["setup"].insert(0, {"what": "apply as deployer: Pod app, cpu 500m, memory 64Mi" + (", activeDeadlineSeconds 120" if extra else ""),
                                  "manager": "deployer", "object": rpod(qname, CPU, **extra)})
    cases[-1].update(verb="patch", patchType="merge", manager="editor", target=pod_target(qname), rules=["admission.resource-quota-scopes"])
for qname, desc, scopes in (
        ("quota-scope-terminating-resize", "A /resize raising by 200m the cpu of a Pod with activeDeadlineSeconds, where a "
         "Terminating quota's requests.cpu has 100m left: 403.", ["Terminating"]),
        ("quota-scope-notterminating-resize", "The same /resize where the quota is NotTerminating: the pod is not in its scope: "
         "admitted.", ["NotTerminating"])):
    scoped_quota_case(qname, desc, {"requests.cpu": "1", "limits.cpu": "1"}, {"requests.cpu": "900m", "limits.cpu": "900m"},
                      '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"300m"},"limits":{"cpu":"300m"}}}]}}\n', scopes=scopes)
    cases[-1]["setup"].insert(0, {"what": "apply as deployer: Pod app, cpu 100m, memory 64Mi (Guaranteed), activeDeadlineSeconds 600", "manager": "deployer",
                                  "object": rpod(qname, {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "100m", "memory": "64Mi"}},
                                                 activeDeadlineSeconds=600)})
    cases[-1].update(verb="patch", patchType="strategic", subresource="resize", manager="resizer", target=pod_target(qname),
                     rules=["admission.resource-quota-scopes", "sub.resize"])

GUARANTEED = {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "100m", "memory": "64Mi"}}
RESIZE_CPU = '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"200m"},"limits":{"cpu":"200m"}}}]}}\n'
psa("psa-resize-restricted", "A /resize of a Pod that violates restricted, in a namespace labelled to enforce it after the pod "
    "was made: PodSecurity evaluates /resize, but a change of resources is not significant: admitted.",
    {}, RESIZE_CPU, verb="patch", patchType="strategic", subresource="resize", manager="resizer", target=pod_target("psa-resize-restricted"),
    setup=[{"what": "apply as deployer: Pod app (Guaranteed, no securityContext)", "manager": "deployer",
            "object": rpod("psa-resize-restricted", GUARANTEED)},
           ns_labelled("psa-resize-restricted", {"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/warn": "restricted"})],
    rules=["admission.pod-security", "sub.resize"])
cases[-1].pop("namespace")
EPH = {"name": "debugger", "image": "busybox:1.36", "targetContainerName": "app"}


def eph_patch(c):
    import json
    return json.dumps({"spec": {"ephemeralContainers": [c]}}) + "\n"


psa("psa-ephemeral-restricted", "kubectl debug's patch of /ephemeralcontainers adding a container without a securityContext to a "
    "restricted Pod, where restricted is enforced: 403 naming the ephemeral container.",
    {"pod-security.kubernetes.io/enforce": "restricted"}, eph_patch(EPH), verb="patch", patchType="strategic",
    subresource="ephemeralcontainers", manager="kubectl-debug", target=pod_target("psa-ephemeral-restricted"),
    setup=[{"what": "apply as deployer: Pod app meeting restricted", "manager": "deployer",
            "object": pod("psa-ephemeral-restricted", security=RESTRICTED_OK)}],
    rules=["admission.pod-security", "sub.ephemeralcontainers"])
psa("psa-ephemeral-restricted-ok", "An ephemeral container meeting restricted added to that Pod: admitted.",
    {"pod-security.kubernetes.io/enforce": "restricted"}, eph_patch(dict(EPH, securityContext=RESTRICTED_OK)), verb="patch",
    patchType="strategic", subresource="ephemeralcontainers", manager="kubectl-debug", target=pod_target("psa-ephemeral-restricted-ok"),
    setup=[{"what": "apply as deployer: Pod app meeting restricted", "manager": "deployer",
            "object": pod("psa-ephemeral-restricted-ok", security=RESTRICTED_OK)}],
    rules=["admission.pod-security", "sub.ephemeralcontainers"])
psa("psa-ephemeral-baseline-warn", "An ephemeral container adding the SYS_ADMIN capability, added by an apply to /ephemeralcontainers where baseline is "
    "warned: admitted with the warning.",
    {"pod-security.kubernetes.io/warn": "baseline"},
    dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "psa-ephemeral-baseline-warn"},
          "spec": {"ephemeralContainers": [dict(EPH, securityContext={"capabilities": {"add": ["SYS_ADMIN"]}})]}}),
    subresource="ephemeralcontainers", manager="debugger",
    setup=[{"what": "apply as deployer: Pod app", "manager": "deployer", "object": pod("psa-ephemeral-baseline-warn")}],
    rules=["admission.pod-security", "sub.ephemeralcontainers"])

POD_RESIZE_RULE = [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["UPDATE"], "resources": ["pods/resize"]}]
POD_RULE = [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["UPDATE"], "resources": ["pods"]}]
EPH_RULE = [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["UPDATE"], "resources": ["pods/ephemeralcontainers"]}]
CPU_MAX = [{"expression": "object.spec.containers.all(c, !has(c.resources.limits) || !('cpu' in c.resources.limits) || "
            "quantity(c.resources.limits['cpu']).compareTo(quantity('150m')) <= 0)",
            "message": "a container's cpu limit may not exceed 150m"}]
for vname, desc, rules in (
        ("vap-resize", "A ValidatingAdmissionPolicy on pods/resize capping cpu limits at 150m; a /resize to 200m: denied (403).", POD_RESIZE_RULE),
        ("vap-resize-main-resource", "The same policy matching only the pods resource: a /resize is not matched: admitted.", POD_RULE)):
    n = len(cases)
    policy_case(vname, desc, validations=CPU_MAX, rules=rules, manifest=RESIZE_CPU)
    c = cases[n]
    c["setup"].insert(0, {"what": "apply as deployer: Pod app (Guaranteed)", "manager": "deployer", "object": rpod(vname, GUARANTEED)})
    c.update(verb="patch", patchType="strategic", subresource="resize", manager="resizer", target=pod_target(vname),
             rules=c["rules"] + ["sub.resize"])
n = len(cases)
policy_case("vap-ephemeral", "A ValidatingAdmissionPolicy on pods/ephemeralcontainers allowing only images of registry.example: "
            "kubectl debug's patch with busybox: denied (403) with the message.",
            validations=[{"expression": "object.spec.ephemeralContainers.all(c, c.image.startsWith('registry.example/'))",
                          "messageExpression": "'ephemeral containers must come from registry.example, not ' + "
                                               "object.spec.ephemeralContainers.map(c, c.image).join(', ')"}],
            rules=EPH_RULE, manifest=eph_patch(EPH))
c = cases[n]
c["setup"].insert(0, {"what": "apply as deployer: Pod app", "manager": "deployer", "object": rpod("vap-ephemeral")})
c.update(verb="patch", patchType="strategic", subresource="ephemeralcontainers", manager="kubectl-debug", target=pod_target("vap-ephemeral"),
         rules=c["rules"] + ["sub.ephemeralcontainers"])

PODLEVEL = {"requests": {"cpu": "200m", "memory": "128Mi"}, "limits": {"cpu": "200m", "memory": "128Mi"}}
POD_LEVEL_RESIZE = '{"spec":{"resources":{"requests":{"cpu":"400m"},"limits":{"cpu":"400m"}}}}\n'
n = len(cases)
policy_case("vap-resize-pod-level", "A ValidatingAdmissionPolicy on pods/resize capping pod-level cpu at 300m; a /resize of the "
            "pod-level resources to 400m: denied (403).",
            validations=[{"expression": "!has(object.spec.resources) || !has(object.spec.resources.limits) || "
                                        "quantity(object.spec.resources.limits['cpu']).compareTo(quantity('300m')) <= 0",
                          "message": "pod-level cpu may not exceed 300m"}],
            rules=POD_RESIZE_RULE, manifest=POD_LEVEL_RESIZE)
c = cases[n]
c["setup"].insert(0, {"what": "apply as deployer: Pod app with pod-level resources (cpu 200m, memory 128Mi)", "manager": "deployer",
                      "object": rpod("vap-resize-pod-level", resources=None, resources_=None) if False else
                      dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "vap-resize-pod-level"},
                            "spec": {"resources": PODLEVEL, "containers": [{"name": "app", "image": "nginx:1.27"}]}})})
c.update(verb="patch", patchType="strategic", subresource="resize", manager="resizer", target=pod_target("vap-resize-pod-level"),
         rules=c["rules"] + ["sub.resize"])
quota_case("quota-resize-pod-level", "A /resize raising pod-level cpu by 200m where the quota's requests.cpu has 100m left: 403.",
           {"requests.cpu": "1", "limits.cpu": "1"}, {"requests.cpu": "900m", "limits.cpu": "900m"}, POD_LEVEL_RESIZE)
cases[-1]["setup"].insert(0, {"what": "apply as deployer: Pod app with pod-level resources (cpu 200m, memory 128Mi)", "manager": "deployer",
                              "object": dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "quota-resize-pod-level"},
                                              "spec": {"resources": PODLEVEL, "containers": [{"name": "app", "image": "nginx:1.27"}]}})})
cases[-1].update(verb="patch", patchType="strategic", subresource="resize", manager="resizer", target=pod_target("quota-resize-pod-level"),
                 rules=["admission.resource-quota", "sub.resize"])
psa("psa-resize-pod-level-restricted", "A /resize of pod-level resources of a Pod violating restricted, where restricted is "
    "enforced since: admitted (not a significant update).", {}, POD_LEVEL_RESIZE, verb="patch", patchType="strategic",
    subresource="resize", manager="resizer", target=pod_target("psa-resize-pod-level-restricted"),
    setup=[{"what": "apply as deployer: Pod app with pod-level resources, no securityContext", "manager": "deployer",
            "object": dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "psa-resize-pod-level-restricted"},
                            "spec": {"resources": PODLEVEL, "containers": [{"name": "app", "image": "nginx:1.27"}]}})},
           ns_labelled("psa-resize-pod-level-restricted", {"pod-security.kubernetes.io/enforce": "restricted"})],
    rules=["admission.pod-security", "sub.resize"])
cases[-1].pop("namespace")


# The ServiceAccount plugin on /ephemeralcontainers: the pod's account must exist, and one that
# enforces mountable secrets must list every secret an ephemeral container reads.
for saname, desc, secrets in (
        ("serviceaccount-ephemeral-secret", "kubectl debug's patch of /ephemeralcontainers adding a container that reads a secret "
         "its pod's ServiceAccount, enforcing mountable secrets, does not list: refused.", []),
        ("serviceaccount-ephemeral-secret-listed", "The same container reading a secret the account lists: admitted.", [{"name": "db"}])):
    sa = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "builder", "namespace": saname,
          "annotations": {"kubernetes.io/enforce-mountable-secrets": "true"}}}
    if secrets:
        sa["secrets"] = secrets
    cases.append({"name": saname, "description": desc, "rules": ["admission.service-account", "sub.ephemeralcontainers"],
                  "families": ["admission"], "manager": "kubectl-debug", "verb": "patch", "patchType": "strategic",
                  "subresource": "ephemeralcontainers", "target": pod_target(saname),
                  "setup": [{"what": "ServiceAccount builder (enforce-mountable-secrets" + (", secrets db" if secrets else "") + ")", "manager": "admin",
                             "object": dump(sa)},
                            {"what": "apply as deployer: Pod app of ServiceAccount builder", "manager": "deployer",
                             "object": pod(saname, spec_extra={"serviceAccountName": "builder"})}],
                  "manifest": eph_patch(dict(EPH, env=[{"name": "PW", "valueFrom": {"secretKeyRef": {"name": "db", "key": "pw"}}}]))})

# ---- create with generateName: the mutating plugins see the generateName, the validating
# ones the name the store generated (rules.md create.generate-name) ---------------------------

def generated(manifest):
    """manifest (one object) naming only a generateName: its name followed by "-"."""
    import yaml as y
    o = y.safe_load(manifest)
    o["metadata"]["generateName"] = o["metadata"].pop("name") + "-"
    o["metadata"] = {k: o["metadata"][k] for k in ("generateName", "namespace") if k in o["metadata"]}
    return dump(o)


GN_RULES = ["create.generate-name"]
psa("gn-psa-restricted", "A POST of a Pod naming only a generateName, in a namespace enforcing restricted: 403 naming the generated name.",
    {"pod-security.kubernetes.io/enforce": "restricted"}, generated(pod("gn-psa-restricted")), verb="create",
    rules=["admission.pod-security"] + GN_RULES)
cases.append({"name": "gn-priority-missing", "description": "A POST of a Pod naming only a generateName and a PriorityClass that does not exist: "
              "403 naming the generateName (Priority is a mutating plugin: the name is not generated yet).",
              "rules": ["admission.priority"] + GN_RULES, "families": ["admission"], "manager": "deployer", "verb": "create",
              "manifest": generated(pod("gn-priority-missing", spec_extra={"priorityClassName": "adm-absent"}))})
quota_case("gn-quota-exceeded", "A POST of a ConfigMap naming only a generateName where the quota's configmaps are at their limit: "
           "403 naming the generated name.",
           {"configmaps": "1"}, {"configmaps": "1"}, generated(cm("gn-quota-exceeded", "settings", {"a": "1"})))
cases[-1].update(verb="create", rules=cases[-1]["rules"] + GN_RULES)
quota_case("gn-quota-admitted", "A POST of a ConfigMap naming only a generateName below the quota's limit: created, the writer owning "
           "metadata.generateName, the name assigned.",
           {"configmaps": "2"}, {"configmaps": "1"}, generated(cm("gn-quota-admitted", "settings", {"a": "1"})))
cases[-1].update(verb="create", rules=cases[-1]["rules"] + GN_RULES)

# MutatingAdmissionPolicy on a Pod's /resize: the policy matches pods/resize (UPDATE); what
# it changes beyond the resources, the resize strategy puts back.
for mname, desc, mutations in (
        ("map-resize-cap", "A MutatingAdmissionPolicy on pods/resize setting the container's cpu to 150m (JSONPatch): "
         "a /resize to 200m stores 150m.",
         [{"patchType": "JSONPatch", "jsonPatch": {"expression":
           '[JSONPatch{op: "replace", path: "/spec/containers/0/resources/limits/cpu", value: "150m"}, '
           'JSONPatch{op: "replace", path: "/spec/containers/0/resources/requests/cpu", value: "150m"}]'}}]),
        ("map-resize-label", "A MutatingAdmissionPolicy on pods/resize adding a label (ApplyConfiguration): the /resize "
         "is admitted, its resources stored, the label not (the resize strategy keeps the stored metadata).",
         [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": 'Object{metadata: Object.metadata{labels: {"resized": "yes"}}}'}}])):
    mutating_case(mname, desc, POD_RESIZE_RULE, mutations, RESIZE_CPU,
                  extra_setup=[{"what": "apply as deployer: Pod app (Guaranteed)", "manager": "deployer", "object": rpod(mname, GUARANTEED)}])
    cases[-1].update(verb="patch", patchType="strategic", subresource="resize", manager="resizer", target=pod_target(mname),
                     rules=cases[-1]["rules"] + ["sub.resize"])

HEADER = """# The cases ../record.py records with --admission from a kube-apiserver running its whole
# default admission chain (record.sh: ServiceAccount on, the default ServiceAccount made in
# each case namespace): admission policies, PodSecurity, NamespaceLifecycle, the default
# classes, Priority. Each case folder holds admission.json, what the chain read: the
# prediction is made from it (ssa-diff --admission-from admission.json).
# Written by gen.py: edit that, then run it.

"""
if __name__ == "__main__":
    with open("cases.yaml", "w") as f:
        f.write(HEADER)
        yaml.safe_dump(cases, f, sort_keys=False, width=120, allow_unicode=True)
    print(len(cases), "cases")
