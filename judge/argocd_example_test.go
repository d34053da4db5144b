package judge_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// ArgoCDCompare answers what Argo CD shows of an object before its sync. A key someone
// added with kubectl edit is not Argo CD's, so its server-side diff keeps it on both
// sides: Synced. A value Git changes is OutOfSync; ignoreDifferences naming it makes it
// Synced again, though the sync still applies it.
func ExampleArgoCDCompare() {
	reg := schema.MustNewRegistry(kube.Minor(37))
	e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Minor(37)}))
	live := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop","resourceVersion":"7",
		"managedFields":[
		 {"manager":"argocd-controller","operation":"Apply","apiVersion":"v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:color":{}}}},
		 {"manager":"kubectl-edit","operation":"Update","apiVersion":"v1","time":"2026-12-02T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:debug":{}}}}]},
		"data":{"color":"blue","debug":"true"}}`)
	typ, _ := reg.Lookup(schema.GVK{Version: "v1", Kind: "ConfigMap"})
	compare := func(target string, ignore *judge.Ignore) string {
		return judge.ArgoCDCompare(judge.ArgoCDDiffInput{Target: decode(target), Live: live, Manager: "argocd-controller",
			Ignore: ignore, Type: &typ.Parseable, DryRun: argoDryRun(e, live)}).Status
	}
	rule, _ := judge.ParseIgnoreRule("core/ConfigMap:/data/color")
	ignore, _ := judge.NewIgnore(rule)
	fmt.Println(compare(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"color":"blue"}}`, nil))
	fmt.Println(compare(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"color":"green"}}`, nil))
	fmt.Println(compare(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"color":"green"}}`, ignore))
	// Output:
	// Synced
	// OutOfSync
	// Synced
}
