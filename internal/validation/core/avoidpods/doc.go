// Package v1 holds the served (v1) shape of a Node's deprecated preferAvoidPods annotation,
// the JSON the server decodes it into before validating it. The package is named v1, as
// the server's is, because decoding errors name the Go types they decode into
// ("… of type v1.PodSignature") and the server's message prints them.
package v1
