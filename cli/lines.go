package cli

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/cli/input"
)

// fieldLine is the manifest line of a field path printed as the API server prints it
// (.spec.template.spec.containers[name="app"].image): the line of the field when the
// manifest has it, else of the closest enclosing field it has, else of the object.
func fieldLine(o *input.Object, path string) int {
	if o == nil {
		return 0
	}
	return o.Line(fieldPointer(o.Object, path))
}

// fieldPointer is the JSON Pointer into obj of the longest prefix of path that obj has.
// Map keys may hold dots (.metadata.annotations.example.com/x): the longest key of the map
// that the path goes on with is taken. List elements are found by index ([2]), by value of
// a set ([="x"]) or by the keys of a list-map ([name="app",port=80]); keys an element lacks
// (defaults the server adds, like a port's protocol) do not rule it out.
func fieldPointer(obj map[string]interface{}, path string) string {
	var ptr strings.Builder
	var cur interface{} = obj
	rest := path
	for rest != "" {
		switch rest[0] {
		case '.':
			m, ok := cur.(map[string]interface{})
			if !ok {
				return ptr.String()
			}
			rest = rest[1:]
			key := ""
			found := false
			for k := range m {
				if len(k) < len(key) || !strings.HasPrefix(rest, k) {
					continue
				}
				if len(rest) == len(k) || rest[len(k)] == '.' || rest[len(k)] == '[' {
					key, found = k, true
				}
			}
			if !found {
				return ptr.String()
			}
			ptr.WriteString("/" + escapePointer(key))
			cur, rest = m[key], rest[len(key):]
		case '[':
			end := closingBracket(rest)
			list, ok := cur.([]interface{})
			if end < 0 || !ok {
				return ptr.String()
			}
			i := findElement(list, rest[1:end])
			if i < 0 {
				return ptr.String()
			}
			ptr.WriteString("/" + strconv.Itoa(i))
			cur, rest = list[i], rest[end+1:]
		default:
			return ptr.String()
		}
	}
	return ptr.String()
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// closingBracket is the index of the ']' that closes the '[' at s[0], skipping quoted
// strings; -1 when there is none.
func closingBracket(s string) int {
	inString, escaped := false, false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == ']':
			return i
		}
	}
	return -1
}

// findElement finds the list element a path element's inside ("2", "=VALUE",
// "name=VALUE,port=VALUE") names; -1 when none.
func findElement(list []interface{}, sel string) int {
	if n, err := strconv.Atoi(sel); err == nil {
		if n >= 0 && n < len(list) {
			return n
		}
		return -1
	}
	if strings.HasPrefix(sel, "=") {
		want, ok := scalar(sel[1:])
		if !ok {
			return -1
		}
		for i, x := range list {
			if sameScalar(x, want) {
				return i
			}
		}
		return -1
	}
	keys := map[string]interface{}{}
	for sel != "" {
		eq := strings.IndexByte(sel, '=')
		if eq <= 0 {
			return -1
		}
		name := sel[:eq]
		sel = sel[eq+1:]
		end := valueEnd(sel)
		v, ok := scalar(sel[:end])
		if !ok {
			return -1
		}
		keys[name] = v
		sel = strings.TrimPrefix(sel[end:], ",")
	}
	for i, x := range list {
		m, ok := x.(map[string]interface{})
		if !ok {
			continue
		}
		matched := 0
		for k, want := range keys {
			v, has := m[k]
			if !has {
				continue
			}
			if !sameScalar(v, want) {
				matched = -1
				break
			}
			matched++
		}
		if matched > 0 {
			return i
		}
	}
	return -1
}

// valueEnd is the length of the value at the start of s: a quoted string, or up to ','.
func valueEnd(s string) int {
	if strings.HasPrefix(s, `"`) {
		escaped := false
		for i := 1; i < len(s); i++ {
			switch {
			case escaped:
				escaped = false
			case s[i] == '\\':
				escaped = true
			case s[i] == '"':
				return i + 1
			}
		}
		return len(s)
	}
	if i := strings.IndexByte(s, ','); i >= 0 {
		return i
	}
	return len(s)
}

// scalar decodes a value as the server prints it in paths (JSON for strings, numbers,
// booleans and null).
func scalar(s string) (interface{}, bool) {
	var v interface{}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, false
	}
	return v, true
}

// sameScalar compares a decoded manifest value with one decoded from a path: numbers by
// value, whatever their Go type.
func sameScalar(a, b interface{}) bool {
	fa, aNum := number(a)
	fb, bNum := number(b)
	if aNum || bNum {
		return aNum && bNum && fa == fb
	}
	switch b.(type) {
	case string, bool, nil:
		return a == b
	}
	return false
}

func number(v interface{}) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
