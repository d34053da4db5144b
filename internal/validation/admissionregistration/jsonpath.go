package admissionregistration

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// checkJSONPath reports whether text is a template client-go's JSONPath parser
// (k8s.io/client-go/util/jsonpath) accepts, with that parser's error when it is not: the
// server checks a type-checking warning's fieldRef with it. Only the syntax matters here
// (nothing is evaluated), so this scanner keeps no tree: of the nodes the parser would build
// it remembers only whether an action's last one is a recursive descent, the one thing a
// later token is checked against. FuzzJSONPath holds it to client-go's parser.
func checkJSONPath(text string) error {
	_, err := scanTemplate(text)
	return err
}

// pathNode is what the scanner remembers of an action's nodes.
type pathNode uint8

const (
	noNode        pathNode = iota // the action has no node yet
	otherNode                     // its last node is anything but ".."
	recursiveNode                 // its last node is ".."
)

// templateScanner walks a template: text, and actions between braces.
type templateScanner struct {
	in    string
	pos   int // the next byte to read
	start int // where the pending token began
	width int // the width of the last rune read, for backup
	// first is the last node of the template's first action, once the scan has left it;
	// firstDone says it has.
	first     pathNode
	firstDone bool
	actions   int
}

// scanTemplate scans a whole template and returns the last node of its first action (a
// nested expression's nodes join the enclosing action).
func scanTemplate(text string) (pathNode, error) {
	s := &templateScanner{in: text}
	err := s.text()
	return s.first, err
}

// scanAction scans text as the inside of one action.
func scanAction(text string) (pathNode, error) {
	return scanTemplate("{" + text + "}")
}

const endOfInput = -1

func (s *templateScanner) next() rune {
	if s.pos >= len(s.in) {
		s.width = 0
		return endOfInput
	}
	r, w := utf8.DecodeRuneInString(s.in[s.pos:])
	s.width = w
	s.pos += w
	return r
}

func (s *templateScanner) backup() { s.pos -= s.width }

func (s *templateScanner) peek() rune {
	r := s.next()
	s.backup()
	return r
}

// take returns the pending token and starts the next one.
func (s *templateScanner) take() string {
	t := s.in[s.start:s.pos]
	s.start = s.pos
	return t
}

// text skips plain text up to the next action, and scans that action.
func (s *templateScanner) text() error {
	for {
		if strings.HasPrefix(s.in[s.pos:], "{") {
			s.pos++
			s.take()
			s.actions++
			return s.action(noNode)
		}
		if s.next() == endOfInput {
			return nil
		}
	}
}

// action scans the inside of an action; last is what it has seen so far.
func (s *templateScanner) action(last pathNode) error {
	for {
		rest := s.in[s.pos:]
		switch {
		case strings.HasPrefix(rest, "}"):
			s.pos++
			s.take()
			if s.actions == 1 {
				s.first, s.firstDone = last, true
			}
			return s.text()
		case strings.HasPrefix(rest, "[?("):
			if err := s.filter(); err != nil {
				return err
			}
			last = otherNode
			continue
		case strings.HasPrefix(rest, ".."):
			if last == recursiveNode {
				return errors.New("invalid multiple recursive descent")
			}
			s.pos += 2
			s.take()
			last = recursiveNode
			if isPathWordRune(s.peek()) {
				s.field()
				last = otherNode
			}
			continue
		}
		r := s.next()
		switch {
		case r == endOfInput || r == '\r' || r == '\n':
			return errors.New("unclosed action")
		case r == ' ' || r == '@' || r == '$':
			s.take()
		case r == '[':
			n, err := s.brackets()
			if err != nil {
				return err
			}
			if n != noNode {
				last = n
			}
		case r == '"' || r == '\'':
			if err := s.quoted(r); err != nil {
				return err
			}
			last = otherNode
		case r == '.':
			s.field()
			last = otherNode
		case r == '+' || r == '-' || unicode.IsDigit(r):
			s.backup()
			if err := s.number(); err != nil {
				return err
			}
			last = otherNode
		case isPathWordRune(r):
			// An identifier (or true/false) runs to the next terminator.
			for !endsPathWord(s.next()) {
			}
			s.backup()
			s.take()
			last = otherNode
		default:
			return fmt.Errorf("unrecognized character in action: %#U", r)
		}
	}
}

// field scans a field name (after its dot) up to an unescaped terminator.
func (s *templateScanner) field() {
	s.take()
	for {
		r := s.next()
		if r == '\\' {
			s.next()
			continue
		}
		if endsPathWord(r) {
			s.backup()
			break
		}
	}
	s.take()
}

// number scans a signed run of digits and dots: an integer or a float.
func (s *templateScanner) number() error {
	if r := s.peek(); r == '+' || r == '-' {
		s.next()
	}
	for {
		if r := s.next(); r != '.' && !unicode.IsDigit(r) {
			s.backup()
			break
		}
	}
	v := s.take()
	if _, err := strconv.Atoi(v); err == nil {
		return nil
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return nil
	}
	return fmt.Errorf("cannot parse number %s", v)
}

// brackets scans a subscript after its '[': a union of subscripts, a quoted key or a slice.
// It returns the last node it adds (noNode if none).
func (s *templateScanner) brackets() (pathNode, error) {
	for done := false; !done; {
		switch s.next() {
		case endOfInput, '\n':
			return noNode, errors.New("unterminated array")
		case ']':
			done = true
		}
	}
	t := s.take()
	inner := t[1 : len(t)-1]
	if inner == "*" {
		inner = ":"
	}
	if parts := strings.Split(inner, ","); len(parts) > 1 {
		for _, part := range parts {
			if _, err := scanAction("[" + strings.Trim(part, " ") + "]"); err != nil {
				return noNode, err
			}
		}
		return otherNode, nil
	}
	if len(inner) >= 2 && inner[0] == '\'' && inner[len(inner)-1] == '\'' && !strings.Contains(inner[1:len(inner)-1], "'") {
		// A quoted key is the field of that name, scanned as such; its nodes join this action.
		return scanAction("." + inner[1:len(inner)-1])
	}
	bounds, ok := sliceBounds(inner)
	if !ok {
		return noNode, fmt.Errorf("invalid array index %s", inner)
	}
	for i, b := range bounds {
		if i > 0 {
			if b == "" {
				continue
			}
			if b = b[1:]; b == "" {
				continue
			}
		} else if b == "" {
			continue
		}
		if _, err := strconv.Atoi(b); err != nil {
			return noNode, fmt.Errorf("array index %s is not a number", b)
		}
	}
	return otherNode, nil
}

// sliceBounds splits start[:end[:step]], each an optional minus and ASCII digits; the end
// and step keep their colon ("" when absent).
func sliceBounds(t string) ([3]string, bool) {
	var out [3]string
	signedDigits := func(t string) int {
		n := 0
		if n < len(t) && t[n] == '-' {
			n++
		}
		for n < len(t) && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		return n
	}
	n := signedDigits(t)
	out[0], t = t[:n], t[n:]
	for i := 1; i < 3 && t != "" && t[0] == ':'; i++ {
		n = 1 + signedDigits(t[1:])
		out[i], t = t[:n], t[n:]
	}
	return out, t == ""
}

// filter scans a filter, [?(...)], whose parts are actions of their own.
func (s *templateScanner) filter() error {
	s.pos += len("[?(")
	s.take()
	opened, closed := false, false
	var quote rune
	for done := false; !done; {
		r := s.next()
		switch r {
		case endOfInput, '\n':
			return errors.New("unterminated filter")
		case '"', '\'':
			if !opened {
				opened, quote = true, r
				continue
			}
			if r == quote && s.in[s.pos-2] != '\\' {
				closed = true
			}
		case ')':
			// A parenthesis inside a quoted operand does not close the filter.
			done = opened == closed
		}
	}
	if s.next() != ']' {
		return errors.New("unclosed array expect ]")
	}
	t := s.take()
	t = t[:len(t)-2]
	left, _, right, ok := splitComparison(t)
	if !ok {
		_, err := scanAction(t)
		return err
	}
	if _, err := scanAction(left); err != nil {
		return err
	}
	_, err := scanAction(right)
	return err
}

// splitComparison splits a filter into its left operand (no operator runes), its operator
// (a run of ! < > =) and a nonempty right operand.
func splitComparison(t string) (left, op, right string, ok bool) {
	i := strings.IndexAny(t, "!<>=")
	if i <= 0 {
		return "", "", "", false
	}
	j := i
	for j < len(t) && strings.IndexByte("!<>=", t[j]) >= 0 {
		j++
	}
	if j == len(t) {
		// The right operand takes the operator run's last rune.
		if j-i < 2 {
			return "", "", "", false
		}
		j--
	}
	return t[:i], t[i:j], t[j:], true
}

// quoted scans a quoted string after its opening quote and checks it unquotes.
func (s *templateScanner) quoted(end rune) error {
	for {
		r := s.next()
		if r == endOfInput || r == '\n' {
			return errors.New("unterminated quoted string")
		}
		if r == end && s.in[s.pos-2] != '\\' {
			break
		}
	}
	v := s.take()
	if err := unquoteEither(v); err != nil {
		return fmt.Errorf("unquote string %s error %v", v, err)
	}
	return nil
}

// unquoteEither checks a string in single or double quotes with Go's escapes.
func unquoteEither(v string) error {
	if len(v) < 2 || v[0] != v[len(v)-1] || (v[0] != '"' && v[0] != '\'') {
		return strconv.ErrSyntax
	}
	q, body := v[0], v[1:len(v)-1]
	if !strings.ContainsRune(body, '\\') && !strings.ContainsRune(body, rune(q)) {
		return nil
	}
	for body != "" {
		_, _, rest, err := strconv.UnquoteChar(body, q)
		if err != nil {
			return err
		}
		body = rest
	}
	return nil
}

// isPathWordRune: letters, digits and underscore start an identifier.
func isPathWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// endsPathWord: the runes that end a field name or identifier.
func endsPathWord(r rune) bool {
	switch r {
	case endOfInput, ' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}
