#!/usr/bin/env python3
"""Record the cases of a cases.yaml from a real kube-apiserver, in the layout of the shared fixtures.

usage: record.py [--dir DIR] [--out OUT] URL TOKEN CACERT [NAME...]

DIR holds cases.yaml and the CRD files its cases name (default: $FIDELITY_DIR, else
testdata/fidelity); the case folders are written to OUT (default: DIR; {minor} in it stands
for the server's minor, 1.35). URL, TOKEN and
CACERT are what start.sh prints. kubectl-mode cases and kubectl setup steps run $KUBECTL
(default: kubectl) with $KUBECONFIG: use the kubectl of the server's own release (the
ORACLE_HOME's bin/kubectl). Run it against a fresh server (start.sh --fresh): every case
has its own namespace, named like the case, and objects of cluster scope have names of
their own; a namespace deleted without controllers stays Terminating.

Each case is written as the shared fixtures' README says: case.yaml (with `server`, the
gitVersion and minor the server's /version reports), live.json when the object exists,
manifest.yaml, crds.yaml when the case names CRDs, want.json (the server's answer; a body
that is not JSON, the mux's plain-text 404, goes to want.txt instead). The setup requests
run first, then live.json is a GET of the object (at `liveAt`, an apiVersion, when given),
then the final request is sent: in api mode a dryRun=All copy first, whose answer must be
the same (`dryRunSame`), then for real; its Warning headers are `response.warnings`. In
kubectl mode `kubectl apply --server-side -f manifest.yaml` runs in the case folder with
the requests logged (--vmodule=round_trippers=6): they (discovery aside) are
`response.requests`, its output the rest, and
want.json is a GET of the object afterwards.

A case of cases.yaml:

  name, description, rules, families    as case.yaml says
  cluster: {...}                         copied into case.yaml (the server's configuration:
                                         its service IP families, its --allow-privileged)
  olderServerDump: true                  live.json as a server before 1.34 prints the object
                                         (every embedded ObjectMeta's zero creationTimestamp
                                         as null, kubernetes/kubernetes#130989)
  liveWithout: [FIELD]                   top-level fields left out of live.json (a dump
                                         trimmed by hand)
  crds: [FILE | YAML]                    CRDs applied first (files of DIR, or inline YAML)
  setup:                                 requests that build the live state, in order
  - what: text                           the line of case.yaml's setup
    object: YAML                         the body
    verb: apply                          apply (default) | update (GET, merge `object`, PUT) |
                                         create (POST) | kubectl (run kubectl `args`, FILE
                                         standing for the object written to a file)
    manager: M                           field manager (apply, update, create)
    subresource: status|scale            for apply and update
    force: true                          apply only
    args: [apply, -f, FILE]              kubectl only
  mode: api | kubectl                    (default api)
  verb: apply | update                   the final request (default apply): update PUTs the
                                         GET of the object with `manifest` merged into it
  manager: M                             its field manager (kubectl mode: --field-manager when given)
  force: true                            force=true / --force-conflicts
  subresource: status|scale
  liveAt: apiVersion                     read live.json at this version of the object's kind
  path: /apis/...                        the final request's path, when not the manifest's own
  code: 404                              kubectl mode: the code when kubectl sends no write
  manifest: YAML                         the body (api apply: byte for byte) or kubectl's file

A helm-mode case (mode: helm) is a scenario: steps run in order in the case's namespace, and
each Helm 4 command among them is recorded as a case of its own, in <name>/<NN>-<command>/
(NN its step number): live.json and want.json are Lists of every object any step's chart
names (GETs, before and after the command) and of the release's records; manifest.yaml is
what `helm template --include-crds` renders for the command (install, upgrade); the command
runs with $HELM (Helm 4; $HELM3 for steps that say helm3) talking to the server through
proxy.go, which logs its requests: they (discovery aside) are `response.requests`, as
"VERB path?query (content type of a PATCH) -> code". Steps:

  - helm: [install|upgrade|rollback, RELEASE, CHART]    CHART names a folder of DIR/charts
    values: [--set, k=v, ...]                          the values (rendered by template too)
    flags: [--server-side=true, ...]                   the command's other flags
    helm3: true                                        run by Helm 3 (setup: not a case)
  - kubectl: [ARGS]  (FILE, editor: a KUBE_EDITOR command for kubectl edit, object: YAML)
  - api: {verb, object, manager, force}   as a setup request above
  - scale: {deployment, replicas, manager}  a PUT of the Deployment's /scale
  cluster objects (a CRD, a webhook) are named after the case, and the case's steps delete
  none of them.
"""
import argparse, copy, json, os, re, ssl, subprocess, sys, tempfile, time, urllib.request, urllib.error

import yaml  # PyYAML

ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
ap.add_argument("--dir", default=os.environ.get("FIDELITY_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "fidelity"))
ap.add_argument("--out")
ap.add_argument("url")
ap.add_argument("token")
ap.add_argument("cacert")
ap.add_argument("names", nargs="*")
ARGS = ap.parse_args()
HERE = os.path.abspath(ARGS.dir)
URL, TOKEN, CACERT = ARGS.url, ARGS.token, ARGS.cacert
ONLY = set(ARGS.names)
CTX = ssl.create_default_context(cafile=CACERT)
KUBECTL = os.environ.get("KUBECTL", "kubectl")
KUBECONFIG = os.environ.get("KUBECONFIG", "")


def call(method, path, body=None, ctype="application/json", query=""):
    """The answer to a request: code, the body decoded (the text when it is not JSON), the
    texts of its Warning headers."""
    data = None
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    req = urllib.request.Request(URL + path + query, data=data, method=method,
                                 headers={"Authorization": "Bearer " + TOKEN, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, context=CTX) as r:
            code, raw, headers = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        code, raw, headers = e.code, e.read(), e.headers
    try:
        out = json.loads(raw)
    except ValueError:
        out = raw.decode()
    return code, out, warnings_of(headers)


def warnings_of(headers):
    """The texts of Warning headers (299 - "text")."""
    out = []
    for h in headers.get_all("Warning") or []:
        text = h.split(" ", 2)[2]
        out.append(json.loads(text) if text.startswith('"') else text)
    return out


def plural(kind):
    k = kind.lower()
    if k.endswith("y"):
        return k[:-1] + "ies"
    return k + ("es" if k.endswith("s") else "s")


def path_of(obj, crds, api_version=None):
    av, kind = api_version or obj["apiVersion"], obj["kind"]
    ns = obj["metadata"].get("namespace")
    res = plural(kind)
    for c in crds:
        if c.get("kind") == "CustomResourceDefinition" and c["spec"]["names"]["kind"] == kind:
            res = c["spec"]["names"]["plural"]
    base = "/api/" + av if "/" not in av else "/apis/" + av
    if ns:
        base += "/namespaces/" + ns
    return base + "/" + res + "/" + obj["metadata"]["name"]


def apply(doc, text, manager, crds, sub="", force=False, dry=False, path=None):
    q = "?fieldManager=" + manager + ("&force=true" if force else "") + ("&dryRun=All" if dry else "")
    p = (path or path_of(doc, crds)) + ("/" + sub if sub else "")
    return call("PATCH", p, text, "application/apply-patch+yaml", q)


def merged(base, patch):
    """base with patch merged in as a JSON merge patch (null deletes)."""
    if not isinstance(base, dict) or not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(base)
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merged(out.get(k), v)
    return out


def put_body(doc, crds, sub=""):
    """The object a controller would PUT: a GET of it (through the subresource), managedFields
    removed, with doc merged in."""
    p = path_of(doc, crds) + ("/" + sub if sub else "")
    code, cur, _ = call("GET", p)
    assert code == 200, (p, cur)
    cur["metadata"].pop("managedFields", None)
    return p, merged(cur, doc)


def kubectl(args, cwd, stdin=None, editor=None):
    """kubectl run as a new user would run it: with a discovery cache of its own (a cache
    kept under ~/.kube for the same host and port would describe another server)."""
    env = dict(os.environ)
    if editor:
        env["KUBE_EDITOR"] = editor
    if KUBECONFIG:
        env["KUBECONFIG"] = KUBECONFIG
    with tempfile.TemporaryDirectory() as cache:
        env["KUBECACHEDIR"] = cache
        return subprocess.run([KUBECTL] + args, cwd=cwd, capture_output=True, env=env, input=stdin)


def wait_established(name):
    for _ in range(200):
        code, crd, _ = call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name)
        conds = (crd.get("status") or {}).get("conditions") or [] if isinstance(crd, dict) else []
        if any(c["type"] == "Established" and c["status"] == "True" for c in conds):
            time.sleep(1)  # discovery catches up (kubectl maps the kind through it)
            return
        time.sleep(0.1)
    raise SystemExit("CRD %s not established" % name)


def load_crd(ref):
    if "\n" in ref:
        return yaml.safe_load(ref)
    return yaml.safe_load(open(os.path.join(HERE, ref)))


def setup_step(name, step, crds, d):
    verb = step.get("verb", "apply")
    doc = yaml.safe_load(step["object"]) if step.get("object") else None
    sub = step.get("subresource", "")
    if verb == "apply":
        code, out, _ = apply(doc, step["object"], step["manager"], crds, sub, step.get("force", False))
    elif verb == "update":
        p, body = put_body(doc, crds, sub)
        code, out, _ = call("PUT", p, body, query="?fieldManager=" + step["manager"])
    elif verb == "create":
        p = path_of(doc, crds)
        code, out, _ = call("POST", p[:p.rindex("/")], doc, query="?fieldManager=" + step["manager"])
    elif verb == "kubectl":
        with tempfile.TemporaryDirectory() as tmp:
            f = os.path.join(tmp, "setup.yaml")
            with open(f, "w") as fh:
                fh.write(step["object"])
            p = kubectl([f if a == "FILE" else a for a in step["args"]], tmp)
        code, out = (200, "") if p.returncode == 0 else (p.returncode, p.stderr.decode())
    else:
        raise SystemExit("%s: setup verb %s" % (name, verb))
    assert code < 300, (name, step.get("what"), out)
    if doc and doc.get("kind") == "CustomResourceDefinition":
        wait_established(doc["metadata"]["name"])
        crds.append(doc)


REQUEST_LINE = re.compile(r'"Response" verb="(\w+)" url="([^"]+)" status="(\d+)')
OLD_REQUEST_LINE = re.compile(r'\] (GET|PATCH|PUT|POST|DELETE) (https?://\S+) (\d{3})')
KLOG = re.compile(r'^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ ')


def kubectl_requests(stderr):
    """The requests kubectl made (its -v=6 log), discovery aside, as "VERB path?query -> code"."""
    out = []
    for line in stderr.splitlines():
        m = REQUEST_LINE.search(line) or OLD_REQUEST_LINE.search(line)
        if not m:
            continue
        verb, url, code = m.groups()
        path = re.sub(r'^https?://[^/]+', '', url)
        bare = path.split("?")[0]
        if bare in ("/api", "/apis", "/version") or bare.startswith("/openapi/"):
            continue
        out.append("%s %s -> %s" % (verb, path, code))
    return out


def record(case):
    name = case["name"]
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    crds = [load_crd(f) for f in case.get("crds", [])]
    for c in crds:
        code, out, _ = call("PATCH", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + c["metadata"]["name"],
                            yaml.safe_dump(c), "application/apply-patch+yaml", "?fieldManager=recorder&force=true")
        assert code < 300, out
        wait_established(c["metadata"]["name"])
    call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    known = list(crds)
    for step in case.get("setup", []):
        setup_step(name, step, known, d)
    if case.get("setup"):
        time.sleep(1.2)  # the final request's managedFields time differs from the setup's
    mode, verb = case.get("mode", "api"), case.get("verb", "apply")
    final = yaml.safe_load(case["manifest"])
    sub = case.get("subresource", "")
    p = case.get("path") or path_of(final, known)
    lcode, live, _ = call("GET", path_of(final, known, case.get("liveAt")) if case.get("liveAt") else p)
    live = live if lcode == 200 else None
    if live is not None and case.get("olderServerDump"):
        older_server_dump(live, top=True)
    for k in case.get("liveWithout", []):
        (live or {}).pop(k, None)
    manifest = case["manifest"].lstrip("\n")
    response = {}
    if mode == "kubectl":
        with open(os.path.join(d, "manifest.yaml"), "w") as f:
            f.write(manifest)
        args = ["apply", "--server-side", "-f", "manifest.yaml"]
        if case.get("force"):
            args.append("--force-conflicts")
        if case.get("manager"):
            args.append("--field-manager=" + case["manager"])
        kp = kubectl(args + ["-v=0", "--vmodule=round_trippers=6"], d)  # the requests, one line each
        stderr = kp.stderr.decode()
        requests = kubectl_requests(stderr)
        writes = [r for r in requests if not r.startswith("GET ")]
        code = int(writes[-1].rsplit(" ", 1)[1]) if writes else case.get("code", 0)
        _, want, _ = call("GET", p)
        response = {"code": code, "kubectlExit": kp.returncode, "kubectlStdout": kp.stdout.decode(),
                    "kubectlStderr": "\n".join(l for l in stderr.splitlines() if not KLOG.match(l)).rstrip("\n"),
                    "requests": requests}
        reqmeta = {"mode": "kubectl", "verb": "apply", "fieldManager": case.get("manager", "kubectl"),
                   "force": case.get("force", False), "subresource": "", "args": args, "path": p}
    else:
        if verb == "update":
            _, body = put_body(final, known, sub)
            manifest = json.dumps(body, indent=2) + "\n"
            q = "?fieldManager=" + case["manager"]
            target = p + ("/" + sub if sub else "")
            dcode, dry, dwarn = call("PUT", target, body, query=q + "&dryRun=All")
            code, want, warned = call("PUT", target, body, query=q)
        else:
            dcode, dry, dwarn = apply(final, case["manifest"], case["manager"], known, sub, case.get("force", False), dry=True, path=p)
            code, want, warned = apply(final, case["manifest"], case["manager"], known, sub, case.get("force", False), path=p)
        with open(os.path.join(d, "manifest.yaml"), "w") as f:
            f.write(manifest)
        same = dcode == code and strip(dry) == strip(want) and dwarn == warned
        response = {"code": code, "dryRunSame": same, "warnings": warned}
        verbname = {("apply", ""): "apply", ("apply", "status"): "apply-status", ("update", ""): "update",
                    ("update", "status"): "update-status", ("update", "scale"): "update-scale"}[(verb, sub)]
        reqmeta = {"mode": "api", "verb": verbname, "fieldManager": case["manager"], "force": case.get("force", False),
                   "subresource": sub, "path": p + ("/" + sub if sub else "")}
    wobj = want if isinstance(want, dict) else {}
    live_times = {e.get("time") for e in ((live or {}).get("metadata", {}).get("managedFields") or [])}
    now = max([e["time"] for e in (wobj.get("metadata", {}).get("managedFields") or []) if e.get("time") and e.get("time") not in live_times] or [""])
    meta = {"description": case["description"], "rules": case.get("rules", []), "families": case.get("families", []),
            "setup": [s["what"] for s in case.get("setup", [])] or ["(none: the object does not exist yet)"],
            "request": reqmeta, "response": response, "server": SERVER}
    if now:
        meta["now"] = now
    if case.get("cluster"):
        meta["cluster"] = case["cluster"]
    if crds:
        meta["setup"].insert(0, "create CustomResourceDefinition " + ", ".join(c["metadata"]["name"] for c in crds) + " (crds.yaml)")
    # The CRDs the case's objects need: those it names, and those its setup applied (unless
    # the final request is a CRD's own write).
    all_crds = crds if final.get("kind") == "CustomResourceDefinition" else known
    if all_crds:
        with open(os.path.join(d, "crds.yaml"), "w") as f:
            f.write("---\n".join(yaml.safe_dump(c, sort_keys=False) for c in all_crds))
    elif os.path.exists(os.path.join(d, "crds.yaml")):
        os.remove(os.path.join(d, "crds.yaml"))
    with open(os.path.join(d, "case.yaml"), "w") as f:
        yaml.safe_dump(meta, f, sort_keys=False, width=100, allow_unicode=True)
    if live is not None:
        with open(os.path.join(d, "live.json"), "w") as f:
            json.dump(live, f, indent=2)
    elif os.path.exists(os.path.join(d, "live.json")):
        os.remove(os.path.join(d, "live.json"))
    for stale in ("want.json", "want.txt"):
        if os.path.exists(os.path.join(d, stale)):
            os.remove(os.path.join(d, stale))
    if isinstance(want, dict):
        with open(os.path.join(d, "want.json"), "w") as f:
            json.dump(want, f, indent=2)
    else:
        with open(os.path.join(d, "want.txt"), "w") as f:
            f.write(want)
    note = "" if mode == "kubectl" else ("dryRunSame" if response["dryRunSame"] else "DRY RUN DIFFERS")
    msg = wobj.get("message", "") if wobj.get("kind") == "Status" else ""
    print(name, code, note, msg[:150], ("warnings: %s" % response.get("warnings")) if response.get("warnings") else "")


def older_server_dump(obj, top=False):
    """obj as a server before 1.34 prints it: the zero creationTimestamp of every embedded
    ObjectMeta (not the object's own) written as null."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "metadata" and isinstance(v, dict) and not top and "creationTimestamp" not in v:
                v["creationTimestamp"] = None
            older_server_dump(v)
    elif isinstance(obj, list):
        for v in obj:
            older_server_dump(v)


def strip(o):
    if not isinstance(o, dict):
        return o
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
        if isinstance(spec.get("taint"), dict):  # a DeviceTaintRule's taint is stamped with the time
            spec["taint"].pop("timeAdded", None)
    return o


def server_version():
    code, v, _ = call("GET", "/version")
    assert code == 200, v
    minor = re.match(r"\d+", v["minor"]).group(0)
    return {"gitVersion": v["gitVersion"], "minor": "%s.%s" % (v["major"], minor)}


SERVER = server_version()
OUT = os.path.abspath((ARGS.out or HERE).replace("{minor}", SERVER["minor"]))
print("recording from kube-apiserver %s into %s" % (SERVER["gitVersion"], OUT))
for case in yaml.safe_load(open(os.path.join(HERE, "cases.yaml"))):
    if not ONLY or case["name"] in ONLY:
        if case.get("mode") == "helm":
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "helm"))
            import helm_record  # noqa: E402 (helm/helm_record.py: the helm mode's steps)
            helm_record.record(sys.modules[__name__], case)
        else:
            record(case)
