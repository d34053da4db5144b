// Package wellformed answers apimachinery's format checks of names, label keys and values
// and annotation keys quickly for the values that pass them. apimachinery checks each with a
// regular expression (k8s.io/apimachinery/pkg/api/validate/content: IsLabelKey, which
// IsQualifiedName is, IsLabelValue, IsDNS1123Label, IsDNS1123Subdomain; pkg/util/validation:
// IsConfigMapKey, IsValidPortName), which was 4% of a library apply: every object has a name
// and labels, and the registry checks its metadata two or three times per write.
//
// Each predicate here (LabelKey, LabelValue, DNS1123Label, DNS1123Subdomain, ConfigMapKey,
// PortName, Labels, Annotations) is a loop over the bytes that reports true only for a value
// apimachinery's check answers with no error — for the single values, exactly those — so
// that a caller can skip the check when it says true and call apimachinery otherwise: every
// message stays apimachinery's, in its order. The wrappers do just that: ValidateLabels,
// ValidateAnnotations, ValidateLabelSelector, NameIsDNSSubdomain and NameIsDNSLabel (the
// ValidateNameFuncs), and the drop-ins of strings.go for the checks validators range over
// (IsDNS1123Label, IsQualifiedName, IsConfigMapKey, IsValidPortName …). [Meta] hides
// well-formed labels and annotations from apimachinery's metadata validation, which then
// finds nothing in them, as it would have. The fuzz targets hold every predicate and
// wrapper to the real function (exactly, but for annotation keys outside ASCII, which are
// always left to apimachinery).
package wellformed
