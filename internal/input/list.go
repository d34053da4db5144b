package input

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
)

// This file decodes the items of a JSON List (see jsonsplit.go) on a pool of goroutines
// while the scanner reads on, and turns the List into entries in input order once it has
// ended. Decoding an item touches only the item, so the result does not depend on which
// goroutine decoded what: the entries are those of reading the List whole.

// itemPool decodes List items; one per stream, started with the first item.
type itemPool struct {
	jobs chan itemJob
	wg   sync.WaitGroup
}

type itemJob struct {
	list *rawList
	item *jsonItem
}

// startDecoding hands an item to the pool.
func (p *parser) startDecoding(l *rawList, it *jsonItem) {
	if p.pool == nil {
		n := runtime.GOMAXPROCS(0)
		pool := &itemPool{jobs: make(chan itemJob, 4*n)}
		maxDepth, compact := p.lim.MaxDepth, p.l.CompactManagedFields
		deferring, keepLines := p.l.DeferDecoding, !p.l.NoFieldLines
		pool.wg.Add(n)
		for i := 0; i < n; i++ {
			go func() {
				defer pool.wg.Done()
				var sc compacting
				for j := range pool.jobs {
					if !deferring || !j.list.deferItem(j.item, &sc, keepLines) {
						j.list.decodeItem(j.item, maxDepth, compact)
					}
					j.list.wg.Done()
				}
			}()
		}
		p.pool = pool
	}
	l.wg.Add(1)
	p.pool.jobs <- itemJob{l, it}
}

// stopPool ends the pool's goroutines once they are done.
func (p *parser) stopPool() {
	if p.pool != nil {
		close(p.pool.jobs)
		p.pool.wg.Wait()
		p.pool = nil
	}
}

// decodeItem decodes one item as a JSON document is decoded: numbers as int64 or float64,
// nesting checked (from the depth of the items array), and for objects the warnings and
// the position index of their own bytes.
func (l *rawList) decodeItem(it *jsonItem, maxDepth int, compact bool) {
	v, off, err := decodeJSON(it.data)
	if err == nil && off < len(it.data) {
		// A scalar item runs into another ("nulltrue"): the decoder reads the first.
		err = fmt.Errorf("invalid JSON: invalid character %s after array element", quoteChar(it.data[off]))
	}
	if err != nil {
		it.err, it.errLine = err, it.line+lineAt(it.data, off)-1
		return
	}
	v, err = normalize(v, maxDepth-l.depth)
	if err != nil {
		errors.As(err, &it.depthErr)
		return
	}
	it.value = v
	if m, ok := v.(map[string]any); ok {
		if compact {
			// Now, not when the List ends: the trees would all be held till then.
			compactManagedFields(m)
		}
		it.doc = &document{raw: it.data, firstLine: it.line, json: true}
		it.warnings = jsonWarnings(it.data, it.line)
	}
}

// shellText is the value without its items, and as many line ends in their place as
// they took, so that offsets in it give the lines of the value.
func (l *rawList) shellText() []byte {
	if l.close <= l.open {
		return l.shell
	}
	out := make([]byte, 0, len(l.shell)+l.close-l.open)
	out = append(out, l.shell[:l.cut]...)
	out = append(out, bytes.Repeat([]byte("\n"), l.close-l.open)...)
	return append(out, l.shell[l.cut:]...)
}

// join puts the value back together; it must be within the document limit.
func (l *rawList) join() []byte {
	out := make([]byte, 0, l.total)
	out = append(out, l.shell[:l.cut]...)
	g := 0
	for _, it := range l.items {
		out = append(out, l.gaps[g:it.gapOff]...)
		out = append(out, it.data...)
		g = it.gapOff
	}
	out = append(out, l.gaps[g:]...)
	for _, t := range l.tail {
		out = append(out, t...)
	}
	return append(out, l.shell[l.cut:]...)
}

// isList tells whether the shell, decoded, is what a List (or an array) without its items is.
func (l *rawList) isList(v any) bool {
	if l.base == "" {
		a, ok := v.([]any)
		return ok && len(a) == 0
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	items, ok := listItems(m)
	return ok && len(items) == 0
}

// listDoc turns a value read item by item into entries. A List whose bytes are all valid
// JSON becomes its items; anything else is read as one document, as any other value is —
// or, when the value is larger than the document limit and so was never kept whole, is
// reported as one error.
func (p *parser) listDoc(src Source, firstLine int, l *rawList) {
	l.wg.Wait()
	shell := l.shellText()
	shellValue, _, shellErr := decodeJSON(shell)
	isList := shellErr == nil && l.isList(shellValue)
	sound := isList && !l.truncated && l.itemsKeys <= 1 && !l.escapedKey && l.gapErr == ""
	for _, it := range l.items {
		if it.err != nil || it.depthErr != nil {
			sound = false
			break
		}
	}
	if !sound || l.dropped > 0 && l.total <= p.lim.MaxDocumentBytes {
		if l.total <= p.lim.MaxDocumentBytes {
			p.jsonValue(src, l.join(), firstLine) // every byte was kept
			return
		}
		switch {
		case l.truncated:
			p.fail(src, l.end, "", errors.New("invalid JSON: unexpected end of JSON input: a value is not closed"))
		case isList && l.itemsKeys <= 1 && !l.escapedKey:
			line, path, err := l.firstError(p.lim.MaxDepth)
			p.fail(src, line, path, err)
		default:
			p.fail(src, 0, "", &LimitError{What: "the document is larger than", Max: p.lim.MaxDocumentBytes, Unit: "bytes", Option: "max-document-bytes"})
		}
		return
	}

	p.docs++
	first := len(p.entries)
	type pending struct {
		item  int       // index in the List
		it    *jsonItem // the item it is in
		ptr   string    // JSON Pointer in the item
		value any
	}
	queue := make([]pending, len(l.items))
	for k, it := range l.items {
		queue[k] = pending{k, it, "", it.value}
	}
	// Lists inside items are flattened breadth first, as kubectl flattens them: their
	// items come after all the items of the List.
	for k := 0; k < len(queue) || k == len(l.items) && l.dropped > 0; k++ {
		if k == len(l.items) && l.dropped > 0 {
			idx := len(l.items)
			s := src
			s.Item, s.Line = &idx, l.droppedAt
			p.entries = append(p.entries, Entry{Err: &Error{Source: s, Err: &LimitError{What: "a List with more than", Max: int64(p.lim.MaxObjects), Unit: "items; the rest is not read", Option: "max-objects"}}})
			break
		}
		q := queue[k]
		s := src
		idx := q.item
		s.Item = &idx
		if k < len(l.items) {
			s.Line = q.it.line
		} else if line := q.it.doc.line(q.ptr); line > 0 {
			s.Line = line
		}
		if q.it.oversize {
			p.entries = append(p.entries, Entry{Err: &Error{Source: s, Err: &LimitError{What: "the List item is larger than", Max: p.lim.MaxDocumentBytes, Unit: "bytes", Option: "max-document-bytes"}}})
			continue
		}
		var o *Object
		if q.it.text != nil {
			o = &Object{Source: s, doc: q.it.doc, text: q.it.text, head: q.it.head, depth: p.lim.MaxDepth - l.depth, compact: p.l.CompactManagedFields}
		} else {
			m, ok := q.value.(map[string]any)
			if !ok {
				path := PointerToPath(l.base + "/" + strconv.Itoa(q.item) + q.ptr)
				p.entries = append(p.entries, Entry{Err: &Error{Source: s, Path: path, Err: fmt.Errorf("a list item is not an object but a %s", typeName(q.value))}})
				continue
			}
			if inner, ok := listItems(m); ok {
				for j, x := range inner {
					queue = append(queue, pending{q.item, q.it, q.ptr + "/items/" + strconv.Itoa(j), x})
				}
				continue
			}
			o = &Object{Source: s, Object: m, doc: q.it.doc, base: q.ptr}
		}
		if !q.it.warned {
			q.it.warned = true
			o.Warnings = q.it.warnings
		}
		p.add(o)
		if p.stopped {
			return
		}
	}
	// What is wrong in the List's own fields goes with its first object.
	if len(p.entries) > first && p.entries[first].Object != nil {
		o := p.entries[first].Object
		o.Warnings = append(o.Warnings, jsonWarnings(shell, firstLine)...)
	}
}

// firstError is the first thing in the items that is not valid JSON: its line, path and
// error.
func (l *rawList) firstError(maxDepth int) (int, string, error) {
	for k, it := range l.items {
		if l.gapErr != "" && l.gapBefore <= k {
			break
		}
		if it.err != nil {
			return it.errLine, "", it.err
		}
		if de := it.depthErr; de != nil {
			path := PointerToPath(l.base + "/" + strconv.Itoa(k) + de.pointer)
			if de.cut {
				path += "…"
			}
			return it.line, path, depthLimitError(maxDepth)
		}
	}
	return l.gapLine, "", errors.New("invalid JSON: " + l.gapErr)
}
