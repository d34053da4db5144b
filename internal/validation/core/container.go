package core

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The containers of a pod template: regular, init (sidecars among them) and ephemeral
// ones, their ports, environment, mounts, probes, lifecycle hooks and restart rules.

// validateContainers checks the regular containers: at least one, names unique among
// them, probes and lifecycle, restart policy rules, and host ports across all of them.
func validateContainers(containers []api.Container, os *api.PodOS, volumes map[string]api.VolumeSource, podClaimNames sets.Set[string], gracePeriod *int64, fldPath *field.Path, opts PodValidationOptions, podRestartPolicy *api.RestartPolicy, hostUsers bool) field.ErrorList {
	if len(containers) == 0 {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var errs field.ErrorList
	names := sets.Set[string]{}
	for i := range containers {
		ctr := &containers[i]
		p := fldPath.Index(i)
		errs = append(errs, validateContainerCommon(ctr, volumes, podClaimNames, p, opts, podRestartPolicy, hostUsers)...)
		if names.Has(ctr.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), ctr.Name))
		} else {
			names.Insert(ctr.Name)
		}
		if ctr.Lifecycle != nil {
			errs = append(errs, validateLifecycle(ctr.Lifecycle, gracePeriod, p.Child("lifecycle"), os, opts)...)
		}
		errs = append(errs, validateLivenessProbe(ctr.LivenessProbe, gracePeriod, p.Child("livenessProbe"), opts)...)
		errs = append(errs, validateReadinessProbe(ctr.ReadinessProbe, gracePeriod, p.Child("readinessProbe"), opts)...)
		errs = append(errs, validateStartupProbe(ctr.StartupProbe, gracePeriod, p.Child("startupProbe"), opts)...)
		switch {
		case opts.AllowContainerRestartPolicyRules:
			errs = append(errs, validateContainerRestartPolicy(ctr.RestartPolicy, ctr.RestartPolicyRules, p, opts)...)
		case ctr.RestartPolicy != nil:
			errs = append(errs, field.Forbidden(p.Child("restartPolicy"), "may not be set for non-init containers"))
		}
	}
	return append(errs, checkHostPortConflicts(containers, fldPath)...)
}

const notForPlainInit = "may not be set for init containers without restartPolicy=Always"

// validateInitContainers checks the init containers: names unique among regular and init
// containers, host ports per container, and what only sidecars (restartPolicy Always)
// may have.
func validateInitContainers(containers []api.Container, os *api.PodOS, regular []api.Container, volumes map[string]api.VolumeSource, podClaimNames sets.Set[string], gracePeriod *int64, fldPath *field.Path, opts PodValidationOptions, podRestartPolicy *api.RestartPolicy, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	names := sets.Set[string]{}
	for _, c := range regular {
		names.Insert(c.Name)
	}
	for i := range containers {
		ctr := &containers[i]
		p := fldPath.Index(i)
		errs = append(errs, validateContainerCommon(ctr, volumes, podClaimNames, p, opts, podRestartPolicy, hostUsers)...)
		errs = append(errs, validateInitContainerRestartPolicy(ctr.RestartPolicy, ctr.RestartPolicyRules, p, opts)...)
		sidecar := ctr.RestartPolicy != nil && *ctr.RestartPolicy == api.ContainerRestartPolicyAlways
		if names.Has(ctr.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), ctr.Name))
		} else if ctr.Name != "" {
			names.Insert(ctr.Name)
		}
		errs = append(errs, checkHostPortConflicts(containers[i:i+1], fldPath)...)
		if sidecar {
			if ctr.Lifecycle != nil {
				errs = append(errs, validateLifecycle(ctr.Lifecycle, gracePeriod, p.Child("lifecycle"), os, opts)...)
			}
			errs = append(errs, validateLivenessProbe(ctr.LivenessProbe, gracePeriod, p.Child("livenessProbe"), opts)...)
			errs = append(errs, validateReadinessProbe(ctr.ReadinessProbe, gracePeriod, p.Child("readinessProbe"), opts)...)
			errs = append(errs, validateStartupProbe(ctr.StartupProbe, gracePeriod, p.Child("startupProbe"), opts)...)
		} else {
			if ctr.Lifecycle != nil {
				errs = append(errs, field.Forbidden(p.Child("lifecycle"), notForPlainInit))
			}
			if ctr.LivenessProbe != nil {
				errs = append(errs, field.Forbidden(p.Child("livenessProbe"), notForPlainInit))
			}
			if ctr.ReadinessProbe != nil {
				errs = append(errs, field.Forbidden(p.Child("readinessProbe"), notForPlainInit))
			}
			if ctr.StartupProbe != nil {
				errs = append(errs, field.Forbidden(p.Child("startupProbe"), notForPlainInit))
			}
		}
		if !opts.AllowSidecarResizePolicy && len(ctr.ResizePolicy) > 0 {
			errs = append(errs, field.Invalid(p.Child("resizePolicy"), ctr.ResizePolicy, "must not be set for init containers"))
		}
		// Kubernetes 1.36 refused RestartContainer resize policies on non-sidecar init
		// containers (pkg/apis/core/validation/validation.go validateInitContainers,
		// v1.36.3:3864-3870), except where the stored spec has one.
		if opts.Server.AtLeast(36) && !sidecar && !opts.AllowExistingRestartContainerForNonSidecarInitContainer {
			for j, rp := range ctr.ResizePolicy {
				if rp.RestartPolicy == api.RestartContainer {
					errs = append(errs, field.Invalid(p.Child("resizePolicy").Index(j).Child("restartPolicy"), rp.RestartPolicy, "must not be set to 'RestartContainer' for non-sidecar initContainers"))
				}
			}
		}
	}
	return errs
}

// ephemeralContainerFields are the container fields an ephemeral container may set.
var ephemeralContainerFields = &lazySet[string]{items: []string{
	"Name", "Image", "Command", "Args", "WorkingDir",
	"EnvFrom", "Env", "VolumeMounts", "VolumeDevices",
	"TerminationMessagePath", "TerminationMessagePolicy", "ImagePullPolicy",
	"SecurityContext", "Stdin", "StdinOnce", "TTY",
}}

// validateEphemeralContainers checks ephemeral containers: the common container rules,
// names unique across every container, a target among the others, only the allowed
// fields, and no subPath mounts.
func validateEphemeralContainers(ephemeral []api.EphemeralContainer, containers, initContainers []api.Container, volumes map[string]api.VolumeSource, podClaimNames sets.Set[string], fldPath *field.Path, opts PodValidationOptions, podRestartPolicy *api.RestartPolicy, hostUsers bool) field.ErrorList {
	if len(ephemeral) == 0 {
		return nil
	}
	var errs field.ErrorList
	others, all := sets.Set[string]{}, sets.Set[string]{}
	for _, c := range containers {
		others.Insert(c.Name)
		all.Insert(c.Name)
	}
	for _, c := range initContainers {
		others.Insert(c.Name)
		all.Insert(c.Name)
	}
	for i := range ephemeral {
		ec := &ephemeral[i]
		p := fldPath.Index(i)
		c := (*api.Container)(&ec.EphemeralContainerCommon)
		errs = append(errs, validateContainerCommon(c, volumes, podClaimNames, p, opts, podRestartPolicy, hostUsers)...)
		errs = append(errs, validateContainerOnlyForPod(c, p)...)
		if all.Has(ec.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), ec.Name))
		} else {
			all.Insert(ec.Name)
		}
		if ec.TargetContainerName != "" && !others.Has(ec.TargetContainerName) {
			errs = append(errs, field.NotFound(p.Child("targetContainerName"), ec.TargetContainerName))
		}
		errs = append(errs, validateFieldAllowList(ec.EphemeralContainerCommon, ephemeralContainerFields.get(), "cannot be set for an Ephemeral Container", p)...)
		for j, vm := range ec.VolumeMounts {
			mp := p.Child("volumeMounts").Index(j)
			if vm.SubPath != "" {
				errs = append(errs, field.Forbidden(mp.Child("subPath"), "cannot be set for an Ephemeral Container"))
			}
			if vm.SubPathExpr != "" {
				errs = append(errs, field.Forbidden(mp.Child("subPathExpr"), "cannot be set for an Ephemeral Container"))
			}
		}
	}
	return errs
}

// validateFieldAllowList forbids every field of the struct value that is set (not its
// zero value) and not allowed, naming it by its Go name with a lower-case first letter.
func validateFieldAllowList(value any, allowed sets.Set[string], detail string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	t, v := reflect.TypeOf(value), reflect.ValueOf(value)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if allowed.Has(f.Name) || isZeroDeep(v.Field(i)) {
			continue
		}
		r, n := utf8.DecodeRuneInString(f.Name)
		errs = append(errs, field.Forbidden(fldPath.Child(string(unicode.ToLower(r))+f.Name[n:]), detail))
	}
	return errs
}

// isZeroDeep is reflect.DeepEqual with the zero value: an empty non-nil slice or map is
// not zero.
func isZeroDeep(v reflect.Value) bool {
	return reflect.DeepEqual(v.Interface(), reflect.Zero(v.Type()).Interface())
}

// validateContainerCommon is what every kind of container is checked for.
func validateContainerCommon(ctr *api.Container, volumes map[string]api.VolumeSource, podClaimNames sets.Set[string], p *field.Path, opts PodValidationOptions, podRestartPolicy *api.RestartPolicy, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	if ctr.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		errs = append(errs, ValidateDNS1123Label(ctr.Name, p.Child("name"))...)
	}
	// Whitespace around the image is only refused for pods (a template may hold " ").
	if ctr.Image == "" {
		errs = append(errs, field.Required(p.Child("image"), ""))
	}
	switch ctr.TerminationMessagePolicy {
	case api.TerminationMessageReadFile, api.TerminationMessageFallbackToLogsOnError:
	case "":
		errs = append(errs, field.Required(p.Child("terminationMessagePolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("terminationMessagePolicy"), ctr.TerminationMessagePolicy,
			[]api.TerminationMessagePolicy{api.TerminationMessageReadFile, api.TerminationMessageFallbackToLogsOnError}))
	}
	mounts := mountPaths(ctr.VolumeMounts)
	devices := devicePaths(ctr.VolumeDevices)
	errs = append(errs, validateContainerPorts(ctr.Ports, p.Child("ports"))...)
	errs = append(errs, ValidateEnv(ctr.Env, p.Child("env"), opts)...)
	errs = append(errs, ValidateEnvFrom(ctr.EnvFrom, p.Child("envFrom"), opts)...)
	errs = append(errs, ValidateVolumeMounts(ctr.VolumeMounts, devices, volumes, ctr, p.Child("volumeMounts"), opts)...)
	errs = append(errs, ValidateVolumeDevices(ctr.VolumeDevices, mounts, volumes, p.Child("volumeDevices"))...)
	errs = append(errs, validatePullPolicy(ctr.ImagePullPolicy, p.Child("imagePullPolicy"))...)
	errs = append(errs, ValidateContainerResourceRequirements(&ctr.Resources, podClaimNames, p.Child("resources"), opts)...)
	errs = append(errs, validateResizePolicy(ctr.ResizePolicy, p.Child("resizePolicy"), podRestartPolicy, opts)...)
	return append(errs, ValidateSecurityContext(ctr.SecurityContext, p.Child("securityContext"), hostUsers, opts.AllowSysAdminWhenPrivilegeEscalationFalse)...)
}

// validateContainerOnlyForPod: a pod's container image has no surrounding whitespace.
func validateContainerOnlyForPod(ctr *api.Container, p *field.Path) field.ErrorList {
	if len(ctr.Image) != len(strings.TrimSpace(ctr.Image)) {
		return field.ErrorList{field.Invalid(p.Child("image"), ctr.Image, "must not have leading or trailing whitespace")}
	}
	return nil
}

func validateContainersOnlyForPod(containers []api.Container, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range containers {
		errs = append(errs, validateContainerOnlyForPod(&containers[i], fldPath.Index(i))...)
	}
	return errs
}

var supportedPortProtocols = []api.Protocol{api.ProtocolSCTP, api.ProtocolTCP, api.ProtocolUDP}

// validateContainerPorts: port names unique and valid, port numbers in range, protocol
// known.
func validateContainerPorts(ports []api.ContainerPort, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.Set[string]{}
	for i, port := range ports {
		p := fldPath.Index(i)
		if port.Name != "" {
			if msgs := wellformed.IsValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					errs = append(errs, field.Invalid(p.Child("name"), port.Name, msg))
				}
			} else if names.Has(port.Name) {
				errs = append(errs, field.Duplicate(p.Child("name"), port.Name))
			} else {
				names.Insert(port.Name)
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(p.Child("containerPort"), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(p.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(p.Child("hostPort"), port.HostPort, msg))
			}
		}
		switch port.Protocol {
		case "":
			errs = append(errs, field.Required(p.Child("protocol"), ""))
		case api.ProtocolTCP, api.ProtocolUDP, api.ProtocolSCTP:
		default:
			errs = append(errs, field.NotSupported(p.Child("protocol"), port.Protocol, supportedPortProtocols))
		}
	}
	return errs
}

// checkHostPortConflicts: a protocol/hostIP/hostPort triple is used once across the
// containers.
func checkHostPortConflicts(containers []api.Container, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.Set[string]{}
	for ci, ctr := range containers {
		portsPath := fldPath.Index(ci).Child("ports")
		for pi, port := range ctr.Ports {
			if port.HostPort == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", port.Protocol, port.HostIP, port.HostPort)
			if seen.Has(key) {
				errs = append(errs, field.Duplicate(portsPath.Index(pi).Child("hostPort"), key))
			} else {
				seen.Insert(key)
			}
		}
	}
	return errs
}

// envVarNameProblems are the problems of an environment variable name (or envFrom
// prefix): the relaxed rule (any printable but "=") or the strict C identifier rule.
func envVarNameProblems(name string, opts PodValidationOptions) []string {
	if opts.AllowRelaxedEnvironmentVariableValidation {
		return validation.IsRelaxedEnvVarName(name)
	}
	return validation.IsEnvVarName(name)
}

// ValidateEnv checks a container's env: names, and each valueFrom.
func ValidateEnv(vars []api.EnvVar, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		p := fldPath.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		} else {
			for _, msg := range envVarNameProblems(ev.Name, opts) {
				errs = append(errs, field.Invalid(p.Child("name"), ev.Name, msg))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, p.Child("valueFrom"), opts)...)
	}
	return errs
}

var envFieldPaths = &lazySet[string]{items: []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
	"spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}}

var volumeFieldPaths = &lazySet[string]{items: []string{"metadata.name", "metadata.namespace", "metadata.labels", "metadata.annotations", "metadata.uid"}}

var containerResourcePaths = &lazySet[string]{items: []string{"limits.cpu", "limits.memory", "limits.ephemeral-storage",
	"requests.cpu", "requests.memory", "requests.ephemeral-storage"}}

const (
	hugePagesRequestsPrefix = "requests.hugepages-"
	hugePagesLimitsPrefix   = "limits.hugepages-"
)

// validateEnvVarValueFrom: exactly one source, and no value beside it.
func validateEnvVarValueFrom(ev api.EnvVar, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	from := ev.ValueFrom
	if from == nil {
		return nil
	}
	var errs field.ErrorList
	sources := 0
	if from.FieldRef != nil {
		sources++
		errs = append(errs, validateObjectFieldSelector(from.FieldRef, envFieldPaths.get(), fldPath.Child("fieldRef"))...)
	}
	if from.ResourceFieldRef != nil {
		sources++
		errs = append(errs, validateContainerResourceFieldSelector(from.ResourceFieldRef, fldPath.Child("resourceFieldRef"), false)...)
	}
	if from.ConfigMapKeyRef != nil {
		sources++
		errs = append(errs, validateKeySelector(from.ConfigMapKeyRef.Name, from.ConfigMapKeyRef.Key, fldPath.Child("configMapKeyRef"))...)
	}
	if from.SecretKeyRef != nil {
		sources++
		errs = append(errs, validateKeySelector(from.SecretKeyRef.Name, from.SecretKeyRef.Key, fldPath.Child("secretKeyRef"))...)
	}
	if from.FileKeyRef != nil {
		sources++
		errs = append(errs, validateFileKeySelector(from.FileKeyRef, fldPath.Child("fileKeyRef"))...)
	}
	switch {
	case sources == 0 && opts.AllowEnvFilesValidation:
		errs = append(errs, field.Invalid(fldPath, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case sources == 0:
		errs = append(errs, field.Invalid(fldPath, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
	case ev.Value != "":
		errs = append(errs, field.Invalid(fldPath, "", "may not be specified when `value` is not empty"))
	case sources > 1:
		errs = append(errs, field.Invalid(fldPath, "", "may not have more than one field specified at a time"))
	}
	return errs
}

// downwardFieldLabels are the pod fields the downward API converts (v1 labels).
var downwardFieldLabels = &lazySet[string]{items: []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
	"metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
	"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}}

// splitSubscript splits "path['key']" into path and key.
func splitSubscript(fieldPath string) (string, string, bool) {
	if !strings.HasSuffix(fieldPath, "']") {
		return fieldPath, "", false
	}
	before, key, ok := strings.Cut(strings.TrimSuffix(fieldPath, "']"), "['")
	if !ok || before == "" {
		return fieldPath, "", false
	}
	return before, key, true
}

// convertFieldLabel is the downward API's conversion of a v1 field label to the internal
// one, or why it cannot be converted.
func convertFieldLabel(apiVersion, label string) (string, error) {
	if apiVersion != "v1" {
		return "", fmt.Errorf("unsupported pod version: %s", apiVersion)
	}
	if path, _, ok := splitSubscript(label); ok {
		if path == "metadata.annotations" || path == "metadata.labels" {
			return label, nil
		}
		return "", fmt.Errorf("field label does not support subscript: %s", label)
	}
	switch {
	case downwardFieldLabels.get().Has(label):
		return label, nil
	case label == "spec.host":
		return "spec.nodeName", nil
	}
	return "", fmt.Errorf("field label not supported: %s", label)
}

// validateObjectFieldSelector: an apiVersion and a field path among the allowed ones
// (labels and annotations by key).
func validateObjectFieldSelector(fs *api.ObjectFieldSelector, allowed sets.Set[string], fldPath *field.Path) field.ErrorList {
	if fs.APIVersion == "" {
		return field.ErrorList{field.Required(fldPath.Child("apiVersion"), "")}
	}
	if fs.FieldPath == "" {
		return field.ErrorList{field.Required(fldPath.Child("fieldPath"), "")}
	}
	internal, err := convertFieldLabel(fs.APIVersion, fs.FieldPath)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath.Child("fieldPath"), fs.FieldPath, fmt.Sprintf("error converting fieldPath: %v", err))}
	}
	if path, key, ok := splitSubscript(internal); ok {
		switch path {
		case "metadata.annotations":
			return ValidateQualifiedName(strings.ToLower(key), fldPath)
		case "metadata.labels":
			return ValidateQualifiedName(key, fldPath)
		}
		return field.ErrorList{field.Invalid(fldPath, path, "does not support subscript")}
	}
	if !allowed.Has(internal) {
		return field.ErrorList{field.NotSupported(fldPath.Child("fieldPath"), internal, sets.List(allowed))}
	}
	return nil
}

// validateContainerResourceFieldSelector: a known resource (hugepages by prefix), a
// container name in volumes, and a divisor the resource supports.
func validateContainerResourceFieldSelector(fs *api.ResourceFieldSelector, fldPath *field.Path, volume bool) field.ErrorList {
	var errs field.ErrorList
	switch {
	case volume && fs.ContainerName == "":
		errs = append(errs, field.Required(fldPath.Child("containerName"), ""))
	case fs.Resource == "":
		errs = append(errs, field.Required(fldPath.Child("resource"), ""))
	case !containerResourcePaths.get().Has(fs.Resource):
		if !strings.HasPrefix(fs.Resource, hugePagesLimitsPrefix) && !strings.HasPrefix(fs.Resource, hugePagesRequestsPrefix) {
			errs = append(errs, field.NotSupported(fldPath.Child("resource"), fs.Resource, sets.List(containerResourcePaths.get())))
		}
	}
	return append(errs, validateContainerResourceDivisor(fs.Resource, fs.Divisor, fldPath)...)
}

var (
	cpuDivisors    = &lazySet[string]{items: []string{"1m", "1"}}
	binaryDivisors = &lazySet[string]{items: []string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}}
)

const binaryDivisorList = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei"

// validateContainerResourceDivisor: a set divisor is one the resource supports.
func validateContainerResourceDivisor(name string, divisor resource.Quantity, fldPath *field.Path) field.ErrorList {
	if divisor.Cmp(resource.Quantity{}) == 0 {
		return nil
	}
	var errs field.ErrorList
	d := divisor.String()
	bad := func(what string) {
		errs = append(errs, field.Invalid(fldPath.Child("divisor"), name, what))
	}
	switch name {
	case "limits.cpu", "requests.cpu":
		if !cpuDivisors.get().Has(d) {
			bad("only divisor's values 1m and 1 are supported with the cpu resource")
		}
	case "limits.memory", "requests.memory":
		if !binaryDivisors.get().Has(d) {
			bad("only divisor's values " + binaryDivisorList + " are supported with the memory resource")
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !binaryDivisors.get().Has(d) {
			bad("only divisor's values " + binaryDivisorList + " are supported with the local ephemeral storage resource")
		}
	}
	if (strings.HasPrefix(name, hugePagesRequestsPrefix) || strings.HasPrefix(name, hugePagesLimitsPrefix)) && !binaryDivisors.get().Has(d) {
		bad("only divisor's values " + binaryDivisorList + " are supported with the hugepages resource")
	}
	return errs
}

// validateKeySelector is the rule of configMapKeyRef and secretKeyRef: a valid object name
// (empty included) and a key.
func validateKeySelector(name, key string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range ValidateSecretName(name, false) {
		errs = append(errs, field.Invalid(fldPath.Child("name"), name, msg))
	}
	if key == "" {
		errs = append(errs, field.Required(fldPath.Child("key"), ""))
	} else {
		for _, msg := range wellformed.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(fldPath.Child("key"), key, msg))
		}
	}
	return errs
}

// validateFileKeySelector: a key that is a relaxed variable name, a volume name, a path
// without "..".
func validateFileKeySelector(s *api.FileKeySelector, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Key == "" {
		errs = append(errs, field.Required(fldPath.Child("key"), ""))
	} else {
		for _, msg := range validation.IsRelaxedEnvVarName(s.Key) {
			errs = append(errs, field.Invalid(fldPath.Child("key"), s.Key, msg))
		}
	}
	if s.VolumeName == "" {
		errs = append(errs, field.Required(fldPath.Child("volumeName"), ""))
	} else {
		errs = append(errs, ValidateDNS1123Label(s.VolumeName, fldPath.Child("volumeName"))...)
	}
	if s.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	} else {
		errs = append(errs, validatePathNoBacksteps(s.Path, fldPath.Child("path"))...)
	}
	return errs
}

// ValidateEnvFrom checks envFrom: prefixes, and one source each.
func ValidateEnvFrom(vars []api.EnvFromSource, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		p := fldPath.Index(i)
		if ev.Prefix != "" {
			for _, msg := range envVarNameProblems(ev.Prefix, opts) {
				errs = append(errs, field.Invalid(p.Child("prefix"), ev.Prefix, msg))
			}
		}
		sources := 0
		if ev.ConfigMapRef != nil {
			sources++
			errs = append(errs, validateEnvSourceName(ev.ConfigMapRef.Name, p.Child("configMapRef"))...)
		}
		if ev.SecretRef != nil {
			sources++
			errs = append(errs, validateEnvSourceName(ev.SecretRef.Name, p.Child("secretRef"))...)
		}
		switch {
		case sources == 0:
			errs = append(errs, field.Invalid(fldPath, "", "must specify one of: `configMapRef` or `secretRef`"))
		case sources > 1:
			errs = append(errs, field.Invalid(fldPath, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

// validateEnvSourceName: the name of an envFrom source is set and valid as a prefix.
func validateEnvSourceName(name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath.Child("name"), "")}
	}
	var errs field.ErrorList
	for _, msg := range ValidateSecretName(name, true) {
		errs = append(errs, field.Invalid(fldPath.Child("name"), name, msg))
	}
	return errs
}

func mountPaths(mounts []api.VolumeMount) map[string]string {
	out := make(map[string]string, len(mounts))
	for _, m := range mounts {
		out[m.Name] = m.MountPath
	}
	return out
}

func devicePaths(devices []api.VolumeDevice) map[string]string {
	out := make(map[string]string, len(devices))
	for _, d := range devices {
		out[d.Name] = d.DevicePath
	}
	return out
}

func hasValue(m map[string]string, value string) bool {
	for _, v := range m {
		if v == value {
			return true
		}
	}
	return false
}

// ValidateVolumeMounts checks a container's volume mounts against the pod's volumes and
// the container's devices.
func ValidateVolumeMounts(mounts []api.VolumeMount, devices map[string]string, volumes map[string]api.VolumeSource, ctr *api.Container, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	paths := sets.New[string]()
	for i, m := range mounts {
		p := fldPath.Index(i)
		if m.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		}
		if _, ok := volumes[m.Name]; !ok {
			errs = append(errs, field.NotFound(p.Child("name"), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, field.Required(p.Child("mountPath"), ""))
		}
		if paths.Has(m.MountPath) {
			errs = append(errs, field.Invalid(p.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths.Insert(m.MountPath)
		if _, ok := devices[m.Name]; ok {
			errs = append(errs, field.Invalid(p.Child("name"), m.Name, "must not already exist in volumeDevices"))
		}
		if hasValue(devices, m.MountPath) {
			errs = append(errs, field.Invalid(p.Child("mountPath"), m.MountPath, "must not already exist as a path in volumeDevices"))
		}
		// The server reports these two on the list's path, not the item's.
		if m.SubPath != "" {
			errs = append(errs, validateLocalDescendingPath(m.SubPath, fldPath.Child("subPath"))...)
		}
		if m.SubPathExpr != "" {
			if m.SubPath != "" {
				errs = append(errs, field.Invalid(p.Child("subPathExpr"), m.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
			}
			errs = append(errs, validateLocalDescendingPath(m.SubPathExpr, fldPath.Child("subPathExpr"))...)
		}
		if m.MountPropagation != nil {
			errs = append(errs, validateMountPropagation(m.MountPropagation, ctr, fldPath.Child("mountPropagation"))...)
		}
		errs = append(errs, validateMountRecursiveReadOnly(m, fldPath.Child("recursiveReadOnly"))...)
		errs = append(errs, validateBindMountOptions(m.BindMountOptions, p.Child("bindMountOptions"))...)
		if len(m.BindMountOptions) > 0 {
			if vs, ok := volumes[m.Name]; ok && vs.Image != nil {
				errs = append(errs, field.Invalid(p.Child("bindMountOptions"), m.BindMountOptions, "bindMountOptions may not be used with image volumes"))
			}
		}
	}
	return errs
}

var supportedBindMountOptions = &lazySet[string]{items: []string{string(api.BindMountOptionNoExec), string(api.BindMountOptionNoDev), string(api.BindMountOptionNoSUID)}}

func validateBindMountOptions(options []string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.New[string]()
	for i, o := range options {
		if !supportedBindMountOptions.get().Has(o) {
			errs = append(errs, field.NotSupported(fldPath.Index(i), o, sets.List(supportedBindMountOptions.get())))
		}
		if seen.Has(o) {
			errs = append(errs, field.Duplicate(fldPath.Index(i), o))
		}
		seen.Insert(o)
	}
	return errs
}

var supportedMountPropagations = []api.MountPropagationMode{api.MountPropagationBidirectional, api.MountPropagationHostToContainer, api.MountPropagationNone}

// validateMountPropagation: a known mode, Bidirectional only for privileged containers.
func validateMountPropagation(mode *api.MountPropagationMode, ctr *api.Container, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch *mode {
	case api.MountPropagationBidirectional, api.MountPropagationHostToContainer, api.MountPropagationNone:
	default:
		errs = append(errs, field.NotSupported(fldPath, *mode, supportedMountPropagations))
	}
	if ctr == nil {
		return errs
	}
	sc := ctr.SecurityContext
	privileged := sc != nil && sc.Privileged != nil && *sc.Privileged
	if *mode == api.MountPropagationBidirectional && !privileged {
		errs = append(errs, field.Forbidden(fldPath, "Bidirectional mount propagation is available only to privileged containers"))
	}
	return errs
}

var supportedRecursiveReadOnly = []api.RecursiveReadOnlyMode{api.RecursiveReadOnlyDisabled, api.RecursiveReadOnlyEnabled, api.RecursiveReadOnlyIfPossible}

// validateMountRecursiveReadOnly: recursive read-only needs readOnly and no propagation.
func validateMountRecursiveReadOnly(m api.VolumeMount, fldPath *field.Path) field.ErrorList {
	if m.RecursiveReadOnly == nil {
		return nil
	}
	var errs field.ErrorList
	switch *m.RecursiveReadOnly {
	case api.RecursiveReadOnlyDisabled:
	case api.RecursiveReadOnlyEnabled, api.RecursiveReadOnlyIfPossible:
		if !m.ReadOnly {
			errs = append(errs, field.Forbidden(fldPath, "may only be specified when readOnly is true"))
		}
		if m.MountPropagation != nil && *m.MountPropagation != api.MountPropagationNone {
			errs = append(errs, field.Forbidden(fldPath, "may only be specified when mountPropagation is None or not specified"))
		}
	default:
		errs = append(errs, field.NotSupported(fldPath, *m.RecursiveReadOnly, supportedRecursiveReadOnly))
	}
	return errs
}

// ValidateVolumeDevices checks a container's block devices: unique names and paths, a
// claim-backed volume, no overlap with the mounts.
func ValidateVolumeDevices(devices []api.VolumeDevice, mounts map[string]string, volumes map[string]api.VolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	paths, names := sets.New[string](), sets.New[string]()
	for i, d := range devices {
		p := fldPath.Index(i)
		vs, found := volumes[d.Name]
		claimBacked := found && (vs.PersistentVolumeClaim != nil || vs.Ephemeral != nil)
		if d.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		}
		if names.Has(d.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), d.Name, "must be unique"))
		}
		if found && !claimBacked {
			errs = append(errs, field.Invalid(p.Child("name"), d.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if !found {
			errs = append(errs, field.NotFound(p.Child("name"), d.Name))
		}
		if d.DevicePath == "" {
			errs = append(errs, field.Required(p.Child("devicePath"), ""))
		}
		if paths.Has(d.DevicePath) {
			errs = append(errs, field.Invalid(p.Child("devicePath"), d.DevicePath, "must be unique"))
		}
		if d.DevicePath != "" && len(validatePathNoBacksteps(d.DevicePath, nil)) > 0 {
			errs = append(errs, field.Invalid(p.Child("devicePath"), d.DevicePath, "can not contain backsteps ('..')"))
		} else {
			paths.Insert(d.DevicePath)
		}
		if _, ok := mounts[d.Name]; ok {
			errs = append(errs, field.Invalid(p.Child("name"), d.Name, "must not already exist in volumeMounts"))
		}
		if hasValue(mounts, d.DevicePath) {
			errs = append(errs, field.Invalid(p.Child("devicePath"), d.DevicePath, "must not already exist as a path in volumeMounts"))
		}
		if d.Name != "" {
			names.Insert(d.Name)
		}
	}
	return errs
}

var supportedPullPolicies = []api.PullPolicy{api.PullAlways, api.PullIfNotPresent, api.PullNever}

func validatePullPolicy(policy api.PullPolicy, fldPath *field.Path) field.ErrorList {
	switch policy {
	case api.PullAlways, api.PullIfNotPresent, api.PullNever:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, supportedPullPolicies)}
}

// validateResizePolicy: cpu and memory once each, with a known restart policy, and none
// that restarts when the pod never restarts.
func validateResizePolicy(policies []api.ContainerResizePolicy, fldPath *field.Path, podRestartPolicy *api.RestartPolicy, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	neverRestartsDetail := "must be 'NotRequired' when pod `restartPolicy` is 'Never'"
	if !opts.Server.AtLeast(36) {
		// Kubernetes 1.36 named the pod's restartPolicy in the message
		// (pkg/apis/core/validation/validation.go validateResizePolicy, v1.35.4:3656 →
		// v1.36.3:3649).
		neverRestartsDetail = "must be 'NotRequired' when `restartPolicy` is 'Never'"
	}
	seen := map[api.ResourceName]bool{}
	for i, rp := range policies {
		if seen[rp.ResourceName] {
			errs = append(errs, field.Duplicate(fldPath.Index(i), rp.ResourceName))
		}
		seen[rp.ResourceName] = true
		switch rp.ResourceName {
		case api.ResourceCPU, api.ResourceMemory:
		case "":
			errs = append(errs, field.Required(fldPath, ""))
		default:
			errs = append(errs, field.NotSupported(fldPath, rp.ResourceName, []api.ResourceName{api.ResourceCPU, api.ResourceMemory}))
		}
		switch rp.RestartPolicy {
		case api.NotRequired, api.RestartContainer:
		case "":
			errs = append(errs, field.Required(fldPath, ""))
		default:
			errs = append(errs, field.NotSupported(fldPath, rp.RestartPolicy, []api.ResourceResizeRestartPolicy{api.NotRequired, api.RestartContainer}))
		}
		if *podRestartPolicy == api.RestartPolicyNever && rp.RestartPolicy != api.NotRequired {
			errs = append(errs, field.Invalid(fldPath, rp.RestartPolicy, neverRestartsDetail))
		}
	}
	return errs
}

// validateInitContainerRestartPolicy: an init container's restartPolicy and its rules.
func validateInitContainerRestartPolicy(policy *api.ContainerRestartPolicy, rules []api.ContainerRestartRule, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if policy == nil {
		// Kubernetes 1.35 required the policy of an init container with rules
		// (pkg/apis/core/validation/validation.go validateInitContainerRestartPolicy,
		// v1.35.4:3322).
		if len(rules) > 0 && opts.Server.AtLeast(35) {
			return field.ErrorList{field.Required(fldPath.Child("restartPolicy"), "must specify restartPolicy when restart rules are used")}
		}
		return nil
	}
	if !opts.AllowContainerRestartPolicyRules {
		if *policy != api.ContainerRestartPolicyAlways {
			return field.ErrorList{field.NotSupported(fldPath.Child("restartPolicy"), *policy, []api.ContainerRestartPolicy{api.ContainerRestartPolicyAlways})}
		}
		return nil
	}
	if *policy == api.ContainerRestartPolicyAlways && !opts.AllowRestartAllContainers {
		if len(rules) > 0 {
			return field.ErrorList{field.Forbidden(fldPath.Child("restartPolicyRules"), "restartPolicyRules are not allowed for init containers with restart policy Always")}
		}
		return nil
	}
	return validateContainerRestartPolicy(policy, rules, fldPath, opts)
}

var (
	supportedContainerRestartPolicies = []api.ContainerRestartPolicy{api.ContainerRestartPolicyAlways, api.ContainerRestartPolicyNever, api.ContainerRestartPolicyOnFailure}
	supportedExitCodeOperators        = []api.ContainerRestartRuleOnExitCodesOperator{api.ContainerRestartRuleOnExitCodesOpIn, api.ContainerRestartRuleOnExitCodesOpNotIn}
	restartActions                    = []api.ContainerRestartRuleAction{api.ContainerRestartRuleActionRestart}
	restartActionsWithAll             = []api.ContainerRestartRuleAction{api.ContainerRestartRuleActionRestart, api.ContainerRestartRuleActionRestartAllContainers}
)

// validateContainerRestartPolicy: a container's restartPolicy and up to 20 rules, each
// with a known action and exit codes.
func validateContainerRestartPolicy(policy *api.ContainerRestartPolicy, rules []api.ContainerRestartRule, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	policyPath := fldPath.Child("restartPolicy")
	switch {
	case policy == nil && len(rules) == 0:
		return nil
	case policy == nil:
		errs = append(errs, field.Required(policyPath, "must specify restartPolicy when restart rules are used"))
	case !contains(supportedContainerRestartPolicies, *policy):
		errs = append(errs, field.NotSupported(policyPath, *policy, supportedContainerRestartPolicies))
	}
	// Kubernetes 1.36 counted the rules and exit codes as items, and listed the actions
	// allowed when refusing one (pkg/apis/core/validation/validation.go
	// validateContainerRestartPolicy, v1.35.4:3697-3711 → v1.36.3:3691-3705): before, a
	// long list was TooLong (its text says bytes) and the refusal listed Restart alone.
	tooMany := func(p *field.Path, list any, n, limit int) *field.Error {
		if opts.Server.AtLeast(36) {
			return field.TooMany(p, n, limit)
		}
		return field.TooLong(p, list, limit)
	}
	if len(rules) > 20 {
		errs = append(errs, tooMany(fldPath.Child("restartPolicyRules"), rules, len(rules), 20))
	}
	actions := restartActions
	if opts.AllowRestartAllContainers {
		actions = restartActionsWithAll
	}
	listed := actions
	// Kubernetes 1.36 lists the actions RestartAllContainers allows in the message; 1.35
	// listed the plain restart actions whatever the gate.
	if !opts.Server.AtLeast(36) {
		listed = restartActions
	}
	for i, rule := range rules {
		p := fldPath.Child("restartPolicyRules").Index(i)
		if !contains(actions, rule.Action) {
			errs = append(errs, field.NotSupported(p.Child("action"), rule.Action, listed))
		}
		if rule.ExitCodes == nil {
			errs = append(errs, field.Required(p.Child("exitCodes"), "must be specified"))
			continue
		}
		ep := p.Child("exitCodes")
		if !contains(supportedExitCodeOperators, rule.ExitCodes.Operator) {
			errs = append(errs, field.NotSupported(ep.Child("operator"), rule.ExitCodes.Operator, supportedExitCodeOperators))
		}
		if len(rule.ExitCodes.Values) > 255 {
			errs = append(errs, tooMany(ep.Child("values"), rule.ExitCodes.Values, len(rule.ExitCodes.Values), 255))
		}
	}
	return errs
}

func contains[T comparable](list []T, v T) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

// handler is the union of a probe's and a lifecycle hook's actions.
type handler struct {
	Exec      *api.ExecAction
	HTTPGet   *api.HTTPGetAction
	TCPSocket *api.TCPSocketAction
	GRPC      *api.GRPCAction
	Sleep     *api.SleepAction
	// zeroSleepRefused: a sleep of 0 seconds is refused (1.32's rule, and a stored spec
	// without one).
	zeroSleepRefused bool
}

func validateLivenessProbe(probe *api.Probe, gracePeriod *int64, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if probe == nil {
		return nil
	}
	errs := validateProbe(probe, gracePeriod, fldPath, opts)
	if probe.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(fldPath.Child("successThreshold"), probe.SuccessThreshold, "must be 1"))
	}
	return errs
}

func validateReadinessProbe(probe *api.Probe, gracePeriod *int64, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if probe == nil {
		return nil
	}
	errs := validateProbe(probe, gracePeriod, fldPath, opts)
	if probe.TerminationGracePeriodSeconds != nil {
		errs = append(errs, field.Invalid(fldPath.Child("terminationGracePeriodSeconds"), probe.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

func validateStartupProbe(probe *api.Probe, gracePeriod *int64, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	return validateLivenessProbe(probe, gracePeriod, fldPath, opts)
}

// validateProbe: one handler, non-negative timings and thresholds, a positive grace
// period of its own.
func validateProbe(probe *api.Probe, gracePeriod *int64, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	ph := &probe.ProbeHandler
	errs := validateHandler(handler{Exec: ph.Exec, HTTPGet: ph.HTTPGet, TCPSocket: ph.TCPSocket, GRPC: ph.GRPC}, gracePeriod, fldPath)
	errs = append(errs, ValidateNonnegativeField(int64(probe.InitialDelaySeconds), fldPath.Child("initialDelaySeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.TimeoutSeconds), fldPath.Child("timeoutSeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.PeriodSeconds), fldPath.Child("periodSeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.SuccessThreshold), fldPath.Child("successThreshold"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.FailureThreshold), fldPath.Child("failureThreshold"))...)
	if t := probe.TerminationGracePeriodSeconds; t != nil && *t <= 0 {
		errs = append(errs, field.Invalid(fldPath.Child("terminationGracePeriodSeconds"), *t, "must be greater than 0"))
	}
	return errs
}

// validateHandler: exactly one action, each checked.
func validateHandler(h handler, gracePeriod *int64, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func() field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(fldPath.Child(name), "may not specify more than 1 handler type"))
			return
		}
		n++
		errs = append(errs, check()...)
	}
	one(h.Exec != nil, "exec", func() field.ErrorList {
		if len(h.Exec.Command) == 0 {
			return field.ErrorList{field.Required(fldPath.Child("exec").Child("command"), "")}
		}
		return nil
	})
	one(h.HTTPGet != nil, "httpGet", func() field.ErrorList { return validateHTTPGetAction(h.HTTPGet, fldPath.Child("httpGet")) })
	one(h.TCPSocket != nil, "tcpSocket", func() field.ErrorList {
		return ValidatePortNumOrName(h.TCPSocket.Port, fldPath.Child("tcpSocket").Child("port"))
	})
	one(h.GRPC != nil, "grpc", func() field.ErrorList { return validateGRPCAction(h.GRPC, fldPath.Child("grpc")) })
	one(h.Sleep != nil, "sleep", func() field.ErrorList {
		s := h.Sleep.Seconds
		if h.zeroSleepRefused {
			// Kubernetes 1.32 (PodLifecycleSleepActionAllowZero off): a zero sleep is refused.
			if gracePeriod != nil && (s <= 0 || s > *gracePeriod) {
				return field.ErrorList{field.Invalid(fldPath.Child("sleep"), s, fmt.Sprintf("must be greater than 0 and less than terminationGracePeriodSeconds (%d). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.", *gracePeriod))}
			}
			return nil
		}
		if gracePeriod != nil && (s < 0 || s > *gracePeriod) {
			return field.ErrorList{field.Invalid(fldPath.Child("sleep"), s, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *gracePeriod))}
		}
		return nil
	})
	if n == 0 {
		errs = append(errs, field.Required(fldPath, "must specify a handler type"))
	}
	return errs
}

var (
	supportedHTTPSchemes   = []api.URIScheme{api.URISchemeHTTP, api.URISchemeHTTPS}
	supportedHTTPProtocols = []api.HTTPProtocol{api.HTTPProtocolHTTP1, api.HTTPProtocolHTTP2}
	supportedGRPCModes     = []api.GRPCProbeMode{api.GRPCProbeModePlaintext, api.GRPCProbeModeTLS}
)

func validateHTTPGetAction(h *api.HTTPGetAction, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if h.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	errs = append(errs, ValidatePortNumOrName(h.Port, fldPath.Child("port"))...)
	if !contains(supportedHTTPSchemes, h.Scheme) {
		errs = append(errs, field.NotSupported(fldPath.Child("scheme"), h.Scheme, supportedHTTPSchemes))
	}
	for _, header := range h.HTTPHeaders {
		for _, msg := range validation.IsHTTPHeaderName(header.Name) {
			errs = append(errs, field.Invalid(fldPath.Child("httpHeaders"), header.Name, msg))
		}
	}
	if h.Protocol != nil {
		switch {
		case !contains(supportedHTTPProtocols, *h.Protocol):
			errs = append(errs, field.NotSupported(fldPath.Child("protocol"), *h.Protocol, supportedHTTPProtocols))
		case *h.Protocol == api.HTTPProtocolHTTP2 && h.Scheme != api.URISchemeHTTP:
			errs = append(errs, field.Invalid(fldPath.Child("protocol"), *h.Protocol, "is only supported with HTTP (H2C)"))
		case *h.Protocol == api.HTTPProtocolHTTP2 && h.Host != "":
			errs = append(errs, field.Invalid(fldPath.Child("host"), h.Host, "must be empty when `protocol` is \"HTTP2\""))
		}
	}
	return errs
}

func validateGRPCAction(g *api.GRPCAction, fldPath *field.Path) field.ErrorList {
	errs := ValidatePortNumOrName(intstr.FromInt32(g.Port), fldPath.Child("port"))
	if g.Mode != nil && !contains(supportedGRPCModes, *g.Mode) {
		errs = append(errs, field.NotSupported(fldPath.Child("mode"), *g.Mode, supportedGRPCModes))
	}
	return errs
}

// ValidatePortNumOrName: a port number in range, or a valid port name.
func ValidatePortNumOrName(port intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch port.Type {
	case intstr.Int:
		for _, msg := range validation.IsValidPortNum(port.IntValue()) {
			errs = append(errs, field.Invalid(fldPath, port.IntValue(), msg))
		}
	case intstr.String:
		for _, msg := range wellformed.IsValidPortName(port.StrVal) {
			errs = append(errs, field.Invalid(fldPath, port.StrVal, msg))
		}
	default:
		errs = append(errs, field.InternalError(fldPath, fmt.Errorf("unknown type: %v", port.Type)))
	}
	return errs
}

// validateLifecycle: the hooks' handlers, and a stop signal the pod's OS knows.
func validateLifecycle(l *api.Lifecycle, gracePeriod *int64, fldPath *field.Path, os *api.PodOS, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if h := l.PostStart; h != nil {
		errs = append(errs, validateHandler(handler{Exec: h.Exec, HTTPGet: h.HTTPGet, TCPSocket: h.TCPSocket, Sleep: h.Sleep, zeroSleepRefused: !opts.AllowPodLifecycleSleepActionZeroValue}, gracePeriod, fldPath.Child("postStart"))...)
	}
	if h := l.PreStop; h != nil {
		errs = append(errs, validateHandler(handler{Exec: h.Exec, HTTPGet: h.HTTPGet, TCPSocket: h.TCPSocket, Sleep: h.Sleep, zeroSleepRefused: !opts.AllowPodLifecycleSleepActionZeroValue}, gracePeriod, fldPath.Child("preStop"))...)
	}
	if l.StopSignal != nil {
		errs = append(errs, validateStopSignal(l.StopSignal, fldPath.Child("stopSignal"), os)...)
	}
	return errs
}

// linuxStopSignals are every signal the API knows; Windows stops with KILL or TERM only.
var (
	linuxStopSignals = &lazySet[api.Signal]{items: []api.Signal{
		api.SIGABRT, api.SIGALRM, api.SIGBUS, api.SIGCHLD, api.SIGCLD, api.SIGCONT, api.SIGFPE, api.SIGHUP,
		api.SIGILL, api.SIGINT, api.SIGIO, api.SIGIOT, api.SIGKILL, api.SIGPIPE, api.SIGPOLL, api.SIGPROF,
		api.SIGPWR, api.SIGQUIT, api.SIGSEGV, api.SIGSTKFLT, api.SIGSTOP, api.SIGSYS, api.SIGTERM, api.SIGTRAP,
		api.SIGTSTP, api.SIGTTIN, api.SIGTTOU, api.SIGURG, api.SIGUSR1, api.SIGUSR2, api.SIGVTALRM, api.SIGWINCH,
		api.SIGXCPU, api.SIGXFSZ, api.SIGRTMIN, api.SIGRTMINPLUS1, api.SIGRTMINPLUS2, api.SIGRTMINPLUS3,
		api.SIGRTMINPLUS4, api.SIGRTMINPLUS5, api.SIGRTMINPLUS6, api.SIGRTMINPLUS7, api.SIGRTMINPLUS8,
		api.SIGRTMINPLUS9, api.SIGRTMINPLUS10, api.SIGRTMINPLUS11, api.SIGRTMINPLUS12, api.SIGRTMINPLUS13,
		api.SIGRTMINPLUS14, api.SIGRTMINPLUS15, api.SIGRTMAXMINUS14, api.SIGRTMAXMINUS13, api.SIGRTMAXMINUS12,
		api.SIGRTMAXMINUS11, api.SIGRTMAXMINUS10, api.SIGRTMAXMINUS9, api.SIGRTMAXMINUS8, api.SIGRTMAXMINUS7,
		api.SIGRTMAXMINUS6, api.SIGRTMAXMINUS5, api.SIGRTMAXMINUS4, api.SIGRTMAXMINUS3, api.SIGRTMAXMINUS2,
		api.SIGRTMAXMINUS1, api.SIGRTMAX}}
	windowsStopSignals = &lazySet[api.Signal]{items: []api.Signal{api.SIGKILL, api.SIGTERM}}
)

func validateStopSignal(sig *api.Signal, fldPath *field.Path, os *api.PodOS) field.ErrorList {
	switch {
	case os == nil:
		return field.ErrorList{field.Forbidden(fldPath, "may not be set for containers with empty `spec.os.name`")}
	case os.Name == api.Windows && !windowsStopSignals.get().Has(*sig):
		return field.ErrorList{field.NotSupported(fldPath, sig, sets.List(windowsStopSignals.get()))}
	case os.Name == api.Linux && !linuxStopSignals.get().Has(*sig):
		return field.ErrorList{field.NotSupported(fldPath, sig, sets.List(linuxStopSignals.get()))}
	}
	return nil
}
