// Command argocddiff compares a manifest with its live object as Argo CD's application
// controller compares them — argo-cd v3.6.2's util/argo/diff.StateDiffs with the diff
// configuration CompareAppState builds for an Application synced with ServerSideApply=true
// (server-side diff: the dry-run apply of argocd-controller through gitops-engine's
// ManageServerSideDiffDryRuns, mutation webhooks ignored, the cluster's OpenAPI as GVK parser,
// annotation tracking, the Application's ignoreDifferences) — against the cluster of
// $KUBECONFIG, and prints the answer as JSON: modified (OutOfSync), normalizedLive and
// predictedLive. It records what ssa-diff's judge.ArgoCDDiff predicts
// (testdata/argocd-diff/record.sh); it is not part of ssa-diff.
//
//	argocddiff [-ignore IGNORE.json] [-legacy] MANIFEST.json
//
// MANIFEST.json is the object as Argo CD's repo server renders it (tracking included).
// -legacy compares with the compare option ServerSideDiff=false (the three-way diff from
// the last-applied-configuration annotation, else the two-way diff).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/argoproj/argo-cd/gitops-engine/v3/pkg/diff"
	"github.com/argoproj/argo-cd/gitops-engine/v3/pkg/utils/kube"
	"github.com/argoproj/argo-cd/gitops-engine/v3/pkg/utils/tracing"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	argodiff "github.com/argoproj/argo-cd/v3/util/argo/diff"
	"github.com/argoproj/argo-cd/v3/util/argo/normalizers"
	"github.com/go-logr/logr"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	ignore := flag.String("ignore", "", "a JSON file holding the Application's spec.ignoreDifferences")
	legacy := flag.Bool("legacy", false, "compare option ServerSideDiff=false")
	flag.Parse()
	if err := run(*ignore, *legacy, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "argocddiff:", err)
		os.Exit(1)
	}
}

type answer struct {
	Modified       bool            `json:"modified"`
	NormalizedLive json.RawMessage `json:"normalizedLive"`
	PredictedLive  json.RawMessage `json:"predictedLive"`
}

func run(ignoreFile string, legacy bool, manifest string) error {
	ctx := context.Background()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		return err
	}
	data, err := os.ReadFile(manifest)
	if err != nil {
		return err
	}
	target := &unstructured.Unstructured{}
	if err := json.Unmarshal(data, &target.Object); err != nil {
		return fmt.Errorf("%s: %w", manifest, err)
	}
	var ignores []v1alpha1.ResourceIgnoreDifferences
	if ignoreFile != "" {
		raw, err := os.ReadFile(ignoreFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &ignores); err != nil {
			return fmt.Errorf("%s: %w", ignoreFile, err)
		}
	}

	// The live object, as the controller's cluster cache holds it (managedFields included).
	disco, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	groups, err := restmapper.GetAPIGroupResources(disco)
	if err != nil {
		return err
	}
	mapping, err := restmapper.NewDiscoveryRESTMapper(groups).RESTMapping(target.GroupVersionKind().GroupKind(), target.GroupVersionKind().Version)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	var live *unstructured.Unstructured
	got, err := dyn.Resource(mapping.Resource).Namespace(target.GetNamespace()).Get(ctx, target.GetName(), metav1.GetOptions{})
	switch {
	case err == nil:
		live = got
	case !k8serrors.IsNotFound(err):
		return err
	}

	kubectl := &kube.KubectlCmd{Log: logr.Discard(), Tracer: tracing.NopTracer{}}
	_, gvkParser, err := kubectl.LoadOpenAPISchema(cfg)
	if err != nil {
		return err
	}
	// As the controller's getServerSideDiffDryRunApplier: kubectl's resource operations
	// printing the dry-run's answer as JSON.
	dryRunner, cleanup, err := kubectl.ManageServerSideDiffDryRuns(cfg)
	if err != nil {
		return err
	}
	defer cleanup()

	// As CompareAppState builds it: no resource overrides, IgnoreAggregatedRoles false (the
	// default compare options), annotation tracking with the default label key.
	b := argodiff.NewDiffConfigBuilder().
		WithDiffSettings(ignores, nil, false, normalizers.IgnoreNormalizerOpts{}).
		WithTracking("app.kubernetes.io/instance", "annotation").
		WithNoCache().
		WithGVKParser(gvkParser).
		WithManager("argocd-controller").
		WithServerSideDiff(!legacy)
	if !legacy {
		b = b.WithServerSideDryRunner(diff.NewK8sServerSideDryRunner(dryRunner))
	}
	dc, err := b.Build()
	if err != nil {
		return err
	}
	res, err := argodiff.StateDiffs(ctx, []*unstructured.Unstructured{live}, []*unstructured.Unstructured{target}, dc)
	if err != nil {
		return err
	}
	d := res.Diffs[0]
	out, err := json.MarshalIndent(answer{Modified: d.Modified, NormalizedLive: d.NormalizedLive, PredictedLive: d.PredictedLive}, "", " ")
	if err != nil {
		return err
	}
	fmt.Println(string(out))
	return nil
}
