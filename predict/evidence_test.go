package predict

import "testing"

// TestEvidenceJudgesEachApply: what a live input is evidence of — an object the cluster read
// could not read, a namespace a dump does not say, a create of a kind the dump holds none of
// in that namespace (and one the cluster read found absent), a live object without
// managedFields, a dump printed without them.
func TestEvidenceJudgesEachApply(t *testing.T) {
	web := Identity{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	api := Identity{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "api"}
	cm := Identity{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}
	dump := Evidence{NamespaceUnsaid: true, Listing: true, Objects: []Identity{web}, Managed: true}
	read := Evidence{Read: true, Objects: []Identity{web}, NotFound: map[Identity]string{api: "absent"}, Unreadable: map[Identity]string{cm: "forbidden"}}
	for _, c := range []struct {
		name string
		e    Evidence
		t    Target
		want Trust
	}{
		{"an update against a dump with ownership", dump, Target{ID: web, NamesNamespace: true, HasLive: true}, Trust{}},
		{"a namespace the dump does not say", dump, Target{ID: web, HasLive: true}, Trust{NamespaceAssumed: true}},
		{"a namespace given", Evidence{NamespaceUnsaid: true, Listing: true, NamespaceGiven: true, Objects: []Identity{web}, Managed: true}, Target{ID: web, HasLive: true}, Trust{}},
		{"a create of a kind the dump holds there", dump, Target{ID: api, NamesNamespace: true}, Trust{}},
		{"a create without evidence", dump, Target{ID: cm, NamesNamespace: true}, Trust{WithoutEvidence: true}},
		{"a create the cluster read found absent", read, Target{ID: api}, Trust{NotFound: true, Note: "absent"}},
		{"an object the cluster read could not read", read, Target{ID: cm}, Trust{Unreadable: true, Note: "forbidden"}},
		{"a cluster read says its namespace", read, Target{ID: web, HasLive: true}, Trust{}},
		{"one object printed without managedFields (or cleared: the server answers it)", Evidence{Objects: []Identity{web}}, Target{ID: web, NamesNamespace: true, HasLive: true}, Trust{Unowned: true}},
		{"a dump printed without managedFields", Evidence{NamespaceUnsaid: true, Listing: true, Objects: []Identity{web, api}}, Target{ID: web, NamesNamespace: true, HasLive: true}, Trust{Unowned: true, NoOwnership: true}},
	} {
		if got := c.e.Judge([]Target{c.t})[0]; got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
