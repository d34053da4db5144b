package differential

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"github.com/ssa-diff/ssa-diff/kube"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// OracleModules maps the minors whose oracle runs as a process to the directory of its
// module, relative to this one: the field manager of a minor whose k8s.io/apimachinery
// cannot be linked next to this module's (InProcessMinor's) is built there.
var OracleModules = map[kube.Minor]string{
	32: "oracle132", 33: "oracle133", 34: "oracle134", 35: "oracle135", 36: "oracle136", 38: "oracle138",
}

// oracleSMD is the structured-merge-diff major version each process oracle's minor links
// (v4 up to 1.33, v6 from 1.34 to 1.37 as this module, v7 from 1.38). Package oracle is written once, here: BuildOracle
// gives the process module its own build of it, with that import path, so it is never
// kept as a second copy in the tree.
var oracleSMD = map[kube.Minor]string{32: "v4", 33: "v4", 34: "v6", 35: "v6", 36: "v6", 38: "v7"}

// oracleToolchain is the Go toolchain a process oracle's module needs, where it is not the
// one running (Kubernetes 1.38 requires Go 1.27): its build runs with GOTOOLCHAIN set to it,
// which the go command fetches through the module proxy.
var oracleToolchain = map[kube.Minor]string{38: "go1.27.3"}

// BuildOracle builds the oracle program of minor m into dir and returns its path. The
// program's module is copied into dir with package oracle and oraclemain's program beside
// it, ported to the import paths of the module and of the structured-merge-diff the minor
// links, and built there; the tree is never written. toolchain, when not empty, is the Go
// toolchain the build asks for in place of the minor's own (oracleToolchain).
func BuildOracle(m kube.Minor, dir, toolchain string) (string, error) {
	mod, ok := OracleModules[m]
	if !ok {
		return "", fmt.Errorf("no oracle module for Kubernetes %s (the in-process oracle is %s)", m, InProcessMinor)
	}
	src := filepath.Join(dir, mod+"-src")
	if err := portOracle(mod, src, "sigs.k8s.io/structured-merge-diff/"+oracleSMD[m]); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, mod)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	if tc, ok := oracleToolchain[m]; ok || toolchain != "" {
		if toolchain != "" {
			tc = toolchain
		}
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+tc)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building %s: %w\n%s", mod, err, stderr.String())
	}
	return bin, nil
}

// The harness's own import paths, which a port rewrites to the process module's.
const (
	thisSMD    = "sigs.k8s.io/structured-merge-diff/v6"
	thisOracle = "github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
)

// portOracle writes into dst the files of module directory mod, the program of oraclemain
// (but its minor.go: the module's names its minor) and, in dst/oracle, the files of
// package oracle, their structured-merge-diff import replaced by smd and the program's
// import of package oracle by the module's.
func portOracle(mod, dst, smd string) error {
	if err := os.MkdirAll(filepath.Join(dst, "oracle"), 0o755); err != nil {
		return err
	}
	copyFiles := func(pattern, to string, edit func(string) string) (int, error) {
		files, err := filepath.Glob(pattern)
		if err != nil {
			return 0, err
		}
		n := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			target := filepath.Join(to, filepath.Base(f))
			if _, err := os.Stat(target); err == nil {
				continue // the module's own file (minor.go) stands
			}
			b, err := os.ReadFile(f)
			if err != nil {
				return n, err
			}
			if err := os.WriteFile(target, []byte(edit(string(b))), 0o644); err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}
	same := func(s string) string { return s }
	for _, pattern := range []string{"go.mod", "go.sum", "*.go"} {
		if _, err := copyFiles(filepath.Join(mod, pattern), dst, same); err != nil {
			return fmt.Errorf("copying %s: %w", mod, err)
		}
	}
	if _, err := os.Stat(filepath.Join(mod, "minor.go")); err != nil {
		return fmt.Errorf("%s names no minor: %w", mod, err)
	}
	modOracle := strings.TrimSuffix(thisOracle, "oracle") + mod + "/oracle"
	n, err := copyFiles(filepath.Join("oraclemain", "*.go"), dst, func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, thisSMD, smd), `"`+thisOracle+`"`, `"`+modOracle+`"`)
	})
	if err != nil {
		return fmt.Errorf("porting oraclemain: %w", err)
	}
	if n == 0 {
		return errors.New("oraclemain has no files to port")
	}
	n, err = copyFiles(filepath.Join("oracle", "*.go"), filepath.Join(dst, "oracle"), func(s string) string {
		return strings.ReplaceAll(s, thisSMD, smd)
	})
	if err != nil {
		return fmt.Errorf("porting package oracle: %w", err)
	}
	if n == 0 {
		return errors.New("package oracle has no files to port")
	}
	return nil
}

// Process is an oracle running as a process (an OracleModules program): a Predictor that
// sends each request as a JSON line and reads the answer's. It is safe for concurrent use
// (requests are answered one at a time).
type Process struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	w    *bufio.Writer
	out  *json.Decoder
	errb *bytes.Buffer
}

type processKind struct {
	GVK           schema.GroupVersionKind `json:"gvk"`
	Resource      string                  `json:"resource"`
	Reset         map[string][][]string   `json:"reset,omitempty"`
	ScaleVersions []string                `json:"scaleVersions,omitempty"`
	Versions      []string                `json:"versions,omitempty"`
	Hub           string                  `json:"hub,omitempty"`
}

type processCall struct {
	Verb        string                  `json:"verb"`
	GVK         schema.GroupVersionKind `json:"gvk"`
	Subresource string                  `json:"subresource,omitempty"`
	Live        map[string]any          `json:"live,omitempty"`
	Object      map[string]any          `json:"object"`
	Manager     string                  `json:"manager"`
	Force       bool                    `json:"force,omitempty"`
	Now         time.Time               `json:"now"`
}

type processAnswer struct {
	Object map[string]any `json:"object,omitempty"`
	Error  *oracle.Status `json:"error,omitempty"`
	Fail   string         `json:"fail,omitempty"`
}

// StartProcess starts the oracle program bin serving the kinds of Kinds (the built-in
// ones with their reset tables and /scale, the Widget CRD).
func StartProcess(bin string) (*Process, error) {
	var kinds []processKind
	for _, k := range Kinds {
		if k.GVK.Group == "example.com" {
			continue
		}
		reset := map[string][][]string{}
		for sub, paths := range k.Reset {
			for _, p := range paths {
				var fields []string
				for _, pe := range p {
					if pe.FieldName == nil {
						return nil, fmt.Errorf("reset path %s of %s is not made of field names", p, k.Name)
					}
					fields = append(fields, *pe.FieldName)
				}
				reset[sub] = append(reset[sub], fields)
			}
		}
		versions := k.Versions
		if len(versions) == 0 {
			versions = []string{k.GVK.Version}
		}
		for _, v := range versions {
			pk := processKind{GVK: k.At(v), Resource: k.Resource, Reset: reset}
			if len(k.Versions) > 0 {
				pk.Versions, pk.Hub = k.Versions, k.Hub
			}
			if k.Scale {
				// As pkg/registry/apps/{deployment,statefulset}/storage map them.
				pk.ScaleVersions = []string{"apps/v1beta1", "apps/v1beta2", "apps/v1"}
			}
			kinds = append(kinds, pk)
		}
	}
	setup, err := json.Marshal(map[string]any{"kinds": kinds, "crds": []string{string(widgetsCRD)}})
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, in: in, w: bufio.NewWriter(in), errb: &bytes.Buffer{}}
	cmd.Stderr = p.errb
	dec := json.NewDecoder(bufio.NewReaderSize(stdout, 1<<20))
	dec.UseNumber()
	p.out = dec
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	if _, err := p.roundTrip(setup); err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("setting up %s: %w", bin, err)
	}
	return p, nil
}

// Apply implements Predictor.
func (p *Process) Apply(req oracle.Request) (oracle.Response, error) { return p.call("apply", req) }

// Update implements Predictor.
func (p *Process) Update(req oracle.Request) (oracle.Response, error) { return p.call("update", req) }

func (p *Process) call(verb string, req oracle.Request) (oracle.Response, error) {
	line, err := json.Marshal(processCall{Verb: verb, GVK: req.GVK, Subresource: req.Subresource, Live: req.Live,
		Object: req.Object, Manager: req.Manager, Force: req.Force, Now: req.Now})
	if err != nil {
		return oracle.Response{}, fmt.Errorf("encoding the request: %w", err)
	}
	a, err := p.roundTrip(line)
	if err != nil {
		return oracle.Response{}, err
	}
	if a.Fail != "" {
		return oracle.Response{}, errors.New(a.Fail)
	}
	var obj map[string]any
	if a.Object != nil {
		obj, _ = fromJSONNumbers(a.Object).(map[string]any)
	}
	return oracle.Response{Object: obj, Error: a.Error}, nil
}

func (p *Process) roundTrip(line []byte) (processAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var a processAnswer
	if _, err := p.w.Write(append(line, '\n')); err != nil {
		return a, p.died(err)
	}
	if err := p.w.Flush(); err != nil {
		return a, p.died(err)
	}
	if err := p.out.Decode(&a); err != nil {
		return a, p.died(err)
	}
	return a, nil
}

func (p *Process) died(err error) error {
	return fmt.Errorf("oracle process: %w: %s", err, strings.TrimSpace(p.errb.String()))
}

// Close ends the process (its input closed, it exits) and waits for it.
func (p *Process) Close() error {
	_ = p.in.Close()
	err := p.cmd.Wait()
	if err != nil {
		return fmt.Errorf("oracle process: %w: %s", err, strings.TrimSpace(p.errb.String()))
	}
	return nil
}

// fromJSONNumbers makes the json.Numbers of a decoded answer int64 (integers) or float64.
func fromJSONNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = fromJSONNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = fromJSONNumbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}
