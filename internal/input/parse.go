package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	yamlv2 "go.yaml.in/yaml/v2"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// parseStream reads the documents of one file (or standard input). It returns the entries
// and how many documents held something (an object, a List, or an error).
func (l *Loader) parseStream(name string, r io.Reader) ([]Entry, int) {
	return l.parseStreamOpts(name, r, false, streamBuffer)
}

// streamBuffer is the size of the buffer a stream is read through.
const streamBuffer = 64 << 10

// bufferFor is the buffer for a file of size bytes: streamBuffer, or less for a smaller
// file — a repository is hundreds of files of a few KiB, each once given a buffer of 64 KiB
// to clear. The buffer still holds the whole file (and never fills: reading does not
// depend on its size then) and at least the bytes sniffed at the start.
func bufferFor(size int64) int {
	if size < 0 || size+1 >= streamBuffer {
		return streamBuffer
	}
	return max(int(size)+1, sniffBytes)
}

// parseStreamOpts is parseStream; helm attributes documents to their `# Source:` comments;
// buffer is the size of the buffer to read through.
func (l *Loader) parseStreamOpts(name string, r io.Reader, helm bool, buffer int) ([]Entry, int) {
	br := bufio.NewReaderSize(&budgetReader{r: r, l: l}, buffer)
	if head, _ := br.Peek(3); bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	} else if len(head) >= 2 && (head[0] == 0xff && head[1] == 0xfe || head[0] == 0xfe && head[1] == 0xff) {
		big := head[0] == 0xfe
		br.Discard(2)
		br = bufio.NewReaderSize(&utf16Reader{r: br, big: big}, 64<<10)
	}
	p := &parser{name: name, lim: l.limits, l: l, helm: helm}
	if l.RequestBodies && isJSONStream(br) {
		// The server's YAML reader takes what JSON's refuses: read the stream whole to see
		// which it is.
		data, err := io.ReadAll(br)
		if err != nil {
			splitYAML(bufio.NewReader(io.MultiReader(bytes.NewReader(data), errReader{err})), l.limits.MaxDocumentBytes, p.yamlDoc)
			return p.entries, p.docs
		}
		br = bufio.NewReaderSize(bytes.NewReader(data), buffer)
		if !validJSONStream(data) {
			splitYAML(br, l.limits.MaxDocumentBytes, p.yamlDoc)
			return p.entries, p.docs
		}
	}
	if isJSONStream(br) {
		splitJSON(br, l.limits, p.jsonDoc, p.startDecoding)
		p.stopPool()
	} else {
		splitYAML(br, l.limits.MaxDocumentBytes, p.yamlDoc)
	}
	return p.entries, p.docs
}

// validJSONStream reports whether data is a stream of valid JSON values.
func validJSONStream(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// parser turns the documents of one stream into entries.
type parser struct {
	name       string
	lim        Limits
	l          *Loader
	index      int // of the next document
	docs       int
	entries    []Entry
	stopped    bool           // the object limit was reached
	pool       *itemPool      // decodes List items
	compacting compacting     // deferJSON's buffers
	blockOut   []byte         // the buffer blockJSON writes a document's JSON to
	helm       bool           // documents are attributed to their `# Source:` comments
	helmDocs   map[string]int // documents seen per template
}

// add adds an object, unless the object limit is reached: then it says so (once per
// Loader) and stops the stream.
func (p *parser) add(o *Object) {
	if p.stopped {
		return
	}
	if p.l.objects >= p.lim.MaxObjects {
		p.stopped = true
		if !p.l.objectLimitSaid {
			p.l.objectLimitSaid = true
			p.entries = append(p.entries, Entry{Err: &Error{Source: o.Source, Err: p.l.objectLimitError()}})
		}
		return
	}
	p.l.objects++
	if p.l.NoFieldLines {
		o.doc, o.base = nil, ""
	}
	if p.l.CompactManagedFields {
		compactManagedFields(o.Object)
	}
	p.entries = append(p.entries, Entry{Object: o})
}

func (p *parser) next(rd rawDoc) (Source, bool) {
	src := Source{File: p.name, Document: p.index, Line: rd.firstLine}
	p.index++
	if rd.err != nil {
		p.docs++
		var pe *fs.PathError
		if errors.As(rd.err, &pe) { // the file could not be read: not about a document
			p.entries = append(p.entries, Entry{Err: fileError(p.name, rd.err)})
		} else {
			p.entries = append(p.entries, Entry{Err: &Error{Source: src, Line: rd.errLine, Err: rd.err}})
		}
		return src, false
	}
	return src, true
}

func (p *parser) fail(src Source, line int, path string, err error) {
	p.docs++
	p.entries = append(p.entries, Entry{Err: &Error{Source: src, Line: line, Path: path, Err: err}})
}

// yamlDoc reads one YAML document as kubectl does: YAML 1.1 through sigs.k8s.io/yaml.
func (p *parser) yamlDoc(rd rawDoc) bool {
	p.yamlDoc1(rd)
	return !p.stopped
}

func (p *parser) yamlDoc1(rd rawDoc) {
	src, ok := p.next(rd)
	if !ok {
		return
	}
	if p.helm {
		if path, upTo := sourceComment(rd.data); path != "" {
			// Lines count from the line after the comment; the template's file is the source.
			rd.firstLine = 1 - upTo
			src = p.helmSource(path)
			src.Line = rd.firstLine
		}
	}
	src.Line += leadingBlankLines(rd.data)
	if line, msg := checkText(rd.data); line > 0 {
		p.fail(src, rd.firstLine+line-1, "", errors.New("invalid YAML: "+msg))
		return
	}
	if bytes.IndexByte(rd.data, '*') >= 0 && bytes.IndexByte(rd.data, '&') >= 0 {
		if added := aliasNodes(rd.data, int64(p.lim.MaxAliasNodes)); added > int64(p.lim.MaxAliasNodes) {
			p.fail(src, 0, "", &LimitError{What: "YAML aliases expand the document by more than", Max: int64(p.lim.MaxAliasNodes), Unit: "nodes", Option: "max-yaml-alias-nodes"})
			return
		}
	}
	doc := &document{raw: rd.data, firstLine: rd.firstLine}
	var duplicates string
	var j []byte // the document as JSON, when the strict tree gives it
	if len(rd.data) <= maxDuplicateScan {
		// A document in block style is written to JSON from its lines, as the strict
		// tree would give it; blockJSON declines anything it is not sure of (duplicate
		// and bad keys among it), which takes the parse below.
		if out, ok := blockJSON(rd.data, p.blockOut); ok {
			// A copy of its size: the text is kept (a deferred object's), the buffer is
			// the next document's.
			j, p.blockOut = bytes.Clone(out), out[:0]
		}
	}
	if j == nil && len(rd.data) <= maxDuplicateScan {
		// The YAML 1.1 tree as kubectl's decoder makes it, before its keys become JSON's
		// strings: duplicate keys are reported, and keys that become the same string
		// (0 and .0, true and "true") are refused: the decoder would keep one of them at
		// random.
		var tree any
		err := yamlv2.UnmarshalStrict(rd.data, &tree)
		var te *yamlv2.TypeError
		if err == nil || errors.As(err, &te) {
			if te != nil {
				_, err := relocate(err, rd.firstLine)
				duplicates = strings.TrimPrefix(oneLine(err.Error()), "unmarshal errors: ")
			}
			if ptr, msg := badKeys(tree); msg != "" {
				p.fail(src, doc.line(ptr), PointerToPath(ptr), errors.New("invalid YAML: "+msg))
				return
			}
			if te == nil {
				// Without duplicates the strict tree is the one sigs.k8s.io/yaml reads:
				// its JSON is written from it rather than from a second parse.
				if v, ok := jsonable(tree); ok {
					j, _ = json.Marshal(v)
				}
			}
		}
	}
	var err error
	if j == nil {
		j, err = yaml.YAMLToJSON(rd.data)
	}
	if err != nil {
		line, err := relocate(err, rd.firstLine)
		msg := err.Error()
		if parserProblems[msg] {
			line = parserErrorLine(rd.firstLine, line)
		}
		if n := lastContentLine(rd.data); n > 0 && line > rd.firstLine+n-1 {
			// Past the document's content: the parser met its end, the last line names it.
			line = rd.firstLine + n - 1
		}
		if line > 0 && strings.Contains(msg, "cannot start any token") && hasTabIndent(rd.data, line-rd.firstLine+1) {
			msg += " (a tab: YAML indents with spaces only)"
		}
		if strings.Contains(msg, "exceeded max depth") {
			p.fail(src, line, "", depthLimitError(p.lim.MaxDepth))
			return
		}
		p.fail(src, line, "", fmt.Errorf("invalid YAML: %s", msg))
		return
	}
	n := len(p.entries)
	if !p.l.DeferDecoding || !p.deferYAML(src, doc, j) {
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			p.fail(src, 0, "", fmt.Errorf("invalid YAML: %w", err))
			return
		}
		v, err = normalize(v, p.lim.MaxDepth)
		if err != nil {
			var de *depthError
			errors.As(err, &de)
			p.fail(src, doc.line(de.pointer), de.path(), depthLimitError(p.lim.MaxDepth))
			return
		}
		p.objects(src, doc, v)
	}
	if len(p.entries) > n && p.entries[n].Object != nil && duplicates != "" {
		p.entries[n].Object.Warnings = append(p.entries[n].Object.Warnings,
			"duplicate keys: the last value is used, as kubectl and the API server use it (a field validation of Strict would reject them): "+duplicates)
	}
}

// jsonable converts a tree of the YAML 1.1 decoder as sigs.k8s.io/yaml's YAMLToJSON does
// before encoding it: map keys become strings (integers in decimal, floats as
// strconv.FormatFloat(f, 'g', -1, 32) with .inf, -.inf and .nan, booleans as true and
// false). It reports false for a key of another type, which YAMLToJSON refuses.
func jsonable(v any) (any, bool) {
	switch t := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			var key string
			switch tk := k.(type) {
			case string:
				key = tk
			case int:
				key = strconv.Itoa(tk)
			case int64:
				key = strconv.FormatInt(tk, 10)
			case float64:
				key = strconv.FormatFloat(tk, 'g', -1, 32)
				switch key {
				case "+Inf":
					key = ".inf"
				case "-Inf":
					key = "-.inf"
				case "NaN":
					key = ".nan"
				}
			case bool:
				key = strconv.FormatBool(tk)
			default:
				return nil, false
			}
			c, ok := jsonable(x)
			if !ok {
				return nil, false
			}
			m[key] = c
		}
		return m, true
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			c, ok := jsonable(x)
			if !ok {
				return nil, false
			}
			l[i] = c
		}
		return l, true
	}
	return v, true
}

// badKeys finds, in a tree decoded by the YAML 1.1 decoder, the first map (keys in order)
// with keys that JSON cannot have (null, a map, a list) or with two keys that become the
// same string in JSON. It returns the map's JSON Pointer and what is wrong, or "".
func badKeys(v any) (string, string) {
	switch t := v.(type) {
	case map[any]any:
		type key struct {
			s   string
			raw any
		}
		keys := make([]key, 0, len(t))
		for k := range t {
			s, ok := jsonKey(k)
			if !ok {
				return "", fmt.Sprintf("a map key that is a %s: JSON keys are strings, numbers or booleans", typeName(k))
			}
			keys = append(keys, key{s, k})
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].s != keys[j].s {
				return keys[i].s < keys[j].s
			}
			return fmt.Sprintf("%T %v", keys[i].raw, keys[i].raw) < fmt.Sprintf("%T %v", keys[j].raw, keys[j].raw)
		})
		for i := 1; i < len(keys); i++ {
			if keys[i].s == keys[i-1].s {
				return "", fmt.Sprintf("the keys %s and %s both become %q in JSON, and kubectl's decoder would keep either at random",
					yamlKey(keys[i-1].raw), yamlKey(keys[i].raw), keys[i].s)
			}
		}
		for _, k := range keys {
			if ptr, msg := badKeys(t[k.raw]); msg != "" {
				return "/" + escapePointer(k.s) + ptr, msg
			}
		}
	case []any:
		for i, x := range t {
			if ptr, msg := badKeys(x); msg != "" {
				return "/" + strconv.Itoa(i) + ptr, msg
			}
		}
	}
	return "", ""
}

// jsonKey is the string sigs.k8s.io/yaml makes of a map key.
func jsonKey(k any) (string, bool) {
	switch t := k.(type) {
	case string:
		return t, true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case uint64:
		return strconv.FormatUint(t, 10), true
	case float64:
		switch s := strconv.FormatFloat(t, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		default:
			return s, true
		}
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// yamlKey shows a decoded key as it reads: strings quoted, others with their type.
func yamlKey(k any) string {
	switch t := k.(type) {
	case string:
		return strconv.Quote(t)
	case float64:
		return fmt.Sprintf("%v (a float)", t)
	case bool:
		return fmt.Sprintf("%v (a boolean)", t)
	}
	return fmt.Sprintf("%v (an integer)", k)
}

// jsonDoc reads one JSON value as Kubernetes does: numbers as int64 or float64, the last
// of duplicate keys, invalid UTF-8 replaced.
func (p *parser) jsonDoc(rd rawDoc) bool {
	p.jsonDoc1(rd)
	return !p.stopped
}

func (p *parser) jsonDoc1(rd rawDoc) {
	src, ok := p.next(rd)
	if !ok {
		return
	}
	if rd.list != nil {
		p.listDoc(src, rd.firstLine, rd.list)
		return
	}
	p.jsonValue(src, rd.data, rd.firstLine)
}

// jsonValue reads one JSON value that is one document.
func (p *parser) jsonValue(src Source, data []byte, firstLine int) {
	if p.l.DeferDecoding && p.deferJSON(src, data, firstLine) {
		return
	}
	v, off, err := decodeJSON(data)
	if err != nil {
		p.fail(src, firstLine+lineAt(data, off)-1, "", err)
		return
	}
	doc := &document{raw: data, firstLine: firstLine, json: true}
	v, err = normalize(v, p.lim.MaxDepth)
	if err != nil {
		var de *depthError
		errors.As(err, &de)
		p.fail(src, doc.line(de.pointer), de.path(), depthLimitError(p.lim.MaxDepth))
		return
	}
	n := len(p.entries)
	p.objects(src, doc, v)
	if len(p.entries) > n && p.entries[n].Object != nil {
		o := p.entries[n].Object
		o.Warnings = append(o.Warnings, jsonWarnings(data, firstLine)...)
	}
}

// decodeJSON decodes one JSON value, numbers as json.Numbers. An error says "invalid
// JSON" and comes with the offset it is about; without an error, the offset is where the
// value ended.
func decodeJSON(data []byte) (any, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		off := int(dec.InputOffset())
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = int(se.Offset)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("unexpected end of JSON input: a value is not closed")
			off = len(data)
		}
		return nil, off, fmt.Errorf("invalid JSON: %w", err)
	}
	return v, int(dec.InputOffset()), nil
}

// jsonWarnings are the warnings about a JSON value that was read: bytes that are not
// UTF-8, keys set twice.
func jsonWarnings(data []byte, firstLine int) []string {
	var w []string
	if !utf8.Valid(data) {
		w = append(w, fmt.Sprintf("line %d: bytes that are not UTF-8 were read as U+FFFD, as kubectl and the API server read them", firstLine+lineAt(data, invalidUTF8(data))-1))
	}
	if len(data) <= maxDuplicateScan {
		if dups := duplicateKeys(data, firstLine); len(dups) > 0 {
			w = append(w, "duplicate keys: the last value is used, as kubectl and the API server use it (a field validation of Strict would reject them): "+strings.Join(dups, "; "))
		}
	}
	return w
}

// maxDuplicateScan is the largest document (or List item) searched for duplicate keys
// (which costs a second scan): above the API server's request limit (3 MiB), so every
// manifest and every object the server printed is.
const maxDuplicateScan = 4 << 20

func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// duplicateKeys lists the keys (at most 5) that appear twice in one object of data, a
// valid JSON value, with their lines. Keys are compared as decoded: escapes resolved,
// bytes that are not UTF-8 read as U+FFFD.
func duplicateKeys(data []byte, firstLine int) []string {
	type frame struct {
		object    bool
		expectKey bool
		keys      int                 // index in keys of the object's first key
		set       map[string]struct{} // the keys, once there are many
	}
	var (
		frames = make([]frame, 0, 16)
		keys   = make([][]byte, 0, 64) // the keys of the open objects
		dups   []string
		line   = firstLine
	)
	for i := 0; i < len(data) && len(dups) < 5; i++ {
		for i < len(data) && !dupSpecial[data[i]] {
			i++ // blanks, numbers, literals, ':'
		}
		if i == len(data) {
			break
		}
		switch data[i] {
		case '\n':
			line++
		case '{':
			frames = append(frames, frame{object: true, expectKey: true, keys: len(keys)})
		case '[':
			frames = append(frames, frame{keys: len(keys)})
		case '}', ']':
			if n := len(frames); n > 0 {
				keys = keys[:frames[n-1].keys]
				frames = frames[:n-1]
			}
		case ',':
			if n := len(frames); n > 0 && frames[n-1].object {
				frames[n-1].expectKey = true
			}
		case '"':
			j, plain := i+1, true
			for ; j < len(data) && data[j] != '"'; j++ {
				if !strPlain[data[j]] || data[j] >= utf8.RuneSelf {
					switch c := data[j]; {
					case c == '\\':
						plain = false
						j++
					case c >= utf8.RuneSelf:
						plain = false
					case c == '\n':
						line++
					}
				}
			}
			n := len(frames)
			if n == 0 || !frames[n-1].expectKey {
				i = j
				continue
			}
			f := &frames[n-1]
			f.expectKey = false
			key := data[i+1 : j]
			if !plain && (bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key)) {
				if k, ok := unescapeKey(key); ok {
					key = k
				} else {
					var s string
					if json.Unmarshal(data[i:j+1], &s) == nil {
						key = []byte(s)
					}
				}
			}
			i = j
			seen := false
			if f.set != nil {
				_, seen = f.set[string(key)]
				f.set[string(key)] = struct{}{}
			} else {
				for _, k := range keys[f.keys:] {
					if bytes.Equal(k, key) {
						seen = true
						break
					}
				}
				if len(keys)-f.keys >= 16 {
					f.set = make(map[string]struct{}, 64)
					for _, k := range keys[f.keys:] {
						f.set[string(k)] = struct{}{}
					}
					f.set[string(key)] = struct{}{}
				}
			}
			if f.set == nil {
				keys = append(keys, key)
			}
			if seen {
				dups = append(dups, fmt.Sprintf("line %d: key %q already set", line, key))
			}
		}
	}
	return dups
}

// unescapeKey decodes the text of a JSON string that is valid UTF-8 and holds only the
// escapes of one character (\" \\ \/ \b \f \n \r \t: fieldsV1's k: keys), as
// json.Unmarshal would; false for anything else (\u escapes, bytes not UTF-8), which
// json.Unmarshal decodes.
func unescapeKey(key []byte) ([]byte, bool) {
	if !utf8.Valid(key) {
		return nil, false
	}
	out := make([]byte, 0, len(key))
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i++; i == len(key) {
			return nil, false
		}
		switch key[i] {
		case '"', '\\', '/':
			out = append(out, key[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default:
			return nil, false
		}
	}
	return out, true
}

// dupSpecial are the bytes duplicateKeys looks at.
var dupSpecial = [256]bool{'\n': true, '{': true, '[': true, '}': true, ']': true, ',': true, '"': true}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

func hasTabIndent(data []byte, line int) bool {
	for i := 1; i < line; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return false
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	for _, c := range data {
		switch c {
		case '\t':
			return true
		case ' ':
		default:
			return bytes.IndexByte(data, '\t') >= 0
		}
	}
	return false
}

// aliasNodes counts the nodes YAML aliases add to a document when expanded; it stops
// counting past max. A document the position-keeping parser cannot read counts 0: the
// decoder will say what is wrong.
func aliasNodes(data []byte, max int64) int64 {
	var root yamlv3.Node
	if yamlv3.Unmarshal(data, &root) != nil {
		return 0
	}
	var written func(n *yamlv3.Node) int64
	written = func(n *yamlv3.Node) int64 {
		total := int64(1)
		for _, c := range n.Content {
			total += written(c)
		}
		return total
	}
	limit := written(&root) + max + 1
	memo := map[*yamlv3.Node]int64{}
	var size func(n *yamlv3.Node) int64
	size = func(n *yamlv3.Node) int64 {
		if n == nil {
			return 0
		}
		if n.Kind == yamlv3.AliasNode {
			if s, ok := memo[n.Alias]; ok {
				return s
			}
			memo[n.Alias] = limit // an alias inside its own anchor expands without end
			s := size(n.Alias)
			memo[n.Alias] = s
			return s
		}
		total := int64(1)
		for _, c := range n.Content {
			total += size(c)
			if total >= limit {
				return limit
			}
		}
		return total
	}
	return size(&root) - (limit - max - 1)
}

// yamlError is a YAML error with its line numbers made absolute.
type yamlError struct {
	msg string
	err error
}

func (e *yamlError) Error() string { return e.msg }
func (e *yamlError) Unwrap() error { return e.err }

// relocate rewrites "line N" in a YAML error of a document that starts at firstLine and
// returns the first such line.
func relocate(err error, firstLine int) (int, error) {
	first := 0
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	// Compiled here, on the error path, not at every start of the program.
	lineRE := regexp.MustCompile(`line (\d+)`)
	msg = lineRE.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(s[len("line "):])
		n += firstLine - 1
		if first == 0 {
			first = n
		}
		return "line " + strconv.Itoa(n)
	})
	// "line N: msg": the line is reported separately.
	if first > 0 {
		msg = strings.TrimPrefix(msg, "line "+strconv.Itoa(first)+": ")
	}
	return first, &yamlError{msg: msg, err: err}
}

// parserProblems are the problems go-yaml v2's parser reports, as opposed to its scanner:
// it prints the line of the token it stopped at counted from 0, not 1, and none at all when
// that token is on the document's first line (its scanner counts from 1).
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// parserErrorLine is the line of the token a parser error stopped at in a document that
// starts at firstLine, given the line relocate read from its message (0: none).
func parserErrorLine(firstLine, reported int) int {
	if reported == 0 {
		return firstLine
	}
	return reported + 1
}

// lastContentLine is the 1-based line of data's last line that is not blank (0: none).
func lastContentLine(data []byte) int {
	last := 0
	for n, rest := 1, data; len(rest) > 0; n++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if len(bytes.TrimSpace(l)) > 0 {
			last = n
		}
	}
	return last
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// leadingBlankLines counts the blank and comment lines before a document's content.
func leadingBlankLines(chunk []byte) int {
	n, _ := blankLines(chunk)
	return n
}

// blankLines counts the blank and comment lines at the start of chunk; content is false
// when nothing else follows them.
func blankLines(chunk []byte) (n int, content bool) {
	for len(chunk) > 0 {
		var l []byte
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
			l, chunk = chunk[:i], chunk[i+1:]
		} else {
			l, chunk = chunk, nil
		}
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			return n, true
		}
		n++
	}
	return n, false
}

// objects turns one decoded document into entries: itself, or a List's items. Lists
// inside Lists are flattened in the order kubectl flattens them (breadth first).
func (p *parser) objects(src Source, doc *document, v any) {
	switch t := v.(type) {
	case nil:
		return // an empty document
	case map[string]any:
		p.docs++
		if items, ok := listItems(t); ok {
			p.items(src, doc, "/items", items)
			return
		}
		p.add(&Object{Source: src, Object: t, doc: doc})
	case []any:
		p.docs++
		p.items(src, doc, "", t)
	default:
		p.fail(src, 0, "", fmt.Errorf("not an object but a %s", typeName(v)))
	}
}

// listItems returns the items of a List (a kind ending in "List" with an items array).
func listItems(obj map[string]any) ([]any, bool) {
	k, _ := obj["kind"].(string)
	items, ok := obj["items"].([]any)
	return items, ok && strings.HasSuffix(k, "List")
}

func (p *parser) items(src Source, doc *document, base string, items []any) {
	type pending struct {
		item  int // index in the document's List
		ptr   string
		value any
	}
	lines := doc.itemLines(base, len(items))
	queue := make([]pending, len(items))
	for i, it := range items {
		queue[i] = pending{i, base + "/" + strconv.Itoa(i), it}
	}
	for k := 0; k < len(queue); k++ {
		it := queue[k]
		s := src
		idx := it.item
		s.Item = &idx
		if k < len(items) && lines != nil {
			s.Line = lines[k]
		} else if l := doc.line(it.ptr); l > 0 {
			s.Line = l
		}
		m, ok := it.value.(map[string]any)
		if !ok {
			p.entries = append(p.entries, Entry{Err: &Error{Source: s, Path: PointerToPath(it.ptr), Err: fmt.Errorf("a list item is not an object but a %s", typeName(it.value))}})
			continue
		}
		if inner, ok := listItems(m); ok {
			for j, x := range inner {
				queue = append(queue, pending{it.item, it.ptr + "/items/" + strconv.Itoa(j), x})
			}
			continue
		}
		p.add(&Object{Source: s, Object: m, doc: doc, base: it.ptr})
		if p.stopped {
			return
		}
	}
}

// typeName names a decoded value's type for messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "map"
	case []any:
		return "list"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, float64, json.Number, int, uint64:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// depthError is where a document nests too deeply: the JSON Pointer of the value past
// the limit, cut to its first segments.
type depthError struct {
	pointer string
	cut     bool
}

func (e *depthError) Error() string { return "too deep at " + e.pointer }

// path is the field path for messages.
func (e *depthError) path() string {
	if e.cut {
		return PointerToPath(e.pointer) + "…"
	}
	return PointerToPath(e.pointer)
}

// normalize converts json.Numbers to int64 (integers) or float64 (others), as Kubernetes'
// JSON decoding does, and checks that maps and lists nest at most maxDepth levels.
func normalize(v any, maxDepth int) (any, error) {
	var walk func(v any, depth int) (any, bool)
	walk = func(v any, depth int) (any, bool) {
		switch t := v.(type) {
		case map[string]any:
			if depth > maxDepth {
				return nil, false
			}
			for k, x := range t {
				n, ok := walk(x, depth+1)
				if !ok {
					return nil, false
				}
				t[k] = n
			}
			return t, true
		case []any:
			if depth > maxDepth {
				return nil, false
			}
			for i, x := range t {
				n, ok := walk(x, depth+1)
				if !ok {
					return nil, false
				}
				t[i] = n
			}
			return t, true
		case json.Number:
			if i, err := t.Int64(); err == nil {
				return i, true
			}
			if f, err := t.Float64(); err == nil {
				return f, true
			}
			return t, true // out of float64's range: keep the number's text
		}
		return v, true
	}
	n, ok := walk(v, 1)
	if !ok {
		return nil, tooDeep(v, maxDepth)
	}
	return n, nil
}

// tooDeep finds the first value (maps in key order) that nests past maxDepth.
func tooDeep(v any, maxDepth int) *depthError {
	var path []string
	var find func(v any, depth int) bool
	find = func(v any, depth int) bool {
		switch t := v.(type) {
		case map[string]any:
			if depth > maxDepth {
				return true
			}
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if find(t[k], depth+1) {
					path = append(path, escapePointer(k))
					return true
				}
			}
		case []any:
			if depth > maxDepth {
				return true
			}
			for i, x := range t {
				if find(x, depth+1) {
					path = append(path, strconv.Itoa(i))
					return true
				}
			}
		}
		return false
	}
	find(v, 1)
	var b strings.Builder
	for i := len(path) - 1; i >= 0 && len(path)-i <= maxPathSegments; i-- {
		b.WriteString("/" + path[i])
	}
	return &depthError{pointer: b.String(), cut: len(path) > maxPathSegments}
}

// maxPathSegments is how much of a too-deep path an error shows.
const maxPathSegments = 8

// compactManagedFields replaces, in obj itself, the fieldsV1 trees of its managedFields
// entries by their JSON text (see Loader.CompactManagedFields).
func compactManagedFields(obj map[string]any) {
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	for _, item := range list {
		e, ok := item.(map[string]any)
		if !ok {
			continue
		}
		tree, ok := e["fieldsV1"].(map[string]any)
		if !ok {
			continue
		}
		if b, err := fieldsjson.AppendJSON(nil, tree); err == nil {
			e["fieldsV1"] = json.RawMessage(b)
		}
	}
}
