package flowcontrol

import (
	"encoding/json"
	"sync"

	"k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap"

	"github.com/ssa-diff/ssa-diff/internal/api"
	fc "github.com/ssa-diff/ssa-diff/internal/api/flowcontrol"
)

// mandatoryObjects are the objects the server keeps whatever is written, by name, in the
// internal types.
type mandatoryObjects struct {
	flowSchemas    map[string]*fc.FlowSchema
	priorityLevels map[string]*fc.PriorityLevelConfiguration
}

// mandatory reads k8s.io/apiserver's mandatory configuration (flowcontrol/v1 objects) into
// the internal types once, as the server converts them.
var mandatory = sync.OnceValue(func() mandatoryObjects {
	m := mandatoryObjects{flowSchemas: map[string]*fc.FlowSchema{}, priorityLevels: map[string]*fc.PriorityLevelConfiguration{}}
	for _, fs := range bootstrap.MandatoryFlowSchemas {
		out := new(fc.FlowSchema)
		mustConvert(fs, out)
		m.flowSchemas[fs.Name] = out
	}
	for _, pl := range bootstrap.MandatoryPriorityLevelConfigurations {
		out := new(fc.PriorityLevelConfiguration)
		mustConvert(pl, out)
		m.priorityLevels[pl.Name] = out
	}
	return m
})

// mustConvert converts a published object to its internal type through its JSON; the
// objects are the server's own, so a failure is a bug.
func mustConvert(in, out any) {
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		panic(err)
	}
	if err := api.Decode(obj, out); err != nil {
		panic(err)
	}
}
