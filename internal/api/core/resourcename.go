package core

// String is the resource's name: the release's type has the method, and a server before
// 1.34 prints a resource name in a field error by it (`Invalid value: disk`), not in Go
// syntax.
func (rn ResourceName) String() string { return string(rn) }
