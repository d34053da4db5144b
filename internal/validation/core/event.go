package core

import (
	"fmt"
	"reflect"
	"time"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Length limits of an Event's fields.
const (
	eventReportingInstanceLimit = 128
	eventActionLimit            = 128
	eventReasonLimit            = 128
	eventNoteLimit              = 1024
)

// Events are written through two APIs that share the internal type: v1 (the core group),
// whose strategy runs only the legacy checks and no metadata checks of its own, and
// events.k8s.io/v1, which adds the strict ones. strict selects the second.

// ValidateEventCreate checks a new Event written through v1 (strict false) or
// events.k8s.io/v1 (strict true).
func ValidateEventCreate(ev *api.Event, strict bool) field.ErrorList {
	errs := legacyEvent(ev, strict)
	if !strict {
		return errs
	}
	errs = append(errs, ValidateObjectMeta(&ev.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, eventSeries(ev)...)
	if zeroTime(ev.EventTime.Time) {
		errs = append(errs, field.Required(field.NewPath("eventTime"), ""))
	}
	if ev.Type != api.EventTypeNormal && ev.Type != api.EventTypeWarning {
		errs = append(errs, field.Invalid(field.NewPath("type"), "", fmt.Sprintf("has invalid value: %v", ev.Type)))
	}
	const unset = "needs to be unset"
	if !zeroTime(ev.FirstTimestamp.Time) {
		errs = append(errs, field.Invalid(field.NewPath("firstTimestamp"), "", unset))
	}
	if !zeroTime(ev.LastTimestamp.Time) {
		errs = append(errs, field.Invalid(field.NewPath("lastTimestamp"), "", unset))
	}
	if ev.Count != 0 {
		errs = append(errs, field.Invalid(field.NewPath("count"), "", unset))
	}
	if ev.Source.Component != "" || ev.Source.Host != "" {
		errs = append(errs, field.Invalid(field.NewPath("source"), "", unset))
	}
	return errs
}

// ValidateEventUpdate checks an update of an Event; through events.k8s.io/v1 almost every
// field is immutable.
func ValidateEventUpdate(ev, old *api.Event, strict bool) field.ErrorList {
	errs := legacyEvent(ev, strict)
	if !strict {
		return errs
	}
	errs = append(errs, ValidateObjectMetaUpdate(&ev.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	if !reflect.DeepEqual(ev.Series, old.Series) {
		errs = append(errs, eventSeries(ev)...)
	}
	immutable := func(v, o any, name string) {
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(v, o, field.NewPath(name))...)
	}
	immutable(ev.InvolvedObject, old.InvolvedObject, "involvedObject")
	immutable(ev.Reason, old.Reason, "reason")
	immutable(ev.Message, old.Message, "message")
	immutable(ev.Source, old.Source, "source")
	immutable(ev.FirstTimestamp, old.FirstTimestamp, "firstTimestamp")
	immutable(ev.LastTimestamp, old.LastTimestamp, "lastTimestamp")
	immutable(ev.Count, old.Count, "count")
	immutable(ev.Reason, old.Reason, "reason") // the server checks it twice
	immutable(ev.Type, old.Type, "type")
	// The event time may change below the microsecond (clients that truncate, or not).
	if ev.EventTime.Truncate(time.Microsecond).UTC() != old.EventTime.Truncate(time.Microsecond).UTC() {
		immutable(ev.EventTime, old.EventTime, "eventTime")
	}
	immutable(ev.Action, old.Action, "action")
	immutable(ev.Related, old.Related, "related")
	immutable(ev.ReportingController, old.ReportingController, "reportingController")
	immutable(ev.ReportingInstance, old.ReportingInstance, "reportingInstance")
	return errs
}

func eventSeries(ev *api.Event) field.ErrorList {
	var errs field.ErrorList
	if ev.Series != nil {
		// The server's paths are single names with a dot.
		if ev.Series.Count < 2 {
			errs = append(errs, field.Invalid(field.NewPath("series.count"), "", "should be at least 2"))
		}
		if zeroTime(ev.Series.LastObservedTime.Time) {
			errs = append(errs, field.Required(field.NewPath("series.lastObservedTime"), ""))
		}
	}
	return errs
}

// legacyEvent is what every Event must pass. An Event without eventTime (an old client's)
// is in the namespace of the object it is about; a newer one names its reporter, action
// and reason.
func legacyEvent(ev *api.Event, strict bool) field.ErrorList {
	var errs field.ErrorList
	// v1 calls the reporter reportingComponent.
	reporter := "reportingController"
	if !strict {
		reporter = "reportingComponent"
	}
	nsPath := field.NewPath("involvedObject", "namespace")
	const nsMismatch = "does not match event.namespace"
	if zeroTime(ev.EventTime.Time) {
		if ev.InvolvedObject.Namespace == "" {
			// Old clients may put such events in "default".
			if ev.Namespace != "" && ev.Namespace != api.NamespaceDefault {
				errs = append(errs, field.Invalid(nsPath, ev.InvolvedObject.Namespace, nsMismatch))
			}
		} else if ev.Namespace != ev.InvolvedObject.Namespace {
			errs = append(errs, field.Invalid(nsPath, ev.InvolvedObject.Namespace, nsMismatch))
		}
		return errs
	}
	if ev.InvolvedObject.Namespace == "" && ev.Namespace != api.NamespaceDefault && ev.Namespace != api.NamespaceSystem {
		errs = append(errs, field.Invalid(nsPath, ev.InvolvedObject.Namespace, nsMismatch))
	}
	if ev.ReportingController == "" {
		errs = append(errs, field.Required(field.NewPath(reporter), ""))
	}
	for _, msg := range wellformed.IsQualifiedName(ev.ReportingController) {
		errs = append(errs, field.Invalid(field.NewPath(reporter), ev.ReportingController, msg))
	}
	tooLong := func(name string, n, limit int) {
		if n > limit {
			errs = append(errs, field.Invalid(field.NewPath(name), "", fmt.Sprintf("can have at most %v characters", limit)))
		}
	}
	if ev.ReportingInstance == "" {
		errs = append(errs, field.Required(field.NewPath("reportingInstance"), ""))
	}
	tooLong("reportingInstance", len(ev.ReportingInstance), eventReportingInstanceLimit)
	if ev.Action == "" {
		errs = append(errs, field.Required(field.NewPath("action"), ""))
	}
	tooLong("action", len(ev.Action), eventActionLimit)
	if ev.Reason == "" {
		errs = append(errs, field.Required(field.NewPath("reason"), ""))
	}
	tooLong("reason", len(ev.Reason), eventReasonLimit)
	tooLong("message", len(ev.Message), eventNoteLimit)
	return errs
}

// zeroTime is the server's test of an unset time: equal to the zero value, location
// included (a time decoded from "0001-01-01T00:00:00Z" is in the local zone, so not unset).
func zeroTime(t time.Time) bool {
	return t == time.Time{}
}
