// Package gen makes random values of structured-merge-diff types: objects that are valid
// for a schema, parts of them (Subset), edits of them (Mutate), merges (Merge) and, for
// live objects only, duplicate list items (Duplicate).
//
// # The model
//
// A value is drawn by walking the schema: struct fields are chosen at random (fields on
// a hint path almost always), granular and atomic maps get a few keys from a small
// vocabulary, list-maps get items with unique keys (a defaulted key field is sometimes
// left out, as clients do), sets get unique scalars, atomic lists anything. Values come
// from small per-field vocabularies so that independent managers often agree and often
// conflict. Every walk visits map keys in sorted order: a seeded source gives the same
// values every time.
package gen
