package conformance

import (
	"encoding/json"
	"regexp"

	"github.com/ssa-diff/ssa-diff/internal/strategy"
)

// generatedSuffix is what the server's name generator appends to a generateName: 5
// characters of its alphabet (no vowels, no 0, 1 or 3).
const generatedSuffix = "[bcdfghjklmnpqrstvwxz2456789]{5}"

// generatedStandIn is the name a create of the case's manifest is predicted to get from its
// generateName (rules.md create.generate-name), and whether the manifest names only a
// generateName.
func generatedStandIn(c *Case) (string, bool) {
	md, _ := c.Manifest["metadata"].(map[string]any)
	g, _ := md["generateName"].(string)
	if n, _ := md["name"].(string); g == "" || n != "" || c.BaseVerb() != "create" {
		return "", false
	}
	return strategy.GeneratedName(g), true
}

// withGeneratedName is c with the name the server generated for it (the prefix and 5
// random characters, wherever the answer says it: the object, a Status's message and
// details) replaced by the stand-in the prediction gives: the random part alone is not
// compared. Any other name, or another suffix length, still differs.
func withGeneratedName(c *Case) *Case {
	standIn, ok := generatedStandIn(c)
	if !ok || c.Want == nil {
		return c
	}
	prefix := standIn[:len(standIn)-5]
	b, err := json.Marshal(c.Want)
	if err != nil {
		return c
	}
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + generatedSuffix + `\b`)
	var want map[string]any
	if json.Unmarshal(re.ReplaceAll(b, []byte(standIn)), &want) != nil {
		return c
	}
	cc := *c
	cc.Want = want
	return &cc
}
