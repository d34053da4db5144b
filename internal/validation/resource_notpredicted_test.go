package validation_test

import (
	"errors"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/kube"
)

// A request for admin access to devices is allowed only in a namespace labelled for it,
// which the server looks up: ssa-diff does not predict the answer (the engine then says so)
// rather than guess it.
func TestResourceAdminAccessNotPredicted(t *testing.T) {
	claim := defaulted(t, edit(t, claimTrainer, "        count: 2\n", "        count: 2\n        adminAccess: true\n"))
	_, err := validation.Validate(serverconfig.MustFor(kube.Default()), "resource.k8s.io/v1", "ResourceClaim", "", claim, nil)
	if !errors.Is(err, registry.ErrNotPredicted) {
		t.Fatalf("got %v, want an error wrapping ErrNotPredicted", err)
	}
	// Without admin access the same claim is predicted.
	res, err := validation.Validate(serverconfig.MustFor(kube.Default()), "resource.k8s.io/v1", "ResourceClaim", "", defaulted(t, claimTrainer), nil)
	if err != nil || !res.Known || len(res.Errors) != 0 {
		t.Fatalf("got %v %v %v", res.Known, res.Errors, err)
	}
}

// defaulted is the object of a YAML document as the server defaults it.
func defaulted(t *testing.T, doc string) map[string]any {
	t.Helper()
	obj := object(t, doc)
	if err := defaults.MustFor(kube.Default()).Default(obj["apiVersion"].(string), obj["kind"].(string), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}
