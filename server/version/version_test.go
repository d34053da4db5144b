package version

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // 0: an error
	}{
		{"1.35", 35}, {"v1.35", 35}, {"1.35.4", 35}, {"v1.35.4", 35}, {" v1.36.3 ", 36},
		{"v1.35.4-eks-1a2b3c", 35}, {"v1.36.3+k3s1", 36}, {"v1.34.4-gke.100", 34}, {"1.99", 99},
		{"", 0}, {"1", 0}, {"2.35", 0}, {"1.x", 0}, {"1.35.x", 0}, {"1.035", 0}, {"1.0", 0},
		{"1.35.4.1", 0}, {"v", 0}, {"1.-3", 0}, {"1.123456", 0},
	} {
		v, err := Parse(c.in)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("Parse(%q) = %s, want an error", c.in, v)
		case c.want != 0 && (err != nil || v.MinorNumber() != c.want):
			t.Errorf("Parse(%q) = %v, %v, want 1.%d", c.in, v, err, c.want)
		}
	}
}

func TestSupported(t *testing.T) {
	var got []string
	for _, v := range Supported() {
		got = append(got, v.String())
		if !v.IsSupported() {
			t.Errorf("%s is listed but not supported", v)
		}
	}
	if want := "1.34 1.35 1.36 1.37"; join(got) != want {
		t.Errorf("Supported() = %s, want %s", join(got), want)
	}
	if (Version{}).String() != Latest().String() || !(Version{}).IsSupported() {
		t.Error("the zero Version is not the latest")
	}
	for _, c := range []struct{ in, nearest string }{{"1.30", "1.34"}, {"1.35", "1.35"}, {"1.40", "1.37"}} {
		v, _ := Parse(c.in)
		if v.IsSupported() != (v.String() == c.nearest) || v.Nearest().String() != c.nearest {
			t.Errorf("%s: supported %v, nearest %s, want %s", c.in, v.IsSupported(), v.Nearest(), c.nearest)
		}
	}
	if !Minor(36).AtLeast(Minor(36)) || Minor(35).AtLeast(Minor(36)) || !Minor(35).Before(Minor(36)) {
		t.Error("AtLeast/Before")
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
