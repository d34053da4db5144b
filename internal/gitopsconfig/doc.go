// Package gitopsconfig reads the GitOps controllers' own configuration as the controllers
// read it, into plain data the command turns into a prediction's settings:
//
//   - an Argo CD Application (argoproj.io/v1alpha1): its destination namespace, its
//     syncPolicy.syncOptions (ServerSideApply, RespectIgnoreDifferences,
//     ClientSideApplyMigration, …) and its ignoreDifferences — per group, kind, name and
//     namespace, jsonPointers, jqPathExpressions and managedFieldsManagers;
//   - a Flux Kustomization (kustomize.toolkit.fluxcd.io/v1): spec.force, spec.ignore (the
//     controller's drift ignore rules, read and not yet predicted), and what changes each
//     object before the controller applies it — spec.targetNamespace (kustomize's namespace
//     transformer, as the kustomization the controller generates) and spec.postBuild
//     (substitute and substituteFrom, resolved from the ConfigMaps and Secrets given; the
//     substitution of fluxcd/pkg/envsubst, strict as the controller runs it by default:
//     ${var}, ${var:=default}, $${ escapes, kustomize.toolkit.fluxcd.io/substitute:
//     disabled). Kustomization.Build does it to one object, BuildEntries to what was read.
//
// Syncoptions are read as Argo CD reads them: "Name=value" strings, the last one of a
// name winning, values compared case-sensitively as Argo CD compares them ("true").
package gitopsconfig
