package wellformed

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// seeds are strings at the edges of the formats: lengths at and past the limits, every
// kind of character at the start, the end and inside, slashes and dots in every place,
// capitals, bytes outside ASCII, the Kelvin sign.
func seeds() []string {
	out := []string{"", "a", "A", "0", "-", "_", ".", "/", "a/b", "/a", "a/", "a//b", "a/b/c", "a-b", "a_b", "a.b", "a..b", "-a", "a-", "_a", "a_",
		".a", "a.", "..", "..a", "example.com/name", "Example.com/Name", "example.com/", "ex_ample.com/a", "-example.com/a", "example-.com/a",
		"a\n", "\na", "é", "a\u212ab", "\u212a", "K", "a b", "a\x00b", "a\xffb", "kubernetes.io/hostname", "app.kubernetes.io/name",
		"192.168.0.1", "x-.y", "x.-y", "my-name", "MyName", "123-abc", "a*b", "a:b", "a=b", "%"}
	for _, n := range []int{15, 16, 62, 63, 64, 252, 253, 254} {
		out = append(out, strings.Repeat("a", n), strings.Repeat("a", n-1)+"-", strings.Repeat("a.", n/2)+"a"[:n%2],
			strings.Repeat("b", 200)+"/"+strings.Repeat("a", n%64+1), strings.Repeat("a", n)+"/a")
	}
	return out
}

func fuzzWith(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
}

// check fails when the predicate's answer is not whether apimachinery's check found
// nothing.
func check(t *testing.T, name, s string, got bool, errs []string) {
	t.Helper()
	if got != (len(errs) == 0) {
		t.Fatalf("%s(%q) = %v; apimachinery says %q", name, s, got, errs)
	}
}

func FuzzLabelKey(f *testing.F) {
	fuzzWith(f)
	f.Fuzz(func(t *testing.T, s string) {
		check(t, "LabelKey", s, LabelKey(s), content.IsLabelKey(s))
		check(t, "LabelKey", s, LabelKey(s), validation.IsQualifiedName(s))
	})
}

func FuzzLabelValue(f *testing.F) {
	fuzzWith(f)
	f.Fuzz(func(t *testing.T, s string) {
		check(t, "LabelValue", s, LabelValue(s), content.IsLabelValue(s))
		check(t, "LabelValue", s, LabelValue(s), validation.IsValidLabelValue(s))
	})
}

func FuzzDNS1123Label(f *testing.F) {
	fuzzWith(f)
	f.Fuzz(func(t *testing.T, s string) {
		check(t, "DNS1123Label", s, DNS1123Label(s), content.IsDNS1123Label(s))
		check(t, "DNS1123Label", s, DNS1123Label(s), validation.IsDNS1123Label(s))
		for _, prefix := range []bool{false, true} {
			if got, want := NameIsDNSLabel(s, prefix), apimachineryvalidation.NameIsDNSLabel(s, prefix); !reflect.DeepEqual(got, want) {
				t.Fatalf("NameIsDNSLabel(%q, %v) = %q; apimachinery says %q", s, prefix, got, want)
			}
		}
	})
}

func FuzzDNS1123Subdomain(f *testing.F) {
	fuzzWith(f)
	f.Fuzz(func(t *testing.T, s string) {
		check(t, "DNS1123Subdomain", s, DNS1123Subdomain(s), content.IsDNS1123Subdomain(s))
		check(t, "DNS1123Subdomain", s, DNS1123Subdomain(s), validation.IsDNS1123Subdomain(s))
		for _, prefix := range []bool{false, true} {
			if got, want := NameIsDNSSubdomain(s, prefix), apimachineryvalidation.NameIsDNSSubdomain(s, prefix); !reflect.DeepEqual(got, want) {
				t.Fatalf("NameIsDNSSubdomain(%q, %v) = %q; apimachinery says %q", s, prefix, got, want)
			}
		}
	})
}

func FuzzConfigMapKey(f *testing.F) {
	fuzzWith(f)
	f.Fuzz(func(t *testing.T, s string) {
		check(t, "ConfigMapKey", s, ConfigMapKey(s), validation.IsConfigMapKey(s))
	})
}

// Labels and Annotations are true only where apimachinery finds nothing, exactly so but for
// annotation keys outside ASCII; ValidateLabels, ValidateAnnotations and the metadata
// validation of Meta give apimachinery's errors, whatever they are given.
func FuzzMaps(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s, "value", 1)
		f.Add("key", s, 1)
	}
	f.Add("a", "b", annotationsMaxSize/2)
	f.Add("a", "b", annotationsMaxSize)
	f.Fuzz(func(t *testing.T, k, v string, repeat int) {
		m := map[string]string{k: v, "app.kubernetes.io/name": "web"}
		if repeat > 1 && repeat <= annotationsMaxSize {
			m["big"] = strings.Repeat("x", repeat)
		}
		p := field.NewPath("metadata", "labels")
		labelErrs := metav1validation.ValidateLabels(m, p)
		if Labels(m) != (len(labelErrs) == 0) {
			t.Fatalf("Labels(%q) = %v; apimachinery says %v", m, Labels(m), labelErrs)
		}
		sameErrors(t, "ValidateLabels", ValidateLabels(m, p), labelErrs)
		annotationErrs := apimachineryvalidation.ValidateAnnotations(m, p)
		if got := Annotations(m); got && len(annotationErrs) > 0 || !got && len(annotationErrs) == 0 && ascii(k) {
			t.Fatalf("Annotations(%q) = %v; apimachinery says %v", m, got, annotationErrs)
		}
		sameErrors(t, "ValidateAnnotations", ValidateAnnotations(m, p), annotationErrs)

		for _, sel := range []*metav1.LabelSelector{nil, {}, {MatchLabels: m},
			{MatchLabels: m, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{v}}, {Key: "a", Operator: "bad"}}}} {
			for _, opts := range []metav1validation.LabelSelectorValidationOptions{{}, {AllowInvalidLabelValueInSelector: true}} {
				sameErrors(t, "ValidateLabelSelector", ValidateLabelSelector(sel, opts, p), metav1validation.ValidateLabelSelector(sel, opts, p))
			}
		}

		meta := &metav1.ObjectMeta{Name: "web", Namespace: "shop", Labels: m, Annotations: m}
		old := &metav1.ObjectMeta{Name: "web", Namespace: "shop", ResourceVersion: "1"}
		mp := field.NewPath("metadata")
		sameErrors(t, "ValidateObjectMetaAccessor",
			apimachineryvalidation.ValidateObjectMetaAccessor(Meta(meta), true, apimachineryvalidation.NameIsDNSLabel, mp),
			apimachineryvalidation.ValidateObjectMetaAccessor(meta, true, apimachineryvalidation.NameIsDNSLabel, mp))
		sameErrors(t, "ValidateObjectMetaAccessorUpdate",
			apimachineryvalidation.ValidateObjectMetaAccessorUpdate(Meta(meta), old, mp),
			apimachineryvalidation.ValidateObjectMetaAccessorUpdate(meta, old, mp))
	})
}

// sameErrors compares two error lists as sets of their texts: apimachinery walks maps in
// Go's random order.
func sameErrors(t *testing.T, name string, got, want field.ErrorList) {
	t.Helper()
	count := map[string]int{}
	for _, e := range want {
		count[e.Error()+e.Origin]++
	}
	for _, e := range got {
		count[e.Error()+e.Origin]--
	}
	for text, n := range count {
		if n != 0 {
			t.Fatalf("%s gives %v; apimachinery %v (%q differs)", name, got, want, text)
		}
	}
}

// The seeds alone, in every run of go test.
func TestSeeds(t *testing.T) {
	for _, s := range seeds() {
		check(t, "LabelKey", s, LabelKey(s), content.IsLabelKey(s))
		check(t, "LabelValue", s, LabelValue(s), content.IsLabelValue(s))
		check(t, "DNS1123Label", s, DNS1123Label(s), content.IsDNS1123Label(s))
		check(t, "DNS1123Subdomain", s, DNS1123Subdomain(s), content.IsDNS1123Subdomain(s))
		check(t, "ConfigMapKey", s, ConfigMapKey(s), validation.IsConfigMapKey(s))
		check(t, "PortName", s, PortName(s), validation.IsValidPortName(s))
		if ascii(s) {
			check(t, "Annotations", s, Annotations(map[string]string{s: ""}), fieldTexts(apimachineryvalidation.ValidateAnnotations(map[string]string{s: ""}, nil)))
		}
	}
	if !Annotations(map[string]string{"Example.COM/Name": strings.Repeat("x", annotationsMaxSize-16)}) ||
		Annotations(map[string]string{"Example.COM/Name": strings.Repeat("x", annotationsMaxSize-15)}) {
		t.Error("Annotations does not hold the size limit at 256 KiB")
	}
	if Annotations(map[string]string{"\u212a/a": ""}) {
		t.Error("Annotations answers for a key outside ASCII")
	}
}

func fieldTexts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func FuzzPortName(f *testing.F) {
	fuzzWith(f)
	for _, s := range []string{"http", "h-t", "h--t", "80", "8-0", "a1", "-a", "a-", "abcdefghijklmno", "abcdefghijklmnop", "HTTP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check(t, "PortName", s, PortName(s), validation.IsValidPortName(s))
	})
}

// The drop-in checks of strings.go answer what the functions they stand for answer, nil
// included.
func FuzzStringChecks(f *testing.F) {
	fuzzWith(f)
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []struct {
			name      string
			got, want func(string) []string
		}{
			{"IsDNS1123Label", IsDNS1123Label, validation.IsDNS1123Label},
			{"IsDNS1123Subdomain", IsDNS1123Subdomain, validation.IsDNS1123Subdomain},
			{"IsQualifiedName", IsQualifiedName, validation.IsQualifiedName},
			{"IsValidLabelValue", IsValidLabelValue, validation.IsValidLabelValue},
			{"IsConfigMapKey", IsConfigMapKey, validation.IsConfigMapKey},
			{"IsValidPortName", IsValidPortName, validation.IsValidPortName},
		} {
			if got, want := c.got(s), c.want(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s(%q) = %#v; apimachinery's %#v", c.name, s, got, want)
			}
		}
	})
}
