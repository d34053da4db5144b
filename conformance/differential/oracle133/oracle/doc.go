// Package oracle is the API server's field management, run in-process: the field manager
// chain kube-apiserver builds (k8s.io/apimachinery's managedfields.NewDefaultFieldManager,
// or NewDefaultCRDFieldManager for custom resources) with the strategies' reset fields,
// followed by the registry store's undoing of timestamp-only changes
// (k8s.io/apiserver's IgnoreManagedFieldsTimestampsTransformer) and, for custom
// resources, the decoding the server applies to request bodies and stored objects
// (apiextensions' pruning, null pruning and structural defaulting).
//
// # The model
//
// A Server serves Kinds, each with its type converter (client-go's apply-configuration
// schema for built-in kinds; for a CRD, the OpenAPI the apiextensions builder makes,
// converted by managedfields.NewTypeConverter, as the customresource handler does). The
// type converter of built-in kinds knows only the versions kube-apiserver serves, as the
// server's does. Objects of a kind served at one version keep their fields when converted;
// a kind served at several versions (the HorizontalPodAutoscaler) is served with
// k8s.io/kubernetes' own scheme: objects are held in the internal version, converted to the
// request's, and the field manager converts through the internal version; a CRD's
// versions convert with apiextensions' converter. Defaulting is absent for built-in kinds:
// what is compared is field management, not Go defaulting.
//
// The field manager stamps entries with the wall clock. To answer for a logical time,
// a request's managedFields times are shifted so that the logical time falls on the
// current wall-clock second, and the answer's times are shifted back; a request that
// straddles a second is run again. The cap on update entries orders by whole seconds,
// so it sees exactly what it would see at the logical time.
package oracle
