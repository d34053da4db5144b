package flowcontrol

import (
	fc "github.com/ssa-diff/ssa-diff/internal/api/flowcontrol"
)

// The server keeps two flow schemas and two priority levels whatever is written: their specs
// are fixed (k8s.io/apiserver's mandatory API Priority and Fairness configuration, restated
// here in the internal types so that the binary does not link the published flowcontrol/v1
// types and, through them, k8s.io/api/core/v1). conformance/validation holds these values to
// the server's through the strategies' answers on writes of the mandatory names.

// mandatoryFlowSchemaSpec returns the fixed spec of a mandatory flow schema, by name.
func mandatoryFlowSchemaSpec(name string) (fc.FlowSchemaSpec, bool) {
	var (
		level      string
		precedence int32
		method     *fc.FlowDistinguisherMethod
		groups     []string
	)
	switch name {
	case fc.FlowSchemaNameExempt:
		level, precedence, groups = fc.PriorityLevelConfigurationNameExempt, 1, []string{"system:masters"}
	case fc.FlowSchemaNameCatchAll:
		level, precedence, groups = fc.PriorityLevelConfigurationNameCatchAll, 10000, []string{"system:unauthenticated", "system:authenticated"}
		method = &fc.FlowDistinguisherMethod{Type: fc.FlowDistinguisherMethodByUserType}
	default:
		return fc.FlowSchemaSpec{}, false
	}
	subjects := make([]fc.Subject, len(groups))
	for i, g := range groups {
		subjects[i] = fc.Subject{Kind: fc.SubjectKindGroup, Group: &fc.GroupSubject{Name: g}}
	}
	// Both match every request: any verb on any resource in any namespace or none, and any
	// non-resource URL.
	return fc.FlowSchemaSpec{
		PriorityLevelConfiguration: fc.PriorityLevelConfigurationReference{Name: level},
		MatchingPrecedence:         precedence,
		DistinguisherMethod:        method,
		Rules: []fc.PolicyRulesWithSubjects{{
			Subjects: subjects,
			ResourceRules: []fc.ResourcePolicyRule{{
				Verbs:        []string{fc.VerbAll},
				APIGroups:    []string{fc.APIGroupAll},
				Resources:    []string{fc.ResourceAll},
				ClusterScope: true,
				Namespaces:   []string{fc.NamespaceEvery},
			}},
			NonResourceRules: []fc.NonResourcePolicyRule{{
				Verbs:           []string{fc.VerbAll},
				NonResourceURLs: []string{fc.NonResourceAll},
			}},
		}},
	}, true
}

// mandatoryPriorityLevelSpec returns the fixed spec of a mandatory priority level, by name.
func mandatoryPriorityLevelSpec(name string) (fc.PriorityLevelConfigurationSpec, bool) {
	zero := func() *int32 { v := int32(0); return &v }
	switch name {
	case fc.PriorityLevelConfigurationNameExempt:
		return fc.PriorityLevelConfigurationSpec{
			Type:   fc.PriorityLevelEnablementExempt,
			Exempt: &fc.ExemptPriorityLevelConfiguration{NominalConcurrencyShares: zero(), LendablePercent: zero()},
		}, true
	case fc.PriorityLevelConfigurationNameCatchAll:
		return fc.PriorityLevelConfigurationSpec{
			Type: fc.PriorityLevelEnablementLimited,
			Limited: &fc.LimitedPriorityLevelConfiguration{
				NominalConcurrencyShares: 5,
				LendablePercent:          zero(),
				LimitResponse:            fc.LimitResponse{Type: fc.LimitResponseTypeReject},
			},
		}, true
	}
	return fc.PriorityLevelConfigurationSpec{}, false
}
