package wire

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestMain makes the test binary a helper program when asked to (the Differ tests start
// it): one answering each Diff with its minor, type and values, and refusing minor 0.
func TestMain(m *testing.M) {
	if os.Getenv("WIRE_TEST_HELPER") == "differ" {
		err := Serve(os.Stdin, os.Stdout, nil, func(d Diff) (string, error) {
			if d.Minor == 0 {
				return "", errors.New("no minor")
			}
			return fmt.Sprintf("1.%d %s %s %s", d.Minor, d.Type, d.Old, d.New), nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestDiffer: the helper is started on the first diff, not before; it answers diffs
// without a setup, concurrently asked; a diff it refuses fails alone; after Close, or
// without a program, a diff fails naming why.
func TestDiffer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("WIRE_TEST_HELPER", "differ")
	d := NewDiffer(exe)
	if d.p != nil {
		t.Fatal("started before the first diff")
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf(`1.33 core.EphemeralContainer {"Name":"a%d"} null`, i)
			got, err := d.Diff(Diff{Minor: 33, Type: "core.EphemeralContainer", Old: []byte(fmt.Sprintf(`{"Name":"a%d"}`, i)), New: []byte("null")})
			if err != nil || got != want {
				t.Errorf("Diff = %q, %v; want %q", got, err, want)
			}
		}()
	}
	wg.Wait()
	if _, err := d.Diff(Diff{Type: "x", Old: []byte("{}"), New: []byte("{}")}); err == nil || !strings.Contains(err.Error(), "no minor") {
		t.Errorf("a refused diff: %v", err)
	}
	if got, err := d.Diff(Diff{Minor: 32, Type: "x", Old: []byte("1"), New: []byte("2")}); err != nil || got != "1.32 x 1 2" {
		t.Errorf("a diff after a refused one: %q, %v", got, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Diff(Diff{Minor: 33, Old: []byte("1"), New: []byte("2")}); err == nil {
		t.Error("a diff after Close: want an error")
	}
	if _, err := NewDiffer("").Diff(Diff{Minor: 33}); err == nil || !strings.Contains(err.Error(), "no ssa-diff-admission program") {
		t.Errorf("no program: %v", err)
	}
	if err := NewDiffer("").Close(); err != nil {
		t.Errorf("Close of a Differ never started: %v", err)
	}
}
