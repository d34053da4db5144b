package helmrelease

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
)

// Record is one stored revision: the release it holds and where it is stored.
type Record struct {
	Release
	// Key is the storage object's name, sh.helm.release.v1.<release>.v<revision>.
	Key string
	// Driver is the kind that stores it: "Secret" or "ConfigMap".
	Driver string
	// StorageNamespace is the storage object's namespace.
	StorageNamespace string
	// Labels are the storage object's labels; Helm finds the deployed revision by the
	// status label, not by the JSON.
	Labels map[string]string
}

// IsRecord reports whether obj is stored as a release record would be: a Secret or a
// ConfigMap labelled owner=helm.
func IsRecord(obj map[string]any) bool {
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	return apiVersion == "v1" && (kind == "Secret" || kind == "ConfigMap") && labelsOf(obj)["owner"] == "helm"
}

// FromObject decodes the record a Secret or ConfigMap stores (as a GET returns it).
func FromObject(obj map[string]any) (*Record, error) {
	kind, _ := obj["kind"].(string)
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	data, _ := obj["data"].(map[string]any)
	value, ok := data["release"].(string)
	if !ok {
		return nil, fmt.Errorf("%s %s/%s: no data key \"release\"", kind, ns, name)
	}
	switch kind {
	case "Secret":
		b, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			return nil, fmt.Errorf("the Secret %s/%s: data.release: %w", ns, name, err)
		}
		value = string(b)
	case "ConfigMap":
	default:
		return nil, fmt.Errorf("%s %s/%s: a release record is a Secret or a ConfigMap", kind, ns, name)
	}
	rel, err := Decode(value)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: data.release: %w", kind, ns, name, err)
	}
	return &Record{Release: *rel, Key: name, Driver: kind, StorageNamespace: ns, Labels: labelsOf(obj)}, nil
}

// History is a release's records, oldest revision first.
type History []*Record

// Skipped is a record Helm would skip: a storage object labelled as the release's that
// does not decode.
type Skipped struct {
	Key string
	Err error
}

// Find is the history of release name in namespace among objs, as Helm lists it: the
// Secrets (driver "Secret") or ConfigMaps ("ConfigMap") of that namespace labelled
// owner=helm and name=<name>, decoded; those that do not decode are skipped, as Helm skips
// them, and returned so that a caller can say so.
func Find(objs []map[string]any, driver, name, namespace string) (History, []Skipped) {
	var h History
	var skipped []Skipped
	for _, obj := range objs {
		kind, _ := obj["kind"].(string)
		md, _ := obj["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		lbl := labelsOf(obj)
		if kind != driver || ns != namespace || !IsRecord(obj) || lbl["name"] != name {
			continue
		}
		r, err := FromObject(obj)
		if err != nil {
			key, _ := md["name"].(string)
			skipped = append(skipped, Skipped{Key: key, Err: err})
			continue
		}
		h = append(h, r)
	}
	sort.SliceStable(h, func(i, j int) bool { return h[i].Version < h[j].Version })
	return h, skipped
}

// Last is the record of the highest revision, whatever its status; nil for no history.
func (h History) Last() *Record {
	if len(h) == 0 {
		return nil
	}
	return h[len(h)-1]
}

// Deployed is the highest revision whose status label is "deployed"; nil when none is.
func (h History) Deployed() *Record {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Labels["status"] == StatusDeployed {
			return h[i]
		}
	}
	return nil
}

// Revision is the record of revision v, found by its key as Helm gets it; nil when there
// is none.
func (h History) Revision(v int) *Record {
	for _, r := range h {
		if r.Key == Key(r.Labels["name"], v) {
			return r
		}
	}
	return nil
}

// Key is the name of the record of a release's revision.
func Key(release string, version int) string {
	return "sh.helm.release.v1." + release + ".v" + strconv.Itoa(version)
}

func labelsOf(obj map[string]any) map[string]string {
	md, _ := obj["metadata"].(map[string]any)
	m, _ := md["labels"].(map[string]any)
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}
