package core

// NodeLabelDeprecatedMessage is the server's warning for a deprecated node label key, and
// whether the key is one; other groups' warnings (storage topologies, RuntimeClass node
// selectors) use it.
func NodeLabelDeprecatedMessage(key string) (string, bool) {
	msg, ok := deprecatedNodeLabels[key]
	return msg, ok
}
