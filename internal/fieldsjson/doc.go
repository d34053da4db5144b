// Package fieldsjson reads and writes the JSON of decoded objects — above all the field sets
// of metadata.managedFields (fieldsV1) — byte for byte as encoding/json does, without its
// reflection on the common shapes.
//
// The model: a decoded JSON value is what encoding/json.Unmarshal into an any gives (maps
// with string keys, lists, strings, booleans, numbers, nil; integers may also be int64).
// [AppendJSON] writes such a value as encoding/json.Marshal would (keys sorted, HTML
// characters escaped), [DecodeJSON] reads text as encoding/json.Unmarshal would, and
// [CanonicalFieldsV1] rewrites fieldsV1 text into the form encoding/json gives its decoded
// tree, so that equal field sets have equal text; [Encodable] says whether AppendJSON would
// write a value, without writing it. Each falls back to encoding/json for input outside the
// shapes it reads directly, so its answers (and errors) are always encoding/json's. The fuzz
// targets FuzzDecodeJSON and FuzzCanonicalFieldsV1 hold them to it.
package fieldsjson
