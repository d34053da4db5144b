package input

import (
	"bytes"
	"encoding/json"
)

// compactJSON appends data to dst as json.Compact does — the text without the spaces
// between tokens — and fails when json.Compact would: when data is not one valid JSON
// value. A cluster dump is the largest input and comes indented; json.Compact's scanner,
// one call per byte, was a twentieth of a run. compactJSON checks the grammar itself in one
// pass and leaves to json.Compact only what it does not take (nesting past the scanner's
// limit), so it answers as json.Compact, error or text, on any input.
func compactJSON(dst *bytes.Buffer, data []byte) error {
	c := compactor{data: data, out: dst.AvailableBuffer()}
	c.space()
	ok := c.value(0)
	c.space()
	if ok && c.pos == len(data) {
		dst.Write(c.out)
		return nil
	}
	return json.Compact(dst, data)
}

// compactMaxDepth is the nesting encoding/json's scanner accepts.
const compactMaxDepth = 10000

type compactor struct {
	data []byte
	pos  int
	out  []byte
}

func (c *compactor) space() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// value copies one value; false when it is not valid JSON or nests too deeply.
func (c *compactor) value(depth int) bool {
	if c.pos >= len(c.data) {
		return false
	}
	switch b := c.data[c.pos]; {
	case b == '{':
		if depth >= compactMaxDepth {
			return false
		}
		c.out = append(c.out, '{')
		c.pos++
		c.space()
		if c.pos < len(c.data) && c.data[c.pos] == '}' {
			c.out = append(c.out, '}')
			c.pos++
			return true
		}
		for {
			c.space()
			if c.pos >= len(c.data) || c.data[c.pos] != '"' || !c.string() {
				return false
			}
			c.space()
			if c.pos >= len(c.data) || c.data[c.pos] != ':' {
				return false
			}
			c.out = append(c.out, ':')
			c.pos++
			c.space()
			if !c.value(depth + 1) {
				return false
			}
			c.space()
			if c.pos >= len(c.data) {
				return false
			}
			switch c.data[c.pos] {
			case ',':
				c.out = append(c.out, ',')
				c.pos++
			case '}':
				c.out = append(c.out, '}')
				c.pos++
				return true
			default:
				return false
			}
		}
	case b == '[':
		if depth >= compactMaxDepth {
			return false
		}
		c.out = append(c.out, '[')
		c.pos++
		c.space()
		if c.pos < len(c.data) && c.data[c.pos] == ']' {
			c.out = append(c.out, ']')
			c.pos++
			return true
		}
		for {
			c.space()
			if !c.value(depth + 1) {
				return false
			}
			c.space()
			if c.pos >= len(c.data) {
				return false
			}
			switch c.data[c.pos] {
			case ',':
				c.out = append(c.out, ',')
				c.pos++
			case ']':
				c.out = append(c.out, ']')
				c.pos++
				return true
			default:
				return false
			}
		}
	case b == '"':
		return c.string()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	}
	return false
}

func (c *compactor) literal(word string) bool {
	if len(c.data)-c.pos < len(word) || string(c.data[c.pos:c.pos+len(word)]) != word {
		return false
	}
	c.out = append(c.out, word...)
	c.pos += len(word)
	return true
}

// number copies a number of JSON's grammar.
func (c *compactor) number() bool {
	start := c.pos
	if c.data[c.pos] == '-' {
		c.pos++
	}
	digits := func() int {
		n := 0
		for c.pos < len(c.data) && c.data[c.pos] >= '0' && c.data[c.pos] <= '9' {
			c.pos++
			n++
		}
		return n
	}
	if c.pos < len(c.data) && c.data[c.pos] == '0' {
		c.pos++
	} else if digits() == 0 {
		return false
	}
	if c.pos < len(c.data) && c.data[c.pos] == '.' {
		c.pos++
		if digits() == 0 {
			return false
		}
	}
	if c.pos < len(c.data) && (c.data[c.pos] == 'e' || c.data[c.pos] == 'E') {
		c.pos++
		if c.pos < len(c.data) && (c.data[c.pos] == '+' || c.data[c.pos] == '-') {
			c.pos++
		}
		if digits() == 0 {
			return false
		}
	}
	c.out = append(c.out, c.data[start:c.pos]...)
	return true
}

// string copies a string as it is written: no control characters, escapes of JSON's
// grammar (the scanner takes any other byte, UTF-8 or not).
func (c *compactor) string() bool {
	start := c.pos
	c.pos++ // the opening quote
	for c.pos < len(c.data) {
		b := c.data[c.pos]
		switch {
		case b == '"':
			c.pos++
			c.out = append(c.out, c.data[start:c.pos]...)
			return true
		case b < 0x20:
			return false
		case b == '\\':
			if c.pos+1 >= len(c.data) {
				return false
			}
			switch c.data[c.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.pos += 2
			case 'u':
				if c.pos+6 > len(c.data) {
					return false
				}
				for _, h := range c.data[c.pos+2 : c.pos+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				c.pos += 6
			default:
				return false
			}
		default:
			c.pos++
		}
	}
	return false
}
