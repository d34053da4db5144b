// Package strategy applies the registry rules kube-apiserver applies, at the
// minor and with the feature gates of the server described (serverconfig.Config,
// 1.34 to 1.37), to a built-in object around storage (its REST strategies' PrepareForCreate and
// PrepareForUpdate, and rest.BeforeUpdate), and names the values the server
// assigns that no offline prediction can know.
//
// # The model
//
// After field management and defaulting (package internal/defaults), the
// server prepares the object for storage:
//
//   - metadata.generation is 1 on create for kinds that track it (not for a
//     CSIDriver, whose strategy only bumps it) and is bumped when the spec
//     changes (Deployment: or its annotations; webhook configurations: their
//     webhooks; EndpointSlice: anything but metadata, or its labels); on
//     update it starts from the stored value (Rules);
//   - "changes" is the strategy's comparison of the decoded Go objects
//     (internal/defaults.Equal): semantic for most kinds, so numbers compare by
//     value in their field's Go type (a CRD schema's minimum 0 equals 0.0)
//     and quantities by value ("1Gi" equals "1024Mi"); reflect.DeepEqual for
//     webhook configurations and NetworkPolicy, where an empty list or map in
//     the request differs from the nil one storage returns — the rules that
//     need the request's object as decoded before defaulting get it through
//     the …Decoded functions (NeedsDecoded);
//   - kinds with a status subresource get their status cleared on create
//     (with a few values a strategy sets: a Pod's phase and QoS class, a
//     Namespace's phase) and keep the stored status on a main-resource
//     update; /status writes keep everything but status;
//   - a few kind-specific rules: a Namespace's kubernetes finalizer, a
//     DaemonSet's template generation, a Secret's type kept when unset, a
//     Job's generated job-name labels (a Job without labels of its own gets
//     its template's), a DeviceTaintRule's taint time restamped when its
//     effect changes, and a Service's allocated values: what follows from the
//     object (clusterIPs from a given clusterIP, the IP family policy and the
//     families the IPs imply, a node port shared by ports of one number) is
//     derived, allocated values left unset are kept on update, and a type
//     change wipes what the new type does not use;
//   - what other strategies add, clear or drop: fields of features the
//     server has off — in 1.37 a pod template's schedulingGroup,
//     evictionResponders, stop signals, bind mount options, emptyDir mode,
//     volume user fields, a gRPC probe's mode, an HTTP probe's or hook's
//     protocol; a Job's scheduling; a Lease's strategy and preferredHolder; a
//     Node's configSource and podPreemptionPolicy; a ResourceSlice's
//     list-valued attributes, partition type attribute, counter compatibility
//     groups, node allocatable resources and skipped node operations; a
//     resource claim's or claim template's derived attributes; in older
//     minors also a pod template's container restart policies and rules, env
//     file key references, hostnameOverride and image volumes with their
//     mounts (1.34), projected cluster trust bundles and pod certificates (up
//     to 1.36), a Node's declared features (1.35) — dropped on create, and on
//     update unless the stored object uses them (a ResourceSlice's generation is compared
//     before the drop, so a dropped field still moves it), and on a /status
//     write the status fields of such features (a Pod's volume mount status,
//     node allocatable claim statuses and volume health; a Node's config
//     status; a PersistentVolumeClaim's and a CSINode's volume health; a ResourceClaim result's skipped node operations, and the
//     status of devices the write deallocates; up to 1.35 a Pod's extended
//     resource claim status, its pod-level resources (1.35) and, even when
//     stored, its health statuses) — the applier keeps owning what is
//     dropped, since field management ran first; a 1.37 Pod /status write
//     keeps the stored DRA status fields it leaves out; a Pod's QoS class from
//     its pod-level resources (up to 1.36 whenever spec.resources is there; in
//     1.37 when they name cpu, memory or hugepages, after the strategy
//     defaulted them); a Pod's scheduling-gated condition
//     and its matchLabelKeys turned into selector requirements; a
//     PersistentVolumeClaim's data sources; a ServiceAccount's secret
//     references reduced to names; a CertificateSigningRequest's requester;
//     a local APIService's Available condition; an EndpointSlice's
//     deprecatedTopology; a CRD's storage version recorded on update; a
//     Node's status kept on create.
//
// Then the object is stored and read back, which defaults it again. Create,
// Update and UpdateStatus run that whole sequence (Default, Prepare…,
// Default); the Prepare… functions are the registry step alone.
//
// Values the server assigns (uid, creationTimestamp, resourceVersion, an
// allocated clusterIP or nodePort, the cluster's IP families, a Job's
// controller-uid labels and selector, a PersistentVolume's phase transition
// time, a device taint's time) are never invented: Assigned lists those the
// stored object will have and the prediction has not, so a report can say
// "assigned by the server". The cluster is taken to be single-stack.
package strategy
