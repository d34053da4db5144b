package kube_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/kube"
)

// A run told no minor predicts kube.Default: the newest minor listed as a release. A minor
// listed from its pre-release (1.38 from v1.38.0-beta.0) is predicted when asked for.
func ExampleDefault() {
	for _, m := range kube.Minors() {
		if m.PreRelease() {
			fmt.Printf("%s from the pre-release %s, predicted when asked for\n", m, m.Release())
		}
	}
	fmt.Println("default:", kube.Default(), "newest:", kube.Newest())
	// Output:
	// 1.38 from the pre-release 1.38.0-beta.0, predicted when asked for
	// default: 1.37 newest: 1.38
}
