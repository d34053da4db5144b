package kubeapiserver_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestRuntimeConfigIsTheServers replays what real kube-apiservers served, or refused to
// start with, under each --runtime-config of testdata/runtimeconfig/configs.txt
// (record.sh): every built-in kind the registry knows is served exactly when the server's
// discovery lists its resource at its version, and a refused configuration is refused with
// the server's message.
func TestRuntimeConfigIsTheServers(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "runtimeconfig", "1.*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	configs := readConfigs(t)
	for _, dir := range dirs {
		minor, err := kube.ParseMinor(filepath.Base(dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range configs {
			t.Run(filepath.Base(dir)+"/"+c.name, func(t *testing.T) {
				served, refusal := readRecording(t, filepath.Join(dir, c.name+".txt"))
				reg := schema.MustNewRegistry(minor)
				var rc kubeapiserver.RuntimeConfig
				if c.value != "" {
					if err := rc.Set(c.value); err != nil {
						t.Fatal(err)
					}
				}
				err := rc.ApplyTo(reg)
				if refusal != "" {
					if err == nil {
						t.Fatalf("accepted; the server refused to start: %s", refusal)
					}
					_, words, _ := strings.Cut(err.Error(), ": ")
					if words != refusal {
						t.Fatalf("refused with %q; the server: %q", words, refusal)
					}
					return
				}
				if err != nil {
					t.Fatalf("refused (%v); the server started", err)
				}
				known := 0
				for _, gvk := range reg.GVKs() {
					typ, _ := reg.Lookup(gvk)
					if typ.Source != schema.SourceBuiltin || typ.Resource == "" {
						continue
					}
					key := "/" + gvk.Version + " " + typ.Resource
					if gvk.Group != "" {
						key = gvk.Group + "/" + gvk.Version + " " + typ.Resource
					}
					if typ.Served != served[key] {
						t.Errorf("%s (%s): Served %v, the server serves it: %v", gvk, typ.Resource, typ.Served, served[key])
					}
					if served[key] {
						known++
					}
				}
				if known == 0 {
					t.Fatal("no served kind compared")
				}
			})
		}
	}
}

type runtimeConfigCase struct{ name, value string }

func readConfigs(t *testing.T) []runtimeConfigCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "runtimeconfig", "configs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []runtimeConfigCase
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, _ := strings.Cut(line, "\t")
		out = append(out, runtimeConfigCase{name, value})
	}
	return out
}

// readRecording returns the "group/version resource" lines served, or the server's error.
func readRecording(t *testing.T, path string) (map[string]bool, string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	served := map[string]bool{}
	var refusal []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"), line == "":
		case strings.HasPrefix(line, "error: "):
			// klog's line: … "command failed" err="<the error, quoted>"
			_, quoted, ok := strings.Cut(line, " err=")
			words, err := strconv.Unquote(quoted)
			if !ok || err != nil {
				t.Fatalf("%s: an error line without err=\"…\": %s", path, line)
			}
			refusal = append(refusal, words)
		default:
			served[line] = true
		}
	}
	if len(served) == 0 && len(refusal) == 0 {
		t.Fatalf("%s: neither served resources nor an error", path)
	}
	return served, strings.Join(refusal, "\n")
}

// FuzzRuntimeConfig: any --runtime-config value is read and either applied or refused with
// an error, never a panic, and a refused one leaves the registry's answers as they were.
func FuzzRuntimeConfig(f *testing.F) {
	for _, c := range []string{"", "api/all=true", "admissionregistration.k8s.io/v1beta1", "v1/pods=false,apps/v1=maybe",
		"a/b/c/d", "/=", "api/beta=yes", "apps/v1/Deployments=false", "api/all=false", "flowcontrol.apiserver.k8s.io/v1=false,api/ga=true"} {
		f.Add(c)
	}
	base := schema.MustNewRegistry(kube.Minor(37))
	f.Fuzz(func(t *testing.T, value string) {
		var rc kubeapiserver.RuntimeConfig
		if err := rc.Set(value); err != nil {
			return
		}
		reg := schema.MustNewRegistry(kube.Minor(37))
		if err := rc.ApplyTo(reg); err != nil {
			for _, gvk := range base.GVKs() {
				a, _ := base.Lookup(gvk)
				b, _ := reg.Lookup(gvk)
				if a.Served != b.Served {
					t.Fatalf("refused (%v), yet %s's Served changed", err, gvk)
				}
			}
		}
	})
}
