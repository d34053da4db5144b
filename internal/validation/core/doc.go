// Package core is the validation of the core group's kinds (ConfigMap, Secret, Service,
// the pod template …) as kube-apiserver's registry runs it at the minor of the server
// described (serverconfig.Config, 1.32 to 1.38): each kind's strategy (Strategy), the
// group's validators over the internal types of package internal/api/core, and the
// declarative validation each minor enforces for the group. Error messages and the values they
// print are the server's, byte for byte; rules cited are docs/rules.md's valid.builtin,
// valid.update, valid.metadata and valid.minors.
//
// # Minors
//
// One code path serves every minor. Where releases differ the difference is the server's
// feature gates (cfg.Enabled, at each minor's defaults: StrictIPCIDRValidation,
// RelaxedServiceNameValidation, SELinuxMount, ContainerRestartRules …) or a switch on the
// minor beside the rule (cfg.AtLeast(36) or opts.Server.AtLeast(36)), commented with the
// release that changed it and the server's file and lines before and after. Messages of
// k8s.io/apimachinery, which ssa-diff links at v0.37.2 alone, are put in the minor's words
// by package objectmeta, for every kind, where the registry answers.
//
// # Kinds and their strategies
//
// A kind's files are named after it (service.go, secret.go, node.go …). A strategy
// validates the object its PrepareForCreate/PrepareForUpdate left; the engine applies those
// rules to the object it predicts (package internal/strategy), so the validators here only
// read. A Service is the exception that shows the line: its REST storage, before the
// strategy, keeps clusterIP and clusterIPs in step, defaults the IP family policy, checks
// the cluster-IP fields on their own (a 422 with those errors alone) and allocates node
// ports and a health-check port (service_storage.go, run by
// internal/validation.ValidateWrite). The IP families the cluster serves are its
// configuration (registry.Cluster: the recording server's, IPv4 alone, unless declared):
// the allocator refuses dual stack of a single-stack cluster and families it does not
// serve, and gives the families it adds. What depends on more of the cluster — free
// addresses in the service CIDRs, the node-port range, ports other Services hold — is not
// predicted.
//
// An events.k8s.io/v1 Event is the core group's internal Event: EventsStrategy validates it
// with the strict rules of that version, and the server names it "Event" in its message.
//
// # The pod template
//
// Pod, PodTemplate and ReplicationController here, and every workload kind of the apps and
// batch groups, validate their pods with ValidatePodTemplateSpec or ValidatePodSpec
// (podspec.go): containers of every kind (container.go), volumes of every source
// (volumes.go), security contexts (securitycontext.go), scheduling constraints
// (affinity.go), resources and resource names (resources.go). What is checked depends on
// PodValidationOptions (podoptions.go): the server (its minor and gates), and leniencies for
// what the stored object already holds, so that an update is not refused for a value that
// was accepted when it was written — GetValidationOptionsFromPodTemplate computes them from
// the new and the stored template as the server does. Errors come in the server's order,
// which is the order of its checks, except where it ranges over a map (resource lists,
// annotations): then in any order.
//
// Updates that may not change what they change print the server's diff of the two
// internal objects (a Pod's spec, a claim's spec, a volume's source): apimachinery's
// diff.Diff of their JSON, field names as Go writes them.
//
// Declarative validation (declarative_pod.go) adds the few rules each minor enforces under these
// kinds (a ReplicationController's beta rules, eviction responders, volume health); the
// 1.37 registry joins them to the handwritten errors (earlier minors answer with the
// handwritten errors alone). Warnings (warnings.go) are the ones the server returns with
// an accepted write.
package core
