// Package unstructured compares decoded JSON values — the maps, slices, strings, booleans,
// numbers and nils that Kubernetes objects are made of once decoded — as reflect.DeepEqual
// compares them, without reflection. Objects are compared on every request (did the write
// change anything, did the spec change), and reflection costs several times a type switch.
package unstructured
