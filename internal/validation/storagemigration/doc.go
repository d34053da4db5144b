// Package storagemigration is the validation of the storagemigration.k8s.io group's
// StorageVersionMigration as the registry of kube-apiserver 1.32 to 1.38 runs it (Strategy): the
// resource to migrate (a DNS label, in a group that is a DNS subdomain), never changed
// once created, and the status a migrator writes through /status — a resource version
// that parses and never changes once set, and Succeeded and Failed conditions that are
// not both true and, once true, stay so.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package storagemigration
