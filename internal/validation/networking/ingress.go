package networking

import (
	"fmt"
	"strings"

	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// ingressClassAnnotation is the annotation that named an Ingress's class before
// spec.ingressClassName.
const ingressClassAnnotation = "kubernetes.io/ingress.class"

// The path types, in the sorted order the server lists them.
var supportedPathTypes = []string{string(api.PathTypeExact), string(api.PathTypeImplementationSpecific), string(api.PathTypePrefix)}

// Sequences and endings an Exact or Prefix path may not have.
var (
	forbiddenPathSequences = []string{"//", "/./", "/../", "%2f", "%2F"}
	forbiddenPathSuffixes  = []string{"/..", "/."}
)

// ingressOptions relax the rules for what a stored Ingress already holds.
type ingressOptions struct {
	// allowInvalidSecretName: the stored object has a TLS secret name that is not a valid
	// Secret name.
	allowInvalidSecretName bool
	// allowInvalidWildcardHostRule: the stored object has an invalid rule under a wildcard
	// host; rules under wildcard hosts are not checked then.
	allowInvalidWildcardHostRule bool
	// relaxedServiceNames: backend service names are DNS labels (they may start with a
	// digit) rather than DNS-1035 labels.
	relaxedServiceNames bool
	// requiredSaysWhat: a resource backend's missing kind or name says what is required.
	requiredSaysWhat bool
}

// requiredSaysWhat: Kubernetes 1.33 and older say "kind is required" (or "name is
// required") where a reference lacks one; 1.34 says nothing more than Required.
func requiredSaysWhat(cfg *serverconfig.Config) bool { return !cfg.AtLeast(34) }

// whatIsRequired is the detail of a missing member's Required error: "<name> is required"
// where the error says what, else none.
func whatIsRequired(saysWhat bool, name string) string {
	if saysWhat {
		return name + " is required"
	}
	return ""
}

// allowRelaxedServiceNames: backend service names may be DNS labels with gate
// RelaxedServiceNameValidation (on by default from 1.36), or on an update of an Ingress
// that already had such a name (old is nil on a create).
func allowRelaxedServiceNames(cfg *serverconfig.Config, old *api.Ingress) bool {
	if cfg.Enabled(features.RelaxedServiceNameValidation) {
		return true
	}
	if old == nil {
		return false
	}
	relaxed := func(b *api.IngressBackend) bool {
		if b == nil || b.Service == nil {
			return false
		}
		return len(wellformed.NameIsDNSLabel(b.Service.Name, false)) == 0 && len(apimachineryvalidation.NameIsDNS1035Label(b.Service.Name, false)) > 0
	}
	// Kubernetes 1.35 added the stored default backend's name
	// (pkg/apis/networking/validation/validation.go allowRelaxedServiceNameValidation).
	if cfg.AtLeast(35) && relaxed(old.Spec.DefaultBackend) {
		return true
	}
	for _, rule := range old.Spec.Rules {
		if rule.HTTP == nil {
			continue
		}
		for i := range rule.HTTP.Paths {
			if relaxed(&rule.HTTP.Paths[i].Backend) {
				return true
			}
		}
	}
	return false
}

// ValidateIngressCreate checks a new Ingress on the server cfg describes: its metadata, its
// spec, and that the class annotation and spec.ingressClassName agree when both are set.
func ValidateIngressCreate(cfg *serverconfig.Config, ing *api.Ingress) field.ErrorList {
	errs := validateIngress(ing, ingressOptions{relaxedServiceNames: allowRelaxedServiceNames(cfg, nil), requiredSaysWhat: requiredSaysWhat(cfg)})
	if v, ok := ing.Annotations[ingressClassAnnotation]; ok && ing.Spec.IngressClassName != nil && v != *ing.Spec.IngressClassName {
		errs = append(errs, field.Invalid(field.NewPath("annotations").Child(ingressClassAnnotation), v, "must match `ingressClassName` when both are specified"))
	}
	return errs
}

// ValidateIngressUpdate checks an update of an Ingress on the server cfg describes, keeping
// what the stored one may already hold.
func ValidateIngressUpdate(cfg *serverconfig.Config, ing, old *api.Ingress) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&ing.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	opts := ingressOptions{
		allowInvalidSecretName:       hasInvalidSecretName(old),
		allowInvalidWildcardHostRule: hasInvalidWildcardHostRule(old),
		relaxedServiceNames:          allowRelaxedServiceNames(cfg, old),
		requiredSaysWhat:             requiredSaysWhat(cfg),
	}
	return append(errs, validateIngress(ing, opts)...)
}

func validateIngress(ing *api.Ingress, opts ingressOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&ing.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateIngressSpec(&ing.Spec, field.NewPath("spec"), opts)...)
}

// validateIngressSpec: a default backend or rules, each backend, rule and TLS entry, and
// the class name.
func validateIngressSpec(spec *api.IngressSpec, fldPath *field.Path, opts ingressOptions) field.ErrorList {
	var errs field.ErrorList
	if len(spec.Rules) == 0 && spec.DefaultBackend == nil {
		errs = append(errs, field.Invalid(fldPath, spec.Rules, "either `defaultBackend` or `rules` must be specified"))
	}
	if spec.DefaultBackend != nil {
		errs = append(errs, validateIngressBackend(spec.DefaultBackend, fldPath.Child("defaultBackend"), opts)...)
	}
	if len(spec.Rules) > 0 {
		errs = append(errs, validateIngressRules(spec.Rules, fldPath.Child("rules"), opts)...)
	}
	if len(spec.TLS) > 0 {
		errs = append(errs, validateIngressTLS(spec.TLS, fldPath.Child("tls"), opts)...)
	}
	if spec.IngressClassName != nil {
		for _, msg := range wellformed.NameIsDNSSubdomain(*spec.IngressClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("ingressClassName"), *spec.IngressClassName, msg))
		}
	}
	return errs
}

// hostErrors: a host, possibly with a leading wildcard label, is a DNS subdomain.
func hostErrors(host string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	msgs := validation.IsDNS1123Subdomain
	if strings.Contains(host, "*") {
		msgs = validation.IsWildcardDNS1123Subdomain
	}
	for _, msg := range msgs(host) {
		errs = append(errs, field.Invalid(fldPath, host, msg))
	}
	return errs
}

func validateIngressTLS(tls []api.IngressTLS, fldPath *field.Path, opts ingressOptions) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tls {
		p := fldPath.Index(i)
		for j, host := range t.Hosts {
			errs = append(errs, hostErrors(host, p.Child("hosts").Index(j))...)
		}
		if !opts.allowInvalidSecretName {
			for _, msg := range secretNameProblems(t.SecretName) {
				errs = append(errs, field.Invalid(p.Child("secretName"), t.SecretName, msg))
			}
		}
	}
	return errs
}

// secretNameProblems: an empty TLS secret name is allowed, any other must name a Secret.
func secretNameProblems(name string) []string {
	if name == "" {
		return nil
	}
	return core.ValidateSecretName(name, false)
}

func validateIngressRules(rules []api.IngressRule, fldPath *field.Path, opts ingressOptions) field.ErrorList {
	var errs field.ErrorList
	for i, rule := range rules {
		p := fldPath.Index(i)
		wildcard := false
		if rule.Host != "" {
			if netutils.ParseIPSloppy(rule.Host) != nil {
				errs = append(errs, field.Invalid(p.Child("host"), rule.Host, "must be a DNS name, not an IP address"))
			}
			wildcard = strings.Contains(rule.Host, "*")
			errs = append(errs, hostErrors(rule.Host, p.Child("host"))...)
		}
		if !wildcard || !opts.allowInvalidWildcardHostRule {
			errs = append(errs, validateIngressRuleValue(&rule.IngressRuleValue, p, opts)...)
		}
	}
	return errs
}

func validateIngressRuleValue(rule *api.IngressRuleValue, fldPath *field.Path, opts ingressOptions) field.ErrorList {
	if rule.HTTP == nil {
		return nil
	}
	p := fldPath.Child("http")
	var errs field.ErrorList
	if len(rule.HTTP.Paths) == 0 {
		errs = append(errs, field.Required(p.Child("paths"), ""))
	}
	for i := range rule.HTTP.Paths {
		errs = append(errs, validateHTTPIngressPath(&rule.HTTP.Paths[i], p.Child("paths").Index(i), opts)...)
	}
	return errs
}

// validateHTTPIngressPath: a path type is required; Exact and Prefix paths are absolute
// and clean, an ImplementationSpecific one is absolute when set; then the backend.
func validateHTTPIngressPath(path *api.HTTPIngressPath, fldPath *field.Path, opts ingressOptions) field.ErrorList {
	if path.PathType == nil {
		return field.ErrorList{field.Required(fldPath.Child("pathType"), "pathType must be specified")}
	}
	var errs field.ErrorList
	pathPath := fldPath.Child("path")
	switch *path.PathType {
	case api.PathTypeExact, api.PathTypePrefix:
		if !strings.HasPrefix(path.Path, "/") {
			errs = append(errs, field.Invalid(pathPath, path.Path, "must be an absolute path"))
		}
		if path.Path != "" {
			for _, seq := range forbiddenPathSequences {
				if strings.Contains(path.Path, seq) {
					errs = append(errs, field.Invalid(pathPath, path.Path, fmt.Sprintf("must not contain '%s'", seq)))
				}
			}
			for _, suffix := range forbiddenPathSuffixes {
				if strings.HasSuffix(path.Path, suffix) {
					errs = append(errs, field.Invalid(pathPath, path.Path, fmt.Sprintf("cannot end with '%s'", suffix)))
				}
			}
		}
	case api.PathTypeImplementationSpecific:
		if path.Path != "" && !strings.HasPrefix(path.Path, "/") {
			errs = append(errs, field.Invalid(pathPath, path.Path, "must be an absolute path"))
		}
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("pathType"), *path.PathType, supportedPathTypes))
	}
	return append(errs, validateIngressBackend(&path.Backend, fldPath.Child("backend"), opts)...)
}

// validateIngressBackend: exactly one of a resource and a service; a service has a name
// and a port given by name or by number.
func validateIngressBackend(backend *api.IngressBackend, fldPath *field.Path, opts ingressOptions) field.ErrorList {
	switch {
	case backend.Resource != nil && backend.Service != nil:
		return field.ErrorList{field.Invalid(fldPath, "", "cannot set both resource and service backends")}
	case backend.Resource != nil:
		return validateTypedLocalObjectReference(backend.Resource, fldPath.Child("resource"), opts.requiredSaysWhat)
	case backend.Service == nil:
		return field.ErrorList{field.Invalid(fldPath, "", "resource or service backend is required")}
	}
	var errs field.ErrorList
	svc := backend.Service
	if svc.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("service", "name"), ""))
	} else {
		nameFn := apimachineryvalidation.NameIsDNS1035Label
		if opts.relaxedServiceNames {
			nameFn = wellformed.NameIsDNSLabel
		}
		for _, msg := range nameFn(svc.Name, false) {
			errs = append(errs, field.Invalid(fldPath.Child("service", "name"), svc.Name, msg))
		}
	}
	hasName, hasNumber := svc.Port.Name != "", svc.Port.Number != 0
	switch {
	case hasName && hasNumber:
		errs = append(errs, field.Invalid(fldPath, "", "cannot set both port name & port number"))
	case hasName:
		for _, msg := range wellformed.IsValidPortName(svc.Port.Name) {
			errs = append(errs, field.Invalid(fldPath.Child("service", "port", "name"), svc.Port.Name, msg))
		}
	case hasNumber:
		for _, msg := range validation.IsValidPortNum(int(svc.Port.Number)) {
			errs = append(errs, field.Invalid(fldPath.Child("service", "port", "number"), svc.Port.Number, msg))
		}
	default:
		errs = append(errs, field.Required(fldPath, "port name or number is required"))
	}
	return errs
}

// validateTypedLocalObjectReference: a resource backend has a kind and a name that fit in
// a URL path, and its API group, when set, is a DNS subdomain; saysWhat: a missing one's
// error says what is required.
func validateTypedLocalObjectReference(ref *apicore.TypedLocalObjectReference, fldPath *field.Path, saysWhat bool) field.ErrorList {
	var errs field.ErrorList
	if ref.APIGroup != nil {
		for _, msg := range wellformed.IsDNS1123Subdomain(*ref.APIGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("apiGroup"), *ref.APIGroup, msg))
		}
	}
	errs = append(errs, pathSegment(ref.Kind, fldPath.Child("kind"), false, whatIsRequired(saysWhat, "kind"))...)
	return append(errs, pathSegment(ref.Name, fldPath.Child("name"), false, whatIsRequired(saysWhat, "name"))...)
}

// pathSegment: a required value that fits in a URL path; covered marks the Required error
// as one declarative validation also reports, detail is its detail.
func pathSegment(v string, fldPath *field.Path, covered bool, detail string) field.ErrorList {
	if v == "" {
		err := field.Required(fldPath, detail)
		if covered {
			err = err.MarkCoveredByDeclarative()
		}
		return field.ErrorList{err}
	}
	var errs field.ErrorList
	for _, msg := range content.IsPathSegmentName(v) {
		errs = append(errs, field.Invalid(fldPath, v, msg))
	}
	return errs
}

// ValidateIngressStatusUpdate checks an update of an Ingress's status: the load balancer's
// addresses (an IP the stored status already had is kept as is) and host names.
func ValidateIngressStatusUpdate(cfg *serverconfig.Config, ing, old *api.Ingress) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&ing.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	fldPath := field.NewPath("status", "loadBalancer")
	stored := make([]string, 0, len(old.Status.LoadBalancer.Ingress))
	for _, in := range old.Status.LoadBalancer.Ingress {
		if in.IP != "" {
			stored = append(stored, in.IP)
		}
	}
	for i, in := range ing.Status.LoadBalancer.Ingress {
		p := fldPath.Child("ingress").Index(i)
		if in.IP != "" {
			errs = append(errs, core.IsValidIPForLegacyField(cfg, p.Child("ip"), in.IP, stored)...)
		}
		if in.Hostname != "" {
			for _, msg := range wellformed.IsDNS1123Subdomain(in.Hostname) {
				errs = append(errs, field.Invalid(p.Child("hostname"), in.Hostname, msg))
			}
			if netutils.ParseIPSloppy(in.Hostname) != nil {
				errs = append(errs, field.Invalid(p.Child("hostname"), in.Hostname, "must be a DNS name, not an IP address"))
			}
		}
	}
	return errs
}

// hasInvalidSecretName: the stored Ingress has a TLS secret name that is not a valid name.
func hasInvalidSecretName(old *api.Ingress) bool {
	for _, t := range old.Spec.TLS {
		if len(secretNameProblems(t.SecretName)) > 0 {
			return true
		}
	}
	return false
}

// hasInvalidWildcardHostRule: the stored Ingress has a rule under a wildcard host that the
// strictest rules refuse.
func hasInvalidWildcardHostRule(old *api.Ingress) bool {
	for i := range old.Spec.Rules {
		rule := &old.Spec.Rules[i]
		if strings.Contains(rule.Host, "*") && len(validateIngressRuleValue(&rule.IngressRuleValue, nil, ingressOptions{})) > 0 {
			return true
		}
	}
	return false
}
