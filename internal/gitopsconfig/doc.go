// Package gitopsconfig reads the GitOps controllers' own configuration as the controllers
// read it, into plain data the command turns into a prediction's settings:
//
//   - an Argo CD Application (argoproj.io/v1alpha1): its destination namespace, its
//     syncPolicy.syncOptions (ServerSideApply, RespectIgnoreDifferences,
//     ClientSideApplyMigration, …) and its ignoreDifferences — per group, kind, name and
//     namespace, jsonPointers, jqPathExpressions and managedFieldsManagers;
//   - a Flux Kustomization (kustomize.toolkit.fluxcd.io/v1): spec.targetNamespace,
//     spec.force, spec.ignore-like fields, spec.postBuild.substitute and substituteFrom
//     (resolved from ConfigMaps and Secrets given), and the variable substitution Flux
//     runs on each object (${var}, ${var:=default}).
//
// Syncoptions are read as Argo CD reads them: "Name=value" strings, the last one of a
// name winning, values compared case-sensitively as Argo CD compares them ("true").
package gitopsconfig
