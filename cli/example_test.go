package cli_test

import (
	"os"

	"github.com/ssa-diff/ssa-diff/cli"
)

// A ConfigMap applied by kubectl loses a key: nobody else owns it, so the server deletes it.
// The diff format prints what kubectl diff would, and the exit status says "changes".
func ExampleRun() {
	code := cli.Run([]string{"-o", "diff", "--now", "2026-12-02T12:00:00Z",
		"../testdata/examples/field-deleted/manifest.yaml",
		"../testdata/examples/field-deleted/live.json"}, nil, os.Stdout, os.Stderr)
	os.Stdout.WriteString("exit status: " + string(rune('0'+code)) + "\n")
	// Output:
	// diff -u -N LIVE/v1.ConfigMap.kubectl-plain-ssa-reapply.feature-flags MERGED/v1.ConfigMap.kubectl-plain-ssa-reapply.feature-flags
	// --- LIVE/v1.ConfigMap.kubectl-plain-ssa-reapply.feature-flags
	// +++ MERGED/v1.ConfigMap.kubectl-plain-ssa-reapply.feature-flags
	// @@ -1,7 +1,6 @@
	//  apiVersion: v1
	//  data:
	// -  checkout: on-v2
	// -  search: off-v1
	// +  checkout: on-v3
	//  kind: ConfigMap
	//  metadata:
	//    creationTimestamp: "2026-12-02T09:35:59Z"
	// exit status: 1
}
