// Package gather reads a run's inputs as the command reads them, from one Options: the
// minor decided first (the flag, else a dump's record of its cluster, else the cluster's
// /version), the registry of that minor with the --schema and --crd files, the manifests
// (kustomizations built, helm template output attributed to its templates, a --kubectl
// command's named objects, a Flux Kustomization's changes), the live state (a dump, or the
// cluster read with its admission state), then the manifests paired with their live
// objects (Inputs.Pair) and the slots of the report planned (Inputs.Slots: the prune
// preview's, less --skip and the other shards).
//
// Its steps are the command's order, which the outputs show (the warnings on standard
// error come as each step meets them):
//
//	Read   the cluster state of --admission-from, the schemas, the manifests, the live state
//	Pair   the CRDs among the inputs registered, the namespace and applier of a cluster read,
//	       the judge, the pairs
//	Slots  the pruned objects, the live state's word on itself, --skip and --shard
//
// A dump given as a file is read ahead from Read's start, in another goroutine, while the
// schemas and manifests are read (input.Loader.ReadAhead): on two CPUs reading the
// manifests leaves one idle at times. The live state read is taken as if read in its
// place, so the order above, the limits and every message stay as they were.
//
// A Helm command runs between Pair and Slots (package helmrun): its applier is the one the
// prune preview asks. The package knows nothing of the command's flags (package cli sets
// Options from them); it lies below the command and outside the library, as plan does.
package gather
