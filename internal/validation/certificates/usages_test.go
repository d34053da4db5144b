package certificates

import (
	"slices"
	"testing"

	api "github.com/ssa-diff/ssa-diff/internal/api/certificates"
)

// usages is written out sorted (data, where sorting the constants ran at every start):
// it must stay every key usage the API knows, sorted.
func TestUsagesAreTheKeyUsagesSorted(t *testing.T) {
	u := []api.KeyUsage{api.UsageSigning, api.UsageDigitalSignature, api.UsageContentCommitment, api.UsageKeyEncipherment,
		api.UsageKeyAgreement, api.UsageDataEncipherment, api.UsageCertSign, api.UsageCRLSign, api.UsageEncipherOnly,
		api.UsageDecipherOnly, api.UsageAny, api.UsageServerAuth, api.UsageClientAuth, api.UsageCodeSigning,
		api.UsageEmailProtection, api.UsageSMIME, api.UsageIPsecEndSystem, api.UsageIPsecTunnel, api.UsageIPsecUser,
		api.UsageTimestamping, api.UsageOCSPSigning, api.UsageMicrosoftSGC, api.UsageNetscapeSGC}
	want := make([]string, len(u))
	for i, x := range u {
		want[i] = string(x)
	}
	slices.Sort(want)
	if !slices.Equal(usages, want) {
		t.Errorf("usages = %q, want %q", usages, want)
	}
}
