// Package server is the contract between the field manager (package merge) and a model of
// the API server around it: what the server does to an object before and after field
// management decides who owns which field.
//
// # The model
//
// kube-apiserver runs every write through its field manager, and around it through code
// that has nothing to do with ownership but decides what is stored and whether it may be:
//
//   - decoding: the body is read into the kind's Go type and defaulted ([Defaulter]); the
//     store compares objects decoded that way before it writes (quantities by value);
//   - conversion: a kind served at several versions is held at its internal version, and
//     read and written through the request's ([Converter]);
//   - the registry strategy: rules that prepare the object for storage — status reset,
//     generation, fields of disabled features dropped, values the server assigns
//     ([Strategy]), and the fields a subresource may not write ([ResetFields]);
//   - admission: the plugins of the admission chain that fill in or refuse a write by what
//     the object says, between field management and the registry's rules ([Admitter]);
//   - validation: the 422s of the kind ([Validator]).
//
// A [Model] is all five. Package merge asks a Model at each of those steps and knows
// nothing else of the server; package server/kubeapiserver is kube-apiserver's own, at a
// chosen Kubernetes minor (package kube); [FieldManagementOnly] does nothing but
// what every kind shares, as the client-go and controller-runtime fakes do. The contract
// is in this small package, as database/sql/driver is beside database/sql, so that a
// model need not import the engine and the engine need not link a model.
package server
