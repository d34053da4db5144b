package kube

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestParseMinor(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Minor // 0: an error
	}{
		{"1.35", 35}, {"v1.35", 35}, {"1.35.4", 35}, {"v1.35.4", 35}, {" v1.36.3 ", 36},
		{"v1.35.4-eks-1a2b3c", 35}, {"v1.36.3+k3s1", 36}, {"v1.34.4-gke.100", 34}, {"1.99", 99},
		{"", 0}, {"1", 0}, {"2.35", 0}, {"1.x", 0}, {"1.35.x", 0}, {"1.035", 0}, {"1.0", 0},
		{"1.35.4.1", 0}, {"v", 0}, {"1.-3", 0}, {"1.123456", 0},
	} {
		m, err := ParseMinor(c.in)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("ParseMinor(%q) = %s, want an error", c.in, m)
		case c.want != 0 && (err != nil || m != c.want):
			t.Errorf("ParseMinor(%q) = %v, %v, want 1.%d", c.in, m, err, int(c.want))
		}
	}
}

func TestMinors(t *testing.T) {
	var got []string
	for _, m := range Minors() {
		got = append(got, m.String())
		if !m.IsSupported() {
			t.Errorf("%s is listed but not supported", m)
		}
	}
	if len(got) == 0 || got[0] != Oldest().String() || got[len(got)-1] != Newest().String() {
		t.Errorf("Minors() = %s: from %s to %s", strings.Join(got, " "), Oldest(), Newest())
	}
	for _, m := range Minors() {
		if !strings.HasPrefix(m.Release(), m.String()+".") {
			t.Errorf("%s: release %q", m, m.Release())
		}
	}
	// 1.37 is predicted, of its release 1.37.2 (the recorded cases' server).
	if Minor(37).Release() != "1.37.2" {
		t.Errorf("1.37's release is %q", Minor(37).Release())
	}
	for _, c := range []struct{ in, nearest Minor }{{Oldest() - 4, Oldest()}, {Oldest() + 1, Oldest() + 1}, {Newest() + 3, Newest()}} {
		if c.in.IsSupported() != (c.in == c.nearest) || c.in.Nearest() != c.nearest {
			t.Errorf("%s: supported %v, nearest %s, want %s", c.in, c.in.IsSupported(), c.in.Nearest(), c.nearest)
		}
	}
	if !Minor(36).AtLeast(36) || Minor(35).AtLeast(36) || !Minor(35).Before(36) {
		t.Error("AtLeast/Before")
	}
}

// TestZeroIsNoMinor: nothing reads the zero Minor as a default.
func TestZeroIsNoMinor(t *testing.T) {
	var zero Minor
	if zero.IsSupported() || zero.Release() != "" || zero.String() != "1.0" {
		t.Errorf("the zero Minor is %s, supported %v, release %q", zero, zero.IsSupported(), zero.Release())
	}
}

// TestAddingAMinorIsOneLine: the list of minors is releases.txt alone — a release added to
// it is a minor of Minors, with its release. (What then needs generating is held by the
// tests of each table: server/kubeapiserver TestEveryMinorHasItsTables.)
func TestAddingAMinorIsOneLine(t *testing.T) {
	data, err := os.ReadFile("releases.txt")
	if err != nil {
		t.Fatal(err)
	}
	next := Newest() + 1
	patch := next.String() + ".0"
	rs, err := readReleases(string(data) + "v" + patch + "\n")
	if err != nil {
		t.Fatal(err)
	}
	last := rs[len(rs)-1]
	if len(rs) != len(Minors())+1 || last.minor != next || last.patch != patch {
		t.Errorf("releases.txt with v%s added: %+v", patch, rs)
	}
	patches, err := ReadReleases(string(data))
	if err != nil || len(patches) != len(Minors()) || patches[0] != Oldest().Release() {
		t.Errorf("ReadReleases(releases.txt) = %q, %v", patches, err)
	}
}

func TestReadReleasesRefusesABadList(t *testing.T) {
	for _, text := range []string{
		"", "# only a comment\n", "v1.34.4\nv1.34.5\n", "v1.35.4\nv1.34.4\n", "v1.34.4\nv1.36.3\n", "1.34.4\n", "v1.34\n", "v1.34.x\n", "v2.34.4\n",
		"v1.34.0-beta\n", "v1.34.0-gamma.1\n", "v1.34.0-beta.01\n", "v1.34.0+k3s1\n", "v1.34.0-beta.0.1\n",
	} {
		if rs, err := readReleases(text); err == nil {
			t.Errorf("readReleases(%q) = %+v, want an error", text, rs)
		}
	}
}

// A minor not yet released is listed as its pre-release (1.38 from v1.38.0-beta.0, issue 40):
// its module version is the release, its minor the release's.
func TestReadReleasesTakesAPreRelease(t *testing.T) {
	rs, err := readReleases("v1.37.2\nv1.38.0-beta.0\n")
	if err != nil || len(rs) != 2 || rs[1].minor != 38 || rs[1].patch != "1.38.0-beta.0" {
		t.Fatalf("readReleases = %+v, %v", rs, err)
	}
}

// The default minor is the newest released one: a pre-release listed after it is predicted
// only when asked for.
func TestDefaultIsTheNewestRelease(t *testing.T) {
	d := Default()
	if !d.IsSupported() || d.PreRelease() {
		t.Fatalf("Default() = %s (release %q)", d, d.Release())
	}
	for _, m := range Minors() {
		if m > d && !m.PreRelease() {
			t.Errorf("%s is released and newer than the default %s", m, d)
		}
	}
	if Newest() != d && !Newest().PreRelease() {
		t.Errorf("the newest minor %s is released but not the default %s", Newest(), d)
	}
}

// FuzzPreReleaseSuffix holds isPreReleaseSuffix to the grammar it reads without a regular
// expression.
func FuzzPreReleaseSuffix(f *testing.F) {
	re := regexp.MustCompile(`^(alpha|beta|rc)\.(0|[1-9][0-9]*)$`)
	for _, s := range []string{"beta.0", "rc.12", "alpha.01", "beta.", "gamma.1", "rc.1a", "beta.0\n", "", ".", "rc.9999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isPreReleaseSuffix(s), re.MatchString(s); got != want {
			t.Errorf("isPreReleaseSuffix(%q) = %v, the grammar says %v", s, got, want)
		}
	})
}
