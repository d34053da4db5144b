package cli

import "github.com/ssa-diff/ssa-diff/cli/input"

// fieldLine is the manifest line of a field path printed as the API server prints it
// (.spec.template.spec.containers[name="app"].image): the line of the field when the
// manifest has it, else of the closest enclosing field it has, else of the object.
func fieldLine(o *input.Object, path string) int {
	if o == nil {
		return 0
	}
	tree, err := o.Decode()
	if err != nil {
		return o.Source.Line
	}
	_, line := o.LocateFieldPath(tree, path)
	return line
}
