package strategy

// generatedSuffixStandIn stands for the 5 random characters the store appends to a
// generateName: the server draws them from "bcdfghjklmnpqrstvwxz2456789", which has no 0,
// so a predicted name never passes for one the server made.
const generatedSuffixStandIn = "00000"

// maxGeneratedPrefix is how much of a generateName the store keeps: a name is at most 63
// characters, 5 of them random.
const maxGeneratedPrefix = 63 - len(generatedSuffixStandIn)

// GeneratedName is the name the store gives an object created with generateName prefix
// and no name, as predicted: the prefix cut to 58 characters, and the stand-in for the 5
// random characters (rules.md create.generate-name). Assigned lists it.
func GeneratedName(prefix string) string {
	if len(prefix) > maxGeneratedPrefix {
		prefix = prefix[:maxGeneratedPrefix]
	}
	return prefix + generatedSuffixStandIn
}
