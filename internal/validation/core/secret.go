package core

import (
	"crypto/tls"
	"encoding/json"
	"reflect"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateSecret checks a Secret: its metadata, the keys and total size of data (stringData
// is merged into data before validation), and the keys each well-known type requires.
func ValidateSecret(s *api.Secret) field.ErrorList {
	errs := ValidateObjectMeta(&s.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	dataPath := field.NewPath("data")
	size := 0
	for k, v := range s.Data {
		for _, msg := range wellformed.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(dataPath.Key(k), k, msg))
		}
		size += len(v)
	}
	if size > api.MaxSecretSize {
		errs = append(errs, field.TooLong(dataPath, "", api.MaxSecretSize))
	}

	// The contents of a docker config are never printed.
	const redacted = "<secret contents redacted>"
	jsonKey := func(key string) {
		b, ok := s.Data[key]
		if !ok {
			errs = append(errs, field.Required(dataPath.Key(key), ""))
			return
		}
		if err := json.Unmarshal(b, &map[string]any{}); err != nil {
			errs = append(errs, field.Invalid(dataPath.Key(key), redacted, err.Error()))
		}
	}
	switch s.Type {
	case api.SecretTypeServiceAccountToken:
		// The token and uid come later from a controller; the account's name is needed now.
		if s.Annotations[api.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key(api.ServiceAccountNameKey), ""))
		}
	case api.SecretTypeDockercfg:
		jsonKey(api.DockerConfigKey)
	case api.SecretTypeDockerConfigJSON:
		jsonKey(api.DockerConfigJSONKey)
	case api.SecretTypeBasicAuth:
		// Either key may hold an empty value, but one must be there.
		_, user := s.Data[api.BasicAuthUsernameKey]
		_, password := s.Data[api.BasicAuthPasswordKey]
		if !user && !password {
			errs = append(errs, field.Required(dataPath.Key(api.BasicAuthUsernameKey), ""),
				field.Required(dataPath.Key(api.BasicAuthPasswordKey), ""))
		}
	case api.SecretTypeSSHAuth:
		if len(s.Data[api.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, field.Required(dataPath.Key(api.SSHAuthPrivateKey), ""))
		}
	case api.SecretTypeTLS:
		if _, ok := s.Data[api.TLSCertKey]; !ok {
			errs = append(errs, field.Required(dataPath.Key(api.TLSCertKey), ""))
		}
		if _, ok := s.Data[api.TLSPrivateKeyKey]; !ok {
			errs = append(errs, field.Required(dataPath.Key(api.TLSPrivateKeyKey), ""))
		}
	}
	// Opaque, bootstrap tokens and any other type: nothing more.
	return errs
}

// ValidateSecretUpdate checks an update of a Secret: its type never changes (an update
// without one keeps the stored type: PrepareForUpdate), and an immutable Secret keeps its
// data and stays immutable (rules.md valid.update).
func ValidateSecretUpdate(s, old *api.Secret) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	// Declarative validation covers this: an alpha rule in 1.37 (this one counts), beta from 1.38.
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(s.Type, old.Type, field.NewPath("type")).WithOrigin("immutable").MarkCoveredByDeclarative()...)
	if old.Immutable != nil && *old.Immutable {
		const detail = "field is immutable when `immutable` is set"
		if s.Immutable == nil || !*s.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), detail))
		}
		if !reflect.DeepEqual(s.Data, old.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), detail))
		}
	}
	return append(errs, ValidateSecret(s)...)
}

// secretWarnings: a TLS Secret whose key does not match its certificate (or either does
// not parse) is accepted with the TLS library's complaint as a warning.
func secretWarnings(s *api.Secret) []string {
	if s.Type != api.SecretTypeTLS {
		return nil
	}
	if _, err := tls.X509KeyPair(s.Data[api.TLSCertKey], s.Data[api.TLSPrivateKeyKey]); err != nil {
		return []string{err.Error()}
	}
	return nil
}

// secretDeclarative is a Secret's declarative validation: from Kubernetes 1.38 the beta rule
// that its type is immutable (pkg/apis/core/v1 zz_generated.validations.go Validate_Secret
// of 1.38.0-beta.0; alpha in 1.37), told for the handwritten one it covers without the
// value: "type: Invalid value: null: field is immutable".
func secretDeclarative(cfg *serverconfig.Config) func(obj, old any) field.ErrorList {
	if !cfg.AtLeast(38) {
		return registry.NoDeclarativeRules
	}
	return func(obj, old any) field.ErrorList {
		if old == nil || obj.(*api.Secret).Type == old.(*api.Secret).Type {
			return nil
		}
		return field.ErrorList{field.Invalid(field.NewPath("type"), nil, "field is immutable").WithOrigin("immutable").MarkBeta()}
	}
}
