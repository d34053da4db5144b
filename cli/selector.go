package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// labelSelector is a label selector as kubectl's -l/--selector reads it: requirements
// separated by commas, each key, !key, key=value, key==value, key!=value,
// key in (a,b), key notin (a,b), key>N or key<N; all must hold.
type labelSelector []requirement

type requirement struct {
	key    string
	op     string // exists, !exists, =, !=, in, notin, gt, lt
	values []string
}

// parseSelector reads a selector; "" selects everything.
func parseSelector(s string) (labelSelector, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var sel labelSelector
	for _, part := range splitRequirements(s) {
		r, err := parseRequirement(part)
		if err != nil {
			return nil, fmt.Errorf("--selector %q: %w", s, err)
		}
		sel = append(sel, r)
	}
	return sel, nil
}

// splitRequirements splits a selector at the commas outside parentheses.
func splitRequirements(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseRequirement(p string) (requirement, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return requirement{}, fmt.Errorf("an empty requirement")
	}
	if strings.HasPrefix(p, "!") {
		key := strings.TrimSpace(p[1:])
		if err := checkLabelKey(key); err != nil {
			return requirement{}, err
		}
		return requirement{key: key, op: "!exists"}, nil
	}
	for _, op := range []struct{ text, op string }{{" notin ", "notin"}, {" in ", "in"}} {
		if i := strings.Index(p, op.text); i > 0 {
			key := strings.TrimSpace(p[:i])
			set := strings.TrimSpace(p[i+len(op.text):])
			if !strings.HasPrefix(set, "(") || !strings.HasSuffix(set, ")") {
				return requirement{}, fmt.Errorf("%q: the values of %s go in parentheses", p, op.op)
			}
			var values []string
			for _, v := range strings.Split(set[1:len(set)-1], ",") {
				if v = strings.TrimSpace(v); v != "" {
					values = append(values, v)
				}
			}
			if err := checkLabelKey(key); err != nil {
				return requirement{}, err
			}
			return requirement{key: key, op: op.op, values: values}, nil
		}
	}
	for _, op := range []struct{ text, op string }{{"!=", "!="}, {"==", "="}, {"=", "="}, {">", "gt"}, {"<", "lt"}} {
		if i := strings.Index(p, op.text); i > 0 {
			key, value := strings.TrimSpace(p[:i]), strings.TrimSpace(p[i+len(op.text):])
			if err := checkLabelKey(key); err != nil {
				return requirement{}, err
			}
			if op.op == "gt" || op.op == "lt" {
				if _, err := strconv.ParseInt(value, 10, 64); err != nil {
					return requirement{}, fmt.Errorf("%q: %s needs an integer", p, op.text)
				}
			}
			return requirement{key: key, op: op.op, values: []string{value}}, nil
		}
	}
	if err := checkLabelKey(p); err != nil {
		return requirement{}, err
	}
	return requirement{key: p, op: "exists"}, nil
}

func checkLabelKey(k string) error {
	if k == "" || strings.ContainsAny(k, " \t=!(),<>") {
		return fmt.Errorf("%q is not a label key", k)
	}
	return nil
}

// matches reports whether labels satisfy every requirement.
func (s labelSelector) matches(labels map[string]string) bool {
	for _, r := range s {
		v, has := labels[r.key]
		switch r.op {
		case "exists":
			if !has {
				return false
			}
		case "!exists":
			if has {
				return false
			}
		case "=":
			if !has || v != r.values[0] {
				return false
			}
		case "!=":
			if has && v == r.values[0] {
				return false
			}
		case "in":
			if !has || !containsString(r.values, v) {
				return false
			}
		case "notin":
			if has && containsString(r.values, v) {
				return false
			}
		case "gt", "lt":
			n, err := strconv.ParseInt(v, 10, 64)
			want, _ := strconv.ParseInt(r.values[0], 10, 64)
			if !has || err != nil || r.op == "gt" && n <= want || r.op == "lt" && n >= want {
				return false
			}
		}
	}
	return true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// labelsOf returns the string labels of an object's metadata.
func labelsOf(obj map[string]interface{}) map[string]string {
	return stringMap(obj, "labels")
}

// annotationsOf returns the string annotations of an object's metadata.
func annotationsOf(obj map[string]interface{}) map[string]string {
	return stringMap(obj, "annotations")
}

func stringMap(obj map[string]interface{}, key string) map[string]string {
	md, _ := obj["metadata"].(map[string]interface{})
	m, _ := md[key].(map[string]interface{})
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}
