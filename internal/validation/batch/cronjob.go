package batch

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	// The server embeds the IANA time zone database (kube-apiserver imports it for the
	// CronJob's timeZone): a zone is known whatever the host has installed.
	_ "time/tzdata"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/robfig/cron/v3"

	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
)

// maxCronJobNameLength leaves room for the 11 characters ("-" and a timestamp) the CronJob
// controller appends to name a Job (a DNS-1035 label, 63 at most).
const maxCronJobNameLength = validation.DNS1035LabelMaxLength - 11

// ValidateCronJob checks a new CronJob: metadata (the name a DNS subdomain), the spec, and
// a name short enough to name its Jobs.
func ValidateCronJob(cfg *serverconfig.Config, cj *api.CronJob, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&cj.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateCronJobSpec(cfg, &cj.Spec, nil, field.NewPath("spec"), opts)...)
	if len(cj.Name) > maxCronJobNameLength {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), cj.Name, fmt.Sprintf("must be no more than %d characters", maxCronJobNameLength)))
	}
	return errs
}

// ValidateCronJobUpdate checks an update of a CronJob: the spec against the stored one (the
// name's length is not checked again, so that older long names can still be updated).
func ValidateCronJobUpdate(cfg *serverconfig.Config, cj, old *api.CronJob, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&cj.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateCronJobSpec(cfg, &cj.Spec, &old.Spec, field.NewPath("spec"), opts)...)
}

func validateCronJobSpec(cfg *serverconfig.Config, spec, old *api.CronJobSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if spec.Schedule == "" {
		errs = append(errs, field.Required(fldPath.Child("schedule"), "").MarkCoveredByDeclarative())
	} else {
		// A time zone in the schedule stays acceptable when the stored schedule had one.
		tzAllowed := old != nil && strings.Contains(old.Schedule, "TZ")
		errs = append(errs, validateSchedule(cfg, spec.Schedule, tzAllowed, spec.TimeZone, fldPath.Child("schedule"))...)
	}
	if spec.StartingDeadlineSeconds != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(*spec.StartingDeadlineSeconds, fldPath.Child("startingDeadlineSeconds"))...)
	}
	if old == nil || !equalPtr(old.TimeZone, spec.TimeZone) {
		errs = append(errs, validateTimeZone(spec.TimeZone, fldPath.Child("timeZone"))...)
	}
	errs = append(errs, validateConcurrencyPolicy(spec.ConcurrencyPolicy, fldPath.Child("concurrencyPolicy"))...)
	var oldTemplate *api.JobTemplateSpec
	if old != nil {
		oldTemplate = &old.JobTemplate
	}
	errs = append(errs, validateJobTemplateSpec(&spec.JobTemplate, oldTemplate, fldPath.Child("jobTemplate"), opts)...)
	for _, limit := range []struct {
		name  string
		value *int32
	}{{"successfulJobsHistoryLimit", spec.SuccessfulJobsHistoryLimit}, {"failedJobsHistoryLimit", spec.FailedJobsHistoryLimit}} {
		if limit.value != nil {
			errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*limit.value), fldPath.Child(limit.name))...)
		}
	}
	return errs
}

// validateJobTemplateSpec: a Job's spec whose selector the CronJob controller generates.
func validateJobTemplateSpec(tpl, old *api.JobTemplateSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	var oldSpec *api.JobSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	spec := fldPath.Child("spec")
	errs := validateJobSpec(&tpl.Spec, oldSpec, spec, opts)
	if tpl.Spec.Selector != nil {
		errs = append(errs, field.Invalid(spec.Child("selector"), tpl.Spec.Selector, "`selector` will be auto-generated"))
	}
	if tpl.Spec.ManualSelector != nil && *tpl.Spec.ManualSelector {
		errs = append(errs, field.NotSupported(spec.Child("manualSelector"), tpl.Spec.ManualSelector, []string{"nil", "false"}))
	}
	return errs
}

func validateConcurrencyPolicy(p api.ConcurrencyPolicy, fldPath *field.Path) field.ErrorList {
	switch p {
	case api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, p, []api.ConcurrencyPolicy{api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent})}
}

// validateSchedule parses the schedule as the server does (robfig/cron's standard parser,
// whose panics on some inputs become errors) and checks a time zone written into it.
func validateSchedule(cfg *serverconfig.Config, schedule string, tzAllowed bool, timeZone *string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if err := parseSchedule(cfg, schedule); err != nil {
		errs = append(errs, field.Invalid(fldPath, schedule, err.Error()))
	}
	hasTZ := strings.Contains(schedule, "TZ")
	switch {
	case tzAllowed && hasTZ && timeZone != nil:
		errs = append(errs, field.Invalid(fldPath, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	case !tzAllowed && hasTZ:
		errs = append(errs, field.Invalid(fldPath, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return errs
}

func parseSchedule(cfg *serverconfig.Config, schedule string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if !cfg.AtLeast(35) {
				// Kubernetes 1.35 changed the parse to recover from the parser's panics
				// (pkg/util/parsers ParseCronScheduleWithPanicRecovery). 1.34 called
				// cron.ParseStandard directly: the request handler panics
				// (pkg/apis/batch/validation/validation.go validateScheduleFormat in 1.34).
				panic(registry.ServerPanic{Reason: fmt.Sprint(r)})
			}
			err = fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	_, err = cron.ParseStandard(schedule)
	return err
}

// zoneNamePart is what one "/"-separated part of an IANA zone name may be: letters, digits
// (legacy names), '.', '-', '_' and '+', 14 at most.
var zoneNamePart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`) })

// validateTimeZone: a time zone, when set, is a well-formed IANA name the database knows,
// and not "Local".
func validateTimeZone(tz *string, fldPath *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return field.ErrorList{field.Invalid(fldPath, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !zoneNamePart().MatchString(part) {
			return field.ErrorList{field.Invalid(fldPath, tz, "unknown time zone "+*tz)}
		}
	}
	var errs field.ErrorList
	if strings.EqualFold(*tz, "Local") {
		errs = append(errs, field.Invalid(fldPath, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		errs = append(errs, field.Invalid(fldPath, tz, err.Error()))
	}
	return errs
}
