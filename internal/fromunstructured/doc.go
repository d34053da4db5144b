// Package fromunstructured converts decoded JSON — maps, lists, strings, int64 and float64
// numbers, booleans, nulls — into API Go types as apimachinery's converter
// (runtime.DefaultUnstructuredConverter.FromUnstructured) does, without its reflection: for
// the metadata of every custom resource a run validates and every HorizontalPodAutoscaler
// it converts, the converter's walk over struct fields, its JSON round trips for times and
// quantities and its reflective map and slice building cost more than the checks that
// read the result.
//
// It converts only what it can convert exactly as the converter does, value for value: a
// member absent or null leaves its field zero, members the type does not have are ignored,
// an int64 goes into an int32 field as the converter's reflection converts it, times are
// parsed as metav1.Time's UnmarshalJSON parses them, quantities as resource.Quantity's. A
// value of another type, or one the converter would refuse or convert in a way not
// reproduced here (a float64 for an integer, a time that does not parse), makes a
// conversion report false; its caller then runs the converter, which gives the result or
// the error as it always did. The tests hold every conversion here to the converter on any
// input.
//
// [Object] reads the members of an object into a struct's fields; [ObjectMeta] converts an
// object's metadata and [LabelSelector] a label selector with it.
package fromunstructured
