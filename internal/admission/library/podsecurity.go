package library

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	psadmission "k8s.io/pod-security-admission/admission"
	psconfig "k8s.io/pod-security-admission/admission/api/load"
	psapi "k8s.io/pod-security-admission/api"
	psmetrics "k8s.io/pod-security-admission/metrics"
	pspolicy "k8s.io/pod-security-admission/policy"
)

// podSecurity is PodSecurity as kube-apiserver runs it with no admission configuration
// (every namespace privileged unless its labels say otherwise, no exemption): the
// k8s.io/pod-security-admission library, its checks those of the server's minor.
type podSecurity struct {
	delegate *psadmission.Admission
}

func newPodSecurity(c *cluster, minor int) (*podSecurity, error) {
	cfg, err := psconfig.LoadFromReader(nil)
	if err != nil {
		return nil, err
	}
	// The checks of the server's release: "latest" is that release's newest.
	emulated := psapi.MajorMinorVersion(1, minor)
	evaluator, err := pspolicy.NewEvaluator(pspolicy.DefaultChecks(), &emulated)
	if err != nil {
		return nil, err
	}
	a := &psadmission.Admission{
		Configuration:    cfg,
		Evaluator:        evaluator,
		Metrics:          noMetrics{},
		PodSpecExtractor: psadmission.DefaultPodSpecExtractor{},
		NamespaceGetter:  namespaceGetter{c},
		PodLister:        podLister{c},
	}
	if err := a.CompleteConfiguration(); err != nil {
		return nil, fmt.Errorf("PodSecurity: %w", err)
	}
	if err := a.ValidateConfiguration(); err != nil {
		return nil, fmt.Errorf("PodSecurity: %w", err)
	}
	return &podSecurity{delegate: a}, nil
}

var podSecurityResources = map[schema.GroupResource]bool{{Resource: "pods"}: true, {Resource: "namespaces"}: true}

// validate is the PodSecurity plugin's Validate: the library's answer as the server's
// plugin turns it into warnings, audit annotations and a 403.
func (p *podSecurity) validate(ctx context.Context, call wire.Call, attrs admission.Attributes, col *collector) error {
	gr := schema.GroupResource{Group: call.Kind.Group, Resource: call.Kind.Resource}
	if !podSecurityResources[gr] && !p.delegate.PodSpecExtractor.HasPodSpec(gr) {
		return nil
	}
	if call.Operation != string(admission.Create) && call.Operation != string(admission.Update) {
		return nil
	}
	obj, err := typedObject(call.Object)
	if err != nil {
		return err
	}
	var old runtime.Object
	if call.OldObject != nil {
		if old, err = typedObject(call.OldObject); err != nil {
			return err
		}
	}
	rec := &psapi.AttributesRecord{Name: call.Name, Namespace: call.Namespace,
		Kind:        schema.GroupVersionKind{Group: call.Kind.Group, Version: call.Kind.Version, Kind: call.Kind.Kind},
		Resource:    schema.GroupVersionResource{Group: call.Kind.Group, Version: call.Kind.Version, Resource: call.Kind.Resource},
		Subresource: call.Subresource, Operation: admissionv1.Operation(call.Operation), Object: obj, OldObject: old,
		Username: attrs.GetUserInfo().GetName()}
	result := p.delegate.Validate(ctx, rec)
	for _, w := range result.Warnings {
		col.AddWarning("", w)
	}
	for k, v := range result.AuditAnnotations {
		col.annotate(psapi.AuditAnnotationPrefix+k, v)
	}
	if result.Allowed {
		return nil
	}
	//lint:ignore ST1005 the refusal's words are pod-security-admission's, capital included
	refusal := apierrors.NewForbidden(gr, nameOf(call), errors.New("Not allowed by PodSecurity"))
	if r := result.Result; r != nil {
		if r.Message != "" {
			refusal.ErrStatus.Message = r.Message
		}
		if r.Reason != "" {
			refusal.ErrStatus.Reason = r.Reason
		}
		if r.Details != nil {
			refusal.ErrStatus.Details = r.Details
		}
		if r.Code != 0 {
			refusal.ErrStatus.Code = r.Code
		}
	}
	return refusal
}

// typedObject is obj as its v1 Go type, which the library reads (a Pod, a Deployment …).
func typedObject(obj map[string]any) (runtime.Object, error) {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gv, err := schema.ParseGroupVersion(av)
	if err != nil {
		return nil, err
	}
	t, err := clientscheme.Scheme.New(gv.WithKind(kind))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, t); err != nil {
		return nil, err
	}
	return t, nil
}

type namespaceGetter struct{ c *cluster }

// GetNamespace is the namespace the cluster holds; one it does not hold has only its
// name label, as every namespace has (the model says when it invented it).
func (g namespaceGetter) GetNamespace(_ context.Context, name string) (*corev1.Namespace, error) {
	if ns, ok := g.c.namespaces[name]; ok {
		return ns, nil
	}
	ns := &corev1.Namespace{}
	ns.Name = name
	ns.Labels = map[string]string{corev1.LabelMetadataName: name}
	return ns, nil
}

type podLister struct{ c *cluster }

// ListPods are the Pods the cluster state holds in namespace: a namespace's new enforce
// level is checked against them.
func (l podLister) ListPods(_ context.Context, namespace string) ([]*corev1.Pod, error) {
	return l.c.pods[namespace], nil
}

// noMetrics records nothing: the server's metrics are not part of its answer.
type noMetrics struct{}

func (noMetrics) RecordEvaluation(psmetrics.Decision, psapi.LevelVersion, psmetrics.Mode, psapi.Attributes) {
}
func (noMetrics) RecordExemption(psapi.Attributes)           {}
func (noMetrics) RecordError(fatal bool, _ psapi.Attributes) {}
