package shard

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// MaxCount is the largest N a Spec accepts: more shards than that is a mistake, not a CI
// matrix.
const MaxCount = 1000

// Spec is one shard of a run: Index of Count, 1-based. The zero Spec is not sharded.
type Spec struct {
	Index, Count int
}

// ErrSyntax is wrapped by Parse's errors.
var ErrSyntax = errors.New("want I/N with 1 ≤ I ≤ N")

// Parse reads "I/N": two decimal numbers without signs or spaces, 1 ≤ I ≤ N ≤ MaxCount.
func Parse(s string) (Spec, error) {
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: %w", s, ErrSyntax)
	}
	index, err1 := number(i)
	count, err2 := number(n)
	switch {
	case err1 != nil || err2 != nil:
		return Spec{}, fmt.Errorf("shard %q: %w", s, ErrSyntax)
	case count > MaxCount:
		return Spec{}, fmt.Errorf("shard %q: at most %d shards", s, MaxCount)
	case index < 1 || index > count:
		return Spec{}, fmt.Errorf("shard %q: %w", s, ErrSyntax)
	}
	return Spec{Index: index, Count: count}, nil
}

// number reads a decimal number of digits only (no sign, no spaces, no leading zeros).
func number(s string) (int, error) {
	if s == "" || len(s) > 4 || (s[0] == '0' && len(s) > 1) {
		return 0, ErrSyntax
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, ErrSyntax
		}
	}
	return strconv.Atoi(s)
}

// String prints the spec as Parse reads it.
func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// On says whether the run is sharded.
func (s Spec) On() bool { return s.Count > 0 }

// Of is the 1-based shard of Count an object with this identity belongs to.
func Of(count int, group, kind, namespace, name string) int {
	return int(Hash(group, kind, namespace, name)%uint64(count)) + 1
}

// Hash is the FNV-1a 64 hash of the identity's key (the package documentation defines it).
func Hash(group, kind, namespace, name string) uint64 {
	h := fnv.New64a()
	for i, part := range [...]string{group, kind, namespace, name} {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(part))
	}
	return h.Sum64()
}

// Owns says whether the object with this identity is this shard's; every object is the
// whole run's when the run is not sharded.
func (s Spec) Owns(group, kind, namespace, name string) bool {
	return !s.On() || Of(s.Count, group, kind, namespace, name) == s.Index
}
