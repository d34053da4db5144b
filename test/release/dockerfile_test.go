package release

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// stage is one FROM … AS NAME of the Dockerfile, its instructions (continuation lines
// joined).
type stage struct {
	from, name string
	platform   string
	args       map[string]string
	copies     []copyInstr
	runs       []string
	user       string
	env        map[string]string
	workdir    string
	entrypoint string
}

type copyInstr struct{ from, src, dst string }

func parseDockerfile(t *testing.T) []*stage {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	cont := ""
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "#") || l == "" {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		lines = append(lines, cont+l)
		cont = ""
	}
	var stages []*stage
	fromRE := regexp.MustCompile(`^FROM (?:--platform=(\S+) )?(\S+) AS (\S+)$`)
	for _, l := range lines {
		instr, rest, _ := strings.Cut(l, " ")
		if instr == "FROM" {
			m := fromRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("Dockerfile: %q is not FROM [--platform=P] IMAGE AS NAME", l)
			}
			stages = append(stages, &stage{platform: m[1], from: m[2], name: m[3], args: map[string]string{}, env: map[string]string{}})
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("Dockerfile: %q before any FROM", l)
		}
		s := stages[len(stages)-1]
		switch instr {
		case "COPY":
			c := copyInstr{}
			fields := strings.Fields(rest)
			if from, ok := strings.CutPrefix(fields[0], "--from="); ok {
				c.from, fields = from, fields[1:]
			}
			if len(fields) != 2 {
				if c.from == "" && len(fields) > 2 {
					for _, src := range fields[:len(fields)-1] {
						s.copies = append(s.copies, copyInstr{src: src, dst: fields[len(fields)-1]})
					}
					continue
				}
				t.Fatalf("Dockerfile: %q", l)
			}
			c.src, c.dst = fields[0], fields[1]
			s.copies = append(s.copies, c)
		case "RUN":
			s.runs = append(s.runs, rest)
		case "ARG":
			k, v, _ := strings.Cut(rest, "=")
			s.args[k] = v
		case "ENV":
			k, v, _ := strings.Cut(rest, "=")
			s.env[k] = v
		case "USER":
			s.user = rest
		case "WORKDIR":
			s.workdir = rest
		case "ENTRYPOINT":
			s.entrypoint = rest
		default:
			t.Fatalf("Dockerfile: %s is not an instruction this test knows", instr)
		}
	}
	return stages
}

// TestDockerfile: the build stage builds as goreleaser does (the same environment, flags,
// tags and ldflags, the versions aside), cross-compiling on the build host; each image
// stage copies the build's binary to its ENTRYPOINT and the licence, runs as uid 65532 with
// a HOME it makes writable, and has CA certificates (distroless' static base has them, the
// debian one installs them); the last stage, docker build's default, is distroless.
func TestDockerfile(t *testing.T) {
	stages := parseDockerfile(t)
	byName := map[string]*stage{}
	var names []string
	for _, s := range stages {
		byName[s.name] = s
		names = append(names, s.name)
	}
	if strings.Join(names, " ") != "build debian distroless" {
		t.Fatalf("stages %v, want build debian distroless (the default last)", names)
	}

	b := byName["build"]
	goMod, _ := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	minor := regexp.MustCompile(`(?m)^go (1\.\d+)`).FindStringSubmatch(string(goMod))
	if b.from != "golang:"+minor[1] || b.platform != "$BUILDPLATFORM" {
		t.Errorf("build stage FROM --platform=%s %s, want --platform=$BUILDPLATFORM golang:%s (go.mod)", b.platform, b.from, minor[1])
	}
	if len(b.copies) != 3 || b.copies[0].dst != "./" || b.copies[2] != (copyInstr{src: ".", dst: "."}) {
		t.Errorf("build stage copies %v", b.copies)
	}
	build := regexp.MustCompile(`^((?:\w+=\S+ )*)go build (.*) -ldflags "([^"]*)" -o /out/ssa-diff \.$`)
	var env, flags []string
	var ldflags string
	for _, r := range b.runs {
		if m := build.FindStringSubmatch(r); m != nil {
			env, flags, ldflags = strings.Fields(m[1]), strings.Fields(m[2]), m[3]
		}
	}
	if strings.Join(env, " ") != "CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH}" || strings.Join(flags, " ") != "-trimpath -tags kustomize_disable_go_plugin_support" {
		t.Errorf("build stage: env %q, flags %q", env, flags)
	}
	var gr struct {
		Builds []struct {
			Env, Flags, Tags, Ldflags []string
		}
	}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &gr); err != nil {
		t.Fatal(err)
	}
	g := gr.Builds[0]
	if strings.Join(g.Env, " ") != "CGO_ENABLED=0" || strings.Join(g.Flags, " ") != "-trimpath" || strings.Join(g.Tags, ",") != "kustomize_disable_go_plugin_support" {
		t.Errorf("goreleaser builds differently: %+v", g)
	}
	norm := regexp.MustCompile(`=v?(\{\{ ?\.\w+ ?\}\}|\S+)`)
	if len(g.Ldflags) != 1 || norm.ReplaceAllString(g.Ldflags[0], "=X") != norm.ReplaceAllString(ldflags, "=X") {
		t.Errorf("ldflags differ:\n goreleaser %q\n Dockerfile %q", g.Ldflags, ldflags)
	}

	for _, c := range []struct {
		name, home string
		certs      func(*stage) bool
	}{
		{"debian", "/home/ssa-diff", func(s *stage) bool {
			return len(s.runs) == 1 && strings.Contains(s.runs[0], "apt-get install -y --no-install-recommends ca-certificates") &&
				strings.Contains(s.runs[0], "useradd --create-home --home-dir /home/ssa-diff --uid 65532")
		}},
		// distroless' static image: CA certificates, /etc/passwd with nonroot (65532), its
		// home /home/nonroot owned by it (the :nonroot tag runs as that user).
		{"distroless", "/home/nonroot", func(s *stage) bool {
			return s.from == "gcr.io/distroless/static-debian12:nonroot" && len(s.runs) == 0
		}},
	} {
		s := byName[c.name]
		var copies []string
		for _, cp := range s.copies {
			copies = append(copies, cp.from+":"+cp.src+"→"+cp.dst)
		}
		sort.Strings(copies)
		want := ":LICENSE→/usr/share/doc/ssa-diff/LICENSE build:/out/ssa-diff→/usr/local/bin/ssa-diff"
		if strings.Join(copies, " ") != want {
			t.Errorf("%s copies %v, want %s", c.name, copies, want)
		}
		if s.entrypoint != `["/usr/local/bin/ssa-diff"]` || s.user != "65532:65532" || s.env["HOME"] != c.home || s.workdir != "/work" || !c.certs(s) {
			t.Errorf("%s: entrypoint %s, user %s, HOME %q, workdir %s, runs %q", c.name, s.entrypoint, s.user, s.env["HOME"], s.workdir, s.runs)
		}
	}
	// What the stages copy from the context is there, and not left out by .dockerignore.
	ignore, _ := os.ReadFile(filepath.Join(repoRoot(t), ".dockerignore"))
	for _, s := range stages {
		for _, cp := range s.copies {
			if cp.from != "" || cp.src == "." || cp.src == "./" {
				continue
			}
			if _, err := os.Stat(filepath.Join(repoRoot(t), cp.src)); err != nil {
				t.Errorf("%s copies %s: %v", s.name, cp.src, err)
			}
			for _, l := range strings.Split(string(ignore), "\n") {
				if strings.TrimSpace(l) == cp.src {
					t.Errorf("%s copies %s, which .dockerignore leaves out", s.name, cp.src)
				}
			}
		}
	}
}
