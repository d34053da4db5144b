package input

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits bound the resources reading input may take. Input is untrusted (ssa-diff runs on
// pull requests), so every way a small or endless input could exhaust memory, time or the
// stack has a bound. A zero field means its default.
type Limits struct {
	// MaxInputBytes caps the bytes read from all paths together: files, directories and
	// standard input. Reading stops there; the documents read before are kept.
	MaxInputBytes int64
	// MaxDocumentBytes caps one YAML document or JSON value; a JSON List is not one
	// document here: each of its items is, and its own fields together are (the List as a
	// whole is bounded by MaxInputBytes). A larger document or item is skipped, never held
	// in memory beyond the bound.
	MaxDocumentBytes int64
	// MaxDepth caps how deeply maps and lists nest in a document. It protects everything
	// that recurses over objects (the engine, structured-merge-diff, the outputs); at most
	// HardMaxDepth.
	MaxDepth int
	// MaxAliasNodes caps the nodes YAML aliases (*name, <<: *name) add to a document when
	// they are expanded ("billion laughs").
	MaxAliasNodes int
	// MaxFiles caps the directory entries directory walks visit, all walks together.
	MaxFiles int
	// MaxObjects caps the objects read, manifests and live objects (List items each) all
	// together: each costs memory, and each manifest a prediction.
	MaxObjects int
}

// The default limits: far above any real manifest or cluster dump, far below what would
// hurt a CI runner.
const (
	DefaultMaxInputBytes    = 128 << 20
	DefaultMaxDocumentBytes = 32 << 20
	DefaultMaxDepth         = 1000
	DefaultMaxAliasNodes    = 100000
	DefaultMaxFiles         = 100000
	DefaultMaxObjects       = 50000
	// HardMaxDepth is the nesting the YAML and JSON decoders (and the API server's) allow
	// at all; MaxDepth cannot exceed it.
	HardMaxDepth = 10000
)

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }

func (l Limits) withDefaults() Limits {
	if l.MaxInputBytes <= 0 {
		l.MaxInputBytes = DefaultMaxInputBytes
	}
	if l.MaxDocumentBytes <= 0 {
		l.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if l.MaxDocumentBytes > l.MaxInputBytes {
		l.MaxDocumentBytes = l.MaxInputBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxDepth > HardMaxDepth {
		l.MaxDepth = HardMaxDepth
	}
	if l.MaxAliasNodes <= 0 {
		l.MaxAliasNodes = DefaultMaxAliasNodes
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxObjects <= 0 {
		l.MaxObjects = DefaultMaxObjects
	}
	return l
}

// ErrLimit is wrapped by every error about a resource bound.
var ErrLimit = errors.New("input limit exceeded")

// LimitError says which bound input exceeded; it wraps ErrLimit.
type LimitError struct {
	// What was too big, as "the document is larger than".
	What string
	// Max is the bound, Unit its unit ("bytes", "levels" …).
	Max  int64
	Unit string
	// Option names the command-line flag that raises the bound.
	Option string
}

func (e *LimitError) Error() string {
	max := fmt.Sprintf("%d %s", e.Max, e.Unit)
	if e.Unit == "bytes" {
		max = FormatSize(e.Max)
	}
	return fmt.Sprintf("%s %s (raise the limit with --%s)", e.What, max, e.Option)
}

func (e *LimitError) Unwrap() error { return ErrLimit }

// FormatSize prints a byte count the way the size flags read it: 64Mi, 1Gi, 1500 bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.suffix)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseSize reads a positive byte count with an optional binary (Ki, Mi, Gi, Ti) or
// decimal (k, M, G, T) suffix, as the size flags take it;
// FormatSize prints what it reads.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), "B")
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSuffix(t, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a positive size (like 1048576, 512Ki, 64Mi or 1Gi)", s)
	}
	return n * mult, nil
}
