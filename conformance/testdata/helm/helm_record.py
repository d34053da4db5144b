"""The helm mode of ../record.py: a scenario's steps, each Helm 4 command recorded as a case.

record.py imports this module and calls record(rec, case) with itself as rec: the server's
URL, token and CA, call(), kubectl(), setup_step(), path_of() and the case layout are its.
$HELM is Helm 4 (default: helm), $HELM3 Helm 3; proxy.go is built once into a temporary
folder (go build), and each command talks to the server through it.
"""
import atexit, json, os, re, shutil, socket, subprocess, tempfile, time

import yaml

HELM = os.environ.get("HELM", "helm")
HELM3 = os.environ.get("HELM3", "helm3")
HERE = os.path.dirname(os.path.abspath(__file__))
_proxy = {}


def proxy(rec):
    """The logging proxy's URL and log file, started on first use."""
    if _proxy:
        return _proxy
    tmp = tempfile.mkdtemp(prefix="helm-record-")
    atexit.register(shutil.rmtree, tmp, True)
    binary = os.path.join(tmp, "proxy")
    subprocess.run(["go", "build", "-o", binary, os.path.join(HERE, "proxy.go")], check=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = os.path.join(tmp, "requests.log")
    p = subprocess.Popen([binary, "-listen", "127.0.0.1:%d" % port, "-upstream", rec.URL, "-token", rec.TOKEN,
                          "-cacert", rec.CACERT, "-log", log])
    atexit.register(p.terminate)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    kubeconfig = os.path.join(tmp, "kubeconfig")
    with open(kubeconfig, "w") as f:
        yaml.safe_dump({"apiVersion": "v1", "kind": "Config", "current-context": "proxy",
                        "clusters": [{"name": "proxy", "cluster": {"server": "http://127.0.0.1:%d" % port}}],
                        "users": [{"name": "proxy", "user": {}}],
                        "contexts": [{"name": "proxy", "context": {"cluster": "proxy", "user": "proxy"}}]}, f)
    _proxy.update(url="http://127.0.0.1:%d" % port, log=log, kubeconfig=kubeconfig, home=tmp)
    return _proxy


def helm(rec, binary, args, driver="secret"):
    """Runs a Helm command through the proxy: exit code, stdout, stderr, the requests."""
    px = proxy(rec)
    env = dict(os.environ, HELM_DRIVER=driver, KUBECONFIG=px["kubeconfig"], HELM_CACHE_HOME=os.path.join(px["home"], "cache"),
               HELM_CONFIG_HOME=os.path.join(px["home"], "config"), HELM_DATA_HOME=os.path.join(px["home"], "data"),
               NO_COLOR="1")
    open(px["log"], "w").close()
    p = subprocess.run([binary] + args, cwd=os.path.join(rec.HERE, "charts"), capture_output=True, env=env)
    time.sleep(0.3)  # the proxy writes a line after the answer went back
    with open(px["log"]) as f:
        entries = [json.loads(l) for l in f if l.strip()]
    return p.returncode, p.stdout.decode(), p.stderr.decode(), entries


def requests_of(entries):
    """The requests a client made, discovery aside, as "VERB path?query (type) -> code"."""
    out = []
    for e in entries:
        path = e["path"]
        if path in ("/api", "/apis", "/version") or path.startswith("/openapi/") or re.match(r"^/apis?/[^/]+(/[^/]+)?$", path) and e["method"] == "GET":
            continue
        line = e["method"] + " " + path + ("?" + e["query"] if e.get("query") else "")
        if e["method"] == "PATCH":
            line += " (" + e.get("contentType", "") + ")"
        if e["method"] == "POST":
            try:
                line += " name=" + json.loads(e["body"])["metadata"]["name"]
            except (ValueError, KeyError, TypeError):
                pass
        out.append(line + " -> %d" % e["code"])
    return out


def render(rec, ns, step):
    """What the step's command renders (helm template --include-crds), or None for a rollback."""
    cmd, name, chart = step["helm"][:3]
    if cmd == "rollback":
        return None
    args = ["template", name, chart, "-n", ns, "--include-crds"] + step.get("values", [])
    if cmd == "upgrade":
        args.append("--is-upgrade")
    code, out, err, _ = helm(rec, HELM, args)
    assert code == 0, err
    return out


def refs_of(manifest):
    """(apiVersion, kind, namespace or None, name) of each object of a rendered manifest."""
    out = []
    for doc in yaml.safe_load_all(manifest or ""):
        if isinstance(doc, dict) and doc.get("kind"):
            md = doc.get("metadata") or {}
            out.append((doc["apiVersion"], doc["kind"], md.get("namespace"), md["name"]))
    return out


def snapshot(rec, ns, refs, crds):
    """A List of the objects named (namespaced ones in ns unless they name theirs) and of
    the release records in ns, as GET returns them."""
    items = []
    for av, kind, ons, name in refs:
        obj = {"apiVersion": av, "kind": kind, "metadata": {"name": name}}
        if ons or not cluster_scoped(kind):
            obj["metadata"]["namespace"] = ons or ns
        code, got, _ = rec.call("GET", rec.path_of(obj, crds))
        if code == 200:
            items.append(got)
    for kind, res in (("Secret", "secrets"), ("ConfigMap", "configmaps")):
        code, got, _ = rec.call("GET", "/api/v1/namespaces/%s/%s" % (ns, res), query="?labelSelector=owner%3Dhelm")
        assert code == 200, got
        for it in sorted(got["items"], key=lambda o: o["metadata"]["name"]):
            it.update(apiVersion="v1", kind=kind)
            items.append(it)
    return {"apiVersion": "v1", "kind": "List", "items": items}


def cluster_scoped(kind):
    return kind in ("CustomResourceDefinition", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
                    "ClusterRole", "ClusterRoleBinding", "Namespace", "PriorityClass", "StorageClass")


def describe(step):
    if "helm" in step:
        return ("helm3 " if step.get("helm3") else "helm ") + " ".join(step["helm"] + step.get("values", []) + step.get("flags", []))
    if "kubectl" in step:
        return "kubectl " + " ".join(step["kubectl"]) + (" (KUBE_EDITOR=%r)" % step["editor"] if step.get("editor") else "")
    if "scale" in step:
        sc = step["scale"]
        return "%s scales the Deployment %s to %d through /scale (PUT)" % (sc["manager"], sc["deployment"], sc["replicas"])
    return step["api"]["what"]


def record(rec, case):
    name, ns = case["name"], case["name"]
    rec.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
    for crd in case.get("deleteFirst", []):
        p = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crd
        rec.call("DELETE", p)
        for _ in range(300):
            if rec.call("GET", p)[0] == 404:
                break
            time.sleep(0.1)
        else:
            raise SystemExit("%s: the CRD %s is still there" % (name, crd))
    crds, refs, done = [], [], []
    folder = os.path.join(rec.OUT, name)
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    for n, step in enumerate(case["steps"], 1):
        if "kubectl" in step:
            with tempfile.TemporaryDirectory() as tmp:
                f = os.path.join(tmp, "object.yaml")
                with open(f, "w") as fh:
                    fh.write(step.get("object", ""))
                args = [f if a == "FILE" else a for a in step["kubectl"]] + ["-n", ns]
                p = rec.kubectl(args, tmp, editor=step.get("editor"))
            assert p.returncode == 0 or step.get("fails"), (name, describe(step), p.stderr.decode())
            for doc in yaml.safe_load_all(step.get("object", "")):
                if isinstance(doc, dict):
                    md = doc["metadata"]
                    refs.append((doc["apiVersion"], doc["kind"], md.get("namespace"), md["name"]))
            done.append(describe(step))
            time.sleep(1.1)
            continue
        if "scale" in step:
            sc = step["scale"]
            p = "/apis/apps/v1/namespaces/%s/deployments/%s/scale" % (ns, sc["deployment"])
            code, cur, _ = rec.call("GET", p)
            assert code == 200, (name, cur)
            cur["spec"]["replicas"] = sc["replicas"]
            code, out, _ = rec.call("PUT", p, cur, query="?fieldManager=" + sc["manager"])
            assert code == 200, (name, out)
            done.append(describe(step))
            time.sleep(1.1)
            continue
        if "api" in step:
            api = dict(step["api"])
            doc = yaml.safe_load(api["object"])
            if not cluster_scoped(doc["kind"]):
                doc["metadata"].setdefault("namespace", ns)
            api["object"] = yaml.safe_dump(doc)
            rec.setup_step(name, api, crds, None)
            refs.append((doc["apiVersion"], doc["kind"], doc["metadata"].get("namespace"), doc["metadata"]["name"]))
            done.append(describe(step))
            time.sleep(1.1)
            continue
        cmd, release, chart = step["helm"][:3]
        manifest = render(rec, ns, step)
        for r in refs_of(manifest):
            if r not in refs:
                refs.append(r)
        for doc in yaml.safe_load_all(manifest or ""):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition" and doc not in crds:
                crds.append(doc)
        args = step["helm"] + step.get("values", []) + step.get("flags", []) + ["-n", ns]
        if step.get("helm3"):
            code, out, err, _ = helm(rec, HELM3, args, case.get("driver", "secret"))
            assert code == 0 or step.get("fails"), (name, describe(step), err)
            done.append(describe(step))
            wait_crds(rec, crds)
            time.sleep(1.1)
            continue
        before = snapshot(rec, ns, refs, crds)
        code, out, err, entries = helm(rec, HELM, args, case.get("driver", "secret"))
        wait_crds(rec, crds)
        after = snapshot(rec, ns, refs, crds)
        d = os.path.join(folder, "%02d-%s" % (n, cmd))
        os.makedirs(d, exist_ok=True)
        if manifest is not None:
            with open(os.path.join(d, "manifest.yaml"), "w") as f:
                f.write(manifest.lstrip("\n"))
        if crds:
            with open(os.path.join(d, "crds.yaml"), "w") as f:
                f.write("---\n".join(yaml.safe_dump(c, sort_keys=False) for c in crds))
        with open(os.path.join(d, "live.json"), "w") as f:
            json.dump(before, f, indent=2)
        with open(os.path.join(d, "want.json"), "w") as f:
            json.dump(after, f, indent=2)
        writes = [e for e in entries if e["method"] not in ("GET",)]
        times = [e["time"] for o in after["items"] for e in (o["metadata"].get("managedFields") or []) if e.get("time")]
        old = {e["time"] for o in before["items"] for e in (o["metadata"].get("managedFields") or []) if e.get("time")}
        meta = {"description": case["description"] + ("" if len(case["steps"]) == 1 else " Step %d: %s." % (n, describe(step))),
                "rules": case.get("rules", []), "families": case.get("families", []),
                "setup": done[:] or ["(none: the namespace is empty)"],
                "request": {"mode": "helm", "helm": "v4", "args": args, "command": cmd, "release": release,
                            "namespace": ns, "chart": chart, "driver": case.get("driver", "secret")},
                "response": {"helmExit": code, "helmStdout": out, "helmStderr": err,
                             "requests": requests_of(entries), "writes": len(writes)},
                "server": rec.SERVER}
        new = sorted(t for t in times if t not in old)
        if new:
            meta["now"] = new[-1]
        with open(os.path.join(d, "case.yaml"), "w") as f:
            yaml.safe_dump(meta, f, sort_keys=False, width=100, allow_unicode=True)
        check_manifest(rec, ns, release, manifest, before, after, name)
        print("%s/%02d-%s exit %d, %d writes %s" % (name, n, cmd, code, len(writes), err.strip().splitlines()[-1][:160] if err.strip() else ""))
        assert code == 0 or step.get("fails"), (name, describe(step), err)
        done.append(describe(step) + (" (failed)" if code else ""))
        time.sleep(1.1)


def wait_crds(rec, crds):
    for c in crds:
        code, _, _ = rec.call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + c["metadata"]["name"])
        if code == 200:
            rec.wait_established(c["metadata"]["name"])


def check_manifest(rec, ns, release, manifest, before, after, name):
    """The manifest the command recorded (a new record's) must be what template rendered,
    crds/ and hooks aside: else the case's manifest.yaml is not what Helm applied."""
    if manifest is None:
        return
    old = {(o["kind"], o["metadata"]["name"]) for o in before["items"]}
    new = [o for o in after["items"] if o["kind"] in ("Secret", "ConfigMap") and (o["kind"], o["metadata"]["name"]) not in old
           and (o["metadata"].get("labels") or {}).get("owner") == "helm" and (o["metadata"].get("labels") or {}).get("name") == release]
    if not new:
        return
    import base64, gzip
    raw = new[0]["data"]["release"]
    raw = base64.b64decode(base64.b64decode(raw) if new[0]["kind"] == "Secret" else raw)
    if raw[:3] == b"\x1f\x8b\x08":
        raw = gzip.decompress(raw)
    recorded = json.loads(raw).get("manifest", "")
    rendered = [d for d in re.split(r"(?m)^---\s*$", manifest) if d.strip() and "/crds/" not in d.split("\n", 2)[1]]
    stored = [d for d in re.split(r"(?m)^---\s*$", recorded) if d.strip()]
    norm = lambda docs: sorted(d.strip() for d in docs)
    if norm(rendered) != norm(stored):
        raise SystemExit("%s: helm template rendered another manifest than the release recorded:\n%s\n---- recorded:\n%s" % (name, manifest, recorded))
