package gitopsconfig

import (
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// An Application is what a prediction needs of an Argo CD Application.
type Application struct {
	Name string
	// Namespace is spec.destination.namespace: where objects that name none go.
	Namespace string
	// SyncOptions are spec.syncPolicy.syncOptions, by name ("ServerSideApply": "true").
	SyncOptions map[string]string
	// Ignore are spec.ignoreDifferences, in order.
	Ignore []IgnoreDifference
	// CompareOptions are the annotation argocd.argoproj.io/compare-options, by name
	// ("ServerSideDiff": "false").
	CompareOptions map[string]string
	// MigrationManager is the annotation argocd.argoproj.io/client-side-apply-migration-manager:
	// the client-side apply manager the sync migrates ("": Argo CD's default).
	MigrationManager string
}

// CompareOptionsAnnotation is the Application annotation holding its compare options.
const CompareOptionsAnnotation = "argocd.argoproj.io/compare-options"

// MigrationManagerAnnotation is the Application annotation naming the client-side apply
// manager Argo CD migrates.
const MigrationManagerAnnotation = "argocd.argoproj.io/client-side-apply-migration-manager"

// An IgnoreDifference is one entry of an Application's ignoreDifferences.
type IgnoreDifference struct {
	// Group and Kind select objects (Group "" is the core group; Kind "*" any kind, as
	// Argo CD reads it); Name and Namespace, when set, one object.
	Group, Kind, Name, Namespace string
	JSONPointers                 []string
	JQPathExpressions            []string
	ManagedFieldsManagers        []string
}

// SyncOption reports whether the sync option name is "true".
func (a *Application) SyncOption(name string) bool { return a.SyncOptions[name] == "true" }

type applicationYAML struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Destination struct {
			Namespace string `json:"namespace"`
		} `json:"destination"`
		SyncPolicy struct {
			SyncOptions []string `json:"syncOptions"`
		} `json:"syncPolicy"`
		IgnoreDifferences []struct {
			Group                 string   `json:"group"`
			Kind                  string   `json:"kind"`
			Name                  string   `json:"name"`
			Namespace             string   `json:"namespace"`
			JSONPointers          []string `json:"jsonPointers"`
			JQPathExpressions     []string `json:"jqPathExpressions"`
			ManagedFieldsManagers []string `json:"managedFieldsManagers"`
		} `json:"ignoreDifferences"`
	} `json:"spec"`
}

// ReadApplication reads an Argo CD Application from YAML or JSON. It fails, naming the
// field, for a document that is not an Application or whose fields have the wrong type.
func ReadApplication(data []byte) (*Application, error) {
	var y applicationYAML
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, fmt.Errorf("not an Argo CD Application: %w", err)
	}
	if y.Kind != "Application" || !strings.HasPrefix(y.APIVersion, "argoproj.io/") {
		return nil, fmt.Errorf("not an Argo CD Application: apiVersion %q, kind %q (want argoproj.io/v1alpha1 Application)", y.APIVersion, y.Kind)
	}
	a := &Application{Name: y.Metadata.Name, Namespace: y.Spec.Destination.Namespace, SyncOptions: map[string]string{},
		MigrationManager: y.Metadata.Annotations[MigrationManagerAnnotation]}
	for _, o := range strings.Split(y.Metadata.Annotations[CompareOptionsAnnotation], ",") {
		if name, value, ok := strings.Cut(strings.TrimSpace(o), "="); ok {
			if a.CompareOptions == nil {
				a.CompareOptions = map[string]string{}
			}
			a.CompareOptions[strings.TrimSpace(name)] = strings.TrimSpace(value)
		}
	}
	for i, o := range y.Spec.SyncPolicy.SyncOptions {
		name, value, ok := strings.Cut(o, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("spec.syncPolicy.syncOptions[%d]: %q is not Name=value", i, o)
		}
		a.SyncOptions[strings.TrimSpace(name)] = strings.TrimSpace(value)
	}
	for i, d := range y.Spec.IgnoreDifferences {
		if d.Kind == "" {
			return nil, fmt.Errorf("spec.ignoreDifferences[%d]: no kind", i)
		}
		for j, p := range d.JSONPointers {
			if !strings.HasPrefix(p, "/") {
				return nil, fmt.Errorf("spec.ignoreDifferences[%d].jsonPointers[%d]: %q is not a JSON pointer (it starts with /)", i, j, p)
			}
		}
		a.Ignore = append(a.Ignore, IgnoreDifference{Group: d.Group, Kind: d.Kind, Name: d.Name, Namespace: d.Namespace,
			JSONPointers: d.JSONPointers, JQPathExpressions: d.JQPathExpressions, ManagedFieldsManagers: d.ManagedFieldsManagers})
	}
	return a, nil
}

// CheckComparison refuses the compare options that make Argo CD compare other than
// judge.ArgoCDCompare does: ServerSideDiff=false (the three-way diff from the
// last-applied-configuration annotation) and IncludeMutationWebhook=true — when the sync
// status is asked (asked); nil otherwise.
func (a *Application) CheckComparison(asked bool) error {
	if !asked {
		return nil
	}
	if a.CompareOptions["ServerSideDiff"] == "false" {
		return fmt.Errorf("the annotation %s has ServerSideDiff=false: Argo CD then compares with its three-way diff from the last-applied-configuration annotation, which --sync-status does not predict (it predicts the server-side diff of ServerSideApply=true syncs)", CompareOptionsAnnotation)
	}
	if a.CompareOptions["IncludeMutationWebhook"] == "true" {
		return fmt.Errorf("the annotation %s has IncludeMutationWebhook=true: Argo CD then keeps in its diff what no manifest sets, which --sync-status does not predict", CompareOptionsAnnotation)
	}
	return nil
}
