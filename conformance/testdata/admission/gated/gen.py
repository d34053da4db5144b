#!/usr/bin/env python3
"""Writes cases.yaml: the MutatingAdmissionPolicy cases of ../cases.yaml (those with minMinor
36) at admissionregistration.k8s.io/v1beta1, for a 1.34 or 1.35 server started with the
MutatingAdmissionPolicy feature gate on and v1beta1 served (record.sh: SERVER_FLAGS).
Those releases have the gate off by default; a cluster that turned it on stores its
policies at v1beta1 and runs them (python3 gen.py).
"""
import os

import yaml

here = os.path.dirname(os.path.abspath(__file__))


def block(dumper, s):
    if "\n" in s:
        return dumper.represent_scalar("tag:yaml.org,2002:str", s, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", s)


yaml.SafeDumper.add_representer(str, block)

out = []
for c in yaml.safe_load(open(os.path.join(here, "..", "cases.yaml"))):
    if c.get("minMinor") != 36 or not c["name"].startswith("map-"):
        continue
    c = dict(c)
    c.pop("minMinor")
    c["description"] = c["description"] + " (v1beta1, the MutatingAdmissionPolicy gate on)"
    # The server's --feature-gates (record.sh's SERVER_FLAGS), which record.py writes into
    # each case.yaml: a replay predicts that server, and the CLI is given the same flag.
    c["cluster"] = dict(c.get("cluster") or {}, featureGates="MutatingAdmissionPolicy=true")
    for s in c.get("setup", []):
        obj = yaml.safe_load(s["object"])
        if obj.get("apiVersion") == "admissionregistration.k8s.io/v1" and obj["kind"].startswith("MutatingAdmissionPolicy"):
            obj["apiVersion"] = "admissionregistration.k8s.io/v1beta1"
            s["object"] = yaml.safe_dump(obj, sort_keys=False)
    out.append(c)
with open(os.path.join(here, "cases.yaml"), "w") as f:
    f.write("# The MutatingAdmissionPolicy cases at v1beta1, on a 1.34/1.35 server with the gate on.\n"
            "# Written by gen.py from ../cases.yaml: edit that, then run it.\n\n")
    f.write(yaml.safe_dump(out, sort_keys=False, width=100))
print(len(out), "cases")
