package core

import (
	"sync"

	"k8s.io/apimachinery/pkg/util/sets"
)

// lazySet is a set of allowed values made at its first use, not at every start of the
// program: its items are data the linker lays out (a package-level &lazySet{items: …}
// runs no code before main), and get makes the set once. One instantiation serves
// every set of a string kind.
type lazySet[T ~string] struct {
	items []T
	once  sync.Once
	set   sets.Set[T]
}

// get is the set of the items, made at the first call.
func (l *lazySet[T]) get() sets.Set[T] {
	l.once.Do(func() { l.set = sets.New(l.items...) })
	return l.set
}
