package gitopsconfig

import (
	"errors"
	"fmt"

	"github.com/fluxcd/pkg/envsubst"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// SubstituteDisabled is the label or annotation (value "disabled") that keeps an object out
// of postBuild substitution.
const SubstituteDisabled = "kustomize.toolkit.fluxcd.io/substitute"

// Transforms reports whether k changes the objects it applies: a target namespace or a
// postBuild.
func (k *Kustomization) Transforms() bool {
	return k != nil && (k.TargetNamespace != "" || k.HasPostBuild)
}

// Build is one object of the source as kustomize-controller applies it: doc, the object's
// YAML as written, built as the kustomization kustomize-controller generates builds it
// (spec.targetNamespace as its namespace: — kustomize's namespace transformer, which
// leaves cluster-scoped kinds alone), then, with a postBuild, its YAML substituted with
// vars (Variables) unless the object opts out (SubstituteDisabled) or no variable is
// defined and the strategy is not Always. Substitution is strict, as kustomize-controller
// runs it by default (the StrictPostBuildSubstitutions feature): a variable without a value
// or a default is an error. It returns the object's JSON.
func (k *Kustomization) Build(doc []byte, vars map[string]string) ([]byte, error) {
	fsys := filesys.MakeFsInMemory()
	kus := types.Kustomization{Resources: []string{"object.yaml"}, Namespace: k.TargetNamespace}
	kus.FixKustomization()
	kdata, err := yaml.Marshal(kus)
	if err != nil {
		return nil, err
	}
	if err := fsys.WriteFile("/flux/kustomization.yaml", kdata); err != nil {
		return nil, err
	}
	if err := fsys.WriteFile("/flux/object.yaml", doc); err != nil {
		return nil, err
	}
	opts := krusty.MakeDefaultOptions()
	opts.PluginConfig = types.DisabledPluginConfig()
	m, err := krusty.MakeKustomizer(opts).Run(fsys, "/flux")
	if err != nil {
		return nil, fmt.Errorf("kustomize build: %w", err)
	}
	res := m.Resources()
	if len(res) != 1 {
		return nil, fmt.Errorf("kustomize build: %d objects, want 1", len(res))
	}
	r := res[0]
	if !k.HasPostBuild || r.GetLabels()[SubstituteDisabled] == "disabled" || r.GetAnnotations()[SubstituteDisabled] == "disabled" ||
		len(vars) == 0 && !k.SubstituteAlways {
		return r.MarshalJSON()
	}
	text, err := r.AsYAML()
	if err != nil {
		return nil, err
	}
	out, err := envsubst.Eval(string(text), func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
	if err != nil {
		return nil, fmt.Errorf("postBuild substitution (as kustomize-controller runs it, strict): %w", err)
	}
	j, err := yaml.YAMLToJSON([]byte(out))
	if err != nil {
		return nil, fmt.Errorf("postBuild substitution: the substituted object is no YAML: %w", err)
	}
	if string(j) == "null" {
		return nil, errors.New("postBuild substitution: the substituted object is empty")
	}
	return j, nil
}
