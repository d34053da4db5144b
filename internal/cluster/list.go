package cluster

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// A LIST is read as it arrives, item by item: each item is held only while it is looked at
// (at most --max-document-bytes of it), and only the items asked for are kept, so the
// memory of a LIST is what it keeps, not what the server sent. The pages follow each other
// with limit and continue, as client-go's pager pages, with bounds a pager lacks: a continue
// token seen before is a loop, a LIST has at most MaxListPages pages, and a continue token
// is at most maxContinueBytes.

const (
	// ListPageSize is the limit of each page, client-go's pager's.
	ListPageSize = 500
	// MaxListPages bounds the pages of one LIST: 100,000 objects at ListPageSize, twice the
	// objects a run reads at most by default (--max-objects).
	MaxListPages = 200
	// maxContinueBytes bounds a continue token (kube-apiserver's are a few hundred bytes of
	// base64).
	maxContinueBytes = 16 << 10
	// maxListMetaBytes bounds the list's own fields (metadata, kind, apiVersion), and each
	// key of its top-level object.
	maxListMetaBytes = 1 << 20
)

// listPage is what is kept of one page: its type, its continue token, and the items asked
// for, by name.
type listPage struct {
	apiVersion, kind string
	cont             string
	items            map[string]json.RawMessage
	// bad are the items asked for that are not objects of the kind listed, by name.
	bad map[string]error
	// unidentified says why an item could not be named (too large, not an object, no
	// name), "" when every item could: an object asked for and not listed may then be that
	// item.
	unidentified string
}

// listResult is what a whole LIST kept.
type listResult struct {
	items        map[string]json.RawMessage
	bad          map[string]error
	unidentified string
	// restarted: the LIST was read again from the start, unpaged, after its continue token
	// expired.
	restarted bool
}

// list reads the objects of a resource in a namespace with a paged LIST, keeping the items
// named in want. A continue token that expired (410 Gone) makes it read the whole list
// again, once, unpaged (as client-go's pager does).
func (r *reader) list(ctx context.Context, res Resource, ns string, want map[string][]int) (*listResult, error) {
	out := &listResult{items: map[string]json.RawMessage{}, bad: map[string]error{}}
	seen := map[[32]byte]bool{}
	cont := ""
	for page := 0; ; page++ {
		cl := call{path: path(res, ns, ""), query: map[string][]string{}}
		if !out.restarted {
			cl.query.Set("limit", strconv.Itoa(ListPageSize))
		}
		if cont != "" {
			cl.query.Set("continue", cont)
		}
		if page >= MaxListPages {
			return out, &RequestError{Request: cl.String(), answered: true,
				Err: fmt.Errorf("the LIST did not end after %d pages (%d objects at %d a page): its continue tokens do not end", MaxListPages, MaxListPages*ListPageSize, ListPageSize)}
		}
		r.pages.Add(1)
		var p *listPage
		err := r.do(ctx, cl, 0, func(body io.Reader) error {
			var err error
			p, err = decodeList(body, res, ns, want, r.c.maxDoc, r.c.kept)
			return err
		})
		if err != nil {
			if apierrors.IsResourceExpired(err) && cont != "" && !out.restarted {
				out.restarted, cont = true, ""
				out.items, out.bad, out.unidentified = map[string]json.RawMessage{}, map[string]error{}, ""
				continue
			}
			return out, err
		}
		for name, item := range p.items {
			if _, dup := out.items[name]; dup {
				delete(out.items, name)
				out.bad[name] = &RequestError{Request: cl.String(), answered: true, Err: fmt.Errorf("the list has two items named %q: not taken for the object", name)}
				continue
			}
			if out.bad[name] == nil {
				out.items[name] = item
			}
		}
		for name, err := range p.bad {
			delete(out.items, name)
			out.bad[name] = &RequestError{Request: cl.String(), answered: true, Err: err}
		}
		if out.unidentified == "" && p.unidentified != "" {
			out.unidentified = cl.String() + ": " + p.unidentified
		}
		if p.cont == "" {
			return out, nil
		}
		if len(p.cont) > maxContinueBytes {
			return out, &RequestError{Request: cl.String(), answered: true,
				Err: fmt.Errorf("the continue token is %s long, more than %s: not the API server's", sizeString(int64(len(p.cont))), sizeString(maxContinueBytes))}
		}
		h := sha256.Sum256([]byte(p.cont))
		if seen[h] {
			return out, &RequestError{Request: cl.String(), answered: true,
				Err: fmt.Errorf("the LIST loops: page %d gave a continue token an earlier page gave (%.40q)", page+1, p.cont)}
		}
		seen[h] = true
		cont = p.cont
	}
}

// decodeList reads one page of a LIST of res in namespace ns (all namespaces, or
// cluster-scoped, when ""), keeping the items named in want, each of at most maxItem bytes.
// The page must be a list of the kind (kind resList, the apiVersion asked for); each item
// kept must be an object of that kind and namespace (items that do not say their
// apiVersion and kind, as built-in kinds' do not, get the list's).
func decodeList(body io.Reader, res Resource, ns string, want map[string][]int, maxItem int64, kept func([]byte) error) (*listPage, error) {
	s := &jsonScanner{r: bufio.NewReaderSize(body, 64<<10)}
	p := &listPage{items: map[string]json.RawMessage{}, bad: map[string]error{}}
	c, err := s.peek()
	if err != nil {
		return nil, s.notJSON("the answer is not a JSON list", err)
	}
	if c != '{' {
		return nil, s.notJSON("the answer is not a JSON list", nil)
	}
	s.discard(1)
	seen := map[string]bool{}
	for first := true; ; first = false {
		c, err := s.peek()
		if err != nil {
			return nil, s.syntax(err)
		}
		if c == '}' && first {
			s.discard(1)
			break
		}
		if c != '"' {
			return nil, s.syntax(nil)
		}
		rawKey, over, err := s.value(maxListMetaBytes)
		if err != nil || over {
			return nil, s.syntax(err)
		}
		var key string
		if err := json.Unmarshal(rawKey, &key); err != nil {
			return nil, s.syntax(err)
		}
		if err := s.expect(':'); err != nil {
			return nil, err
		}
		switch key {
		case "items", "metadata", "kind", "apiVersion":
			if seen[key] {
				return nil, fmt.Errorf("the list has two members %q", key)
			}
			seen[key] = true
		}
		switch key {
		case "items":
			if err := s.items(maxItem, func(item []byte, over bool) { p.item(item, over, res, ns, want, maxItem, kept) }); err != nil {
				return nil, err
			}
		case "metadata", "kind", "apiVersion":
			raw, over, err := s.value(maxListMetaBytes)
			if err != nil {
				return nil, s.syntax(err)
			}
			if over {
				return nil, fmt.Errorf("the list's %s is larger than %s", key, sizeString(maxListMetaBytes))
			}
			if err := p.member(key, raw); err != nil {
				return nil, err
			}
		default:
			// A member the API server does not write: it must be JSON still, and small.
			raw, over, err := s.value(maxListMetaBytes)
			if err != nil {
				return nil, s.syntax(err)
			}
			if over || !json.Valid(raw) {
				return nil, fmt.Errorf("the list's member %.40q is not JSON, or larger than %s", key, sizeString(maxListMetaBytes))
			}
		}
		c, err = s.peek()
		if err != nil {
			return nil, s.syntax(err)
		}
		s.discard(1)
		if c == '}' {
			break
		}
		if c != ',' {
			return nil, s.syntaxAt(s.off-1, fmt.Errorf("invalid character %q after a member of the list", c))
		}
	}
	if _, err := s.peek(); err != io.EOF {
		if err == nil {
			err = errors.New("more after the list's end")
		}
		return nil, s.syntax(err)
	}
	if p.kind != res.Kind+"List" || p.apiVersion != res.APIVersion {
		return nil, fmt.Errorf("the answer is not a list of %s: it is %s", describeType(res.APIVersion, res.Kind), describeType(p.apiVersion, p.kind))
	}
	return p, nil
}

// member reads one of the list's own fields.
func (p *listPage) member(key string, raw []byte) error {
	switch key {
	case "metadata":
		var md struct {
			Continue string `json:"continue"`
		}
		if err := json.Unmarshal(raw, &md); err != nil {
			return fmt.Errorf("the list's metadata: %w", err)
		}
		p.cont = md.Continue
	case "kind", "apiVersion":
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("the list's %s: %w", key, err)
		}
		if key == "kind" {
			p.kind = v
		} else {
			p.apiVersion = v
		}
	}
	return nil
}

// item looks at one item of the page.
func (p *listPage) item(data []byte, over bool, res Resource, ns string, want map[string][]int, maxItem int64, kept func([]byte) error) {
	unidentified := func(why string) {
		if p.unidentified == "" {
			p.unidentified = why
		}
	}
	if over {
		unidentified("an item is larger than --max-document-bytes " + sizeString(maxItem))
		return
	}
	if !isObject(data) {
		unidentified("an item is not a JSON object")
		return
	}
	head, err := readHead(data) // (which checks that the whole item is JSON)
	if err != nil {
		unidentified("an item cannot be read: " + err.Error())
		return
	}
	name := head.Metadata.Name
	if name == "" {
		unidentified("an item has no metadata.name")
		return
	}
	if want[name] == nil {
		return
	}
	av, kind, okAV, okKind := head.types()
	if head.APIVersion == nil {
		av, okAV = res.APIVersion, true
	}
	if head.Kind == nil {
		kind, okKind = res.Kind, true
	}
	if !okAV || !okKind || av != res.APIVersion || kind != res.Kind || head.Metadata.Namespace != ns && ns != "" || !res.Namespaced && head.Metadata.Namespace != "" {
		p.bad[name] = fmt.Errorf("the list's item %q is %s, not an object of the kind listed (%s): not taken for the object",
			name, describeObject(head, av, kind), describeType(res.APIVersion, res.Kind)+inNamespace(ns))
		return
	}
	if _, dup := p.items[name]; dup || p.bad[name] != nil {
		delete(p.items, name)
		p.bad[name] = fmt.Errorf("the list has two items named %q: not taken for the object", name)
		return
	}
	obj := typed(data, head, res)
	if err := kept(obj); err != nil {
		p.bad[name] = fmt.Errorf("the list's item %q: %w", name, err)
		return
	}
	p.items[name] = obj
}

// jsonScanner reads a JSON text one value at a time, without decoding what it skips.
type jsonScanner struct {
	r   *bufio.Reader
	off int64 // bytes consumed
}

func (s *jsonScanner) discard(n int) {
	d, _ := s.r.Discard(n)
	s.off += int64(d)
}

// peek skips blanks and returns the next byte, unread.
func (s *jsonScanner) peek() (byte, error) {
	for {
		b, err := s.r.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			s.discard(1)
			continue
		}
		return b[0], nil
	}
}

func (s *jsonScanner) expect(c byte) error {
	b, err := s.peek()
	if err != nil {
		return s.syntax(err)
	}
	if b != c {
		return s.syntax(fmt.Errorf("invalid character %q, %q expected", b, c))
	}
	s.discard(1)
	return nil
}

// chunk is what the reader holds, at least one byte.
func (s *jsonScanner) chunk() ([]byte, error) {
	if s.r.Buffered() == 0 {
		if _, err := s.r.Peek(1); err != nil {
			return nil, err
		}
	}
	return s.r.Peek(s.r.Buffered())
}

// value reads the next value, keeping its bytes when they are at most max (max < 0: keep
// nothing); over says it was larger. Strings and brackets are followed; what is inside is
// checked by whoever decodes what is kept.
func (s *jsonScanner) value(max int64) (data []byte, over bool, err error) {
	if _, err := s.peek(); err != nil {
		return nil, false, err
	}
	var size int64
	keep := func(b []byte) {
		size += int64(len(b))
		switch {
		case max < 0 || over:
		case size > max:
			data, over = nil, true
		default:
			data = append(data, b...)
		}
	}
	started, scalar, inString, escaped := false, false, false, false
	depth := 0
	for {
		chunk, err := s.chunk()
		if err != nil {
			if err == io.EOF && scalar {
				return data, over, nil
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, over, err
		}
		i, done := 0, false
	scan:
		for ; i < len(chunk); i++ {
			b := chunk[i]
			switch {
			case !started:
				started = true
				switch b {
				case '"':
					inString = true
				case '{', '[':
					depth = 1
				case '}', ']', ',', ':':
					return nil, false, fmt.Errorf("invalid character %q looking for the beginning of a value", b)
				default:
					scalar = true
				}
			case scalar:
				switch b {
				case ' ', '\t', '\r', '\n', ',', ']', '}', ':':
					done = true
					break scan
				}
			case inString:
				if escaped {
					escaped = false
					continue
				}
				// The bytes of a string up to its quote or backslash, at once.
				for i < len(chunk) && chunk[i] != '"' && chunk[i] != '\\' {
					i++
				}
				if i == len(chunk) {
					break scan
				}
				if chunk[i] == '\\' {
					escaped = true
					continue
				}
				inString = false
				if depth == 0 {
					i++
					done = true
					break scan
				}
			default:
				switch b {
				case '"':
					inString = true
				case '{', '[':
					depth++
				case '}', ']':
					depth--
					if depth == 0 {
						i++
						done = true
						break scan
					}
				}
			}
		}
		keep(chunk[:i])
		s.discard(i)
		if done {
			return data, over, nil
		}
	}
}

// items reads an array (or null), handing each element to f: its bytes when at most max,
// else over.
func (s *jsonScanner) items(max int64, f func(item []byte, over bool)) error {
	c, err := s.peek()
	if err != nil {
		return s.syntax(err)
	}
	if c == 'n' {
		raw, _, err := s.value(8)
		if err != nil || string(raw) != "null" {
			return s.syntax(err)
		}
		return nil
	}
	if c != '[' {
		return fmt.Errorf("the list's items are not an array")
	}
	s.discard(1)
	for first := true; ; first = false {
		c, err := s.peek()
		if err != nil {
			return s.syntax(err)
		}
		if c == ']' && first {
			s.discard(1)
			return nil
		}
		item, over, err := s.value(max)
		if err != nil {
			return s.syntax(err)
		}
		f(item, over)
		c, err = s.peek()
		if err != nil {
			return s.syntax(err)
		}
		s.discard(1)
		switch c {
		case ']':
			return nil
		case ',':
		default:
			return s.syntaxAt(s.off-1, fmt.Errorf("invalid character %q after an item", c))
		}
	}
}

func (s *jsonScanner) syntax(err error) error { return s.syntaxAt(s.off, err) }

func (s *jsonScanner) syntaxAt(off int64, err error) error {
	if err == nil {
		if b, perr := s.peek(); perr == nil {
			err = fmt.Errorf("invalid character %q", b)
		} else {
			err = perr
		}
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("the answer is not a JSON list: %w (at byte %d)", err, off)
}

// notJSON says what an answer that is not JSON at all is, from its first bytes.
func (s *jsonScanner) notJSON(what string, err error) error {
	head, _ := s.r.Peek(512)
	if d := sniff(head); d != "" {
		return fmt.Errorf("%s: it is %s", what, d)
	}
	if err != nil {
		if err == io.EOF {
			return fmt.Errorf("%s: it is empty", what)
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%s: it starts with %.40q", what, head)
}

func describeType(apiVersion, kind string) string {
	if apiVersion == "" {
		apiVersion = "(no apiVersion)"
	}
	if kind == "" {
		kind = "(no kind)"
	}
	return apiVersion + " " + kind
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return " in namespace " + strconv.Quote(ns)
}

// describeObject names an object by its head: v1 Secret "web" in namespace "shop".
func describeObject(head objectHead, av, kind string) string {
	s := describeType(av, kind)
	if head.Metadata.Name != "" {
		s += " " + strconv.Quote(head.Metadata.Name)
	} else {
		s += " (no name)"
	}
	return s + inNamespace(head.Metadata.Namespace)
}
