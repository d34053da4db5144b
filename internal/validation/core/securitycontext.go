package core

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Security contexts of pods and containers: users and groups, seccomp, AppArmor, SELinux
// change policy, sysctls, Windows options, and the per-OS restrictions.

// allowPrivileged is kube-apiserver's --allow-privileged, false unless the flag sets it
// (the recorded server runs with the default). The errors it causes are the only ones
// that depend on the flag; IsPrivilegedPolicyError tells them apart, so that a caller
// predicting a server run with --allow-privileged=true drops them.
const allowPrivileged = false

// The details of the errors --allow-privileged=false causes.
const (
	privilegedDisallowed  = "disallowed by cluster policy"
	hostProcessDisallowed = "hostProcess containers are disallowed by cluster policy"
)

// IsPrivilegedPolicyError reports whether err is one that only a server run with
// --allow-privileged=false reports: a privileged container, or hostProcess containers.
func IsPrivilegedPolicyError(err *field.Error) bool {
	if err == nil || err.Type != field.ErrorTypeForbidden {
		return false
	}
	return IsPrivilegedPolicyCause(err.Field, err.ErrorBody())
}

// IsPrivilegedPolicyCause is IsPrivilegedPolicyError for a cause of the server's Status:
// its field and message ("Forbidden: disallowed by cluster policy").
func IsPrivilegedPolicyCause(fieldPath, message string) bool {
	forbidden := field.ErrorTypeForbidden.String() + ": "
	return message == forbidden+hostProcessDisallowed ||
		(message == forbidden+privilegedDisallowed && strings.HasSuffix(fieldPath, ".privileged"))
}

// ValidateSecurityContext checks a container's security context.
func ValidateSecurityContext(sc *api.SecurityContext, fldPath *field.Path, hostUsers, allowSysAdminWhenPrivilegeEscalationFalse bool) field.ErrorList {
	if sc == nil {
		return nil
	}
	var errs field.ErrorList
	if sc.Privileged != nil && *sc.Privileged && !allowPrivileged {
		errs = append(errs, field.Forbidden(fldPath.Child("privileged"), privilegedDisallowed))
	}
	if sc.RunAsUser != nil {
		for _, msg := range validation.IsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsUser"), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.RunAsGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsGroup"), *sc.RunAsGroup, msg))
		}
	}
	if sc.ProcMount != nil {
		if err := ValidateProcMountType(fldPath.Child("procMount"), *sc.ProcMount); err != nil {
			errs = append(errs, err)
		}
		if hostUsers && *sc.ProcMount == api.UnmaskedProcMount {
			errs = append(errs, field.Invalid(fldPath.Child("procMount"), sc.ProcMount, "`hostUsers` must be false to use `Unmasked`"))
		}
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, field.Invalid(fldPath, sc, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if !allowSysAdminWhenPrivilegeEscalationFalse && sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if string(c) == "CAP_SYS_ADMIN" {
					errs = append(errs, field.Invalid(fldPath, sc, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	errs = append(errs, validateWindowsSecurityContextOptions(sc.WindowsOptions, fldPath.Child("windowsOptions"))...)
	return append(errs, ValidateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
}

// ValidateProcMountType: Default or Unmasked.
func ValidateProcMountType(fldPath *field.Path, t api.ProcMountType) *field.Error {
	switch t {
	case api.DefaultProcMount, api.UnmaskedProcMount:
		return nil
	}
	return field.NotSupported(fldPath, t, []api.ProcMountType{api.DefaultProcMount, api.UnmaskedProcMount})
}

// validatePodSpecSecurityContext checks a pod's security context.
func validatePodSpecSecurityContext(sc *api.PodSecurityContext, spec *api.PodSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if sc == nil {
		return nil
	}
	var errs field.ErrorList
	if sc.FSGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.FSGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("fsGroup"), *sc.FSGroup, msg))
		}
	}
	if sc.RunAsUser != nil {
		for _, msg := range validation.IsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsUser"), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.RunAsGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsGroup"), *sc.RunAsGroup, msg))
		}
	}
	for i, gid := range sc.SupplementalGroups {
		for _, msg := range validation.IsValidGroupID(gid) {
			errs = append(errs, field.Invalid(fldPath.Child("supplementalGroups").Index(i), gid, msg))
		}
	}
	if !opts.Server.AtLeast(37) {
		// Up to 1.36 the rule is the security context's (see validateShareProcessNamespace).
		errs = append(errs, validateShareProcessNamespace(spec, fldPath)...)
	}
	if len(sc.Sysctls) != 0 {
		errs = append(errs, validateSysctls(sc, spec, fldPath.Child("sysctls"), opts)...)
	}
	if p := sc.FSGroupChangePolicy; p != nil && *p != api.FSGroupChangeOnRootMismatch && *p != api.FSGroupChangeAlways {
		errs = append(errs, field.NotSupported(fldPath.Child("fsGroupChangePolicy"), p,
			[]api.PodFSGroupChangePolicy{api.FSGroupChangeAlways, api.FSGroupChangeOnRootMismatch}))
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	errs = append(errs, validateWindowsSecurityContextOptions(sc.WindowsOptions, fldPath.Child("windowsOptions"))...)
	errs = append(errs, ValidateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
	if p := sc.SupplementalGroupsPolicy; p != nil && *p != api.SupplementalGroupsPolicyMerge && *p != api.SupplementalGroupsPolicyStrict {
		errs = append(errs, field.NotSupported(fldPath.Child("supplementalGroupsPolicy"), p,
			[]api.SupplementalGroupsPolicy{api.SupplementalGroupsPolicyMerge, api.SupplementalGroupsPolicyStrict}))
	}
	if p := sc.SELinuxChangePolicy; p != nil {
		switch {
		case opts.AllowOnlyRecursiveSELinuxChangePolicy && *p != api.SELinuxChangePolicyRecursive:
			errs = append(errs, field.NotSupported(fldPath.Child("seLinuxChangePolicy"), *p, []api.PodSELinuxChangePolicy{api.SELinuxChangePolicyRecursive}))
		case !opts.AllowOnlyRecursiveSELinuxChangePolicy && *p != api.SELinuxChangePolicyRecursive && *p != api.SELinuxChangePolicyMountOption:
			errs = append(errs, field.NotSupported(fldPath.Child("seLinuxChangePolicy"), *p, []api.PodSELinuxChangePolicy{api.SELinuxChangePolicyMountOption, api.SELinuxChangePolicyRecursive}))
		}
	}
	return errs
}

// The sysctl name format: dot- or slash-separated segments of lower-case alphanumerics,
// "-" and "_", 253 characters at most.
const (
	SysctlSegmentFmt      = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
	SysctlContainSlashFmt = "(" + SysctlSegmentFmt + "[\\./])*" + SysctlSegmentFmt
	SysctlMaxLength       = 253
)

var sysctlName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^" + SysctlContainSlashFmt + "$") })

// validateSysctls: named, well formed, unique, and not of a namespace the pod shares with
// the host.
func validateSysctls(sc *api.PodSecurityContext, spec *api.PodSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, s := range sc.Sysctls {
		p := fldPath.Index(i).Child("name")
		switch {
		case s.Name == "":
			errs = append(errs, field.Required(p, ""))
		case len(s.Name) > SysctlMaxLength || !sysctlName().MatchString(s.Name):
			errs = append(errs, field.Invalid(p, s.Name, fmt.Sprintf("must have at most %d characters and match regex %s", SysctlMaxLength, sysctlName())))
		case names[s.Name]:
			errs = append(errs, field.Duplicate(p, s.Name))
		}
		if !opts.AllowNamespacedSysctlsForHostNetAndHostIPC {
			if err := ValidateHostSysctl(s.Name, spec, p); err != nil {
				errs = append(errs, err)
			}
		}
		names[s.Name] = true
	}
	return errs
}

// ValidateHostSysctl refuses a network sysctl with hostNetwork and an IPC one with
// hostIPC.
func ValidateHostSysctl(sysctl string, spec *api.PodSpec, fldPath *field.Path) *field.Error {
	switch sysctlNamespace(sysctl) {
	case "Net":
		if spec.HostNetwork {
			return field.Invalid(fldPath, sysctl, "may not be specified when 'hostNetwork' is true")
		}
	case "IPC":
		if spec.HostIPC {
			return field.Invalid(fldPath, sysctl, "may not be specified when 'hostIPC' is true")
		}
	}
	return nil
}

// ipcSysctls are the sysctls of the IPC namespace known by name.
var ipcSysctls = &lazySet[string]{items: []string{"kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced",
	"kernel.shm", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg"}}

// sysctlNamespace is the kernel namespace of a sysctl ("Net", "IPC", "UTS", "User" or "").
func sysctlNamespace(sysctl string) string {
	name := sysctl
	// A name written with slashes ("net/ipv4/...") reads as the dotted form.
	if i := strings.IndexAny(name, "./"); i >= 0 && name[i] == '/' {
		name = strings.Map(func(r rune) rune {
			switch r {
			case '.':
				return '/'
			case '/':
				return '.'
			}
			return r
		}, name)
	}
	if i := strings.Index(name, "*"); i >= 0 {
		name = name[:i]
	}
	switch {
	case name == "kernel.domainname":
		return "UTS"
	case ipcSysctls.get().Has(name):
		return "IPC"
	case strings.HasPrefix(name, "net."):
		return "Net"
	case strings.HasPrefix(name, "fs.mqueue."):
		return "IPC"
	case strings.HasPrefix(name, "user."):
		return "User"
	}
	return ""
}

// validateSeccompProfileField: a known type, a relative localhost profile only with
// Localhost.
func validateSeccompProfileField(sp *api.SeccompProfile, fldPath *field.Path) field.ErrorList {
	if sp == nil {
		return nil
	}
	var errs field.ErrorList
	switch sp.Type {
	case api.SeccompProfileTypeLocalhost, api.SeccompProfileTypeRuntimeDefault, api.SeccompProfileTypeUnconfined:
	case "":
		errs = append(errs, field.Required(fldPath.Child("type"), "type is required when seccompProfile is set"))
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("type"), sp.Type,
			[]api.SeccompProfileType{api.SeccompProfileTypeLocalhost, api.SeccompProfileTypeRuntimeDefault, api.SeccompProfileTypeUnconfined}))
	}
	if sp.Type == api.SeccompProfileTypeLocalhost {
		if sp.LocalhostProfile == nil {
			errs = append(errs, field.Required(fldPath.Child("localhostProfile"), "must be set when seccomp type is Localhost"))
		} else {
			errs = append(errs, validateLocalDescendingPath(*sp.LocalhostProfile, fldPath.Child("localhostProfile"))...)
		}
	} else if sp.LocalhostProfile != nil {
		errs = append(errs, field.Invalid(fldPath.Child("localhostProfile"), sp, "can only be set when seccomp type is Localhost"))
	}
	return errs
}

// The annotation forms of seccomp and AppArmor profiles (deprecated, still checked).
const (
	seccompProfileUnconfined      = "unconfined"
	seccompLocalhostPrefix        = "localhost/"
	appArmorBetaContainerPrefix   = "container.apparmor.security.beta.kubernetes.io/"
	appArmorBetaRuntimeDefault    = "runtime/default"
	appArmorBetaUnconfined        = "unconfined"
	appArmorBetaLocalhostPrefix   = "localhost/"
	seccompRuntimeDefaultProfile  = api.SeccompProfileRuntimeDefault
	seccompDockerDefaultProfile   = api.DeprecatedSeccompProfileDockerDefault
	seccompContainerAnnotationKey = api.SeccompContainerAnnotationKeyPrefix
)

// ValidateSeccompProfile: an annotation's seccomp profile.
func ValidateSeccompProfile(p string, fldPath *field.Path) field.ErrorList {
	switch {
	case p == seccompRuntimeDefaultProfile || p == seccompDockerDefaultProfile || p == seccompProfileUnconfined:
		return nil
	case strings.HasPrefix(p, seccompLocalhostPrefix):
		return validateLocalDescendingPath(strings.TrimPrefix(p, seccompLocalhostPrefix), fldPath)
	}
	return field.ErrorList{field.Invalid(fldPath, p, "must be a valid seccomp profile")}
}

// ValidateSeccompPodAnnotations: the pod's and the containers' seccomp annotations.
func ValidateSeccompPodAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if p, ok := annotations[api.SeccompPodAnnotationKey]; ok {
		errs = append(errs, ValidateSeccompProfile(p, fldPath.Child(api.SeccompPodAnnotationKey))...)
	}
	for k, p := range annotations {
		if strings.HasPrefix(k, seccompContainerAnnotationKey) {
			errs = append(errs, ValidateSeccompProfile(p, fldPath.Child(k))...)
		}
	}
	return errs
}

// ValidateAppArmorProfileField checks an appArmorProfile field.
func ValidateAppArmorProfileField(profile *api.AppArmorProfile, fldPath *field.Path) field.ErrorList {
	if profile == nil {
		return nil
	}
	var errs field.ErrorList
	switch profile.Type {
	case api.AppArmorProfileTypeLocalhost:
		lp := profile.LocalhostProfile
		if lp == nil {
			errs = append(errs, field.Required(fldPath.Child("localhostProfile"), "must be set when AppArmor type is Localhost"))
			break
		}
		trimmed := strings.TrimSpace(*lp)
		if trimmed != *lp {
			errs = append(errs, field.Invalid(fldPath.Child("localhostProfile"), *lp, "must not be padded with whitespace"))
		} else if trimmed == "" {
			errs = append(errs, field.Required(fldPath.Child("localhostProfile"), "must be set when AppArmor type is Localhost"))
		}
		const maxLocalhostProfile = 4095
		if len(*lp) > maxLocalhostProfile {
			errs = append(errs, field.TooLong(fldPath.Child("localhostProfile"), "", maxLocalhostProfile))
		}
	case api.AppArmorProfileTypeRuntimeDefault, api.AppArmorProfileTypeUnconfined:
		if profile.LocalhostProfile != nil {
			errs = append(errs, field.Invalid(fldPath.Child("localhostProfile"), profile.LocalhostProfile, "can only be set when AppArmor type is Localhost"))
		}
	case "":
		errs = append(errs, field.Required(fldPath.Child("type"), "type is required when appArmorProfile is set"))
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("type"), profile.Type,
			[]api.AppArmorProfileType{api.AppArmorProfileTypeLocalhost, api.AppArmorProfileTypeRuntimeDefault, api.AppArmorProfileTypeUnconfined}))
	}
	return errs
}

// ValidateAppArmorPodAnnotations: each AppArmor annotation names a container of the pod
// and a well-formed profile.
func ValidateAppArmorPodAnnotations(annotations map[string]string, spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for k, p := range annotations {
		if !strings.HasPrefix(k, appArmorBetaContainerPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, appArmorBetaContainerPrefix)
		if !podSpecHasContainer(spec, name) {
			errs = append(errs, field.Invalid(fldPath.Key(k), name, "container not found"))
		}
		if err := ValidateAppArmorProfileFormat(p); err != nil {
			errs = append(errs, field.Invalid(fldPath.Key(k), p, err.Error()))
		}
	}
	return errs
}

// ValidateAppArmorProfileFormat: an AppArmor annotation's value.
func ValidateAppArmorProfileFormat(profile string) error {
	if profile == "" || profile == appArmorBetaRuntimeDefault || profile == appArmorBetaUnconfined || strings.HasPrefix(profile, appArmorBetaLocalhostPrefix) {
		return nil
	}
	return fmt.Errorf("invalid AppArmor profile name: %q", profile)
}

func podSpecHasContainer(spec *api.PodSpec, name string) bool {
	found := false
	visitContainers(spec, field.NewPath("spec"), func(c *api.Container, _ *field.Path) bool {
		found = c.Name == name
		return !found
	})
	return found
}

// visitContainers calls visit for init, regular then ephemeral containers with their
// paths, until it returns false.
func visitContainers(spec *api.PodSpec, specPath *field.Path, visit func(*api.Container, *field.Path) bool) {
	p := specPath.Child("initContainers")
	for i := range spec.InitContainers {
		if !visit(&spec.InitContainers[i], p.Index(i)) {
			return
		}
	}
	p = specPath.Child("containers")
	for i := range spec.Containers {
		if !visit(&spec.Containers[i], p.Index(i)) {
			return
		}
	}
	p = specPath.Child("ephemeralContainers")
	for i := range spec.EphemeralContainers {
		if !visit((*api.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon), p.Index(i)) {
			return
		}
	}
}

// validateAppArmorAnnotationsAndFieldsMatchOnCreate: where a container has both an
// AppArmor annotation and a profile (its own or the pod's), they agree.
func validateAppArmorAnnotationsAndFieldsMatchOnCreate(annotations map[string]string, spec *api.PodSpec, specPath *field.Path) field.ErrorList {
	if spec.OS != nil && spec.OS.Name == api.Windows {
		return nil
	}
	var errs field.ErrorList
	var podProfile *api.AppArmorProfile
	if spec.SecurityContext != nil {
		podProfile = spec.SecurityContext.AppArmorProfile
	}
	visitContainers(spec, specPath, func(c *api.Container, cp *field.Path) bool {
		profile := podProfile
		if c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			profile = c.SecurityContext.AppArmorProfile
		}
		if profile == nil {
			return true
		}
		annotation, ok := annotations[api.DeprecatedAppArmorAnnotationKeyPrefix+c.Name]
		if !ok {
			return true
		}
		p := cp.Child("securityContext").Child("appArmorProfile")
		const typeMismatch = "apparmor type in annotation and field must match"
		switch profile.Type {
		case api.AppArmorProfileTypeUnconfined:
			if annotation != api.DeprecatedAppArmorAnnotationValueUnconfined {
				errs = append(errs, field.Forbidden(p.Child("type"), typeMismatch))
			}
		case api.AppArmorProfileTypeRuntimeDefault:
			if annotation != api.DeprecatedAppArmorAnnotationValueRuntimeDefault {
				errs = append(errs, field.Forbidden(p.Child("type"), typeMismatch))
			}
		case api.AppArmorProfileTypeLocalhost:
			if !strings.HasPrefix(annotation, api.DeprecatedAppArmorAnnotationValueLocalhostPrefix) {
				errs = append(errs, field.Forbidden(p.Child("type"), typeMismatch))
			} else if profile.LocalhostProfile == nil || strings.TrimPrefix(annotation, api.DeprecatedAppArmorAnnotationValueLocalhostPrefix) != *profile.LocalhostProfile {
				errs = append(errs, field.Forbidden(p.Child("localhostProfile"), "apparmor profile in annotation and field must match"))
			}
		}
		return true
	})
	return errs
}

// validateSeccompAnnotationsAndFields: where both a seccomp annotation and a profile
// field are set (pod or container), they agree.
func validateSeccompAnnotationsAndFields(annotations map[string]string, spec *api.PodSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.SecurityContext != nil && spec.SecurityContext.SeccompProfile != nil {
		if annotation, ok := annotations[api.SeccompPodAnnotationKey]; ok {
			if err := seccompAnnotationMatches(annotation, spec.SecurityContext.SeccompProfile, specPath.Child("securityContext").Child("seccompProfile")); err != nil {
				errs = append(errs, err)
			}
		}
	}
	visitContainers(spec, specPath, func(c *api.Container, cp *field.Path) bool {
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			return true
		}
		if annotation, ok := annotations[seccompContainerAnnotationKey+c.Name]; ok {
			if err := seccompAnnotationMatches(annotation, c.SecurityContext.SeccompProfile, cp.Child("securityContext").Child("seccompProfile")); err != nil {
				errs = append(errs, err)
			}
		}
		return true
	})
	return errs
}

func seccompAnnotationMatches(annotation string, profile *api.SeccompProfile, fldPath *field.Path) *field.Error {
	const typeMismatch = "seccomp type in annotation and field must match"
	switch profile.Type {
	case api.SeccompProfileTypeUnconfined:
		if annotation != seccompProfileUnconfined {
			return field.Forbidden(fldPath.Child("type"), typeMismatch)
		}
	case api.SeccompProfileTypeRuntimeDefault:
		if annotation != seccompRuntimeDefaultProfile && annotation != seccompDockerDefaultProfile {
			return field.Forbidden(fldPath.Child("type"), typeMismatch)
		}
	case api.SeccompProfileTypeLocalhost:
		if !strings.HasPrefix(annotation, seccompLocalhostPrefix) {
			return field.Forbidden(fldPath.Child("type"), typeMismatch)
		}
		if profile.LocalhostProfile == nil || strings.TrimPrefix(annotation, seccompLocalhostPrefix) != *profile.LocalhostProfile {
			return field.Forbidden(fldPath.Child("localhostProfile"), "seccomp profile in annotation and field must match")
		}
	}
	return nil
}

// Windows runAsUserName rules.
const (
	maxGMSACredentialSpecKiB  = 64
	maxRunAsUserNameDomainLen = 256
	maxRunAsUserNameUserLen   = 104
)

var (
	controlChars    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[[:cntrl:]]+`) })
	netBiosDomain   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$`) })
	dnsLabelPattern = `[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`
	dnsDomain       = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(fmt.Sprintf(`^%s(?:\.%s)*$`, dnsLabelPattern, dnsLabelPattern))
	})
	userNameBadChars      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["/\\:;|=,\+\*\?<>@\[\]]`) })
	userNameOnlyDotsSpace = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\. ]+$`) })
)

// validateWindowsSecurityContextOptions: a GMSA spec name and spec, and a runAsUserName
// of the form [DOMAIN\]USER.
func validateWindowsSecurityContextOptions(w *api.WindowsSecurityContextOptions, fldPath *field.Path) field.ErrorList {
	if w == nil {
		return nil
	}
	var errs field.ErrorList
	if w.GMSACredentialSpecName != nil {
		for _, msg := range wellformed.IsDNS1123Subdomain(*w.GMSACredentialSpecName) {
			errs = append(errs, field.Invalid(fldPath.Child("gmsaCredentialSpecName"), w.GMSACredentialSpecName, msg))
		}
	}
	if w.GMSACredentialSpec != nil {
		switch l := len(*w.GMSACredentialSpec); {
		case l == 0:
			errs = append(errs, field.Invalid(fldPath.Child("gmsaCredentialSpec"), w.GMSACredentialSpec, "gmsaCredentialSpec cannot be an empty string"))
		case l > maxGMSACredentialSpecKiB*1024:
			errs = append(errs, field.Invalid(fldPath.Child("gmsaCredentialSpec"), w.GMSACredentialSpec, fmt.Sprintf("gmsaCredentialSpec size must be under %d KiB", maxGMSACredentialSpecKiB)))
		}
	}
	if w.RunAsUserName == nil {
		return errs
	}
	name := *w.RunAsUserName
	p := fldPath.Child("runAsUserName")
	bad := func(msg string) { errs = append(errs, field.Invalid(p, w.RunAsUserName, msg)) }
	parts := strings.Split(name, "\\")
	switch {
	case name == "":
		bad("runAsUserName cannot be an empty string")
		return errs
	case controlChars().MatchString(name):
		bad("runAsUserName cannot contain control characters")
		return errs
	case len(parts) > 2:
		bad("runAsUserName cannot contain more than one backslash")
		return errs
	}
	domain, user, hasDomain := "", parts[0], false
	if len(parts) == 2 {
		domain, user, hasDomain = parts[0], parts[1], true
	}
	if len(domain) >= maxRunAsUserNameDomainLen {
		bad(fmt.Sprintf("runAsUserName's Domain length must be under %d characters", maxRunAsUserNameDomainLen))
	}
	if hasDomain && !netBiosDomain().MatchString(domain) && !dnsDomain().MatchString(domain) {
		bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
	}
	switch l := len(user); {
	case l == 0:
		bad("runAsUserName's User cannot be empty")
	case l > maxRunAsUserNameUserLen:
		bad(fmt.Sprintf("runAsUserName's User length must not be longer than %d characters", maxRunAsUserNameUserLen))
	}
	if userNameOnlyDotsSpace().MatchString(user) {
		bad(`runAsUserName's User cannot contain only periods or spaces`)
	}
	if userNameBadChars().MatchString(user) {
		bad(`runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`)
	}
	return errs
}

// validateWindowsHostProcessPod: hostProcess is the same for every container (pod value
// inherited), needs hostNetwork, and privileged pods allowed.
func validateWindowsHostProcessPod(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	var podHostProcess *bool
	if spec.SecurityContext != nil && spec.SecurityContext.WindowsOptions != nil {
		podHostProcess = spec.SecurityContext.WindowsOptions.HostProcess
	}
	containers, hostProcess := 0, 0
	visitContainers(spec, fldPath, func(c *api.Container, cp *field.Path) bool {
		containers++
		var own *bool
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			own = c.SecurityContext.WindowsOptions.HostProcess
		}
		if podHostProcess != nil && own != nil && *podHostProcess != *own {
			errs = append(errs, field.Invalid(cp.Child("securityContext", "windowsOptions", "hostProcess"), *own,
				fmt.Sprintf("pod hostProcess value must be identical if both are specified, was %v", *podHostProcess)))
		}
		if (own != nil && *own) || (own == nil && podHostProcess != nil && *podHostProcess) {
			hostProcess++
		}
		return true
	})
	if hostProcess > 0 {
		if hostProcess != containers {
			errs = append(errs, field.Invalid(fldPath, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
		}
		if !spec.HostNetwork {
			errs = append(errs, field.Invalid(fldPath.Child("hostNetwork"), spec.HostNetwork, "hostNetwork must be true if pod contains any hostProcess containers"))
		}
		if !allowPrivileged {
			errs = append(errs, field.Forbidden(fldPath, hostProcessDisallowed))
		}
	}
	return errs
}

// validateLinux: no Windows options in a Linux pod.
func validateLinux(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	const detail = "windows options cannot be set for a linux pod"
	if spec.SecurityContext != nil && spec.SecurityContext.WindowsOptions != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("securityContext").Child("windowsOptions"), detail))
	}
	visitContainers(spec, fldPath, func(c *api.Container, cp *field.Path) bool {
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			errs = append(errs, field.Forbidden(cp.Child("securityContext").Child("windowsOptions"), detail))
		}
		return true
	})
	return errs
}

// validateWindows: none of the Linux-only settings in a Windows pod, on the server cfg.
func validateWindows(cfg *serverconfig.Config, spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	const detail = "cannot be set for a windows pod"
	forbid := func(set bool, p *field.Path) {
		if set {
			errs = append(errs, field.Forbidden(p, detail))
		}
	}
	// Kubernetes 1.37 moved the host namespace fields from the internal pod security
	// context to the pod spec, and their checks after the security context's
	// (pkg/apis/core/validation/validation.go validateWindows, v1.36.3:4865-4913 →
	// v1.37.2:5026-5069): before, hostUsers, hostPID and hostIPC came after seLinuxOptions
	// and shareProcessNamespace after sysctls. (The internal security context is never nil
	// there: conversion makes one.)
	hostFirst := !cfg.AtLeast(37)
	sc := spec.SecurityContext
	if sc == nil {
		sc = &api.PodSecurityContext{}
	}
	p := fldPath.Child("securityContext")
	forbid(sc.AppArmorProfile != nil, p.Child("appArmorProfile"))
	forbid(sc.SELinuxOptions != nil, p.Child("seLinuxOptions"))
	if hostFirst {
		forbid(spec.HostUsers != nil, fldPath.Child("hostUsers"))
		forbid(spec.HostPID, fldPath.Child("hostPID"))
		forbid(spec.HostIPC, fldPath.Child("hostIPC"))
	}
	forbid(sc.SeccompProfile != nil, p.Child("seccompProfile"))
	forbid(sc.FSGroup != nil, p.Child("fsGroup"))
	forbid(sc.FSGroupChangePolicy != nil, p.Child("fsGroupChangePolicy"))
	forbid(len(sc.Sysctls) > 0, p.Child("sysctls"))
	if hostFirst {
		forbid(spec.ShareProcessNamespace != nil, fldPath.Child("shareProcessNamespace"))
	}
	forbid(sc.RunAsUser != nil, p.Child("runAsUser"))
	forbid(sc.RunAsGroup != nil, p.Child("runAsGroup"))
	forbid(sc.SupplementalGroups != nil, p.Child("supplementalGroups"))
	forbid(sc.SupplementalGroupsPolicy != nil, p.Child("supplementalGroupsPolicy"))
	forbid(sc.SELinuxChangePolicy != nil, p.Child("seLinuxChangePolicy"))
	if !hostFirst {
		forbid(spec.HostUsers != nil, fldPath.Child("hostUsers"))
		forbid(spec.HostPID, fldPath.Child("hostPID"))
		forbid(spec.HostIPC, fldPath.Child("hostIPC"))
		forbid(spec.ShareProcessNamespace != nil, fldPath.Child("shareProcessNamespace"))
	}
	visitContainers(spec, fldPath, func(c *api.Container, cp *field.Path) bool {
		sc := c.SecurityContext
		if sc == nil {
			return true
		}
		p := cp.Child("securityContext")
		forbid(sc.AppArmorProfile != nil, p.Child("appArmorProfile"))
		forbid(sc.SELinuxOptions != nil, p.Child("seLinuxOptions"))
		forbid(sc.SeccompProfile != nil, p.Child("seccompProfile"))
		forbid(sc.Capabilities != nil, p.Child("capabilities"))
		forbid(sc.ReadOnlyRootFilesystem != nil, p.Child("readOnlyRootFilesystem"))
		forbid(sc.Privileged != nil, p.Child("privileged"))
		forbid(sc.AllowPrivilegeEscalation != nil, p.Child("allowPrivilegeEscalation"))
		forbid(sc.ProcMount != nil, p.Child("procMount"))
		forbid(sc.RunAsUser != nil, p.Child("runAsUser"))
		forbid(sc.RunAsGroup != nil, p.Child("runAsGroup"))
		return true
	})
	return errs
}
