package library

import (
	"context"
	"fmt"
	"time"

	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// newValidatingPolicies is k8s.io/apiserver's ValidatingAdmissionPolicy plugin, fed from
// the cluster.
func newValidatingPolicies(c *cluster, stop chan struct{}) (admission.ValidationInterface, error) {
	p, err := validating.NewPlugin(nil)
	if err != nil {
		return nil, err
	}
	p.SetExternalKubeInformerFactory(c.informer)
	p.SetExternalKubeClientSet(c.client)
	p.SetDynamicClient(c.dynamic)
	p.SetRESTMapper(c.mapper)
	p.SetDrainedNotification(stop)
	p.SetUnconditionalAuthorizer(&authz{rules: c.setup.Authorization, requester: c.setup.User.Name})
	p.SetAPIServerID("ssa-diff")
	if err := p.ValidateInitialization(); err != nil {
		return nil, fmt.Errorf("ValidatingAdmissionPolicy: %w", err)
	}
	return p, nil
}

// newMutatingPolicies is k8s.io/apiserver's MutatingAdmissionPolicy plugin, fed from the
// cluster: a cluster that holds MutatingAdmissionPolicyBindings runs it (1.34 and 1.35
// only with the MutatingAdmissionPolicy feature gate, without which they could not be
// stored).
func newMutatingPolicies(c *cluster, stop chan struct{}) (admission.MutationInterface, error) {
	p, err := mutating.NewPlugin(nil)
	if err != nil {
		return nil, err
	}
	p.SetEnabled(true)
	p.SetExternalKubeInformerFactory(c.informer)
	p.SetExternalKubeClientSet(c.client)
	p.SetDynamicClient(c.dynamic)
	p.SetRESTMapper(c.mapper)
	p.SetDrainedNotification(stop)
	p.SetUnconditionalAuthorizer(&authz{rules: c.setup.Authorization, requester: c.setup.User.Name})
	p.SetAPIServerID("ssa-diff")
	if err := p.ValidateInitialization(); err != nil {
		return nil, fmt.Errorf("MutatingAdmissionPolicy: %w", err)
	}
	// The plugin reads the OpenAPI documents in the background: wait until it has.
	select {
	case <-c.openapi.listed:
	case <-time.After(10 * time.Second):
		return nil, fmt.Errorf("MutatingAdmissionPolicy: the OpenAPI documents were never read")
	}
	return p, nil
}

// authz answers the policies' authorizer checks from what was declared of the requester;
// a check nothing answers is "no opinion" (an authorizer that knows nothing denies) and is
// recorded in the call's collector.
type authz struct {
	rules     clusterstate.Authorization
	requester string
}

func (a *authz) Authorize(ctx context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	c := clusterstate.Check{Verb: attrs.GetVerb(), Group: attrs.GetAPIGroup(), Resource: attrs.GetResource(),
		Subresource: attrs.GetSubresource(), Namespace: attrs.GetNamespace(), Name: attrs.GetName()}
	if !attrs.IsResourceRequest() {
		c = clusterstate.Check{Verb: attrs.GetVerb(), Path: attrs.GetPath()}
	}
	if u := attrs.GetUser(); u != nil && u.GetName() != a.requester && !(a.requester == "" && u.GetName() == unknownUser) {
		c.User = u.GetName()
	}
	allowed, known := a.rules.Decide(c)
	if !known {
		if col := collectorFrom(ctx); col != nil {
			col.unanswered(c)
		}
		return authorizer.DecisionNoOpinion, "", nil
	}
	if allowed {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionDeny, "", nil
}
