#!/usr/bin/env python3
"""Record validation cases of custom resources and CRDs from a real kube-apiserver 1.37.2.

    record.py SPECDIR OUTDIR          # every SPECDIR/<case>/spec.yaml → OUTDIR/<case>/

A spec.yaml names the CRD and object files of its folder:

    description: ...
    rules: [V3, V4]
    families: [validation, crd, ...]
    setup:                      # done for real, in order
    - crd: loose-crd.yaml       # apply a CRD (server-side, manager "setup") and wait until Established
    - apply: step1.yaml         # apply an object (manager from "manager", default gitops)
      manager: gitops
    request:                    # sent with dryRun=All: its answer is the recording
      apply: final.yaml         # or crd: final-crd.yaml (an apply of a CRD)
      manager: gitops
      subresource: ''           # or status

The output is in the format of ../shared/fixtures (case.yaml, crds.yaml, live.json,
manifest.yaml, want.json). Environment: ORACLE_HOME, APISERVER_PORT.
"""
import json, os, ssl, sys, time, urllib.request, urllib.error
import yaml

ORACLE = os.environ.get("ORACLE_HOME", "/root/.cache/oracle-crdvalidation")
PORT = os.environ.get("APISERVER_PORT", "16454")
BASE = f"https://127.0.0.1:{PORT}"
CTX = ssl.create_default_context(cafile=f"{ORACLE}/run/pki/ca.crt")
TOKEN = "oracle-admin-token"


def call(method, path, body=None, ctype="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + TOKEN)
    if data is not None:
        req.add_header("Content-Type", ctype)
    try:
        with urllib.request.urlopen(req, context=CTX) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def resource_path(obj, crds):
    av, kind = obj["apiVersion"], obj["kind"]
    md = obj.get("metadata", {})
    if kind == "CustomResourceDefinition":
        return f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{md['name']}"
    group, version = av.split("/")
    for c in crds:
        s = c["spec"]
        if s["group"] == group and s["names"]["kind"] == kind:
            plural, scope = s["names"]["plural"], s["scope"]
            ns = f"/namespaces/{md['namespace']}" if scope == "Namespaced" else ""
            return f"/apis/{group}/{version}{ns}/{plural}/{md['name']}"
    raise SystemExit(f"no CRD for {av} {kind}")


def apply(obj, manager, crds, subresource="", dry=False):
    path = resource_path(obj, crds) + ("/" + subresource if subresource else "")
    q = f"?fieldManager={manager}" + ("&dryRun=All" if dry else "")
    return path, call("PATCH", path + q, yaml.safe_dump(obj).encode(), "application/apply-patch+yaml")


def wait_established(name):
    for _ in range(100):
        code, crd = call("GET", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}")
        conds = (crd.get("status") or {}).get("conditions") or []
        if any(c["type"] == "Established" and c["status"] == "True" for c in conds):
            time.sleep(0.3)
            return
        time.sleep(0.1)
    raise SystemExit(f"CRD {name} not established")


def load(d, f):
    with open(os.path.join(d, f)) as fh:
        return yaml.safe_load(fh)


def record(specdir, outdir, name):
    spec = load(specdir, "spec.yaml")
    ns = name
    call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
    crds, setup_lines = [], []

    def with_ns(obj):
        if obj.get("kind") != "CustomResourceDefinition":
            obj.setdefault("metadata", {})["namespace"] = ns
        return obj

    for step in spec.get("setup", []):
        if "crd" in step:
            crd = load(specdir, step["crd"])
            _, (code, out) = apply(crd, "setup", crds)
            if code >= 300:
                raise SystemExit(f"{name}: setup CRD {step['crd']}: {code} {out.get('message')}")
            wait_established(crd["metadata"]["name"])
            crds = [c for c in crds if c["metadata"]["name"] != crd["metadata"]["name"]] + [crd]
            setup_lines.append(f"apply CustomResourceDefinition {crd['metadata']['name']} ({step['crd']})")
        elif "apply" in step:
            obj = with_ns(load(specdir, step["apply"]))
            mgr = step.get("manager", "gitops")
            _, (code, out) = apply(obj, mgr, crds, step.get("subresource", ""))
            if code >= 300:
                raise SystemExit(f"{name}: setup apply {step['apply']}: {code} {out.get('message')}")
            setup_lines.append(f"apply as {mgr}: {obj['kind']} {obj['metadata']['name']} ({step['apply']})")
    req = spec["request"]
    sub = req.get("subresource", "")
    mgr = req.get("manager", "gitops")
    if "crd" in req:
        body = load(specdir, req["crd"])
    else:
        body = with_ns(load(specdir, req["apply"]))
    path = resource_path(body, crds)
    code, live = call("GET", path)
    os.makedirs(os.path.join(outdir, name), exist_ok=True)
    out = os.path.join(outdir, name)
    if code == 200:
        with open(os.path.join(out, "live.json"), "w") as fh:
            json.dump(live, fh, indent=2, sort_keys=True)
            fh.write("\n")
    _, (code, want) = apply(body, mgr, crds, sub, dry=True)
    with open(os.path.join(out, "want.json"), "w") as fh:
        json.dump(want, fh, indent=2)
        fh.write("\n")
    with open(os.path.join(out, "manifest.yaml"), "w") as fh:
        yaml.safe_dump(body, fh, sort_keys=False)
    if crds:
        with open(os.path.join(out, "crds.yaml"), "w") as fh:
            for c in crds:
                fh.write("---\n")
                yaml.safe_dump(c, fh, sort_keys=False)
    case = {"description": spec["description"], "rules": spec.get("rules", []), "families": spec.get("families", []),
            "setup": setup_lines,
            "request": {"mode": "api", "verb": "apply-status" if sub == "status" else "apply", "fieldManager": mgr,
                        "force": False, "subresource": sub, "path": path + ("/" + sub if sub else "")},
            "response": {"code": code, "dryRunSame": True}}
    if code < 300:
        times = [e.get("time") for e in want.get("metadata", {}).get("managedFields", []) if e.get("time")]
        old = {e.get("time") for e in (live.get("metadata", {}).get("managedFields", []) if code == 200 else [])}
        new = [t for t in times if t not in old]
        if new:
            case["now"] = max(new)
    with open(os.path.join(out, "case.yaml"), "w") as fh:
        yaml.safe_dump(case, fh, sort_keys=False, width=1000)
    print(f"{name}: {code} {want.get('message', '')[:160]}")


if __name__ == "__main__":
    specs, outdir = sys.argv[1], sys.argv[2]
    only = sys.argv[3:]
    for name in sorted(os.listdir(specs)):
        if os.path.isfile(os.path.join(specs, name, "spec.yaml")) and (not only or name in only):
            record(os.path.join(specs, name), outdir, name)
