package merge

// KubectlApply predicts `kubectl apply --server-side` for one object: the sequence of
// requests kubectl sends, of which the last decides the outcome.
func (e *Engine) KubectlApply(req Request) (*Result, error) {
	return e.Apply(req)
}
