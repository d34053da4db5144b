#!/usr/bin/env python3
"""Record the answers of a real kube-apiserver 1.37.2 to the cases of applies.yaml.

    record.py URL TOKEN [applies.yaml]

For each case, in a namespace of its own (new on every run: without a controller manager,
deleted namespaces never go away): the setup manifests are applied for real (field
manager "gitops"), then the case's manifest is applied with dryRun=All (field manager
"gitops"; through its `subresource`, such as status, and with force=true, when it
says so); its `want` becomes the server's 422 message, or "" when the server accepts it,
and `causes` the fields and messages of its causes (errors found ranging over a map come in any order),
and `warnings` the texts of its Warning headers.
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
          "Node": "nodes", "ConfigMap": "configmaps"}
CLUSTER = {"Namespace", "Node"}


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

doc = yaml.safe_load(open(path))
for i, case in enumerate(doc["cases"]):
    ns = f"sc-{int(time.time())}-{i}"
    request("POST", "/api/v1/namespaces", json.dumps({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}).encode())
    for s in case.get("setup", []) or []:
        s = yaml.safe_load(s)
        s.setdefault("metadata", {}).setdefault("namespace", ns) if s["kind"] not in CLUSTER else None
        code, out, _ = apply(s, ns, "gitops", False)
        if code >= 300:
            sys.exit(f"{case['name']}: setup refused: {out.get('message')}")
    created = [yaml.safe_load(s) for s in case.get("setup", []) or []]
    o = yaml.safe_load(case["apply"])
    if o["kind"] not in CLUSTER:
        o.setdefault("metadata", {}).setdefault("namespace", ns)
    code, out, warned = apply(o, ns, "gitops", True, case.get("subresource", ""), case.get("force", False))
    case["want"] = out.get("message", "") if code == 422 else ""
    case.pop("causes", None)
    case.pop("warnings", None)
    if warned:
        case["warnings"] = warned
    if code == 422:
        case["causes"] = [f"{c.get('field', '')}: {c['message']}" for c in out.get("details", {}).get("causes", [])]
    if code >= 300 and code != 422:
        sys.exit(f"{case['name']}: {code} {out.get('message')}")
    print(f"{case['name']}: {code} {case['want'][:150]}")
    for c in created:  # releases the cluster IPs and node ports they hold
        request("DELETE", obj_path(c, ns))
HEADER = """\
# Server-side applies of the core group's kinds and the answers of a real kube-apiserver
# 1.37.2 (want: its 422 message, "" when it accepted the apply), for TestApplies. Add a
# case without want, then record the answers on a fresh cluster (start.sh --fresh):
#   python3 testdata/record.py https://127.0.0.1:PORT TOKEN
"""

with open(path, "w") as f:
    f.write(HEADER)
    yaml.safe_dump(doc, f, sort_keys=False, width=1000, allow_unicode=True)
