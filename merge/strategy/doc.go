// Package strategy applies the registry rules kube-apiserver 1.37 applies to
// a built-in object around storage (its REST strategies' PrepareForCreate and
// PrepareForUpdate, and rest.BeforeUpdate), and names the values the server
// assigns that no offline prediction can know.
//
// # The model
//
// After field management and defaulting (package merge/defaults), the
// server prepares the object for storage:
//
//   - metadata.generation is 1 on create for kinds that track it and is
//     bumped when the spec changes (Deployment: or its annotations; webhook
//     configurations: their webhooks; EndpointSlice: anything but metadata,
//     or its labels); on update it starts from the stored value (Rules);
//   - kinds with a status subresource get their status cleared on create
//     (with a few values a strategy sets: a Pod's phase and QoS class, a
//     Namespace's phase) and keep the stored status on a main-resource
//     update; /status writes keep everything but status;
//   - a few kind-specific rules: a Namespace's kubernetes finalizer, a
//     DaemonSet's template generation, a Service's allocated values (derived
//     from a given clusterIP on create, kept on update when left unset), a
//     Secret's type kept when unset.
//
// Then the object is stored and read back, which defaults it again. Create,
// Update and UpdateStatus run that whole sequence (Default, Prepare…,
// Default); the Prepare… functions are the registry step alone.
//
// Values the server assigns (uid, creationTimestamp, resourceVersion, an
// allocated clusterIP or nodePort, a Job's controller-uid selector, a
// PersistentVolume's phase transition time) are never invented: Assigned
// lists them so a report can say "assigned by the server".
package strategy
