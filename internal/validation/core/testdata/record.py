#!/usr/bin/env python3
"""Record the answers of a real kube-apiserver to the cases of applies.yaml or minors.yaml.

    record.py URL TOKEN [applies.yaml]      # a 1.37.2 server
    record.py URL TOKEN minors.yaml         # any release: its answers go under its minor

For each case, in a namespace of its own (new on every run: without a controller manager,
deleted namespaces never go away): the setup manifests are applied for real (field
manager "gitops"), then the case's manifest is applied with dryRun=All (field manager
"gitops"; through its `subresource`, such as status, and with force=true, when it
says so); its `want` becomes the server's 422 message, or "" when the server accepts it,
and `causes` the fields and messages of its causes (errors found ranging over a map come in any order),
and `warnings` the texts of its Warning headers.
In minors.yaml the answer goes to the case's `answers` under the server's minor ("1.35", read
from /version), with `source` naming the server and `fields` the stored values at the case's
`fields` (null: absent); a setup may be a mapping of `apply` and `subresource`.
The file is rewritten in place (comments are not kept). The objects of a setup are deleted
after their case, so that the cluster IPs and node ports they hold are free again.
"""
import json, ssl, sys, time, urllib.request, urllib.error
import yaml

url, token = sys.argv[1], sys.argv[2]
path = sys.argv[3] if len(sys.argv) > 3 else __file__.rsplit("/", 1)[0] + "/applies.yaml"
ctx = ssl.create_default_context()
ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE

PLURAL = {"Service": "services", "Secret": "secrets", "Namespace": "namespaces", "ServiceAccount": "serviceaccounts",
          "Endpoints": "endpoints", "Event": "events", "LimitRange": "limitranges", "ResourceQuota": "resourcequotas",
          "Node": "nodes", "ConfigMap": "configmaps", "Pod": "pods", "PodTemplate": "podtemplates",
          "ReplicationController": "replicationcontrollers", "PersistentVolumeClaim": "persistentvolumeclaims",
          "PersistentVolume": "persistentvolumes", "Deployment": "deployments", "Job": "jobs"}
CLUSTER = {"Namespace", "Node", "PersistentVolume"}


def request(method, p, body=None, ctype="application/json"):
    req = urllib.request.Request(url + p, method=method, data=body,
                                 headers={"Authorization": "Bearer " + token, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, context=ctx) as r:
            return r.status, json.load(r), warnings(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e), warnings(e.headers)


def warnings(headers):
    """The texts of the Warning headers (299 - "text")."""
    out = []
    for h in headers.get_all("Warning") or []:
        text = h.split(" ", 2)[2]
        out.append(json.loads(text) if text.startswith('"') else text)
    return out


def obj_path(o, ns):
    av, kind, name = o["apiVersion"], o["kind"], o["metadata"]["name"]
    base = "/api/" + av if "/" not in av else "/apis/" + av
    if kind in CLUSTER:
        return f"{base}/{PLURAL[kind]}/{name}"
    return f"{base}/namespaces/{o['metadata'].get('namespace', ns)}/{PLURAL[kind]}/{name}"


def apply(o, ns, manager, dry, subresource="", force=False):
    q = f"?fieldManager={manager}" + ("&dryRun=All" if dry else "") + ("&force=true" if force else "")
    sub = "/" + subresource if subresource else ""
    return request("PATCH", obj_path(o, ns) + sub + q, json.dumps(o).encode(), "application/apply-patch+yaml")


def block(dumper, s):
    style = "|" if "\n" in s else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", s, style=style)


yaml.SafeDumper.add_representer(str, block)

def value_at(o, path):
    """The value at a dot-separated path (list items by index), None when absent."""
    for k in path.split("."):
        if isinstance(o, dict):
            o = o.get(k)
        elif isinstance(o, list) and k.isdigit() and int(k) < len(o):
            o = o[int(k)]
        else:
            return None
    return o


doc = yaml.safe_load(open(path))
minors = path.endswith("minors.yaml")
if minors:
    _, v, _ = request("GET", "/version")
    git = v["gitVersion"]
    minor = "1." + git.split(".")[1]
for i, case in enumerate(doc["cases"]):
    ns = f"sc-{int(time.time())}-{i}"
    request("POST", "/api/v1/namespaces", json.dumps({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}).encode())
    created = []
    for s in case.get("setup", []) or []:
        sub = ""
        if isinstance(s, dict):
            s, sub = s["apply"], s.get("subresource", "")
        s = yaml.safe_load(s)
        s.setdefault("metadata", {}).setdefault("namespace", ns) if s["kind"] not in CLUSTER else None
        code, out, _ = apply(s, ns, "gitops", False, sub)
        if code >= 300:
            if minors:  # the case is not one of this release (a field it does not know)
                break
            sys.exit(f"{case['name']}: setup refused: {out.get('message')}")
        created.append(s)
    else:
        code = 0
    if code >= 300:
        print(f"{case['name']}: setup refused, not recorded: {out.get('message')}")
        for c in reversed(created):
            request("DELETE", obj_path(c, ns))
        continue
    o = yaml.safe_load(case["apply"])
    if o["kind"] not in CLUSTER:
        o.setdefault("metadata", {}).setdefault("namespace", ns)
    code, out, warned = apply(o, ns, "gitops", True, case.get("subresource", ""), case.get("force", False))
    if code >= 300 and code != 422:
        if minors:  # answered before validation (a field this release does not know): not recorded
            print(f"{case['name']}: {code}, not recorded: {out.get('message')}")
            for c in reversed(created):
                request("DELETE", obj_path(c, ns))
            continue
        sys.exit(f"{case['name']}: {code} {out.get('message')}")
    answer = case
    if minors:
        answer = {"source": "server " + git}
        case.setdefault("answers", {})[minor] = answer
        case["answers"] = dict(sorted(case["answers"].items()))
    answer["want"] = out.get("message", "") if code == 422 else ""
    answer.pop("causes", None)
    answer.pop("warnings", None)
    if warned:
        answer["warnings"] = warned
    if code == 422:
        answer["causes"] = [f"{c.get('field', '')}: {c['message']}" for c in out.get("details", {}).get("causes", [])]
    elif minors and case.get("fields"):
        answer["fields"] = {p: value_at(out, p) for p in case["fields"]}
    print(f"{case['name']}: {code} {answer['want'][:150]}")
    for c in reversed(created):  # releases the cluster IPs and node ports they hold
        request("DELETE", obj_path(c, ns))
if minors:
    HEADER = """\
# Server-side applies whose answer differs between the Kubernetes minors ssa-diff predicts,
# with each minor's answer (want: the 422 message, "" when accepted; causes, warnings, and the
# stored values at `fields`), for TestMinors. `source` says where an answer comes from: a
# real server (recorded on a fresh cluster with python3 testdata/record.py URL TOKEN
# testdata/minors.yaml), or the release's code where no server of that minor was at hand.
"""
else:
    HEADER = None

HEADER = HEADER or """\
# Server-side applies of the core group's kinds and the answers of a real kube-apiserver
# 1.37.2 (want: its 422 message, "" when it accepted the apply), for TestApplies. Add a
# case without want, then record the answers on a fresh cluster (start.sh --fresh):
#   python3 testdata/record.py https://127.0.0.1:PORT TOKEN
"""

with open(path, "w") as f:
    f.write(HEADER)
    yaml.safe_dump(doc, f, sort_keys=False, width=1000, allow_unicode=True)
