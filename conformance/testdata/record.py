#!/usr/bin/env python3
"""Record the cases of a cases.yaml from a real kube-apiserver, in the layout of the shared fixtures.

usage: record.py [--dir DIR] [--out OUT] [--etcd ETCD_URL] [--admission] [--authorization RULE...] URL TOKEN CACERT [NAME...]

DIR holds cases.yaml and the CRD files its cases name (default: $FIDELITY_DIR, else
testdata/fidelity); the case folders are written to OUT (default: DIR; {minor} in it stands
for the server's minor, 1.35). URL, TOKEN and
CACERT are what start.sh prints. kubectl-mode cases and kubectl setup steps run $KUBECTL
(default: kubectl) with $KUBECONFIG: use the kubectl of the server's own release (the
ORACLE_HOME's bin/kubectl). Run it against a fresh server (start.sh --fresh): every case
has its own namespace, named like the case, and objects of cluster scope have names of
their own; a namespace deleted without controllers stays Terminating.

With --admission (a server running the whole default admission chain, ServiceAccount
included, as admission/record.sh starts it): every case namespace gets its `default`
ServiceAccount (no controller makes it), and each case also gets admission.json, a v1 List
of what the admission chain reads, listed just before the final request — the
Namespaces, the PriorityClasses, StorageClasses, IngressClasses and RuntimeClasses, the
case namespace's ServiceAccounts, LimitRanges and ResourceQuotas, the admission policies
and bindings and the objects of their paramKinds — and case.yaml says who sent the
requests (`requester`, the server's SelfSubjectReview of the token) and what its
authorizer answers (`authorization`, the rules given with --authorization, in ssa-diff's
--authorize syntax).

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
                                         create (POST) | patch (PATCH `body`, of `patchType`
                                         merge, strategic or json) | kubectl (run kubectl
                                         `args`, FILE standing for the object written to a file)
                                         | etcd (write `value` at `key` straight into etcd, --etcd:
                                         a CRD as an older server stored it)
    target: YAML                         the object the step writes, when `object` does not name it
                                         (a patch, a Scale to /scale)
    manager: M                           field manager (apply, update, create, patch; none sends
                                         no fieldManager parameter)
    subresource: status|scale            for apply, update and patch
    force: true                          apply only
    keepManagedFields: true              update: the GET's managedFields stay in the body
    editManagedFields: {manager: M, subresource: ''}   update: these keys set on each entry
    rawBody: true                        update: `object` sent as it is (no GET merged in)
    sleep: 1.2                           seconds to wait after the step (entry times differ)
    args: [apply, -f, FILE]              kubectl only
  namespace: {labels: {...}}             labels of the case's namespace (Pod Security levels …)
  createNamespace: false                 the case's namespace is not created (a create into a
                                         namespace that does not exist)
  deleteNamespace: true                  the case's namespace is deleted after the setup (without
                                         controllers it stays Terminating)
  minMinor: 36                           recorded from servers of that minor on only (a kind they
                                         serve by default from then)
  wait: 2.5                              seconds to wait after the setup (policies take up to a
                                         second to be seen; default 1.2)
  mode: api | kubectl                    (default api)
  verb: apply | update | patch | create  the final request (default apply): update PUTs the
                                         GET of the object with `manifest` merged into it
                                         (the setup's keepManagedFields, editManagedFields
                                         and rawBody too); patch sends `manifest` as the
                                         patch (`patchType`); create POSTs it
  patchType: merge|strategic|json        patch only
  target: YAML                           the object the request goes to, when the manifest does
                                         not name it (a patch, a Scale to /scale)
  rawBody: true                          apply: `manifest` sent byte for byte even when it
                                         is not YAML a Go reader takes (JSON with trailing
                                         commas, which the server reads as YAML)
  editFromLive: true                     kubectl edit: manifest.yaml is the GET of the object
                                         (managedFields removed) with `manifest` merged in, the
                                         object a user saves in the editor
  kubectl: [label, deploy/x, a=b]        kubectl mode: the command run instead of `apply
                                         --server-side -f manifest.yaml` (FILE stands for
                                         manifest.yaml; `edit` runs with KUBE_EDITOR copying
                                         manifest.yaml over the file it edits)
  manager: M                             its field manager (kubectl mode: --field-manager when given)
  force: true                            force=true / --force-conflicts
  subresource: status|scale
  liveAt: apiVersion                     read live.json at this version of the object's kind
  path: /apis/...                        the final request's path, when not the manifest's own
  code: 404                              kubectl mode: the code when kubectl sends no write
  result: YAML                           kubectl mode: the object the command writes, when not
                                         `target` (want.json is its GET: debug --copy-to's copy)
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
ap.add_argument("--admission", action="store_true")
ap.add_argument("--authorization", action="append", default=[])
ap.add_argument("url")
ap.add_argument("token")
ap.add_argument("cacert")
ap.add_argument("names", nargs="*")
ap.add_argument("--etcd", default=os.environ.get("ETCD_URL", "http://127.0.0.1:23790"), help="etcd's client URL, for setup steps that write to it")
ARGS = ap.parse_args()
HERE = os.path.abspath(ARGS.dir)
URL, TOKEN, CACERT = ARGS.url, ARGS.token, ARGS.cacert
ONLY = set(ARGS.names)
CTX = ssl.create_default_context(cafile=CACERT)
KUBECTL = os.environ.get("KUBECTL", "kubectl")
KUBECONFIG = os.environ.get("KUBECONFIG", "")
ETCD_URL = ARGS.etcd


def call(method, path, body=None, ctype="application/json", query=""):
    """The answer to a request: code, the body decoded (the text when it is not JSON), the
    texts of its Warning headers."""
    data = None
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    req = urllib.request.Request(URL + path + query, data=data, method=method,
                                 headers={"Authorization": "Bearer " + TOKEN, "Content-Type": ctype, "User-Agent": USER_AGENT})
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


# The User-Agent of the recorder's requests: a write without a fieldManager parameter is
# recorded by the server under its first part (case.yaml says fieldManager: recorder).
USER_AGENT = "recorder/1.0 (ssa-diff)"
UA_MANAGER = "recorder"

# Kinds of cluster scope: an object of any other kind without a namespace goes to the case's
# namespace, as a client that sends it to the case's namespace URL.
CLUSTER_KINDS = {"Namespace", "Node", "PersistentVolume", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition",
                 "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy",
                 "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding", "StorageClass",
                 "PriorityClass", "APIService", "CSIDriver", "CSINode", "VolumeAttachment", "IngressClass", "RuntimeClass",
                 "CertificateSigningRequest", "FlowSchema", "PriorityLevelConfiguration", "ClusterTrustBundle", "DeviceClass",
                 "ServiceCIDR", "IPAddress", "VolumeAttributesClass", "StorageVersionMigration", "ResourceSlice", "DeviceTaintRule"}
CASE_NS = None  # the namespace of the case being recorded


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
    cluster = kind in CLUSTER_KINDS
    for c in crds:
        if c.get("kind") == "CustomResourceDefinition" and c["spec"]["names"]["kind"] == kind:
            res = c["spec"]["names"]["plural"]
            cluster = c["spec"].get("scope") == "Cluster"
    if not ns and not cluster:
        ns = CASE_NS
    base = "/api/" + av if "/" not in av else "/apis/" + av
    if ns:
        base += "/namespaces/" + ns
    # A create naming only a generateName goes to the collection (path ends in "/").
    return base + "/" + res + "/" + obj["metadata"].get("name", "")


def apply(doc, text, manager, crds, sub="", force=False, dry=False, path=None):
    q = ("?fieldManager=" + manager if manager else "?") + ("&force=true" if force else "") + ("&dryRun=All" if dry else "")
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


PATCH_TYPES = {"merge": "application/merge-patch+json", "strategic": "application/strategic-merge-patch+json",
               "json": "application/json-patch+json"}


def manager_query(step):
    """The fieldManager parameter of a write, none when the step names no manager."""
    return "?fieldManager=" + step["manager"] if step.get("manager") else ""


def etcd_put(key, value):
    """Writes value at key straight into etcd (its JSON gateway): an object as an older
    server stored it, which no request to this one could make."""
    import base64
    b = lambda x: base64.b64encode(x.encode()).decode()
    req = urllib.request.Request(ETCD_URL + "/v3/kv/put", data=json.dumps({"key": b(key), "value": b(value)}).encode(), method="POST")
    with urllib.request.urlopen(req) as r:
        assert r.status == 200, r.read()


def update_body(step, doc, crds, sub=""):
    """The path and body of a PUT: the GET of the object with `doc` merged in (managedFields
    kept or edited as the step says), or `doc` itself (rawBody)."""
    p = path_of(doc, crds) + ("/" + sub if sub else "")
    if step.get("rawBody"):
        return p, doc
    code, cur, _ = call("GET", p)
    assert code == 200, (p, cur)
    if not step.get("keepManagedFields") and not step.get("editManagedFields"):
        cur["metadata"].pop("managedFields", None)
    for e in cur["metadata"].get("managedFields") or []:
        e.update(step.get("editManagedFields") or {})
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
    where = yaml.safe_load(step["target"]) if step.get("target") else doc
    sub = step.get("subresource", "")
    if verb == "etcd":
        etcd_put(step["key"], step["value"])
        code, out = 200, ""
        doc = json.loads(step["value"])
    elif verb == "apply":
        code, out, _ = apply(where, step["object"], step.get("manager", ""), crds, sub, step.get("force", False))
    elif verb == "update" and step.get("rawBody"):
        code, out, _ = call("PUT", path_of(where, crds) + ("/" + sub if sub else ""), doc, query=manager_query(step))
    elif verb == "update":
        p, body = update_body(step, doc, crds, sub)
        code, out, _ = call("PUT", p, body, query=manager_query(step))
    elif verb == "patch":
        p = path_of(where, crds) + ("/" + sub if sub else "")
        code, out, _ = call("PATCH", p, step["body"], PATCH_TYPES[step["patchType"]], manager_query(step))
    elif verb == "create":
        p = path_of(doc, crds)
        code, out, _ = call("POST", p[:p.rindex("/")], doc, query=manager_query(step))
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
    if step.get("sleep"):
        time.sleep(step["sleep"])
    if doc and doc.get("kind") == "CustomResourceDefinition":
        wait_established(doc["metadata"]["name"])
        if verb == "etcd":
            # The CRD as the server serves it, as a dump of the cluster holds it.
            _, doc, _ = call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + doc["metadata"]["name"])
        crds[:] = [c for c in crds if c["metadata"]["name"] != doc["metadata"]["name"]] + [doc]
        CRDS_SEEN.append(doc)


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
    global CASE_NS
    name = case["name"]
    CASE_NS = name
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    crds = [load_crd(f) for f in case.get("crds", [])]
    for c in crds:
        crd_path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + c["metadata"]["name"]
        code, out, _ = call("PATCH", crd_path, yaml.safe_dump(c), "application/apply-patch+yaml", "?fieldManager=recorder&force=true")
        if code == 422 and "must be specified for an update" in out.get("message", ""):
            # A CRD an earlier case wrote straight into etcd has no resourceVersion an apply
            # can take: replace it.
            _, cur, _ = call("GET", crd_path)
            body = copy.deepcopy(c)
            body["metadata"]["resourceVersion"] = cur["metadata"].get("resourceVersion", "")
            code, out, _ = call("PUT", crd_path, body, query="?fieldManager=recorder")
        assert code < 300, out
        wait_established(c["metadata"]["name"])
        CRDS_SEEN.append(c)
    if case.get("createNamespace", True):
        ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
        if (case.get("namespace") or {}).get("labels"):
            ns["metadata"]["labels"] = case["namespace"]["labels"]
        call("POST", "/api/v1/namespaces", ns)
        if ARGS.admission:
            call("POST", "/api/v1/namespaces/%s/serviceaccounts" % name,
                 {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": name}})
    known = list(crds)
    for step in case.get("setup", []):
        setup_step(name, step, known, d)
    if case.get("deleteNamespace"):
        code, out, _ = call("DELETE", "/api/v1/namespaces/" + name)
        assert code < 300, out
    if case.get("setup") or case.get("wait"):
        time.sleep(case.get("wait", 1.2))  # the final request's managedFields time differs from the setup's
    mode, verb = case.get("mode", "api"), case.get("verb", "apply")
    # The object the final request goes to: `target` (for a body that does not say, a
    # patch), else the manifest.
    final = yaml.safe_load(case["target"]) if case.get("target") else yaml.safe_load(case["manifest"])
    sub = case.get("subresource", "")
    p = case.get("path") or path_of(final, known)
    if p.endswith("/"):
        lcode, live = 404, None  # the server names the object: nothing to read before
    else:
        lcode, live, _ = call("GET", path_of(final, known, case.get("liveAt")) if case.get("liveAt") else p)
    live = live if lcode == 200 else None
    if live is not None and case.get("olderServerDump"):
        older_server_dump(live, top=True)
    for k in case.get("liveWithout", []):
        (live or {}).pop(k, None)
    manifest = case["manifest"].lstrip("\n")
    if ARGS.admission:
        with open(os.path.join(d, "admission.json"), "w") as f:
            json.dump(admission_state(name), f, indent=2)
    response = {}
    after = None
    if mode == "kubectl":
        if case.get("editFromLive") and live is not None:
            # What a user saves in kubectl edit's editor: the object kubectl opened (the
            # GET without managedFields) with the case's changes.
            opened = copy.deepcopy(live)
            opened["metadata"].pop("managedFields", None)
            manifest = yaml.safe_dump(merged(opened, yaml.safe_load(manifest)), sort_keys=False)
        with open(os.path.join(d, "manifest.yaml"), "w") as f:
            f.write(manifest)
        editor = None
        if case.get("kubectl"):
            args = ["manifest.yaml" if a == "FILE" else a for a in case["kubectl"]]
            if args[0] == "edit":
                editor = "cp " + os.path.join(d, "manifest.yaml")
        else:
            args = ["apply", "--server-side", "-f", "manifest.yaml"]
            if case.get("force"):
                args.append("--force-conflicts")
            if case.get("manager"):
                args.append("--field-manager=" + case["manager"])
        # The requests, one line each (the flags before a "--", which ends kubectl's own).
        at = args.index("--") if "--" in args else len(args)
        kp = kubectl(args[:at] + ["-v=0", "--vmodule=round_trippers=6"] + args[at:], d, editor=editor)
        stderr = kp.stderr.decode()
        requests = kubectl_requests(stderr)
        writes = [r for r in requests if not r.startswith("GET ")]
        code = int(writes[-1].rsplit(" ", 1)[1]) if writes else case.get("code", 0)
        # The object the command wrote: `result` when it is not the one it names (kubectl
        # debug --copy-to's copy).
        _, want, _ = call("GET", path_of(yaml.safe_load(case["result"]), known) if case.get("result") else p)
        response = {"code": code, "kubectlExit": kp.returncode, "kubectlStdout": kp.stdout.decode(),
                    "kubectlStderr": "\n".join(l for l in stderr.splitlines() if not KLOG.match(l)).rstrip("\n"),
                    "requests": requests}
        reqmeta = {"mode": "kubectl", "verb": args[0] if case.get("kubectl") else "apply",
                   "fieldManager": case.get("manager", "kubectl"),
                   "force": case.get("force", False), "subresource": sub, "args": args, "path": p}
    else:
        target = p + ("/" + sub if sub else "")
        q = manager_query(case)
        if verb == "update" and case.get("rawBody"):
            body = yaml.safe_load(manifest)
            manifest = json.dumps(body, indent=2) + "\n"
            dcode, dry, dwarn = call("PUT", target, body, query=q + ("&" if q else "?") + "dryRun=All")
            code, want, warned = call("PUT", target, body, query=q)
        elif verb == "update":
            _, body = update_body(case, yaml.safe_load(manifest), known, sub)
            manifest = json.dumps(body, indent=2) + "\n"
            dcode, dry, dwarn = call("PUT", target, body, query=q + ("&" if q else "?") + "dryRun=All")
            code, want, warned = call("PUT", target, body, query=q)
        elif verb == "patch":
            ctype = PATCH_TYPES[case["patchType"]]
            dcode, dry, dwarn = call("PATCH", target, manifest, ctype, q + ("&" if q else "?") + "dryRun=All")
            code, want, warned = call("PATCH", target, manifest, ctype, q)
        elif verb == "create":
            coll = p[:p.rindex("/")]
            body = yaml.safe_load(manifest)
            dcode, dry, dwarn = call("POST", coll, body, query=q + ("&" if q else "?") + "dryRun=All")
            code, want, warned = call("POST", coll, body, query=q)
        else:
            dcode, dry, dwarn = apply(final, case["manifest"], case.get("manager", ""), known, sub, case.get("force", False), dry=True, path=p)
            code, want, warned = apply(final, case["manifest"], case.get("manager", ""), known, sub, case.get("force", False), path=p)
        if sub == "scale":
            _, after, _ = call("GET", p)
        with open(os.path.join(d, "manifest.yaml"), "w") as f:
            f.write(manifest)
        gen = (final.get("metadata") or {}).get("generateName") if not (final.get("metadata") or {}).get("name") else None
        same = dcode == code and generated(strip(dry), gen) == generated(strip(want), gen) and dwarn == warned
        response = {"code": code, "dryRunSame": same, "warnings": warned}
        verbname = verb + ("-" + sub if sub else "")
        # A write without a fieldManager is recorded under the user agent's name.
        manager = case.get("manager") or (UA_MANAGER if verb != "apply" else "")
        reqmeta = {"mode": "api", "verb": verbname, "fieldManager": manager, "force": case.get("force", False),
                   "subresource": sub, "path": target}
        if verb != "apply" and not case.get("manager"):
            reqmeta["userAgent"] = USER_AGENT
        if verb == "patch":
            reqmeta["patchType"] = case["patchType"]
    wobj = want if isinstance(want, dict) else {}
    if after is not None and code < 300:
        wobj = after  # the Scale has no managedFields: the parent's say when it was written
    live_times = {e.get("time") for e in ((live or {}).get("metadata", {}).get("managedFields") or [])}
    now = max([e["time"] for e in (wobj.get("metadata", {}).get("managedFields") or []) if e.get("time") and e.get("time") not in live_times] or [""])
    meta = {"description": case["description"], "rules": case.get("rules", []), "families": case.get("families", []),
            "setup": [s["what"] for s in case.get("setup", [])] or ["(none: the object does not exist yet)"],
            "request": reqmeta, "response": response, "server": SERVER}
    if now:
        meta["now"] = now
    if case.get("cluster"):
        meta["cluster"] = case["cluster"]
    if ARGS.admission:
        meta["requester"] = REQUESTER
        meta["authorization"] = ARGS.authorization
    if crds:
        meta["setup"].insert(0, "create CustomResourceDefinition " + ", ".join(c["metadata"]["name"] for c in crds) + " (crds.yaml)")
    # The CRDs the case's objects need: those it names, and those its setup applied (unless
    # the final request is a CRD's own write).
    all_crds = crds if isinstance(final, dict) and final.get("kind") == "CustomResourceDefinition" else known
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
    if os.path.exists(os.path.join(d, "after.json")):
        os.remove(os.path.join(d, "after.json"))
    if after is not None:
        with open(os.path.join(d, "after.json"), "w") as f:
            json.dump(after, f, indent=2)
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


# What the admission chain reads: cluster-wide kinds whole, the case namespace's of the
# namespaced ones, by the path that lists them.
ADMISSION_KINDS = [
    ("/api/v1/namespaces", False), ("/apis/scheduling.k8s.io/v1/priorityclasses", False),
    ("/apis/storage.k8s.io/v1/storageclasses", False), ("/apis/networking.k8s.io/v1/ingressclasses", False),
    ("/apis/node.k8s.io/v1/runtimeclasses", False), ("/api/v1/serviceaccounts", True), ("/api/v1/limitranges", True),
    ("/api/v1/resourcequotas", True),
]
POLICY_GROUP = "/apis/admissionregistration.k8s.io/"


def list_items(path):
    code, out, _ = call("GET", path)
    if code != 200:
        return None
    kind = out.get("kind", "")[:-len("List")]
    items = []
    for it in out.get("items") or []:
        it.setdefault("apiVersion", out.get("apiVersion"))
        it.setdefault("kind", kind)
        (it.get("metadata") or {}).pop("managedFields", None)
        items.append(it)
    return items


def admission_state(ns):
    """The objects the admission chain reads, as a v1 List."""
    items = []
    for path, namespaced in ADMISSION_KINDS:
        if namespaced:
            path = path.replace("/api/v1/", "/api/v1/namespaces/%s/" % ns)
        items += list_items(path) or []
    params = set()
    for res in ("validatingadmissionpolicies", "validatingadmissionpolicybindings", "mutatingadmissionpolicies", "mutatingadmissionpolicybindings"):
        for v in ("v1", "v1beta1", "v1alpha1"):
            got = list_items(POLICY_GROUP + v + "/" + res)
            if got is not None:
                items += got
                for it in got:
                    pk = (it.get("spec") or {}).get("paramKind")
                    if pk:
                        params.add((pk["apiVersion"], pk["kind"]))
                break
    for av, kind in sorted(params):
        base = "/api/" + av if "/" not in av else "/apis/" + av
        res = plural(kind)
        for c in CRDS_SEEN:
            if c["spec"]["names"]["kind"] == kind:
                res = c["spec"]["names"]["plural"]
        items += list_items(base + "/" + res) or []
    return {"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items}


CRDS_SEEN = []


def generated(o, prefix):
    """o with the names the server generated from generateName prefix (its 5 random
    characters) written as prefix + "*****": a dry run and the write draw different ones."""
    if not prefix:
        return o
    pat = re.escape(prefix[:58]) + "[bcdfghjklmnpqrstvwxz2456789]{5}" + r"\b"
    return json.loads(re.sub(pat, prefix[:58] + "*****", json.dumps(o)))


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


def requester():
    code, out, _ = call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                        {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"})
    assert code == 201, out
    u = out["status"]["userInfo"]
    return {k: u[k] for k in ("username", "uid", "groups") if u.get(k)}


REQUESTER = requester() if ARGS.admission else None
OUT = os.path.abspath((ARGS.out or HERE).replace("{minor}", SERVER["minor"]))
print("recording from kube-apiserver %s into %s" % (SERVER["gitVersion"], OUT))
MINOR = int(SERVER["minor"].split(".")[1])
for case in yaml.safe_load(open(os.path.join(HERE, "cases.yaml"))):
    if (not ONLY or case["name"] in ONLY) and MINOR >= case.get("minMinor", 0):
        if case.get("mode") == "helm":
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "helm"))
            import helm_record  # noqa: E402 (helm/helm_record.py: the helm mode's steps)
            helm_record.record(sys.modules[__name__], case)
        else:
            record(case)
