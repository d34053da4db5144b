package serverpath

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Element is one element of a path.
type Element struct {
	// Selector is set for a "[…]" element, whose text is Text; otherwise the element is
	// ".Text", a field (or map key) named Text.
	Selector bool
	Text     string
}

// String prints the element as it appears in a path.
func (e Element) String() string {
	if e.Selector {
		return "[" + e.Text + "]"
	}
	return "." + e.Text
}

// Parse splits a path into its elements. An empty path has none; a path must start with
// '.' or '[', and every '[' must be closed.
func Parse(path string) ([]Element, error) {
	var out []Element
	rest := path
	for rest != "" {
		switch rest[0] {
		case '.':
			end := 1
			for end < len(rest) && rest[end] != '.' && rest[end] != '[' {
				end++
			}
			out = append(out, Element{Text: rest[1:end]})
			rest = rest[end:]
		case '[':
			end := SelectorEnd(rest)
			if end < 0 {
				return nil, fmt.Errorf("path %q: the '[' at %d is not closed", path, len(path)-len(rest))
			}
			out = append(out, Element{Selector: true, Text: rest[1:end]})
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("path %q: expected '.' or '[' at %d", path, len(path)-len(rest))
		}
	}
	return out, nil
}

// String prints elements as a path: the inverse of Parse.
func String(elems []Element) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString(e.String())
	}
	return b.String()
}

// SelectorEnd is the index of the ']' that closes s[0] == '[', past quoted strings; -1
// when there is none.
func SelectorEnd(s string) int {
	return indexOutsideStrings(s, 1, ']')
}

// indexOutsideStrings is the index of the first c in s from from on that is not inside a
// quoted string ("…", backslash escapes); -1 when there is none.
func indexOutsideStrings(s string, from int, c byte) int {
	inString, escaped := false, false
	for i := from; i < len(s); i++ {
		switch b := s[i]; {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case !inString && b == c:
			return i
		}
	}
	return -1
}

// Item is what a selector names.
type Item struct {
	// Index is the position of an item ([3]), when HasIndex.
	Index    int
	HasIndex bool
	// Value is a set item's value ([="v"]), when HasValue: a string, float64, bool or nil.
	Value    any
	HasValue bool
	// Keys are a keyed item's key fields and their values, read as Value is
	// ([name="app",port=80]); nil otherwise.
	Keys map[string]any
}

// ErrNotItem: a selector's text is none of an index, a set value or keys.
var ErrNotItem = errors.New("not an index, a set value or keys")

// ParseItem reads the text of a selector (without its brackets). A bare map key
// (labels[app]) is not an item: it is an error, and the caller may take the text as a key.
func ParseItem(text string) (Item, error) {
	if n, err := strconv.Atoi(text); err == nil {
		return Item{Index: n, HasIndex: true}, nil
	}
	if strings.HasPrefix(text, "=") {
		v, err := parseValue(text[1:])
		if err != nil {
			return Item{}, fmt.Errorf("%w: %q: %w", ErrNotItem, text, err)
		}
		return Item{Value: v, HasValue: true}, nil
	}
	keys := map[string]any{}
	for _, kv := range splitKeys(text) {
		eq := strings.IndexByte(kv, '=')
		if eq < 0 {
			return Item{}, fmt.Errorf("%w: %q", ErrNotItem, text)
		}
		v, err := parseValue(kv[eq+1:])
		if err != nil {
			return Item{}, fmt.Errorf("%w: %q: %w", ErrNotItem, text, err)
		}
		keys[kv[:eq]] = v
	}
	return Item{Keys: keys}, nil
}

// parseValue reads a value as the server prints it in a path (structured-merge-diff's
// value.ToString): a string quoted as Go quotes it (%q: "\x00" for a NUL, where JSON
// would write "\u0000"), anything else as JSON reads it (80, 0.5, 1e+21, true, null).
func parseValue(s string) (any, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	var v any
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

// splitKeys splits "a=1,b=\"x,y\"" at the commas outside strings.
func splitKeys(s string) []string {
	var parts []string
	for {
		i := indexOutsideStrings(s, 0, ',')
		if i < 0 {
			return append(parts, s)
		}
		parts, s = append(parts, s[:i]), s[i+1:]
	}
}
