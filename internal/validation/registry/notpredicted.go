package registry

import "errors"

// NotPredicted is what a validator panics with where the server's answer depends on what an
// offline prediction cannot know: the state of the cluster (the labels of a namespace it
// looks up) or a rule not ported. package validation recovers it into an error wrapping
// ErrNotPredicted, and the engine then says the write's validation is not predicted.
type NotPredicted struct {
	// Reason says what the answer depends on.
	Reason string
}

// ErrNotPredicted: the server's answer to the write is not predicted.
var ErrNotPredicted = errors.New("the server's answer is not predicted")

// Error is the reason alone: the engine says what is not predicted around it.
func (p NotPredicted) Error() string { return p.Reason }

// Unwrap lets errors.Is find ErrNotPredicted.
func (p NotPredicted) Unwrap() error { return ErrNotPredicted }
