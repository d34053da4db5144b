package jsontext

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// referenceChecks finds what Checks report by decoding src with encoding/json: whether
// its bytes are UTF-8 (outside strings valid JSON has only ASCII) and whether an object
// has a key twice, keys as encoding/json's Decoder gives them. ok is false when
// encoding/json does not read src as one value.
func referenceChecks(src []byte) (c Checks, ok bool) {
	if !json.Valid(src) {
		return Checks{}, false
	}
	c = Checks{Known: true, UTF8: utf8.Valid(src), UniqueKeys: true}
	type frame struct {
		object    bool
		expectKey bool
		keys      map[string]bool
	}
	var frames []frame
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return c, true
		}
		if err != nil {
			return Checks{}, false
		}
		n := len(frames)
		if d, isDelim := tok.(json.Delim); isDelim {
			switch d {
			case '{':
				frames = append(frames, frame{object: true, expectKey: true, keys: map[string]bool{}})
			case '[':
				frames = append(frames, frame{})
			default:
				frames = frames[:n-1]
				if n > 1 && frames[n-2].object {
					frames[n-2].expectKey = true
				}
			}
			continue
		}
		if n == 0 || !frames[n-1].object {
			continue
		}
		f := &frames[n-1]
		if f.expectKey {
			k := tok.(string)
			if f.keys[k] {
				c.UniqueKeys = false
			}
			f.keys[k] = true
			f.expectKey = false
		} else {
			f.expectKey = true
		}
	}
}

// sameChecks holds a Compactor to Compact (the same text or the same error, dst the
// same) and its checks to referenceChecks; c is reused, as a caller reuses it.
func sameChecks(t *testing.T, c *Compactor, src []byte) {
	t.Helper()
	var want, got bytes.Buffer
	want.WriteString("prefix ")
	got.WriteString("prefix ")
	wantErr := Compact(&want, src)
	checks, err := c.Compact(&got, src)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, Compact's %v", src, err, wantErr)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%q: %q, Compact's %q", src, got.Bytes(), want.Bytes())
	}
	if checks.Known {
		sameSpans(t, c, src, got.Bytes()[len("prefix "):])
	}
	ref, ok := referenceChecks(src)
	switch {
	case !ok && checks.Known:
		t.Fatalf("%q: checks %+v of text encoding/json refuses", src, checks)
	case ok && checks.Known && checks != ref:
		t.Fatalf("%q: checks %+v, want %+v", src, checks, ref)
	case ok && !checks.Known && bytes.Count(src, []byte("[")) < maxDepth && bytes.Count(src, []byte("{")) < maxDepth:
		t.Fatalf("%q: valid text not checked", src)
	}
}

var checkCases = []string{
	`{"a":1,"b":2}`,
	`{"a":1,"a":2}`,
	`{"a":{"a":1},"b":{"a":1,"b":[{"a":1},{"a":2,"a":3}]}}`,
	`[{"a":1},{"a":1}]`,
	`{"a":1,"\u0061":2}`,
	`{"a\/b":1,"a/b":2}`,
	`{"\ud800":1,"\ufffd":2}`,
	"{\"\xff\":1,\"\ufffd\":2}",
	"{\"\xff\":1,\"\xfe\":2}",
	"{\"a\":\"\xff\"}",
	`{"é":1,"\u00e9":2}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":{"k1":1,"k2":2},"k18":18,"k1":1}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16},"k18":18}`,
	`{"a":1,"b":2`,
	`{"a":1,"a":2,}`,
	` {"a" : [1, 2, {"b": null, "b": true}] } `,
}

func TestCompactorChecks(t *testing.T) {
	var c Compactor
	srcs := append([]string(nil), checkCases...)
	srcs = append(srcs, cases...)
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(data))
	}
	for _, src := range srcs {
		sameChecks(t, &c, []byte(src))
	}
	// What each case gives, so that a check that always agreed with itself would fail.
	for _, tc := range []struct {
		src        string
		utf8, uniq bool
	}{
		{checkCases[0], true, true},
		{checkCases[1], true, false},
		{checkCases[2], true, false},
		{checkCases[3], true, true},
		{checkCases[4], true, false},
		{checkCases[5], true, false},
		{checkCases[6], true, false},
		{checkCases[7], false, false},
		{checkCases[8], false, false},
		{checkCases[9], false, true},
		{checkCases[10], true, false},
		{checkCases[11], true, false},
		{checkCases[12], true, true},
	} {
		got, err := c.Compact(new(bytes.Buffer), []byte(tc.src))
		if want := (Checks{Known: true, UTF8: tc.utf8, UniqueKeys: tc.uniq}); err != nil || got != want {
			t.Errorf("%s: %+v %v, want %+v", tc.src, got, err, want)
		}
	}
}

// TestMemberEnd: the values of the top-level object's members and of its member objects'
// members are located, deeper ones not.
func TestMemberEnd(t *testing.T) {
	var c Compactor
	src := `{"a": {"b": {"c": 1}, "s": "x"}, "d": [{"e": 1}], "n": null}`
	var out bytes.Buffer
	if _, err := c.Compact(&out, []byte(src)); err != nil {
		t.Fatal(err)
	}
	text := out.String() // {"a":{"b":{"c":1},"s":"x"},"d":[{"e":1}],"n":null}
	var got []string
	for i := range text {
		if end, ok := c.MemberEnd(i); ok {
			got = append(got, text[i:end])
		}
	}
	want := []string{`{"b":{"c":1},"s":"x"}`, `{"c":1}`, `"x"`, `[{"e":1}]`, `null`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("values %q, want %q", got, want)
	}
}

// FuzzCompactor holds a Compactor to Compact and its checks to encoding/json on any bytes,
// one Compactor for the texts of a run, as its users keep one.
func FuzzCompactor(f *testing.F) {
	for _, c := range checkCases {
		f.Add([]byte(c))
	}
	var c Compactor
	f.Fuzz(func(t *testing.T, src []byte) {
		sameChecks(t, &c, src)
	})
}

// sameSpans checks the values MemberEnd locates in out, the compact text of src: each
// is one JSON value after a member's colon and before a comma or the object's end, and
// there is one for each member of every object nested at most one level below the top
// (counted from encoding/json's tokens).
func sameSpans(t *testing.T, c *Compactor, src, out []byte) {
	t.Helper()
	for _, sp := range c.spans {
		end, ok := c.MemberEnd(sp.start)
		if !ok || end != sp.end || sp.start == 0 || out[sp.start-1] != ':' || !json.Valid(out[sp.start:sp.end]) ||
			sp.end < len(out) && out[sp.end] != ',' && out[sp.end] != '}' {
			t.Fatalf("%q: a span %d–%d (MemberEnd %d %v) of %q", src, sp.start, sp.end, end, ok, out)
		}
	}
	for i := 1; i < len(c.spans); i++ {
		if c.spans[i].start <= c.spans[i-1].start {
			t.Fatalf("%q: spans out of order: %v", src, c.spans)
		}
	}
	if _, ok := c.MemberEnd(len(out) + 1); ok {
		t.Fatalf("%q: a span past the end", src)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	type frame struct{ object, expectKey bool }
	var frames []frame
	members := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		n := len(frames)
		if d, isDelim := tok.(json.Delim); isDelim {
			switch d {
			case '{', '[':
				frames = append(frames, frame{object: d == '{', expectKey: true})
			default:
				frames = frames[:n-1]
				if n > 1 && frames[n-2].object {
					frames[n-2].expectKey = true
				}
			}
			continue
		}
		if n == 0 || !frames[n-1].object {
			continue
		}
		if f := &frames[n-1]; f.expectKey {
			if n <= spanDepth+1 {
				members++
			}
			f.expectKey = false
		} else {
			f.expectKey = true
		}
	}
	if members != len(c.spans) {
		t.Fatalf("%q: %d spans for %d members", src, len(c.spans), members)
	}
}
