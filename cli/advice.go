package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/schema"
)

// adviceOptions are the flags of the spec/status advice (package judge/advice).
type adviceOptions struct {
	disabled []string
	off      bool
}

func (c *options) addAdviceFlags(fs *pflag.FlagSet) {
	stringArrayVarP(fs, &c.advice.disabled, "disable-advice", "", nil, "Silence one advice by its id (repeatable): "+strings.Join(adviceIDs(), ", ")+".")
	fs.BoolVar(&c.advice.off, "no-advice", false, "Print no advice and no state line.")
}

var adviceArgNames = [][2]string{{"disable-advice", "ID"}}

func adviceIDs() []string {
	var ids []string
	for _, k := range advice.Known() {
		ids = append(ids, k.ID)
	}
	sort.Strings(ids)
	return ids
}

func (c *options) checkAdvice() error {
	for _, id := range c.advice.disabled {
		if !advice.IsKnown(id) {
			return fmt.Errorf("--disable-advice: unknown advice %q (known: %s)", id, strings.Join(adviceIDs(), ", "))
		}
	}
	return nil
}

// adviceOptions are the advice's options of the run (predict.Run.Advice).
func (c *session) adviceOptions(reg *schema.Registry) *advice.Options {
	opts := &advice.Options{Disabled: map[string]bool{}, Now: c.now, Schemas: reg, ServiceIPFamilies: c.serviceIPFamilies, Cluster: c.in.ClusterState}
	for _, id := range c.advice.disabled {
		opts.Disabled[id] = true
	}
	return opts
}
