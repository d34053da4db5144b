package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Object is one Kubernetes object read from a file.
type Object struct {
	Source Source
	// Object is the object as decoded: maps, slices, strings, bools, int64, float64 and nil.
	// It is nil for an object kept as text (Deferred): Decode makes its tree.
	Object map[string]any
	// Warnings are things about the input the user should know (duplicate keys …).
	Warnings []string

	doc  *document // its document, or the List item it is (in) when the List was read item by item
	base string    // JSON Pointer of the object in doc ("", "/items/3", "/items/0" in an item)

	// A deferred object (see Loader.DeferDecoding): its compact JSON text, its identity,
	// and how to decode it.
	text    []byte
	head    *objectHead
	depth   int  // the nesting it may have
	compact bool // Loader.CompactManagedFields

	locate FieldLocator // a rendered object's field lines (Attribute)
}

// Line returns the line of the field at pointer (an RFC 6901 JSON Pointer into the object,
// "" for the object itself), or of its closest enclosing field that has a known position;
// 0 when nothing is known.
func (o *Object) Line(pointer string) int {
	if o.locate != nil {
		if tree, err := o.Decode(); err == nil {
			if _, l := o.locate(tree, PointerToPath(pointer)); l > 0 {
				return l
			}
		}
		return o.Source.Line
	}
	if o.doc != nil {
		if l := o.doc.line(o.base + pointer); l > 0 {
			return l
		}
	}
	return o.Source.Line
}

// Errorf returns an *Error about the field at pointer (a JSON Pointer into the object).
func (o *Object) Errorf(pointer string, format string, args ...any) *Error {
	return &Error{Source: o.Source, Line: o.Line(pointer), Path: PointerToPath(pointer), Err: fmt.Errorf(format, args...)}
}

// Entry is one object read, or why a document could not be read; entries come in input order.
type Entry struct {
	Object *Object
	Err    error
}

// Split separates entries into the objects and the errors, each in input order.
func Split(entries []Entry) ([]*Object, []error) {
	var objs []*Object
	var errs []error
	for _, e := range entries {
		if e.Err != nil {
			errs = append(errs, e.Err)
		} else {
			objs = append(objs, e.Object)
		}
	}
	return objs, errs
}

func errEntry(err error) []Entry { return []Entry{{Err: err}} }

// Loader reads objects from paths within Limits. The zero value reads with the default
// limits and has no standard input. A Loader keeps count of what it has read (the input
// limit is for all paths together), so use one Loader per run, from one goroutine.
type Loader struct {
	// Stdin is read for the path "-", at most once per Loader.
	Stdin io.Reader
	// Limits bound what is read; zero fields take their defaults.
	Limits Limits
	// NoFieldLines makes the objects read from then on keep only the line where they
	// start: Object.Line and LineOfFieldPath give it for every field, and their text is
	// not held in memory. Errors found while reading still name the field's line. Meant
	// for live-state dumps, whose field lines nobody asks for: it saves about their size.
	NoFieldLines bool
	// CompactManagedFields keeps the fieldsV1 of each metadata.managedFields entry of the
	// objects read from then on as its JSON text (a json.RawMessage: compact, keys sorted,
	// as encoding/json writes the tree) instead of a tree of maps: a live dump holds mostly
	// such trees, and the text takes a fraction of their memory. Package fieldpath and the
	// engine read entries either way.
	CompactManagedFields bool
	// DeferDecoding keeps the objects read from then on as their compact JSON text rather
	// than as trees (Object.Deferred), when nothing about them needs the tree while
	// reading: objects that are valid, identified by plain strings, and neither Lists nor
	// CustomResourceDefinitions (a List's items may be deferred). Object.Decode makes the
	// tree when it is needed; Object.Meta, Object.GVK, Object.HasManagedFields and Match
	// read what they need from the text. The text takes a third to a quarter of a tree's
	// memory and checking it costs less than decoding, so a run that predicts objects one
	// by one holds few trees at once. What is read, every error and warning, and every
	// line are the same as without it.
	DeferDecoding bool
	// SourceComments attributes each YAML document of standard input that starts with the
	// comment `# Source: PATH` — what `helm template` writes above each document — to
	// PATH: its Source names the template (Via "helm template"), its document index counts
	// the documents of that template, and its lines count from the line after the comment.
	SourceComments bool
	// SourceCommentsInFiles does the same for the documents of files: a `helm template`
	// output saved to a file, for the Helm applier, which tells a chart's crds/ by them.
	SourceCommentsInFiles bool
	// RequestBodies reads every stream as the API server reads the body of an apply
	// request: as YAML, of which JSON is a part — a JSON text with trailing commas after the
	// last member of an object or list, which YAML's flow style allows and kubectl's JSON
	// reader refuses, is read as the server reads it. A stream that is valid JSON is read as
	// JSON all the same. Meant for raw requests (`--applier api`).
	RequestBodies bool
	// SourceRoot is the directory the paths of Source comments are relative to (the chart's
	// parent directory); "" for the current one.
	SourceRoot string
	// Renderer, when set, is asked about each directory Load meets (the path given
	// included): a directory it renders (a kustomization, say) is not read as files; what
	// it renders stands for its contents, in the directory's place among the files.
	Renderer DirRenderer
	// IgnoreFile, when set, leaves out each file of a directory walk it reports (the
	// command's --ignore-filename-pattern, as kubeconform's): not read, not counted.
	IgnoreFile func(path string) bool

	started   bool
	limits    Limits // Limits with the defaults filled in
	read      int64  // bytes read so far, all paths together
	visited   int    // directory entries visited so far
	objects   int    // objects read so far
	stdinUsed bool
	rendered  map[string]bool // directories of a walk that Render claims

	objectLimitSaid bool

	// Files read ahead by ReadAhead, by path, and the input they reserve together.
	ahead    map[string]*fileAhead
	reserved int64
}

// BytesRead is how many bytes the loader has read so far, all paths together.
func (l *Loader) BytesRead() int64 { return l.read }

func (l *Loader) objectLimitError() error {
	return &LimitError{What: "more objects than", Max: int64(l.limits.MaxObjects), Unit: "objects (manifests and live objects together); the rest is not read", Option: "max-objects"}
}

// full reports whether a limit on all input together was reached.
func (l *Loader) full() bool {
	return l.read >= l.limits.MaxInputBytes || l.objects >= l.limits.MaxObjects
}

func (l *Loader) init() {
	if !l.started {
		l.started = true
		l.limits = l.Limits.withDefaults()
	}
}

func (l *Loader) inputLimitError() error {
	return &LimitError{What: "the input (all files together) is larger than", Max: l.limits.MaxInputBytes, Unit: "bytes", Option: "max-input-bytes"}
}

// fileError is an *Error about a whole file or directory.
func fileError(name string, err error) *Error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		what := "read"
		switch pe.Op {
		case "open":
			what = "open"
		case "readdirent", "readdir":
			what = "list the directory"
		}
		if pe.Path != name {
			err = fmt.Errorf("cannot %s %s: %w", what, pe.Path, pe.Err)
		} else {
			err = fmt.Errorf("cannot %s: %w", what, pe.Err)
		}
	}
	return &Error{Source: Source{File: name}, Err: err, whole: true}
}

// Load reads every object in path: a file, a directory (recursively, files ending in .yaml,
// .yml or .json in lexical order) or "-" for standard input. The objects it could read come
// back in order, with an error in place of each document it could not read; a path that
// cannot be read at all, or holds no object at all, is one error.
func (l *Loader) Load(path string) []Entry {
	l.init()
	if l.objects >= l.limits.MaxObjects {
		return errEntry(fileError(path, fmt.Errorf("not read: %w", l.objectLimitError())))
	}
	if path == StdinName {
		if l.Stdin == nil {
			return errEntry(fileError(StdinName, errors.New("no standard input")))
		}
		if l.stdinUsed {
			return errEntry(fileError(StdinName, errors.New("standard input (-) can be read only once")))
		}
		l.stdinUsed = true
		entries, docs := l.parseStreamOpts(StdinName, l.Stdin, l.SourceComments, streamBuffer)
		if docs == 0 && len(entries) == 0 {
			return errEntry(fileError(StdinName, fmt.Errorf("%w: standard input is empty", ErrNoObjects)))
		}
		return entries
	}
	info, err := os.Stat(path)
	if err != nil {
		return errEntry(fileError(path, err))
	}
	if !info.IsDir() {
		entries, docs, ok := l.adoptAhead(path)
		if !ok {
			entries, docs = l.loadFile(path)
		}
		if docs == 0 && len(entries) == 0 {
			return errEntry(fileError(path, emptyFile(info)))
		}
		return entries
	}
	if l.Renderer != nil && l.Renderer.Renders(path) {
		return l.Renderer.Render(path)
	}
	files, entries := l.walk(path)
	if len(files) == 0 && len(entries) == 0 {
		return errEntry(fileError(path, fmt.Errorf("%w: the directory holds no .yaml, .yml or .json file", ErrNoObjects)))
	}
	docs, skipped := 0, 0
	ahead := l.startReadAhead(files, l.rendered)
	defer ahead.close()
	for i, f := range files {
		if l.full() {
			skipped++
			continue
		}
		if l.rendered[f] {
			es := l.Renderer.Render(f)
			entries = append(entries, es...)
			docs++
			continue
		}
		es, n, ok := ahead.adopt(l, i)
		if !ok {
			es, n = l.loadFile(f)
		}
		entries = append(entries, es...)
		docs += n
	}
	if skipped > 0 {
		why := l.inputLimitError()
		if l.objects >= l.limits.MaxObjects {
			why = l.objectLimitError()
		}
		entries = append(entries, Entry{Err: fileError(path, fmt.Errorf("%d more files not read: %w", skipped, why))})
	}
	if docs == 0 && len(entries) == 0 {
		return errEntry(fileError(path, fmt.Errorf("%w: every .yaml, .yml and .json file in the directory is empty", ErrNoObjects)))
	}
	return entries
}

// ErrNoObjects is wrapped by the error of a file, or a directory's files, holding no
// object: empty, or only blanks, comments and document separators. It names no object.
var ErrNoObjects = errors.New("no objects")

func emptyFile(info fs.FileInfo) error {
	if info.Mode().IsRegular() && info.Size() == 0 {
		return fmt.Errorf("%w: the file is empty", ErrNoObjects)
	}
	return fmt.Errorf("%w: the file holds only blanks, comments and document separators", ErrNoObjects)
}

// IsManifestFile reports whether a file in a directory is read: .yaml, .yml or .json.
func IsManifestFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// loadFile reads one file; it returns its entries and how many documents held something.
func (l *Loader) loadFile(path string) ([]Entry, int) {
	f, err := os.Open(path)
	if err != nil {
		return errEntry(fileError(path, err)), 0
	}
	defer f.Close()
	buffer := streamBuffer
	if info, err := f.Stat(); err == nil {
		if info.IsDir() {
			return errEntry(fileError(path, errors.New("is a directory"))), 0
		}
		buffer = bufferFor(info.Size())
	}
	return l.parseStreamOpts(path, f, l.SourceCommentsInFiles, buffer)
}

// walk lists the manifest files under root in lexical order, and the errors met on the
// way. It follows symbolic links (root's too) but reads each directory once, so links that
// loop end; it visits at most Limits.MaxFiles entries; files that are not regular files
// (pipes, devices, sockets), which could block or never end, are reported, not read.
func (l *Loader) walk(root string) ([]string, []Entry) {
	var files []string
	var errs []Entry
	seen := map[fileID]bool{}
	if info, err := os.Stat(root); err == nil {
		if id, ok := idOf(info); ok {
			seen[id] = true
		}
	}
	stack := []string{root}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := readDir(dir, l.limits.MaxFiles-l.visited+1)
		if err != nil {
			errs = append(errs, Entry{Err: fileError(dir, err)})
		}
		var subdirs []string
		for _, e := range ents {
			l.visited++
			if l.visited > l.limits.MaxFiles {
				errs = append(errs, Entry{Err: fileError(root, &LimitError{What: "the directory walk visits more entries than", Max: int64(l.limits.MaxFiles), Unit: "files and directories", Option: "max-files"})})
				sort.Strings(files)
				return files, errs
			}
			p := filepath.Join(dir, e.Name())
			typ := e.Type()
			var info fs.FileInfo
			if typ&fs.ModeSymlink != 0 || typ.IsDir() {
				info, err = os.Stat(p) // follows the link
				if err != nil {
					if IsManifestFile(p) || typ.IsDir() {
						errs = append(errs, Entry{Err: fileError(p, err)})
					}
					continue
				}
				typ = info.Mode().Type()
			}
			switch {
			case typ.IsDir():
				if id, ok := idOf(info); ok {
					if seen[id] {
						continue // a link to a directory already read (or to an ancestor: a loop)
					}
					seen[id] = true
				}
				if l.Renderer != nil && l.Renderer.Renders(p) {
					if l.rendered == nil {
						l.rendered = map[string]bool{}
					}
					l.rendered[p] = true
					files = append(files, p) // read in its place among the files
					continue
				}
				subdirs = append(subdirs, p)
			case !IsManifestFile(p):
			case l.IgnoreFile != nil && l.IgnoreFile(p):
			case typ.IsRegular():
				files = append(files, p)
			default:
				errs = append(errs, Entry{Err: fileError(p, fmt.Errorf("not a regular file (%s); not read", typ))})
			}
		}
		for i := len(subdirs) - 1; i >= 0; i-- {
			stack = append(stack, subdirs[i])
		}
	}
	sort.Strings(files)
	return files, errs
}

// readDir reads at most max entries of a directory, sorted by name.
func readDir(dir string, max int) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ents []fs.DirEntry
	for len(ents) < max {
		batch, err := f.ReadDir(1024)
		ents = append(ents, batch...)
		if err == io.EOF {
			break
		}
		if err != nil {
			sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
			return ents, err
		}
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, nil
}

// Parse reads the objects in data, a file's contents, with the default limits; name is
// the file's name in sources.
func Parse(name string, data []byte) []Entry {
	var l Loader
	l.init()
	entries, _ := l.parseStream(name, bytes.NewReader(data))
	return entries
}

// ReadFile reads a whole file that is one document (an OpenAPI document), within the
// document and input limits.
func (l *Loader) ReadFile(path string) ([]byte, error) {
	l.init()
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fileError(path, errors.New("is a directory"))
	}
	data, err := io.ReadAll(io.LimitReader(&budgetReader{r: f, l: l}, l.limits.MaxDocumentBytes+1))
	if err != nil {
		return nil, fileError(path, err)
	}
	if int64(len(data)) > l.limits.MaxDocumentBytes {
		return nil, fileError(path, &LimitError{What: "the document is larger than", Max: l.limits.MaxDocumentBytes, Unit: "bytes", Option: "max-document-bytes"})
	}
	return data, nil
}
