package strategy

import "strconv"

// AssignedField is a value the server assigns when it stores an object and
// that an offline prediction cannot know: a generated uid, the time, an
// allocated IP or port. A prediction reports these as "assigned by the
// server" instead of inventing them.
type AssignedField struct {
	// Path names the field: string elements are object fields, int elements
	// list indices (e.g. ["spec", "ports", 0, "nodePort"]).
	Path []any
	// Reason says in a few words who assigns it.
	Reason string
}

// String renders the path in the catalog's dotted form
// (".spec.ports[0].nodePort").
func (a AssignedField) String() string {
	s := ""
	for _, e := range a.Path {
		switch x := e.(type) {
		case string:
			s += "." + x
		case int:
			s += "[" + strconv.Itoa(x) + "]"
		}
	}
	return s
}

// Assigned lists the fields the server will assign in obj, the predicted
// object after Create (create is true) or Update: fields absent from obj that
// the stored object will have, with a value nobody can predict. resourceVersion
// is listed on every write.
func Assigned(apiVersion, kind string, obj map[string]any, create bool) []AssignedField {
	var out []AssignedField
	add := func(reason string, p ...any) { out = append(out, AssignedField{Path: p, Reason: reason}) }
	meta := object(obj, "metadata")
	if create {
		if str(meta, "name") == "" && str(meta, "generateName") != "" {
			add("generated from generateName", "metadata", "name")
		}
		add("generated uid", "metadata", "uid")
		add("time of the create", "metadata", "creationTimestamp")
	}
	add("etcd revision", "metadata", "resourceVersion")
	switch groupOf(apiVersion) + "/" + kind {
	case "/Service":
		spec := object(obj, "spec")
		typ := str(spec, "type")
		if typ == "ExternalName" {
			break
		}
		if create && str(spec, "clusterIP") == "" {
			add("allocated from the service CIDR", "spec", "clusterIP")
			add("allocated from the service CIDR", "spec", "clusterIPs")
		}
		if create && len(list(spec, "ipFamilies")) == 0 {
			add("the cluster's IP families", "spec", "ipFamilies")
		}
		if create && spec["ipFamilyPolicy"] == nil {
			add("the cluster's IP family policy", "spec", "ipFamilyPolicy")
		}
		if typ == "NodePort" || typ == "LoadBalancer" {
			alloc, _ := spec["allocateLoadBalancerNodePorts"].(bool)
			if typ == "NodePort" || alloc || spec["allocateLoadBalancerNodePorts"] == nil {
				for i, p := range objects(spec, "ports") {
					if n, _ := asInt(p["nodePort"]); n == 0 {
						add("allocated node port", "spec", "ports", i, "nodePort")
					}
				}
			}
			if typ == "LoadBalancer" && str(spec, "externalTrafficPolicy") == "Local" {
				if n, _ := asInt(spec["healthCheckNodePort"]); n == 0 {
					add("allocated node port", "spec", "healthCheckNodePort")
				}
			}
		}
	case "batch/Job":
		spec := object(obj, "spec")
		if manual, _ := spec["manualSelector"].(bool); create && !manual {
			add("the job's uid", "spec", "selector")
			add("the job's uid", "spec", "template", "metadata", "labels", "batch.kubernetes.io/controller-uid")
			add("the job's uid", "spec", "template", "metadata", "labels", "controller-uid")
			add("the job's name", "spec", "template", "metadata", "labels", "batch.kubernetes.io/job-name")
			add("the job's name", "spec", "template", "metadata", "labels", "job-name")
		}
	case "/PersistentVolume":
		if create {
			add("time of the create", "status", "lastPhaseTransitionTime")
		}
	case "/ServiceAccount", "/Secret":
		// Nothing: token secrets are no longer generated.
	}
	return out
}
