// Package jsontext rewrites JSON text as encoding/json's Compact and Indent do, byte for
// byte and error for error, an order of magnitude faster on the text ssa-diff handles.
//
// encoding/json checks text with a scanner that makes a function call per byte. ssa-diff
// compacts every object of a cluster dump (which comes indented) and indents every result
// of a JSON report once all are predicted, while nothing else runs; together they were a
// tenth of a 1,000-object run. The walker here checks JSON's grammar itself in one pass,
// copying as it goes. What it does not take — nesting deeper than the scanner allows —
// and whatever it finds invalid go to encoding/json, which then gives its own text or error:
// the result is always encoding/json's.
//
// The walker reads the text with a [Scanner], which checks JSON's grammar token by token —
// spaces, literals, numbers, strings, the members of objects and arrays — and which the
// other readers of JSON text in ssa-diff share: package input decodes the objects it keeps
// as text with it, package fieldsjson the field sets of managedFields. Each of them builds
// its own result from the tokens and leaves to encoding/json whatever the Scanner refuses.
//
// A [Compactor] compacts as Compact does and, in the same pass, tells whether the text's
// strings are all UTF-8 and whether an object has a key twice (keys as encoding/json
// decodes them): what package input warns about when it reads an object. Package input
// keeps the objects of a cluster dump as their compact text, and would otherwise scan each
// text again for those warnings.
//
// Two helpers serve package input's decoding of the objects it keeps as text. A
// [StringCache] given to a Scanner hands out one string for the equal short keys and
// values of a document (name, protocol, TCP in every item), instead of a new one each.
// [Scanner.CanonicalSet] reads a field set whose text is already what encoding/json writes
// of it — a managedFields entry's fieldsV1 as a dump holds it — and gives that text, so
// that it is copied rather than decoded into maps and encoded again; anything else it
// leaves to be decoded.
package jsontext
