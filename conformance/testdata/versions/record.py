#!/usr/bin/env python3
"""Record server-side apply cases from a real kube-apiserver, in the layout of ../shared/fixtures.

usage: record.py OUT_DIR [CASE...]     (the cases are those of cases.py)

Each case: a namespace named like the case, setup steps (applies at given versions), a GET of
the live object at a chosen version, one final request and its answer (api mode: sent with
dryRun=All first, then for real; kubectl mode: kubectl apply --server-side in the case folder).
The server is $ORACLE_URL with $ORACLE_TOKEN (as ../shared/tools/kube-apiserver/start.sh prints
them), kubectl is $KUBECTL with $KUBECONFIG. CRDs a case names must be installed first.
"""
import json, os, subprocess, sys, time, yaml

URL = os.environ.get("ORACLE_URL", "https://127.0.0.1:16443")
TOKEN = os.environ.get("ORACLE_TOKEN", "oracle-admin-token")
KUBECTL = os.environ.get("KUBECTL", "kubectl")
KUBECONFIG = os.environ.get("KUBECONFIG", "")
OUT = sys.argv[1]


def curl(method, path, body=None, ctype="application/json", query=""):
    args = ["curl", "-sk", "-X", method, "-H", "Authorization: Bearer " + TOKEN, "-w", "\n%{http_code}"]
    if body is not None:
        args += ["-H", "Content-Type: " + ctype, "--data-binary", "@-"]
    p = subprocess.run(args + [URL + path + query], input=(body or "").encode(), capture_output=True)
    out = p.stdout.decode()
    text, code = out.rsplit("\n", 1)
    return int(code), text


def resource_path(av, resource, ns, name):
    base = "/api/" + av if "/" not in av else "/apis/" + av
    if ns:
        base += "/namespaces/" + ns
    return base + "/" + resource + "/" + name


def ensure_ns(ns):
    curl("POST", "/api/v1/namespaces", json.dumps({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}))


def step(s, ns):
    kind = s["verb"]
    path = resource_path(s["apiVersion"], s["resource"], ns, s["name"])
    if s.get("subresource"):
        path += "/" + s["subresource"]
    if kind == "apply":
        q = "?fieldManager=" + s["manager"] + ("&force=true" if s.get("force") else "")
        return curl("PATCH", path, s["body"], "application/apply-patch+yaml", q)
    if kind == "update":
        # GET at the version, edit, PUT
        code, text = curl("GET", resource_path(s["apiVersion"], s["resource"], ns, s["name"]))
        obj = json.loads(text)
        obj["metadata"].pop("managedFields", None)
        s["edit"](obj)
        return curl("PUT", path, json.dumps(obj), "application/json", "?fieldManager=" + s["manager"])
    raise ValueError(kind)


def with_ns(body, ns):
    if "namespace:" in body:
        return body
    return body.replace("metadata:\n  name: ", "metadata:\n  namespace: %s\n  name: " % ns, 1)


def record(case):
    name = case["name"]
    ns = name
    ensure_ns(ns)
    for s in case.get("setup", []):
        s["body"] = with_ns(s["body"], ns)
    case["request"]["body"] = with_ns(case["request"]["body"], ns)
    for s in case.get("setup", []):
        code, text = step(s, ns)
        if code >= 300:
            raise SystemExit("%s: setup step failed: %d %s" % (name, code, text))
        time.sleep(1.1)
    req = case["request"]
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    live = None
    if case.get("liveAt"):
        av, resource = case["liveAt"]
        code, text = curl("GET", resource_path(av, resource, ns, req["name"]))
        if code == 200:
            live = json.loads(text)
            with open(os.path.join(d, "live.json"), "w") as f:
                f.write(json.dumps(live, indent=2) + "\n")
    if case.get("crds"):
        with open(os.path.join(d, "crds.yaml"), "w") as f:
            f.write(case["crds"])
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write(req["body"])
    path = resource_path(req["apiVersion"], req["resource"], ns, req["name"])
    response = {}
    if req.get("mode", "api") == "api":
        q = "?fieldManager=" + req["manager"] + ("&force=true" if req.get("force") else "")
        dcode, dtext = curl("PATCH", path, req["body"], "application/apply-patch+yaml", q + "&dryRun=All")
        code, text = curl("PATCH", path, req["body"], "application/apply-patch+yaml", q)
        want = json.loads(text)
        dry = json.loads(dtext)
        for o in (want, dry):
            md = o.get("metadata", {})
            md.pop("resourceVersion", None)
            for e in md.get("managedFields") or []:
                e.pop("time", None)
        response = {"code": code, "dryRunSame": dry == want}
        want = json.loads(text)
    else:
        args = ["apply", "--server-side", "-f", "manifest.yaml"]
        if req.get("force"):
            args.append("--force-conflicts")
        if req.get("manager"):
            args.append("--field-manager=" + req["manager"])
        p = subprocess.run([KUBECTL] + args, cwd=d, capture_output=True, env=dict(os.environ, KUBECONFIG=KUBECONFIG))
        code, text = curl("GET", resource_path(req["apiVersion"], req["resource"], ns, req["name"]))
        want = json.loads(text)
        response = {"code": req.get("code", code), "kubectlExit": p.returncode,
                    "kubectlStdout": p.stdout.decode(), "kubectlStderr": p.stderr.decode().rstrip("\n"), "requests": []}
        req["args"] = args
    with open(os.path.join(d, "want.json"), "w") as f:
        f.write(json.dumps(want, indent=2) + "\n")
    live_times = {e.get("time") for e in ((live or {}).get("metadata", {}).get("managedFields") or [])}
    new_times = sorted(e["time"] for e in (want.get("metadata", {}).get("managedFields") or []) if e.get("time") and e["time"] not in live_times)
    c = {"description": case["description"], "rules": case["rules"], "families": case.get("families", ["conversion"]),
         "setup": [s["text"] for s in case.get("setup", [])],
         "request": {"mode": req.get("mode", "api"), "verb": "apply", "fieldManager": req.get("manager", "kubectl"),
                     "force": bool(req.get("force")), "subresource": "", "path": path},
         "response": response}
    if req.get("args"):
        c["request"]["args"] = req["args"]
    if new_times:
        c["now"] = new_times[-1]
    with open(os.path.join(d, "case.yaml"), "w") as f:
        yaml.safe_dump(c, f, sort_keys=False, width=120, allow_unicode=True)
    print("%s: %d" % (name, code))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cases  # noqa
    for c in cases.CASES:
        if len(sys.argv) > 2 and c["name"] not in sys.argv[2:]:
            continue
        record(c)
