package gitopsconfig

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"sigs.k8s.io/yaml"
)

// A Kustomization is what a prediction needs of a Flux Kustomization.
type Kustomization struct {
	Name, Namespace string
	// TargetNamespace is spec.targetNamespace: the namespace of every namespaced object.
	TargetNamespace string
	// Force is spec.force: an object refused as immutable is recreated.
	Force bool
	// Substitute is spec.postBuild.substitute; SubstituteFrom its substituteFrom, in order
	// (later ones, then Substitute, win, as kustomize-controller merges them).
	Substitute     map[string]string
	SubstituteFrom []SubstituteRef
	// Ignore is spec.ignore: kustomize-controller's drift ignore rules (JSON pointers, per
	// target), which strip or adopt the fields they name in what is applied; each rule as
	// the JSON that appliers.ParseFluxIgnoreRule (and --flux-ignore) takes.
	Ignore []string
	// Prune is spec.prune.
	Prune bool
	// HasPostBuild reports a spec.postBuild, even one substituting nothing.
	HasPostBuild bool
	// SubstituteAlways is postBuild.substituteStrategy: Always (substitute even with no
	// variables, for the defaults of ${var:=default}); the default, WithVariables,
	// substitutes only when some variable is defined.
	SubstituteAlways bool
}

// A SubstituteRef is one entry of postBuild.substituteFrom.
type SubstituteRef struct {
	Kind, Name string // ConfigMap or Secret
	Optional   bool
}

type kustomizationYAML struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec struct {
		TargetNamespace string       `json:"targetNamespace"`
		Force           bool         `json:"force"`
		Ignore          []json.RawMessage `json:"ignore"`
		Prune           bool         `json:"prune"`
		PostBuild       *struct {
			SubstituteStrategy string            `json:"substituteStrategy"`
			Substitute         map[string]string `json:"substitute"`
			SubstituteFrom     []struct {
				Kind     string `json:"kind"`
				Name     string `json:"name"`
				Optional bool   `json:"optional"`
			} `json:"substituteFrom"`
		} `json:"postBuild"`
	} `json:"spec"`
}

// ReadKustomization reads a Flux Kustomization (kustomize.toolkit.fluxcd.io) from YAML or
// JSON, failing for another kind or a substituteFrom of another kind than ConfigMap or
// Secret.
func ReadKustomization(data []byte) (*Kustomization, error) {
	var y kustomizationYAML
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, fmt.Errorf("not a Flux Kustomization: %w", err)
	}
	if y.Kind != "Kustomization" || !strings.HasPrefix(y.APIVersion, "kustomize.toolkit.fluxcd.io/") {
		return nil, fmt.Errorf("not a Flux Kustomization: apiVersion %q, kind %q (want kustomize.toolkit.fluxcd.io/v1 Kustomization)", y.APIVersion, y.Kind)
	}
	k := &Kustomization{Name: y.Metadata.Name, Namespace: y.Metadata.Namespace, TargetNamespace: y.Spec.TargetNamespace,
		Force: y.Spec.Force, Prune: y.Spec.Prune}
	for i, r := range y.Spec.Ignore {
		if _, err := appliers.ParseFluxIgnoreRule(string(r)); err != nil {
			return nil, fmt.Errorf("spec.ignore[%d]: %w", i, err)
		}
		k.Ignore = append(k.Ignore, string(r))
	}
	if y.Spec.PostBuild == nil {
		return k, nil
	}
	k.HasPostBuild, k.Substitute = true, y.Spec.PostBuild.Substitute
	switch y.Spec.PostBuild.SubstituteStrategy {
	case "", "WithVariables":
	case "Always":
		k.SubstituteAlways = true
	default:
		return nil, fmt.Errorf("spec.postBuild.substituteStrategy: %q (want WithVariables or Always)", y.Spec.PostBuild.SubstituteStrategy)
	}
	for i, r := range y.Spec.PostBuild.SubstituteFrom {
		if r.Kind != "ConfigMap" && r.Kind != "Secret" {
			return nil, fmt.Errorf("spec.postBuild.substituteFrom[%d]: kind %q (want ConfigMap or Secret)", i, r.Kind)
		}
		k.SubstituteFrom = append(k.SubstituteFrom, SubstituteRef{Kind: r.Kind, Name: r.Name, Optional: r.Optional})
	}
	return k, nil
}

// Variables are the values postBuild substitutes, as kustomize-controller loads them
// (fluxcd/pkg/kustomize LoadVariables, then the inline map): substituteFrom's ConfigMaps'
// data and Secrets' data (base64-decoded; a Secret given as a manifest with stringData
// counts it as the server stores it, merged into data), in order, then substitute; every
// value without its line breaks. objects are the ConfigMaps and Secrets given, decoded; a
// reference to one not given that is not optional is an error, as is a variable name that
// is not a shell identifier.
func (k *Kustomization) Variables(objects []map[string]any) (map[string]string, error) {
	vars := map[string]string{}
	for _, r := range k.SubstituteFrom {
		obj := find(objects, r.Kind, k.Namespace, r.Name)
		if obj == nil {
			if r.Optional {
				continue
			}
			return nil, fmt.Errorf("postBuild.substituteFrom: %s %s/%s not given (give it among the --flux-substitute-from files or the live objects, or mark it optional)", r.Kind, k.Namespace, r.Name)
		}
		data, _ := obj["data"].(map[string]any)
		for name, v := range data {
			s, _ := v.(string)
			if r.Kind == "Secret" {
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return nil, fmt.Errorf("postBuild.substituteFrom: Secret %s/%s: data.%s is not base64: %w", k.Namespace, r.Name, name, err)
				}
				s = string(b)
			}
			vars[name] = strings.ReplaceAll(s, "\n", "")
		}
		if sd, ok := obj["stringData"].(map[string]any); ok && r.Kind == "Secret" {
			for name, v := range sd {
				s, _ := v.(string)
				vars[name] = strings.ReplaceAll(s, "\n", "")
			}
		}
	}
	for name, v := range k.Substitute {
		vars[name] = strings.ReplaceAll(v, "\n", "")
	}
	names := make([]string, 0, len(vars))
	for name := range vars {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !shellName(name) {
			return nil, fmt.Errorf("postBuild: variable name %q is invalid: kustomize-controller takes names of letters, digits and underscores that do not start with a digit", name)
		}
	}
	return vars, nil
}

// shellName reports a variable name kustomize-controller substitutes: a letter or an
// underscore, then letters, digits and underscores (ASCII, as its [[:alpha:]] class).
func shellName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func find(objects []map[string]any, kind, namespace, name string) map[string]any {
	for _, o := range objects {
		md, _ := o["metadata"].(map[string]any)
		if o["kind"] == kind && md["name"] == name && (md["namespace"] == namespace || md["namespace"] == nil && namespace == "") {
			return o
		}
	}
	return nil
}
