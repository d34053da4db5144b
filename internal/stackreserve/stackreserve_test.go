package stackreserve_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"unsafe"

	"github.com/ssa-diff/ssa-diff/internal/stackreserve"

	// The dependencies whose initialisations nest deepest, linked so that
	// TestReservedBeforeTheDependencies sees their order against the reserve's. The tests
	// are an external test package: in package stackreserve itself, their imports (testing
	// too) would be initialised before it.
	_ "google.golang.org/protobuf/types/gofeaturespb"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "sigs.k8s.io/structured-merge-diff/v6/typed"
)

// nested uses about depth KiB of stack and returns the address of marker at the deepest
// point: when the runtime copies the stack to a larger one it adjusts the pointers into
// it, so the address differs from the one taken before.
func nested(depth int, marker *byte) uintptr {
	var pad [1024]byte
	keep(pad[:])
	if depth == 0 {
		return uintptr(unsafe.Pointer(marker))
	}
	return nested(depth-1, marker)
}

// keep stops the compiler from dropping pad (and so nested's frame size).
//
//go:noinline
func keep(b []byte) { b[0] = 1 }

// stackMoves reports whether a new goroutine's stack is copied while it nests ~100 KiB
// deep, after Reserve when reserve is true.
func stackMoves(reserve bool) bool {
	moved := make(chan bool)
	go func() {
		if reserve {
			stackreserve.Reserve()
		}
		var marker byte
		before := uintptr(unsafe.Pointer(&marker))
		after := nested(100, &marker) // within the 128 KiB Reserve gives
		moved <- before != after
	}()
	return <-moved
}

func TestReserveGrowsOnce(t *testing.T) {
	if !stackMoves(false) {
		t.Fatal("without Reserve the stack did not move: the test cannot tell a reserve from none")
	}
	if stackMoves(true) {
		t.Error("after Reserve, nesting 100 KiB deep copied the stack again")
	}
}

// TestReservedBeforeTheDependencies runs this test binary again with GODEBUG=inittrace=1
// and checks that the package's initialisation, which reserves the main goroutine's
// stack, runs before that of the dependencies whose initialisations nest deepest.
func TestReservedBeforeTheDependencies(t *testing.T) {
	if os.Getenv("STACKRESERVE_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReservedBeforeTheDependencies$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "STACKRESERVE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	const self = "github.com/ssa-diff/ssa-diff/internal/stackreserve"
	at := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			at[f[1]] = len(at)
		}
	}
	reserve, ok := at[self]
	if !ok {
		t.Fatalf("inittrace names no initialisation of %s:\n%s", self, out)
	}
	for _, deep := range []string{
		"sigs.k8s.io/structured-merge-diff/v6/typed",
		"google.golang.org/protobuf/types/gofeaturespb",
		"k8s.io/apimachinery/pkg/apis/meta/v1",
	} {
		i, ok := at[deep]
		switch {
		case !ok:
			t.Errorf("%s not initialised in the test binary: the test must link it", deep)
		case i < reserve:
			t.Errorf("%s initialised before %s (%d of the initialisations, the reserve %d)", deep, self, i, reserve)
		}
	}
}
