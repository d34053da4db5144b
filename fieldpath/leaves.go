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
