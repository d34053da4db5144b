// Package schemafiles reads the schemas a run is given beside the built-in kinds: the
// OpenAPI documents of --schema (files, or directories of .json, .yaml and .yml files)
// and the CustomResourceDefinitions of --crd, read as the server holds them. A [Set] keeps
// what it read, so that a run that learns its minor only from the live state (a cluster's
// /version, a dump's record) builds that minor's registry with them again
// ([Set.Registry]).
package schemafiles
