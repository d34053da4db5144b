package kubeapiserver

import (
	"regexp"
	"testing"
)

// The expressions kube-apiserver tells a --runtime-config level's versions by.
var levelExpressions = map[string]*regexp.Regexp{
	"":      regexp.MustCompile(`^v\d+$`),
	"beta":  regexp.MustCompile(`^v\d+beta\d+$`),
	"alpha": regexp.MustCompile(`^v\d+alpha\d+$`),
}

func TestLevelVersion(t *testing.T) {
	for _, c := range []struct {
		version, stage string
		want           bool
	}{
		{"v1", "", true}, {"v10", "", true}, {"v", "", false}, {"v1beta1", "", false}, {"1", "", false},
		{"v2beta1", "beta", true}, {"v2beta", "beta", false}, {"vbeta1", "beta", false}, {"v1beta1x", "beta", false},
		{"v1alpha3", "alpha", true}, {"v1alpha3", "beta", false}, {"v1beta1", "alpha", false}, {"V1", "", false},
		{"v١", "", false}, // \d is ASCII in both
	} {
		if got := levelVersion(c.version, c.stage); got != c.want {
			t.Errorf("levelVersion(%q, %q) = %t, want %t", c.version, c.stage, got, c.want)
		}
		if got := levelExpressions[c.stage].MatchString(c.version); got != c.want {
			t.Errorf("the server's expression for %q on %q = %t: the table is wrong", c.stage, c.version, got)
		}
	}
}

func FuzzLevelVersion(f *testing.F) {
	for _, v := range []string{"v1", "v1beta1", "v2alpha3", "v", "vbeta", "v1beta", "x1", "v01alpha01", "v1\n"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, version string) {
		for stage, re := range levelExpressions {
			if got, want := levelVersion(version, stage), re.MatchString(version); got != want {
				t.Fatalf("levelVersion(%q, %q) = %t; the server's expression says %t", version, stage, got, want)
			}
		}
	})
}
