// Package rawpatch holds the patches of `--verb patch` that name no object: a JSON patch, or
// a merge or strategic patch without apiVersion, kind and metadata.name. They are kept aside
// as JSON when the manifests are read ([Set.Split]); each becomes a manifest stub naming the
// one live object it patches ([Set.Stubs]), so that it is paired and reported as any
// manifest; its request carries the patch as it is, with no object ([Set.For]).
package rawpatch
