// Package formats checks the string formats of Kubernetes' OpenAPI validation: the format
// registry the API server validates custom resources with (kube-openapi's strfmt defaults
// plus the k8s-short-name and k8s-long-name formats of Kubernetes 1.34), each format
// accepting exactly the strings the server accepts.
//
// Format names are matched as the server matches them: with every "-" removed, so
// "date-time" and "datetime" are one format. Schemas are a server minor's rules for CRD
// schemas: whether a schema node keeps a format (the server strips the formats it does not
// support before validating, so an unsupported format checks nothing) and which formats a CRD
// is warned about; Valid checks a string against a known format.
//
// The regular expressions some formats need are compiled on first use, never at program
// start: a prediction that validates no formatted string pays nothing for them.
package formats
