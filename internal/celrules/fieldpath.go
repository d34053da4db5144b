package celrules

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FieldPathOption tunes FieldPath.
type FieldPathOption func(*fieldPathOptions)

type fieldPathOptions struct{ allowArrayNotation bool }

// WithoutArrayNotation rejects ['name'] steps.
func WithoutArrayNotation() FieldPathOption {
	return func(o *fieldPathOptions) { o.allowArrayNotation = false }
}

// FieldPath reads a rule's fieldPath (".spec.x", ".metadata['app.kubernetes.io/name']")
// against schema s: the field path it names and the schema there. A step names a property
// of an object with properties, or a key of a map with additionalProperties.
func FieldPath(jsonPath string, s *crdschema.Schema, opts ...FieldPathOption) (*field.Path, *crdschema.Schema, error) {
	o := fieldPathOptions{allowArrayNotation: true}
	for _, f := range opts {
		f(&o)
	}
	var p *field.Path
	step := func(name string) error {
		switch {
		case s.Properties != nil:
			p = p.Child(name)
			next, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			s = next
		case s.AdditionalProperties != nil:
			p = p.Key(name)
			s = s.AdditionalProperties.Schema
		default:
			return errors.New("does not refer to a valid field")
		}
		return nil
	}
	toks := tokens(jsonPath)
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if !o.allowArrayNotation {
				return nil, nil, errors.New("array notation is not allowed")
			}
			if i+1 >= len(toks) {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			i++
			tok := toks[i]
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return nil, nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			name, err := unquote(tok[1 : len(tok)-1])
			if err != nil {
				return nil, nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if s == nil {
				return nil, nil, errors.New("does not refer to a valid field")
			}
			if err := step(name); err != nil {
				return nil, nil, err
			}
			if i+1 >= len(toks) {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			i++
			if toks[i] != "]" {
				return nil, nil, fmt.Errorf("expected ] but got %s", toks[i])
			}
		case ".":
			if i+1 >= len(toks) {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			i++
			if s == nil {
				return nil, nil, errors.New("does not refer to a valid field")
			}
			if err := step(toks[i]); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("expected [ or . but got: %s", toks[i])
		}
	}
	return p, s, nil
}

// tokens splits a path into ".", "[", "]", quoted strings (up to the next ' not after a
// backslash) and names.
func tokens(s string) []string {
	var out []string
	for len(s) > 0 {
		if s[0] == '\'' {
			end := -1
			for i := 1; i < len(s); i++ {
				if s[i] == '\'' && s[i-1] != '\\' {
					end = i
					break
				}
			}
			if end < 0 {
				out = append(out, s)
				return out
			}
			out = append(out, s[:end+1])
			s = s[end+1:]
			continue
		}
		if strings.IndexByte(".[]", s[0]) >= 0 {
			out = append(out, s[:1])
			s = s[1:]
			continue
		}
		end := strings.IndexAny(s, ".[]")
		if end < 0 {
			out = append(out, s)
			return out
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// unquote reads the escapes of a single-quoted string: \a \b \f \n \r \t \v \' \\.
func unquote(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) || s[i+1] == '\n' {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\'':
			b.WriteByte('\'')
		case '\\':
			b.WriteByte('\\')
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return "", fmt.Errorf("invalid escape char \\%c", r)
		}
	}
	return b.String(), nil
}
