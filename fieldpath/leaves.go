package fieldpath

import smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

// IterateLeaves calls f with each path of s.Leaves() — the members of s that have no
// child — in the order s.Leaves().Iterate gives them, without building that set. As with
// Iterate, the path f gets is only good for the call: f copies it to keep it.
func IterateLeaves(s *smdpath.Set, f func(smdpath.Path)) {
	iterateLeaves(s, make(smdpath.Path, 0, 16), f)
}

func iterateLeaves(s *smdpath.Set, prefix smdpath.Path, f func(smdpath.Path)) {
	s.Members.Iterate(func(pe smdpath.PathElement) {
		if _, child := s.Children.Get(pe); !child {
			f(append(prefix, pe))
		}
	})
	s.Children.Iterate(func(pe smdpath.PathElement) {
		child, _ := s.Children.Get(pe)
		iterateLeaves(child, append(prefix, pe), f)
	})
}

// IterateLeavesIn calls f, in IterateLeaves' order, with each leaf path of s that the
// object in holds and the object out does not (fieldpath ValueAt), and in's value there.
// It walks s beside both objects, one step per element, and goes no deeper where in lacks
// an element (no leaf below is in in) or out lacks one (every leaf below that in holds is
// called). skip, when not nil, leaves out a path and all below it. As with IterateLeaves,
// the path f gets is only good for the call.
func IterateLeavesIn(s *smdpath.Set, in, out any, skip func(smdpath.Path) bool, f func(smdpath.Path, any)) {
	iterateLeavesIn(s, in, out, true, make(smdpath.Path, 0, 16), skip, f)
}

// iterateLeavesIn is IterateLeavesIn below at, where in and out are the objects' values
// (outSet false: out has nothing there).
func iterateLeavesIn(s *smdpath.Set, in, out any, outSet bool, at smdpath.Path, skip func(smdpath.Path) bool, f func(smdpath.Path, any)) {
	// A child's path is at with its element appended in place: f keeps no path past its
	// call, and a child's walk is over before its next sibling's starts.
	s.Members.Iterate(func(pe smdpath.PathElement) {
		if _, child := s.Children.Get(pe); child {
			return
		}
		p := append(at, pe)
		if skip != nil && skip(p) {
			return
		}
		v, ok := ValueAt(in, p[len(p)-1:])
		if !ok {
			return
		}
		if outSet {
			if _, has := ValueAt(out, p[len(p)-1:]); has {
				return
			}
		}
		f(p, v)
	})
	s.Children.Iterate(func(pe smdpath.PathElement) {
		p := append(at, pe)
		if skip != nil && skip(p) {
			return
		}
		v, ok := ValueAt(in, p[len(p)-1:])
		if !ok {
			return
		}
		w, has := out, false
		if outSet {
			w, has = ValueAt(out, p[len(p)-1:])
		}
		child, _ := s.Children.Get(pe)
		iterateLeavesIn(child, v, w, has, p, skip, f)
	})
}
