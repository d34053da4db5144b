package differential

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"sigs.k8s.io/yaml"
)

// CaseFile is a regression case as kept under testdata/: one request against a live
// object and the answer the oracle (the API server's field manager) gives. The test
// replays it through the engine.
type CaseFile struct {
	// Kind names one of Kinds.
	Kind string `json:"kind"`
	// Category and Diff describe the divergence when the case was found.
	Category string `json:"category"`
	Diff     string `json:"diff"`
	// Seed is the sequence the case was shrunk from.
	Seed int64 `json:"seed"`
	// Live is the stored object (null: the request creates it).
	Live map[string]interface{} `json:"live"`
	// Request is the resolved request: its object is sent as it is.
	Request CaseRequest `json:"request"`
	// Expected is the oracle's answer.
	Expected CaseAnswer `json:"expected"`
	// Engine is the engine's answer when the case was found, for the record.
	Engine CaseAnswer `json:"engineAnswerWhenFound"`
}

// CaseRequest is a resolved request.
type CaseRequest struct {
	Verb string `json:"verb"`
	// Version is the version of the request, for a kind served at several.
	Version     string                 `json:"version,omitempty"`
	Subresource string                 `json:"subresource,omitempty"`
	Manager     string                 `json:"manager"`
	Force       bool                   `json:"force,omitempty"`
	Now         string                 `json:"now"`
	Object      map[string]interface{} `json:"object"`
}

// CaseAnswer is an answer: the stored object or the refusal.
type CaseAnswer struct {
	Object map[string]interface{} `json:"object,omitempty"`
	Error  *oracle.Status         `json:"error,omitempty"`
}

func answer(r oracle.Response) CaseAnswer { return CaseAnswer{Object: r.Object, Error: r.Error} }

// Response is the answer as a predictor's response.
func (a CaseAnswer) Response() oracle.Response {
	return oracle.Response{Object: normalizeJSON(a.Object), Error: a.Error}
}

// Op is the request as an op.
func (c *CaseFile) Op() (Op, error) {
	op := Op{Verb: c.Request.Verb, Version: c.Request.Version, Subresource: c.Request.Subresource, Manager: c.Request.Manager, Force: c.Request.Force,
		Object: normalizeJSON(c.Request.Object), MF: MFAsIs}
	if err := op.Now.UnmarshalText([]byte(c.Request.Now)); err != nil {
		return op, fmt.Errorf("request.now: %w", err)
	}
	return op, nil
}

// NewCaseFile records a shrunk case.
func NewCaseFile(c *Case, seed int64) *CaseFile {
	return &CaseFile{
		Kind: c.Kind, Category: c.Category, Diff: c.Diff, Seed: seed, Live: c.Live,
		Request: CaseRequest{Verb: c.Request.Verb, Version: c.Request.Version, Subresource: c.Request.Subresource, Manager: c.Request.Manager,
			Force: c.Request.Force, Now: c.Request.Now.UTC().Format("2006-01-02T15:04:05Z07:00"), Object: c.Request.Object},
		Expected: answer(c.Oracle), Engine: answer(c.Engine),
	}
}

// Name is a stable file name for the case: kind, category and a hash of its content.
func (c *CaseFile) Name() string {
	b, _ := json.Marshal([]interface{}{c.Live, c.Request})
	h := sha256.Sum256(b)
	return fmt.Sprintf("%s-%s-%s.yaml", c.Kind, c.Category, hex.EncodeToString(h[:])[:10])
}

// Write writes the case into dir as YAML.
func (c *CaseFile) Write(dir string) (string, error) {
	b, err := yaml.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("encoding the case: %w", err)
	}
	header := "# Differential regression case: the engine must give the expected answer (the API server's\n" +
		"# field manager's) for this request against this live object.\n# " +
		strings.ReplaceAll(strings.TrimSpace(c.Diff), "\n", "\n# ") + "\n"
	path := filepath.Join(dir, c.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := os.WriteFile(path, append([]byte(header), b...), 0o644); err != nil {
		return "", fmt.Errorf("writing the case: %w", err)
	}
	return path, nil
}

// ReadCases reads every case file of dir, sorted by name.
func ReadCases(dir string) (map[string]*CaseFile, []string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	out := map[string]*CaseFile{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		c := &CaseFile{}
		if err := yaml.UnmarshalStrict(b, c); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		c.Live = normalizeJSON(c.Live)
		out[f] = c
	}
	return out, files, nil
}

// normalizeJSON makes numbers int64 where they are integers, as the server's decoder does.
func normalizeJSON(m map[string]interface{}) map[string]interface{} {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return m
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v interface{}
	if dec.Decode(&v) != nil {
		return m
	}
	out, _ := numbers(v).(map[string]interface{})
	return out
}

func numbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = numbers(x)
		}
		return t
	case []interface{}:
		for i, x := range t {
			t[i] = numbers(x)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	default:
		return v
	}
}
