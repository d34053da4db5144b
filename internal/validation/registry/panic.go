package registry

import "fmt"

// ServerPanic is what a validator panics with where the server's own validation panics on
// the object (a nil dereference the server does not guard against): the server then
// answers no status at all — the request fails. package validation recovers it into an
// error wrapping ErrServerPanics.
type ServerPanic struct {
	// Reason is the server's runtime error.
	Reason string
}

// NilDereference is the reason of the server's panics on a nil pointer.
const NilDereference = "runtime error: invalid memory address or nil pointer dereference"

// ErrServerPanics: the server's validation panics on the object.
var ErrServerPanics = fmt.Errorf("the server's validation panics on this object")

func (p ServerPanic) Error() string { return fmt.Sprintf("%v: %s", ErrServerPanics, p.Reason) }

// Unwrap lets errors.Is find ErrServerPanics.
func (p ServerPanic) Unwrap() error { return ErrServerPanics }
