"""Prints what a kube-apiserver serves: one "group/version resource" line per resource its
discovery lists (the core group as "/v1"), sorted; subresources left out. Used by record.sh."""
import json
import ssl
import sys
import urllib.request

url, token = sys.argv[1], sys.argv[2]
ctx = ssl.create_default_context()
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE


def get(path):
    req = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(req, context=ctx) as r:
        return json.load(r)


lines = []
for v in get("/api")["versions"]:
    lines += ["/" + v + " " + r["name"] for r in get("/api/" + v)["resources"] if "/" not in r["name"]]
for g in get("/apis")["groups"]:
    for v in g["versions"]:
        d = get("/apis/" + v["groupVersion"])
        lines += [d["groupVersion"] + " " + r["name"] for r in d["resources"] if "/" not in r["name"]]
print("\n".join(sorted(lines)))
