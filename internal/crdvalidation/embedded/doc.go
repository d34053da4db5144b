// Package embedded validates the resources a custom resource embeds
// (x-kubernetes-embedded-resource) as apiextensions-apiserver does: each must have a string
// apiVersion that parses as a group/version and a kind that is a DNS-1035 label in any case,
// and its metadata is validated as a created object's would be (a missing name does not
// count), with path-segment name rules.
package embedded
