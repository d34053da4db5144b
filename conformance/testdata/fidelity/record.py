#!/usr/bin/env python3
"""Record the cases of this folder from a real kube-apiserver 1.37.2.

usage: record.py URL TOKEN CACERT [NAME...]
       FIDELITY_DIR=../fidelity-dualstack record.py URL TOKEN CACERT [NAME...]

FIDELITY_DIR names another folder of cases (default: this one); a case's `cluster` (the
service IP families, the --allow-privileged of the server it needs) is copied into its
case.yaml. A case's `olderServerDump` writes live.json as a server before 1.34 prints the
object (every embedded ObjectMeta's zero creationTimestamp as null), `liveWithout` leaves
the top-level fields it names out of live.json (a dump trimmed by hand).

Each case is written in the layout of the shared fixtures (case.yaml, live.json when the
object exists, manifest.yaml, crds.yaml when needed, want.json): the setup requests run
first in a namespace named like the case, then live.json is a GET of the object, then the
final request is sent (a dryRun=All copy first, whose answer must be the same) and its answer
is want.json. Run it against a fresh server (start.sh --fresh).
"""
import json, os, ssl, sys, time, urllib.request, urllib.error

import yaml  # PyYAML

HERE = os.path.abspath(os.environ.get("FIDELITY_DIR") or os.path.dirname(os.path.abspath(__file__)))
URL, TOKEN, CACERT = sys.argv[1:4]
ONLY = set(sys.argv[4:])
CTX = ssl.create_default_context(cafile=CACERT)


def call(method, path, body=None, ctype="application/json", query=""):
    data = None
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    req = urllib.request.Request(URL + path + query, data=data, method=method,
                                 headers={"Authorization": "Bearer " + TOKEN, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, context=CTX) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def plural(kind):
    k = kind.lower()
    if k.endswith("y"):
        return k[:-1] + "ies"
    return k + ("es" if k.endswith("s") else "s")


def path_of(obj, crds):
    av, kind = obj["apiVersion"], obj["kind"]
    ns = obj["metadata"].get("namespace")
    res = plural(kind)
    for c in crds:
        if c["spec"]["names"]["kind"] == kind:
            res = c["spec"]["names"]["plural"]
    base = "/api/" + av if "/" not in av else "/apis/" + av
    if ns:
        base += "/namespaces/" + ns
    return base + "/" + res + "/" + obj["metadata"]["name"]


def apply(doc, manager, crds, sub="", force=False, dry=False):
    q = "?fieldManager=" + manager + ("&force=true" if force else "") + ("&dryRun=All" if dry else "")
    p = path_of(doc, crds) + ("/" + sub if sub else "")
    return call("PATCH", p, yaml.safe_dump(doc, sort_keys=False), "application/apply-patch+yaml", q)


def record(case):
    name = case["name"]
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    crds = [yaml.safe_load(open(os.path.join(HERE, f))) for f in case.get("crds", [])]
    for c in crds:
        code, out = call("PATCH", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + c["metadata"]["name"],
                         yaml.safe_dump(c), "application/apply-patch+yaml", "?fieldManager=recorder&force=true")
        assert code < 300, out
    if crds:
        time.sleep(2)
    call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    for step in case.get("setup", []):
        doc = yaml.safe_load(step["object"])
        code, out = apply(doc, step["manager"], crds, step.get("subresource", ""), step.get("force", False))
        assert code < 300, (name, out)
    if case.get("setup"):
        time.sleep(1.2)  # the final request's managedFields time differs from the setup's
    final = yaml.safe_load(case["manifest"])
    sub = case.get("subresource", "")
    p = path_of(final, crds)
    code, live = call("GET", p)
    live = live if code == 200 else None
    if live is not None and case.get("olderServerDump"):
        TOP[0] = live
        older_server_dump(live)
    for k in case.get("liveWithout", []):
        (live or {}).pop(k, None)
    dcode, dry = apply(final, case["manager"], crds, sub, case.get("force", False), dry=True)
    code, want = apply(final, case["manager"], crds, sub, case.get("force", False))
    same = dcode == code and strip(dry) == strip(want)
    live_times = {e.get("time") for e in ((live or {}).get("metadata", {}).get("managedFields") or [])}
    now = max([e["time"] for e in (want.get("metadata", {}).get("managedFields") or []) if e.get("time") and e.get("time") not in live_times] or [""])
    meta = {"description": case["description"], "rules": case.get("rules", []), "families": case.get("families", []),
            "setup": [s["what"] for s in case.get("setup", [])] or ["(none: the object does not exist yet)"],
            "request": {"mode": "api", "verb": "apply-status" if sub == "status" else "apply", "fieldManager": case["manager"],
                        "force": case.get("force", False), "subresource": sub, "path": p + ("/" + sub if sub else "")},
            "response": {"code": code, "dryRunSame": same}}
    if now:
        meta["now"] = now
    if case.get("cluster"):
        meta["cluster"] = case["cluster"]
    if crds:
        meta["setup"].insert(0, "create CustomResourceDefinition " + ", ".join(c["metadata"]["name"] for c in crds) + " (crds.yaml)")
        with open(os.path.join(d, "crds.yaml"), "w") as f:
            f.write("---\n".join(yaml.safe_dump(c, sort_keys=False) for c in crds))
    with open(os.path.join(d, "case.yaml"), "w") as f:
        yaml.safe_dump(meta, f, sort_keys=False, width=100)
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write(case["manifest"].lstrip("\n"))
    if live is not None:
        json.dump(live, open(os.path.join(d, "live.json"), "w"), indent=2)
    elif os.path.exists(os.path.join(d, "live.json")):
        os.remove(os.path.join(d, "live.json"))
    json.dump(want, open(os.path.join(d, "want.json"), "w"), indent=2)
    print(name, code, "dryRunSame" if same else "DRY RUN DIFFERS")


def older_server_dump(obj):
    """obj as a server before 1.34 prints it (kubernetes/kubernetes#130989): the zero
    creationTimestamp of every embedded ObjectMeta written as null."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "metadata" and isinstance(v, dict) and obj is not TOP[0] and "creationTimestamp" not in v:
                v["creationTimestamp"] = None
            older_server_dump(v)
    elif isinstance(obj, list):
        for v in obj:
            older_server_dump(v)


TOP = [None]


def strip(o):
    o = json.loads(json.dumps(o))
    md = o.get("metadata", {})
    for k in ("uid", "creationTimestamp", "resourceVersion", "managedFields"):
        md.pop(k, None)
    spec = o.get("spec") or {}
    if isinstance(spec, dict):  # allocations differ between a dry run and the real write
        for k in ("clusterIP", "clusterIPs", "healthCheckNodePort", "selector"):
            spec.pop(k, None)
        for p in spec.get("ports") or []:
            if isinstance(p, dict):
                p.pop("nodePort", None)
        t = (spec.get("template") or {}).get("metadata") or {}
        for k in ("controller-uid", "batch.kubernetes.io/controller-uid"):
            (t.get("labels") or {}).pop(k, None)
            (md.get("labels") or {}).pop(k, None)
    return o


for case in yaml.safe_load(open(os.path.join(HERE, "cases.yaml"))):
    if not ONLY or case["name"] in ONLY:
        record(case)
