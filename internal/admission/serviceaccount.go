package admission

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The ServiceAccount plugin's names (k8s.io/kubernetes plugin/pkg/admission/serviceaccount).
const (
	defaultServiceAccount  = "default"
	tokenVolumePrefix      = "kube-api-access-"
	tokenMountPath         = "/var/run/secrets/kubernetes.io/serviceaccount"
	mirrorPodAnnotation    = "kubernetes.io/config.mirror"
	enforceMountableSecret = "kubernetes.io/enforce-mountable-secrets"
	// tokenExpirationSeconds is the bound token's expiry the projected volume asks for
	// (serviceaccount.WarnOnlyBoundTokenExpirationSeconds).
	tokenExpirationSeconds = 3607
	// projectedDefaultMode is 0644, set explicitly by the plugin.
	projectedDefaultMode = 420
)

// TokenVolumeStandIn is the name the prediction gives the token volume the ServiceAccount
// plugin adds to a Pod: the server names it kube-api-access- and five random letters, no
// prediction can know which (Assigned lists it). The stand-in is a name the server never
// makes: its letters exclude 0.
const TokenVolumeStandIn = tokenVolumePrefix + "00000"

// serviceAccount is the ServiceAccount plugin's admission of a Pod create (rules.md
// admission.service-account): the default account when the Pod names none, its token as
// a projected volume mounted in every container (unless the Pod or the account opts out,
// or a container mounts something at the token's path), the account's image pull secrets
// when the Pod has none. The account must exist (403 otherwise). It runs for a cluster
// state given: a bare model is the recording server, which disables the plugin.
func (c *Chain) serviceAccount(w Write, out *server.Admission) {
	if c.cfg.State == nil || w.Subresource != "" || !w.create() || !w.is("", "Pod") {
		return
	}
	md := unstructured.Object(w.Object, "metadata")
	if _, mirror := unstructured.Object(md, "annotations")[mirrorPodAnnotation]; mirror {
		return // a mirror pod is only validated
	}
	spec := unstructured.EnsureObject(w.Object, "spec")
	if unstructured.Str(spec, "serviceAccountName") == "" {
		spec["serviceAccountName"] = defaultServiceAccount
		spec["serviceAccount"] = defaultServiceAccount
	}
	name := unstructured.Str(spec, "serviceAccountName")
	sa, found := c.account(w, name, out)
	if !found {
		out.Refusal = w.forbidden("error looking up service account %s/%s: serviceaccount %q not found", w.Namespace, name, name)
		return
	}
	if automount(spec, sa) {
		mountToken(spec)
	}
	if len(unstructured.List(spec, "imagePullSecrets")) == 0 {
		var secrets []any
		for _, s := range unstructured.Objects(sa, "imagePullSecrets") {
			secrets = append(secrets, map[string]any{"name": unstructured.Str(s, "name")})
		}
		if len(secrets) > 0 {
			spec["imagePullSecrets"] = secrets
		}
	}
}

// validateServiceAccount is the plugin's validation of a Pod create: a mirror pod may
// reference no account, secret or token; another must name an account that exists, and
// reference only the secrets it lists when it enforces mountable secrets.
func (c *Chain) validateServiceAccount(w Write, out *server.Admission) {
	if c.cfg.State != nil && w.Subresource == "ephemeralcontainers" && !w.create() && w.is("", "Pod") {
		c.validateEphemeralSecrets(w, out)
		return
	}
	if c.cfg.State == nil || w.Subresource != "" || !w.create() || !w.is("", "Pod") {
		return
	}
	spec := unstructured.Object(w.Object, "spec")
	md := unstructured.Object(w.Object, "metadata")
	if _, mirror := unstructured.Object(md, "annotations")[mirrorPodAnnotation]; mirror {
		if unstructured.Str(spec, "serviceAccountName") != "" {
			out.Refusal = w.forbidden("a mirror pod may not reference service accounts")
		}
		return
	}
	name := unstructured.Str(spec, "serviceAccountName")
	if name == "" {
		out.Refusal = w.forbidden("no service account specified for pod %s/%s", w.Namespace, unstructured.Str(md, "name"))
		return
	}
	sa, found := c.account(w, name, &server.Admission{})
	if !found {
		out.Refusal = w.forbidden("error looking up service account %s/%s: serviceaccount %q not found", w.Namespace, name, name)
		return
	}
	ann := unstructured.Object(unstructured.Object(sa, "metadata"), "annotations")
	if v, ok := ann[enforceMountableSecret].(string); ok {
		if enforce, _ := strconv.ParseBool(v); enforce {
			if msg := unmountableSecret(spec, sa, name); msg != "" {
				out.Refusal = w.forbidden("%s", msg)
			}
		}
	}
}

// account is the ServiceAccount a Pod names, from the state: an account the state cannot
// say anything of (it holds no ServiceAccount) is taken to exist, with no secrets, and
// the prediction says so.
func (c *Chain) account(w Write, name string, out *server.Admission) (map[string]any, bool) {
	if !c.cfg.State.Knows("", "ServiceAccount") {
		out.NotPredicted = append(out.NotPredicted, fmt.Sprintf("the cluster state holds no ServiceAccount: %s/%s is taken to exist, mounting its token, with no image pull secrets", w.Namespace, name))
		return map[string]any{}, true
	}
	return c.cfg.State.Get("", "ServiceAccount", w.Namespace, name)
}

// automount: the Pod's automountServiceAccountToken wins, then the account's; true by
// default.
func automount(spec, sa map[string]any) bool {
	if v, ok := spec["automountServiceAccountToken"].(bool); ok {
		return v
	}
	if v, ok := sa["automountServiceAccountToken"].(bool); ok {
		return v
	}
	return true
}

// mountToken mounts the account's token: read-only at the token path in every init
// container and container that mounts nothing there, from the Pod's kube-api-access-
// volume, added when a container needs it and the Pod has none.
func mountToken(spec map[string]any) {
	volumeName := ""
	for _, v := range unstructured.Objects(spec, "volumes") {
		if n := unstructured.Str(v, "name"); strings.HasPrefix(n, tokenVolumePrefix) {
			volumeName = n
			break
		}
	}
	hasVolume := volumeName != ""
	if !hasVolume {
		volumeName = TokenVolumeStandIn
	}
	needed := false
	for _, field := range []string{"initContainers", "containers"} {
		for _, ctr := range unstructured.Objects(spec, field) {
			mounted := false
			for _, m := range unstructured.Objects(ctr, "volumeMounts") {
				if unstructured.Str(m, "mountPath") == tokenMountPath {
					mounted = true
					break
				}
			}
			if !mounted {
				ctr["volumeMounts"] = append(unstructured.List(ctr, "volumeMounts"),
					map[string]any{"name": volumeName, "readOnly": true, "mountPath": tokenMountPath})
				needed = true
			}
		}
	}
	if hasVolume || !needed {
		return
	}
	spec["volumes"] = append(unstructured.List(spec, "volumes"), map[string]any{
		"name": volumeName,
		"projected": map[string]any{
			"defaultMode": int64(projectedDefaultMode),
			"sources": []any{
				map[string]any{"serviceAccountToken": map[string]any{"path": "token", "expirationSeconds": int64(tokenExpirationSeconds)}},
				map[string]any{"configMap": map[string]any{"name": "kube-root-ca.crt", "items": []any{map[string]any{"key": "ca.crt", "path": "ca.crt"}}}},
				map[string]any{"downwardAPI": map[string]any{"items": []any{map[string]any{"path": "namespace",
					"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "metadata.namespace"}}}}},
			},
		},
	})
}

// unmountableSecret is why a Pod references a secret its account does not list ("" when
// it does not), in the order the plugin checks: volumes, init containers' and containers'
// environment, image pull secrets.
func unmountableSecret(spec, sa map[string]any, account string) string {
	mountable := map[string]bool{}
	for _, s := range unstructured.Objects(sa, "secrets") {
		mountable[unstructured.Str(s, "name")] = true
	}
	for _, v := range unstructured.Objects(spec, "volumes") {
		if s := unstructured.Object(v, "secret"); s != nil && !mountable[unstructured.Str(s, "secretName")] {
			return fmt.Sprintf("volume with secret.secretName=\"%s\" is not allowed because service account %s does not reference that secret", unstructured.Str(s, "secretName"), account)
		}
	}
	for _, field := range []struct{ key, what string }{{"initContainers", "init container"}, {"containers", "container"}} {
		for _, ctr := range unstructured.Objects(spec, field.key) {
			for _, env := range unstructured.Objects(ctr, "env") {
				ref := unstructured.NestedObject(env, "valueFrom", "secretKeyRef")
				if ref != nil && !mountable[unstructured.Str(ref, "name")] {
					return fmt.Sprintf("%s %s with envVar %s referencing secret.secretName=\"%s\" is not allowed because service account %s does not reference that secret",
						field.what, unstructured.Str(ctr, "name"), unstructured.Str(env, "name"), unstructured.Str(ref, "name"), account)
				}
			}
			for _, from := range unstructured.Objects(ctr, "envFrom") {
				if ref := unstructured.Object(from, "secretRef"); ref != nil && !mountable[unstructured.Str(ref, "name")] {
					return fmt.Sprintf("%s %s with envFrom referencing secret.secretName=\"%s\" is not allowed because service account %s does not reference that secret",
						field.what, unstructured.Str(ctr, "name"), unstructured.Str(ref, "name"), account)
				}
			}
		}
	}
	pull := map[string]bool{}
	for _, s := range unstructured.Objects(sa, "imagePullSecrets") {
		pull[unstructured.Str(s, "name")] = true
	}
	for i, ref := range unstructured.Objects(spec, "imagePullSecrets") {
		if !pull[unstructured.Str(ref, "name")] {
			return fmt.Sprintf(`imagePullSecrets[%d].name="%s" is not allowed because service account %s does not reference that imagePullSecret`, i, unstructured.Str(ref, "name"), account)
		}
	}
	return ""
}

// tokenVolumeAssigned lists, as dotted paths, where a created Pod holds the token
// volume's stand-in name: the volume's and its mounts' names are the server's to choose.
func tokenVolumeAssigned(obj map[string]any) []string {
	spec := unstructured.Object(obj, "spec")
	var out []string
	for i, v := range unstructured.Objects(spec, "volumes") {
		if unstructured.Str(v, "name") == TokenVolumeStandIn {
			out = append(out, fmt.Sprintf(".spec.volumes[%d].name", i))
		}
	}
	for _, field := range []string{"initContainers", "containers"} {
		for i, ctr := range unstructured.Objects(spec, field) {
			for j, m := range unstructured.Objects(ctr, "volumeMounts") {
				if unstructured.Str(m, "name") == TokenVolumeStandIn {
					out = append(out, fmt.Sprintf(".spec.%s[%d].volumeMounts[%d].name", field, i, j))
				}
			}
		}
	}
	return out
}

// validateEphemeralSecrets is the plugin's validation of a write through a Pod's
// /ephemeralcontainers (rules.md sub.ephemeralcontainers): the pod must name an account
// that exists (403 otherwise), and when the account enforces mountable secrets, every
// secret an ephemeral container reads by env or envFrom must be one it lists. That refusal
// is a plain error of the plugin, which the server answers 500 with its text alone.
func (c *Chain) validateEphemeralSecrets(w Write, out *server.Admission) {
	spec := unstructured.Object(w.Object, "spec")
	name := unstructured.Str(spec, "serviceAccountName")
	if name == "" {
		out.Refusal = w.forbidden("no service account specified for pod %s/%s", w.Namespace, unstructured.Str(unstructured.Object(w.Object, "metadata"), "name"))
		return
	}
	sa, found := c.account(w, name, &server.Admission{})
	if !found {
		out.Refusal = w.forbidden("error looking up service account %s/%s: serviceaccount %q not found", w.Namespace, name, name)
		return
	}
	ann := unstructured.Object(unstructured.Object(sa, "metadata"), "annotations")
	v, _ := ann[enforceMountableSecret].(string)
	if enforce, _ := strconv.ParseBool(v); !enforce {
		return
	}
	listed := map[string]bool{}
	for _, s := range unstructured.Objects(sa, "secrets") {
		listed[unstructured.Str(s, "name")] = true
	}
	refuse := func(msg string) {
		out.Refusal = &metav1.Status{Status: metav1.StatusFailure, Code: 500, Message: msg}
	}
	for _, ctr := range unstructured.Objects(spec, "ephemeralContainers") {
		cn := unstructured.Str(ctr, "name")
		for _, env := range unstructured.Objects(ctr, "env") {
			if ref := unstructured.NestedObject(env, "valueFrom", "secretKeyRef"); ref != nil && !listed[unstructured.Str(ref, "name")] {
				refuse(fmt.Sprintf("ephemeral container %s with envVar %s referencing secret.secretName=%q is not allowed because service account %s does not reference that secret",
					cn, unstructured.Str(env, "name"), unstructured.Str(ref, "name"), name))
				return
			}
		}
		for _, from := range unstructured.Objects(ctr, "envFrom") {
			if ref := unstructured.Object(from, "secretRef"); ref != nil && !listed[unstructured.Str(ref, "name")] {
				refuse(fmt.Sprintf("ephemeral container %s with envFrom referencing secret.secretName=%q is not allowed because service account %s does not reference that secret",
					cn, unstructured.Str(ref, "name"), name))
				return
			}
		}
	}
}
