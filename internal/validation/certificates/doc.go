// Package certificates is the validation of the certificates.k8s.io group's kinds as
// the registry of kube-apiserver 1.32 to 1.38 runs it (Strategy): a CertificateSigningRequest's PEM
// request (parsed, its signature checked), usages, signer name, lifetime, conditions and
// issued certificate — with what the stored request already broke left acceptable on
// update, and the approval conditions writable through /approval only; a
// ClusterTrustBundle's name (prefixed by its signer), signer name and PEM bundle of CA
// certificates; a PodCertificateRequest's pod, service account and node references, key
// request (a stub PKCS#10 request of an accepted key type), and its /status transitions
// (one terminal condition, then an issued chain that matches the requested key and its
// timestamps).
//
// The approval of Approved and Denied conditions together is a declarative rule 1.37
// enforces (beta), joined as the server joins it. Authorization (who may sign for a
// signer) is not predicted: the writer is taken to be allowed.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package certificates
