#!/usr/bin/env python3
"""Record what a real kube-apiserver answers to the CRD and custom resource cases here.

    ORACLE_HOME=... APISERVER_PORT=... record.py [CASE ...]

Each case is a folder with crd.yaml (a CustomResourceDefinition) and, optionally, the
applies of custom resources of it: requests.yaml, a list of {file, manager, subresource},
or object.yaml (applied by gitops) and status.yaml (then applied to the object's /status by
controller). Without requests the CRD is applied with dryRun=All and that answer is
recorded; with them, the CRD is applied for real (its refusal, if it is refused, is the
answer recorded), the object deleted, every request but the last applied for real and the
last with dryRun=All. The answer, its code and Warning headers are written to
want.json under the server's minor ("1.36": {...}), keeping the other minors' answers: of
a refusal its message and causes, of an accepted custom resource the object.
"""
import json, os, ssl, sys, time, urllib.request, urllib.error
import yaml

ORACLE = os.environ["ORACLE_HOME"]
BASE = "https://127.0.0.1:" + os.environ.get("APISERVER_PORT", "16443")
CTX = ssl.create_default_context(cafile=f"{ORACLE}/run/pki/ca.crt")
TOKEN = os.environ.get("ORACLE_TOKEN", "oracle-admin-token")
HERE = os.path.dirname(os.path.abspath(__file__))


def call(method, path, body=None, ctype="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + TOKEN)
    if data is not None:
        req.add_header("Content-Type", ctype)
    try:
        with urllib.request.urlopen(req, context=CTX) as r:
            return r.status, json.loads(r.read() or b"{}"), r.headers.get_all("Warning") or []
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}"), e.headers.get_all("Warning") or []


def path_of(obj, crd):
    md = obj["metadata"]
    if obj["kind"] == "CustomResourceDefinition":
        return f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{md['name']}"
    s = crd["spec"]
    ns = f"/namespaces/{md['namespace']}" if s["scope"] == "Namespaced" else ""
    return f"/apis/{obj['apiVersion']}{ns}/{s['names']['plural']}/{md['name']}"


def apply(obj, crd, dry, sub="", manager="gitops", force=False):
    p = path_of(obj, crd) + (f"/{sub}" if sub else "")
    q = f"?fieldManager={manager}" + ("&dryRun=All" if dry else "") + ("&force=true" if force else "")
    return call("PATCH", p + q, yaml.safe_dump(obj).encode(), "application/apply-patch+yaml")


def established(name):
    for _ in range(200):
        _, crd, _ = call("GET", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}")
        if any(c["type"] == "Established" and c["status"] == "True" for c in (crd.get("status") or {}).get("conditions") or []):
            time.sleep(0.5)
            return
        time.sleep(0.1)
    raise SystemExit(f"CRD {name} not established")


def load(d, f):
    p = os.path.join(d, f)
    if not os.path.exists(p):
        return None
    with open(p) as fh:
        return yaml.safe_load(fh)


def requests(d):
    """The case's requests: requests.yaml ([{file, manager, subresource}]), or object.yaml
    (by gitops) and status.yaml (its /status, by controller)."""
    r = load(d, "requests.yaml")
    if r is not None:
        return r
    out = []
    if os.path.exists(os.path.join(d, "object.yaml")):
        out.append({"file": "object.yaml", "manager": "gitops"})
    if os.path.exists(os.path.join(d, "status.yaml")):
        out.append({"file": "status.yaml", "manager": "controller", "subresource": "status"})
    return out


def record(name, minor):
    d = os.path.join(HERE, name)
    crd, reqs = load(d, "crd.yaml"), requests(d)
    if not reqs:
        code, out, warns = apply(crd, crd, True)
    else:
        code, out, warns = apply(crd, crd, False, force=True)
    if reqs and code < 300:
        established(crd["metadata"]["name"])
        first = load(d, reqs[0]["file"])
        if first["metadata"].get("namespace"):
            call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": first["metadata"]["namespace"]}})
        if first["kind"] != "CustomResourceDefinition":
            call("DELETE", path_of(first, crd))
        for i, r in enumerate(reqs):
            obj, last = load(d, r["file"]), i == len(reqs) - 1
            code, out, warns = apply(obj, crd, last, r.get("subresource", ""), r.get("manager", "gitops"))
            if code >= 300 and not last:
                raise SystemExit(f"{name}: {r['file']}: {code} {out.get('message')}")
    answer = {"code": code, "warnings": warns}
    if code >= 300:
        answer["message"] = out.get("message", "")
        answer["causes"] = [f"{c.get('field', '')}: {c.get('message', '')}" for c in (out.get("details") or {}).get("causes") or []]
    elif reqs:
        answer["object"] = out
    wp = os.path.join(d, "want.json")
    want = json.load(open(wp)) if os.path.exists(wp) else {}
    want[minor] = answer
    with open(wp, "w") as fh:
        json.dump(want, fh, indent=2, sort_keys=True)
        fh.write("\n")
    print(f"{minor} {name}: {code} {answer.get('message', '')[:150]} {warns}")


if __name__ == "__main__":
    _, v, _ = call("GET", "/version")
    minor = f"{v['major']}.{v['minor'].rstrip('+')}"
    names = sys.argv[1:] or sorted(n for n in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, n, "crd.yaml")))
    for n in names:
        record(n, minor)
