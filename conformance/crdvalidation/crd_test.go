package crdvalidation

import (
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

var flagCRDs = flag.Int("crdval.crds", envInt("CRDVAL_CRDS", 60), "CRDs to validate")

// TestCRDDifferential compares ssa-diff's validation of CustomResourceDefinitions with
// apiextensions-apiserver's (the registry's strategy after the conversion to the internal
// version) on generated CRDs, most of them broken somewhere: creates, and updates of a valid
// CRD.
func TestCRDDifferential(t *testing.T) {
	n := *flagCRDs
	refused, divs, updates, skipped := 0, 0, 0, 0
	for i := 0; i < n; i++ {
		seed := *flagSeed + int64(i)
		g := NewGen(seed)
		base := g.CRD()
		mutated := g.MutateCRD(base)
		var oldMap map[string]any
		if g.p(0.3) {
			oldMap = base.CRD
			updates++
		}
		objMap, objV1, err := DefaultedCRD(mutated)
		if err != nil {
			skipped++ // the server cannot even decode it (400)
			continue
		}
		var oldDefaulted map[string]any
		var srvOld *apiextensionsv1.CustomResourceDefinition
		if oldMap != nil {
			var err error
			oldDefaulted, srvOld, err = DefaultedCRD(oldMap)
			if err != nil {
				t.Fatal(err)
			}
			md := oldDefaulted["metadata"].(map[string]any)
			md["resourceVersion"], md["uid"], md["generation"] = "5", "1234", int64(1)
			srvOld.ResourceVersion, srvOld.UID, srvOld.Generation = "5", "1234", 1
			oldDefaulted["status"] = map[string]any{"storedVersions": []any{"v1"}}
			srvOld.Status.StoredVersions = []string{"v1"}
			omd := objMap["metadata"].(map[string]any)
			omd["resourceVersion"], omd["uid"], omd["generation"] = "5", "1234", int64(1)
			objV1.ResourceVersion, objV1.UID, objV1.Generation = "5", "1234", 1
		}
		se, sw, sp := ValidateCRDServer(objV1, srvOld)
		oe, ow, op := ValidateCRDOurs(objMap, oldDefaulted)
		s := outcome{texts(se), sortedCopy(sw), sp}
		p := outcome{texts(oe), sortedCopy(ow), op}
		if len(se) > 0 {
			refused++
		}
		if !s.same(p) {
			// Ties among the most expensive rules are broken in Go map order on the server.
			matched := false
			for try := 0; try < 30 && !matched; try++ {
				se, sw, sp := ValidateCRDServer(objV1, srvOld)
				matched = outcome{texts(se), sortedCopy(sw), sp}.same(p)
			}
			if matched {
				continue
			}
			divs++
			if divs <= *flagShow {
				b, _ := json.Marshal(mutated["spec"])
				t.Errorf("seed %d (update %v): CRD spec %s\nserver:    %q warnings %q panic %v\npredicted: %q warnings %q panic %v",
					seed, oldMap != nil, b, s.errs, s.warnings, s.panicked, p.errs, p.warnings, p.panicked)
			}
		}
	}
	t.Logf("%d CRDs (%d updates, %d the server cannot decode): %d refused by the server, %d divergences", n, updates, skipped, refused, divs)
	if divs > *flagShow {
		t.Errorf("... %d divergences in all", divs)
	}
	_ = fmt.Sprint
}
