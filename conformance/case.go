package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"sigs.k8s.io/yaml"
)

// Case is one recorded request and the server's answer.
type Case struct {
	Name        string
	Dir         string
	Description string   `json:"description"`
	Rules       []string `json:"rules"`
	Families    []string `json:"families"`
	Request     struct {
		Mode         string   `json:"mode"`
		Verb         string   `json:"verb"`
		FieldManager string   `json:"fieldManager"`
		Force        bool     `json:"force"`
		Subresource  string   `json:"subresource"`
		Path         string   `json:"path"`
		Args         []string `json:"args"`
		// PatchType is the type of a patch ("merge", "strategic", "json"; verbs patch,
		// patch-status, patch-scale).
		PatchType string `json:"patchType"`
		// UserAgent is the User-Agent of a write sent without a fieldManager: the server
		// names its entry by it (FieldManager is that name).
		UserAgent string `json:"userAgent"`
	} `json:"request"`
	Response struct {
		Code          int    `json:"code"`
		KubectlExit   int    `json:"kubectlExit"`
		KubectlStderr string `json:"kubectlStderr"`
		// Requests are the requests kubectl made ("PATCH /apis/… -> 200"), discovery aside
		// (kubectl mode).
		Requests []string `json:"requests"`
		// Warnings are the texts of the Warning headers of the answer, when the recorder
		// kept them (testdata/record.py does; nil otherwise: not recorded).
		Warnings []string `json:"warnings"`
	} `json:"response"`
	// Server is the kube-apiserver the case was recorded from, as its /version says; empty
	// in cases recorded before record.py wrote it (all from 1.37.2).
	Server struct {
		GitVersion string `json:"gitVersion"`
		// Minor is "1.35".
		Minor string `json:"minor"`
	} `json:"server"`
	Now string `json:"now"`
	// Cluster is the configuration of the server the case was recorded from, when it is
	// not the default one (an IPv4 cluster, kube-apiserver's --allow-privileged=false).
	Cluster struct {
		// ServiceIPFamilies: its service IP families, the primary first.
		ServiceIPFamilies []string `json:"serviceIPFamilies"`
		// AllowPrivileged: the server ran with --allow-privileged=true; false, the flag's
		// own default (start.sh runs kube-apiserver without it), refuses privileged
		// containers.
		AllowPrivileged bool `json:"allowPrivileged"`
		// FeatureGates: the server's --feature-gates ("MutatingAdmissionPolicy=true"), when
		// it ran with gates other than its minor's defaults.
		FeatureGates string `json:"featureGates"`
	} `json:"cluster"`

	// Requester is who sent the requests (the server's SelfSubjectReview of the recording's
	// token), and Authorization what its authorizer answers (rules in --authorize syntax):
	// cases recorded with --admission say them.
	Requester struct {
		Username string   `json:"username"`
		UID      string   `json:"uid"`
		Groups   []string `json:"groups"`
	} `json:"requester"`
	Authorization []string `json:"authorization"`

	// Admission is what the server's admission chain read (admission.json, the items of a
	// List): nil in cases recorded without --admission.
	Admission []map[string]any

	Live map[string]any // nil on a create
	// Manifest is the body of the request, when it is an object; ManifestText is the body as
	// sent (a JSON patch is a list).
	Manifest     map[string]any
	ManifestText []byte
	CRDs         []map[string]any
	Want         map[string]any
	// WantText is the answer when it is not JSON (want.txt): the plain text a server's mux
	// answers for a group it does not serve ("404 page not found").
	WantText string
	After    map[string]any // writes through /scale only: the parent afterwards
}

// Minor is the Kubernetes minor the case was recorded from (case.yaml's server.minor); a
// case that does not say was recorded from 1.37.2, before record.py wrote it.
func (c *Case) Minor() (kube.Minor, error) {
	if c.Server.Minor == "" {
		return 37, nil
	}
	return kube.ParseMinor(c.Server.Minor)
}

// NowTime is the case's "now", or the zero time.
func (c *Case) NowTime() time.Time {
	t, _ := time.Parse(time.RFC3339, c.Now)
	return t
}

// LoadCase reads the case in dir.
func LoadCase(dir string) (*Case, error) {
	c := &Case{Name: filepath.Base(dir), Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(b, c); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "case.yaml"), err)
	}
	if c.Live, err = readObject(filepath.Join(dir, "live.json"), true); err != nil {
		return nil, err
	}
	if c.ManifestText, err = os.ReadFile(filepath.Join(dir, "manifest.yaml")); err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(bytes.TrimSpace(c.ManifestText), []byte("[")) {
		if c.Manifest, err = readObject(filepath.Join(dir, "manifest.yaml"), false); err != nil {
			return nil, err
		}
	}
	if c.Want, err = readObject(filepath.Join(dir, "want.json"), true); err != nil {
		return nil, err
	}
	if c.Want == nil {
		b, err := os.ReadFile(filepath.Join(dir, "want.txt"))
		if err != nil {
			return nil, fmt.Errorf("%s: neither want.json nor want.txt: %w", dir, err)
		}
		c.WantText = string(b)
	}
	if c.After, err = readObject(filepath.Join(dir, "after.json"), true); err != nil {
		return nil, err
	}
	list, err := readObject(filepath.Join(dir, "admission.json"), true)
	if err != nil {
		return nil, err
	}
	if list != nil {
		c.Admission = []map[string]any{}
		items, _ := list["items"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				c.Admission = append(c.Admission, m)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "crds.yaml")); err == nil {
		for i, doc := range splitYAML(b) {
			var obj map[string]any
			if err := yaml.Unmarshal(doc, &obj); err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", filepath.Join(dir, "crds.yaml"), i, err)
			}
			if obj != nil {
				c.CRDs = append(c.CRDs, obj)
			}
		}
	}
	return c, nil
}

// LoadCases reads every case below root, sorted by name.
func LoadCases(root string) ([]*Case, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []*Case
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, e.Name(), "case.yaml")); err != nil {
			continue
		}
		c, err := LoadCase(filepath.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func readObject(path string, optional bool) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && optional {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return obj, nil
}

func splitYAML(b []byte) [][]byte {
	var docs [][]byte
	for _, part := range bytes.Split(append([]byte("\n"), b...), []byte("\n---")) {
		if len(bytes.TrimSpace(part)) > 0 {
			docs = append(docs, part)
		}
	}
	return docs
}
