// Package wire is the home of the served versions' wire forms that ssa-diff needs as Go
// types but does not take from k8s.io/api (whose core/v1 package it does not link: its
// initialisation costs every run): subpackages autoscalingv1 and autoscalingv2, the
// HorizontalPodAutoscaler that package internal/conversion converts. Their types have
// k8s.io/api's names, field order and JSON tags; conformance/defaulting checks them
// against k8s.io/api field by field.
package wire
