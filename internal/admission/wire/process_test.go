package wire

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// echo is a library answering every call with the call's name as a warning, the
// object's replicas doubled as the changed object, and refusing the name "no".
type echo struct{ setup Setup }

func (e *echo) Call(c Call) (Answer, error) {
	if c.Name == "fail" {
		return Answer{}, errors.New("cannot")
	}
	a := Answer{Warnings: []string{c.Name + " " + e.setup.User.Name}}
	if r, ok := c.Object["replicas"].(int64); ok {
		a.Object = map[string]any{"replicas": r * 2}
	}
	return a, nil
}

func (e *echo) Close() error { return nil }

// TestServe: the protocol both ways, through pipes — the setup once, then calls answered
// in order, a call's failure answered without ending the helper, numbers kept integers.
func TestServe(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(inR, outW, func(s Setup) (Library, error) { return &echo{s}, nil }, nil)
		outW.Close()
	}()
	p := &process{in: inW, out: newReader(outR), path: "test"}
	if reply, err := p.roundTrip(message{Setup: &Setup{Minor: 37}}); err != nil || !reply.Ready {
		t.Fatalf("setup: %+v %v", reply, err)
	}
	a, err := p.Call(Call{Name: "web", Object: map[string]any{"replicas": int64(3)}})
	if err != nil || a.Warnings[0] != "web " || a.Object["replicas"] != int64(6) {
		t.Fatalf("call: %+v %v", a, err)
	}
	if _, err := p.Call(Call{Name: "fail", Object: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "cannot") {
		t.Fatalf("a failing call: %v", err)
	}
	if a, err := p.Call(Call{Name: "after", Object: map[string]any{}}); err != nil || a.Warnings[0] != "after " {
		t.Fatalf("a call after a failing one: %+v %v", a, err)
	}
	if _, err := p.diff(Diff{Minor: 33, Type: "core.EphemeralContainer"}); err == nil || !strings.Contains(err.Error(), "a diff this helper does not print") {
		t.Fatalf("a diff to a helper without a differ: %v", err)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// FuzzDecode: any line is read without a panic, and a message read is one the other side
// can send back.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"setup":{"minor":37,"objects":[{"a":1}]}}`, `{"call":{"object":{"n":1.5,"m":[1,{"x":null}]}}}`,
		`{"answer":{"refusal":{"code":422}}}`, `{"error":"x"}`, `{"diff":{"minor":33,"type":"core.EphemeralContainer","old":{"Name":"a"},"new":{"Name":"b"}}}`, `{"diffed":""}`, `{`, `[]`, `{"call":{"object":7}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := decode(line)
		if err != nil {
			return
		}
		if _, err := encodeLine(m); err != nil {
			t.Fatalf("%q decoded to a message that does not encode: %v", line, err)
		}
	})
}
