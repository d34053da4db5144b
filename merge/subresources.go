package merge

import "slices"

// Subresources are the subresources whose writes the engine predicts, in the order the
// command lists them: status and scale of any kind that serves them, a Pod's resize and
// ephemeralcontainers (docs/rules.md sub.*).
func Subresources() []string { return []string{"status", "scale", "resize", "ephemeralcontainers"} }

// PredictsSubresource reports whether the engine predicts writes to the subresource ("":
// the main resource).
func PredictsSubresource(name string) bool {
	return name == "" || slices.Contains(Subresources(), name)
}

// ServedNotPredicted reports a subresource kube-apiserver serves with a strategy and
// validation of its own that the engine does not model (/binding, /approval, /eviction,
// /finalize, /token): a write to it is said not predicted, never predicted wrong
// (docs/rules.md sub.others-not-predicted).
func ServedNotPredicted(name string) bool {
	switch name {
	case "binding", "approval", "eviction", "finalize", "token":
		return true
	}
	return false
}
