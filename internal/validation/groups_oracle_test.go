package validation_test

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// resources of the groups' kinds: plural and whether objects live in a namespace.
var groupResources = map[string]struct {
	plural     string
	namespaced bool
}{
	"Ingress": {"ingresses", true}, "IngressClass": {"ingressclasses", false}, "NetworkPolicy": {"networkpolicies", true},
	"IPAddress": {"ipaddresses", false}, "ServiceCIDR": {"servicecidrs", false},
	"Role": {"roles", true}, "ClusterRole": {"clusterroles", false}, "RoleBinding": {"rolebindings", true},
	"ClusterRoleBinding": {"clusterrolebindings", false},
	"StorageClass":       {"storageclasses", false}, "CSIDriver": {"csidrivers", false}, "CSINode": {"csinodes", false},
	"VolumeAttachment": {"volumeattachments", false}, "CSIStorageCapacity": {"csistoragecapacities", true},
	"VolumeAttributesClass": {"volumeattributesclasses", false},
	"PriorityClass":         {"priorityclasses", false}, "RuntimeClass": {"runtimeclasses", false},
	"EndpointSlice": {"endpointslices", true}, "Lease": {"leases", true},
	// groups_cluster_config_test.go's kinds
	"ValidatingWebhookConfiguration":   {"validatingwebhookconfigurations", false},
	"MutatingWebhookConfiguration":     {"mutatingwebhookconfigurations", false},
	"ValidatingAdmissionPolicy":        {"validatingadmissionpolicies", false},
	"ValidatingAdmissionPolicyBinding": {"validatingadmissionpolicybindings", false},
	"MutatingAdmissionPolicy":          {"mutatingadmissionpolicies", false},
	"MutatingAdmissionPolicyBinding":   {"mutatingadmissionpolicybindings", false},
	"FlowSchema":                       {"flowschemas", false}, "PriorityLevelConfiguration": {"prioritylevelconfigurations", false},
	"CertificateSigningRequest": {"certificatesigningrequests", false}, "ClusterTrustBundle": {"clustertrustbundles", false},
	"StorageVersionMigration": {"storageversionmigrations", false}, "APIService": {"apiservices", false},
}

// newOracle is the kube-apiserver SSA_DIFF_ORACLE names; the test is skipped without one.
func newOracle(t *testing.T) *oracle {
	url := os.Getenv("SSA_DIFF_ORACLE")
	if url == "" {
		t.Skip("SSA_DIFF_ORACLE is not set")
	}
	return &oracle{url: url, token: os.Getenv("SSA_DIFF_ORACLE_TOKEN"), client: &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}}
}

// groupAnswer is the server's answer to the i-th case's write: the stored object is
// created first (in a namespace of its own for namespaced kinds), its status written, and
// the write sent with dryRun=All; cluster-scoped objects are deleted afterwards.
func (o *oracle) groupAnswer(t *testing.T, c *workloadCase, i int) (string, string) {
	_, msg, _, _, skip := o.groupAnswerFull(t, c, i)
	return msg, skip
}

// groupAnswerFull is groupAnswer with the answer's status code, the number of causes of a
// refusal and the warnings.
func (o *oracle) groupAnswerFull(t *testing.T, c *workloadCase, i int) (code int, msg string, causes int, warnings []string, skip string) {
	obj := object(t, c.new)
	av, kind := obj["apiVersion"].(string), obj["kind"].(string)
	res, ok := groupResources[kind]
	if !ok {
		t.Fatalf("no resource for %s", kind)
	}
	md := obj["metadata"].(map[string]any)
	base := "/apis/" + av + "/" + res.plural
	if res.namespaced {
		ns := fmt.Sprintf("oracle-%d-groups-%d", time.Now().Unix()%100000, i)
		if code, st := o.do(t, "POST", "/api/v1/namespaces", map[string]any{"metadata": map[string]any{"name": ns}}); code >= 300 {
			t.Fatalf("namespace %s: %v", ns, st["message"])
		}
		defer o.do(t, "DELETE", "/api/v1/namespaces/"+ns, nil)
		md["namespace"] = ns
		base = "/apis/" + av + "/namespaces/" + ns + "/" + res.plural
	} else {
		delete(md, "namespace")
	}
	delete(md, "uid")
	delete(md, "resourceVersion")
	if c.old == "" {
		if !res.namespaced {
			o.remove(t, base+"/"+md["name"].(string))
		}
		code, st, warnings := o.request(t, "POST", base+"?dryRun=All", obj)
		return code, message(code, st), causeCount(st), warnings, ""
	}
	old := object(t, c.old)
	omd := old["metadata"].(map[string]any)
	name := omd["name"].(string)
	if res.namespaced {
		omd["namespace"] = md["namespace"]
	} else {
		delete(omd, "namespace")
		o.remove(t, base+"/"+name)
		defer o.remove(t, base+"/"+name)
	}
	delete(omd, "uid")
	delete(omd, "resourceVersion")
	status := old["status"]
	code, created := o.do(t, "POST", base, old)
	if code >= 300 {
		return code, "", 0, nil, fmt.Sprintf("%s%v", storedRefused, created["message"])
	}
	if status != nil {
		created["status"] = status
		if code, st := o.do(t, "PUT", base+"/"+name+"/status", created); code >= 300 {
			return code, "", 0, nil, fmt.Sprintf("the stored status is refused: %v", st["message"])
		}
		_, created = o.do(t, "GET", base+"/"+name, nil)
	}
	cmd := created["metadata"].(map[string]any)
	md["uid"], md["resourceVersion"] = cmd["uid"], cmd["resourceVersion"]
	path := base + "/" + name
	if c.subresource != "" {
		path += "/" + c.subresource
	}
	code, st, warnings := o.request(t, "PUT", path+"?dryRun=All", obj)
	for try := 0; code == http.StatusConflict && try < 5; try++ {
		// A controller of the server wrote the stored object meanwhile (the aggregator
		// writes an APIService's availability): the write goes on at its new version.
		time.Sleep(200 * time.Millisecond)
		_, cur := o.do(t, "GET", base+"/"+name, nil)
		md["resourceVersion"] = cur["metadata"].(map[string]any)["resourceVersion"]
		code, st, warnings = o.request(t, "PUT", path+"?dryRun=All", obj)
	}
	return code, message(code, st), causeCount(st), warnings, ""
}

// remove deletes a cluster-scoped object, its finalizers first: no controller of this
// server would ever remove them.
func (o *oracle) remove(t *testing.T, path string) {
	if code, obj := o.do(t, "GET", path, nil); code == http.StatusOK {
		if md, ok := obj["metadata"].(map[string]any); ok && md["finalizers"] != nil {
			delete(md, "finalizers")
			o.do(t, "PUT", path, obj)
		}
	}
	o.do(t, "DELETE", path, nil)
}

// groupCases are the scenarios of every kind, in a fixed order.
func groupCases(t *testing.T) []groupCase {
	var out []groupCase
	for _, set := range []struct {
		kind  string
		cases []workloadCase
	}{
		{"Ingress", ingressCases(t)}, {"IngressClass", ingressClassCases(t)}, {"NetworkPolicy", networkPolicyCases(t)},
		{"IPAddress", ipAddressCases(t)}, {"ServiceCIDR", serviceCIDRCases(t)},
		{"Role", roleCases(t)}, {"ClusterRole", clusterRoleCases(t)}, {"RoleBinding", roleBindingCases(t)},
		{"ClusterRoleBinding", clusterRoleBindingCases(t)},
		{"StorageClass", storageClassCases(t)}, {"CSIDriver", csiDriverCases(t)}, {"CSINode", csiNodeCases(t)},
		{"VolumeAttachment", volumeAttachmentCases(t)}, {"CSIStorageCapacity", csiStorageCapacityCases(t)},
		{"VolumeAttributesClass", volumeAttributesClassCases(t)},
		{"PriorityClass", priorityClassCases(t)}, {"RuntimeClass", runtimeClassCases(t)},
		{"EndpointSlice", endpointSliceCases(t)}, {"Lease", leaseCases(t)},
	} {
		for _, c := range set.cases {
			if !strings.Contains(c.new, "kind: "+set.kind+"\n") {
				t.Fatalf("%s case %q writes another kind", set.kind, c.name)
			}
			out = append(out, groupCase{kind: set.kind, workloadCase: c})
		}
	}
	return out
}
