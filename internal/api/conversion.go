package api

import (
	"fmt"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/api/apps"
	"github.com/ssa-diff/ssa-diff/internal/api/autoscaling"
	"github.com/ssa-diff/ssa-diff/internal/api/core"
)

// Annotations of apps/v1 objects that conversion moves into fields of the internal type.
const (
	rollbackToAnnotation         = "deprecated.deployment.rollback.to"
	templateGenerationAnnotation = "deprecated.daemonset.template.generation"
)

// convert applies the conversion rules that are more than a copy of same-named fields: what
// the server's conversion from the served version to the internal one does besides, for
// the kind of out, given the served object obj.
func convert(obj map[string]any, out any) error {
	switch o := out.(type) {
	case *core.Secret:
		// stringData is written over data.
		if sd, ok := obj["stringData"].(map[string]any); ok && len(sd) > 0 {
			if o.Data == nil {
				o.Data = map[string][]byte{}
			}
			for k, v := range sd {
				s, _ := v.(string)
				o.Data[k] = []byte(s)
			}
		}
	case *core.Node:
		// podCIDR, when set, is authoritative over podCIDRs.
		spec, _ := obj["spec"].(map[string]any)
		if cidr, _ := spec["podCIDR"].(string); cidr != "" && (len(o.Spec.PodCIDRs) == 0 || o.Spec.PodCIDRs[0] != cidr) {
			o.Spec.PodCIDRs = []string{cidr}
		}
	case *apps.Deployment:
		// A rollback requested through the annotation of the old API versions.
		if rev, ok := o.Annotations[rollbackToAnnotation]; ok && rev != "" {
			n, err := strconv.ParseInt(rev, 10, 64)
			if err != nil {
				return fmt.Errorf("failed to parse annotation[%s]=%s as int64: %w", rollbackToAnnotation, rev, err)
			}
			o.Spec.RollbackTo = &apps.RollbackConfig{Revision: n}
			o.Annotations = without(o.Annotations, rollbackToAnnotation)
		}
	case *apps.DaemonSet:
		if gen, ok := o.Annotations[templateGenerationAnnotation]; ok {
			n, err := strconv.ParseInt(gen, 10, 64)
			if err != nil {
				return err
			}
			o.Spec.TemplateGeneration = n
			o.Annotations = without(o.Annotations, templateGenerationAnnotation)
		}
	case *autoscaling.HorizontalPodAutoscaler:
		// autoscaling/v2 expresses everything: the annotations that carry what v1 cannot
		// are not kept.
		for _, k := range []string{autoscaling.MetricSpecsAnnotation, autoscaling.BehaviorSpecsAnnotation,
			autoscaling.ToleranceScaleDownAnnotation, autoscaling.ToleranceScaleUpAnnotation,
			autoscaling.MetricStatusesAnnotation, autoscaling.HorizontalPodAutoscalerConditionsAnnotation} {
			if _, ok := o.Annotations[k]; ok {
				o.Annotations = without(o.Annotations, k)
			}
		}
	}
	return nil
}

// without is a shallow copy of m without key k.
func without[V any](m map[string]V, k string) map[string]V {
	out := make(map[string]V, len(m))
	for key, v := range m {
		if key != k {
			out[key] = v
		}
	}
	return out
}

// eventsV1Names are the fields of an events.k8s.io/v1 Event by their names in a v1 Event,
// whose internal type both versions share.
var eventsV1Names = map[string]string{
	"regarding":                "involvedObject",
	"note":                     "message",
	"deprecatedSource":         "source",
	"deprecatedFirstTimestamp": "firstTimestamp",
	"deprecatedLastTimestamp":  "lastTimestamp",
	"deprecatedCount":          "count",
	"reportingController":      "reportingComponent",
}

// eventAsCoreV1 is an events.k8s.io/v1 Event with its fields named as in a v1 Event.
func eventAsCoreV1(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if n, ok := eventsV1Names[k]; ok {
			k = n
		} else if _, isCoreName := coreEventOnly[k]; isCoreName {
			continue // a v1 name the events.k8s.io/v1 version does not have
		}
		out[k] = v
	}
	return out
}

// coreEventOnly are the names of a v1 Event that an events.k8s.io/v1 Event spells otherwise.
var coreEventOnly = map[string]bool{
	"involvedObject": true, "message": true, "source": true, "firstTimestamp": true,
	"lastTimestamp": true, "count": true, "reportingComponent": true,
}
