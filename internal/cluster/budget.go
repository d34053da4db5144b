package cluster

import (
	"io"
	"sync/atomic"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// budget is how many bytes of answers the client may still read, all answers together:
// the cluster's answers count as read input, with the files read before them, against
// --max-input-bytes. Bytes are counted as they are read off the answer, after
// decompression, so a small compressed answer that inflates to gigabytes is stopped at the
// budget, not after.
type budget struct {
	left  atomic.Int64
	limit int64 // the whole bound (--max-input-bytes), for errors
}

func newBudget(limit, before int64) *budget {
	b := &budget{limit: limit}
	b.left.Store(limit - before)
	return b
}

func (b *budget) error() error {
	return &input.LimitError{What: "the cluster's answers, with the files read before them, are larger than", Max: b.limit, Unit: "bytes", Option: "max-input-bytes"}
}

// answerLimitError is an answer (one object, one discovery document) larger than the bound
// of one document.
func answerLimitError(max int64) error {
	return &input.LimitError{What: "the answer is larger than", Max: max, Unit: "bytes", Option: "max-document-bytes"}
}

// countingReader reads an answer's body, counting what it reads in n and against the
// budget, and failing once the answer is larger than max (0: no bound but the budget) or
// the budget is spent. It never reads more than one byte past either bound.
type countingReader struct {
	r      io.Reader
	n      *int64
	max    int64
	budget *budget
	// exceeded is the bound passed, once it is.
	exceeded error
	// failed: reading the body itself failed (the connection), not a bound.
	failed bool
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.exceeded != nil {
		return 0, c.exceeded
	}
	room := c.budget.left.Load() + 1
	if c.max > 0 {
		room = min(room, c.max+1-*c.n)
	}
	if room <= 0 {
		room = 1
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	*c.n += int64(n)
	left := c.budget.left.Add(-int64(n))
	switch {
	case c.max > 0 && *c.n > c.max:
		c.exceeded = answerLimitError(c.max)
		return n, c.exceeded
	case left < 0:
		c.exceeded = c.budget.error()
		return n, c.exceeded
	}
	if err != nil && err != io.EOF {
		c.failed = true
	}
	return n, err
}

// kept checks an object about to be kept against the bounds the live state's reader
// applies to it: its size (--max-document-bytes) and, two levels down in the List, its
// nesting (--max-depth). What a read keeps, the reader of the List it is written to reads.
func (c *Client) kept(obj []byte) error {
	if int64(len(obj)) > c.maxDoc {
		return answerLimitError(c.maxDoc)
	}
	if listLevels+nesting(obj) > c.maxDepth {
		return &input.LimitError{What: "the object's maps and lists, in the List of the live state, nest deeper than", Max: int64(c.maxDepth), Unit: "levels", Option: "max-depth"}
	}
	return nil
}

// listLevels are the levels above an object in the List of the live state: the List, its
// items.
const listLevels = 2

// nesting is how deeply the maps and lists of a JSON text nest.
func nesting(data []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			deepest = max(deepest, depth)
		case b == '}' || b == ']':
			depth--
		}
	}
	return deepest
}
