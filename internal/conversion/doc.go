// Package conversion converts built-in objects between the versions kube-apiserver 1.37
// serves, as the server converts them.
//
// # The model
//
// The API server stores an object once, in its internal version, and serves it at every
// version of its group that is enabled: a request names one version (the URL's), the
// server converts the stored object to that version, works on it there — field management
// happens at the request's version — and converts the result back to the internal version
// to store it. Reading it at another version converts again. Conversion is not a renaming
// of fields: a version that cannot express a field keeps it in an annotation, and reading
// the annotation back restores it; what a version cannot say at all is lost on the way.
//
// With the default API configuration of 1.37 (every GA group-version enabled, every alpha
// and beta version disabled; see schema.Type.Served), one built-in kind is served at two
// versions: HorizontalPodAutoscaler, at autoscaling/v1 and autoscaling/v2. Its internal
// version has autoscaling/v2's shape (the server's generated conversions between the two
// copy memory), so v2 is this package's hub too; autoscaling/v1 keeps what it cannot
// express in four annotations:
//
//   - autoscaling.alpha.kubernetes.io/metrics: every metric but the CPU utilisation target
//     (which is spec.targetCPUUtilizationPercentage), as a JSON list of v1 MetricSpecs;
//   - autoscaling.alpha.kubernetes.io/current-metrics: every current metric (the CPU one
//     too, whose utilisation is also status.currentCPUUtilizationPercentage);
//   - autoscaling.alpha.kubernetes.io/behavior: spec.behavior, written as the internal Go
//     type encodes it (Go field names: {"ScaleUp":{"StabilizationWindowSeconds":…}});
//   - autoscaling.alpha.kubernetes.io/conditions: status.conditions.
//
// Reading v1 back, an annotation that does not decode is ignored; an HPA that ends without
// any metric gets the CPU utilisation target of 80%; and the round-trip annotations (those
// four and the two tolerance annotations) never reach the internal version, so an object
// written at autoscaling/v2 loses them too.
//
// The conversions run on Go types with k8s.io/api's names, fields and JSON tags
// (internal/wire: k8s.io/api itself is not linked, its core/v1 package costs every run
// its initialisation), decoded from and encoded to the unstructured form with
// apimachinery's converter as the server does (an autoscaling/v2 object is decoded member
// by member, internal/fromunstructured, when it holds nothing that needs the converter's
// own reading or error), and the annotations written with
// encoding/json, so that their JSON, omitted zero values and quantities are written byte
// for byte as the server writes them. conformance/defaulting checks those types against
// k8s.io/api's and compares Convert with k8s.io/kubernetes' own conversion on random
// objects of both versions.
//
// The Go types here are the newest release's. An older minor's lack some of their fields,
// which its decoding drops as any unknown field, warning of each on an update (DecodeBody):
// an HPA condition's observedGeneration before 1.37, a scaling rule's tolerance before
// 1.33 — where 1.32's behavior annotation has no Tolerance and the two tolerance
// annotations are not round-trip ones. Each such difference is a constant naming its minor.
//
// Custom resources are not converted here: their CustomResourceDefinition says how
// (strategy None rewrites apiVersion and keeps every field; a webhook cannot be run
// offline), which package merge decides.
package conversion
