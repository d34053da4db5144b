package stackreserve

// Size is the frame Reserve makes room for. The runtime doubles a stack until the frame
// fits, so the goroutine's stack becomes 128 KiB: what a plain run's command goroutine and
// the initialisation grow to (a larger reserve measured no better: its own allocation
// and clearing cost more than the growths it saved).
const Size = 64 << 10

func init() { Reserve() }

// Reserve grows the calling goroutine's stack to hold Size bytes more than it holds now,
// at once. Call it first thing in a goroutine that will nest deeply.
//
//go:noinline
func Reserve() {
	var frame [Size]byte
	touch(frame[:])
}

// touch keeps frame (and so the frame size) alive: the compiler may not drop an array
// passed to a function it does not inline, and escape analysis keeps it on the stack.
//
//go:noinline
func touch(b []byte) { b[len(b)-1] = 0 }
