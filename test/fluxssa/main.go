// Command fluxssa applies manifests as Flux's kustomize-controller applies them — with
// fluxcd/pkg/ssa's ResourceManager.ApplyAllStaged and the options kustomize-controller
// v1.10.1 sets (force ownership, its field manager, its cleanup of kubectl's and
// before-first-apply's entries, spec.ignore as drift ignore rules) — to the cluster of
// $KUBECONFIG, and prints the change set. It records what the flux applier of ssa-diff
// predicts (testdata/flux-ignore/record.sh); it is not part of ssa-diff.
//
//	fluxssa [-ignore RULES.json] MANIFEST.yaml
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/fluxcd/cli-utils/pkg/kstatus/polling"
	"github.com/fluxcd/pkg/ssa"
	"github.com/fluxcd/pkg/ssa/jsondiff"
	"github.com/fluxcd/pkg/ssa/normalize"
	ssautils "github.com/fluxcd/pkg/ssa/utils"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func main() {
	ignore := flag.String("ignore", "", "a JSON file holding spec.ignore (a list of {paths, target})")
	flag.Parse()
	if err := run(*ignore, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "fluxssa:", err)
		os.Exit(1)
	}
}

type rule struct {
	Paths  []string           `json:"paths"`
	Target *jsondiff.Selector `json:"target"`
}

func run(ignoreFile, manifest string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		return err
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		return err
	}
	data, err := os.ReadFile(manifest)
	if err != nil {
		return err
	}
	objects, err := ssautils.ReadObjects(bytes.NewReader(data))
	if err != nil {
		return err
	}
	// kustomize-controller normalizes what it built before it applies it.
	if err := normalize.UnstructuredList(objects); err != nil {
		return err
	}
	opts := ssa.DefaultApplyOptions()
	opts.Cleanup = ssa.ApplyCleanupOptions{
		FieldManagers: []ssa.FieldManager{
			{Name: "kubectl", OperationType: metav1.ManagedFieldsOperationApply},
			{Name: "kubectl", OperationType: metav1.ManagedFieldsOperationUpdate},
			{Name: "before-first-apply", OperationType: metav1.ManagedFieldsOperationUpdate},
			{Name: "kustomize-controller", OperationType: metav1.ManagedFieldsOperationUpdate},
		},
		Exclusions: map[string]string{"kustomize.toolkit.fluxcd.io/ssa": "Merge"},
	}
	if ignoreFile != "" {
		raw, err := os.ReadFile(ignoreFile)
		if err != nil {
			return err
		}
		var rules []rule
		if err := json.Unmarshal(raw, &rules); err != nil {
			return fmt.Errorf("%s: %w", ignoreFile, err)
		}
		for _, r := range rules {
			opts.DriftIgnoreRules = append(opts.DriftIgnoreRules, jsondiff.IgnoreRule{Paths: r.Paths, Selector: r.Target})
		}
	}
	m := ssa.NewResourceManager(c, polling.NewStatusPoller(c, c.RESTMapper(), polling.Options{}), ssa.Owner{Field: "kustomize-controller", Group: "kustomize.toolkit.fluxcd.io"})
	cs, err := m.ApplyAllStaged(context.Background(), objects, opts)
	if err != nil {
		return err
	}
	for _, e := range cs.Entries {
		fmt.Printf("%s %s\n", e.Subject, e.Action)
	}
	return nil
}
