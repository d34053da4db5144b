package validation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/kube"
)

// A Job as the server stores it: the selector and labels generated from its uid.
const jobMigrate = `apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: shop, uid: ccee5001-a9bd-4759-a70c-19b942a88270, resourceVersion: "7"}
spec:
  selector: {matchLabels: {batch.kubernetes.io/controller-uid: ccee5001-a9bd-4759-a70c-19b942a88270}}
  template:
    metadata:
      labels:
        batch.kubernetes.io/controller-uid: ccee5001-a9bd-4759-a70c-19b942a88270
        batch.kubernetes.io/job-name: migrate
        controller-uid: ccee5001-a9bd-4759-a70c-19b942a88270
        job-name: migrate
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: tools/migrate:2}]
`

// A Job as a manifest has it, and so as the engine predicts its create: no uid, no
// generated selector or labels (the server assigns them).
const jobManifest = `apiVersion: batch/v1
kind: Job
metadata: {name: render, namespace: batch}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: render, image: renderer:3.1}]
`

// rules.md valid.builtin, valid.update: a Job's generated selector, its frozen template, indexed Jobs and the
// pod failure and success policies.
func TestJobValidation(t *testing.T) { runWorkloadCases(t, jobCases(t)) }

func jobCases(t *testing.T) []workloadCase {
	job := jobMigrate
	indexed := func(fields string) string {
		return edit(t, jobManifest, "spec:\n  template", "spec:\n  completionMode: Indexed\n"+fields+"  template")
	}
	return []workloadCase{
		{name: "predicted create: the generated selector and labels are the server's", new: jobManifest},
		{name: "stored form", new: job},
		{name: "V2 template is immutable (the internal template printed)", old: job, new: edit(t, job, "tools/migrate:2", "tools/migrate:3"),
			want: jobTemplateImmutable},
		{name: "V1 restartPolicy Always", new: edit(t, jobManifest, "restartPolicy: Never", "restartPolicy: Always"),
			want: `Job.batch "render" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{name: "V1 manual selector that does not select the template", new: edit(t, jobManifest, "spec:\n  template:\n", "spec:\n  manualSelector: true\n  selector: {matchLabels: {job: render}}\n  template:\n    metadata: {labels: {job: rendering}}\n"),
			want: "Job.batch \"render\" is invalid: spec.template.metadata.labels: Invalid value: {\"job\":\"rendering\"}: `selector` does not match template `labels`"},
		{name: "V1 indexed Job without completions (parallelism set: no defaults)", new: indexed("  parallelism: 2\n"),
			want: `Job.batch "render" is invalid: spec.completions: Required value: when completion mode is Indexed`},
		{name: "V1 backoffLimitPerIndex needs indexed completion", new: edit(t, jobManifest, "spec:\n  template", "spec:\n  backoffLimitPerIndex: 1\n  template"),
			want: `Job.batch "render" is invalid: spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode`},
		{name: "V1 indexed pod hostname must be a DNS label", new: edit(t, indexed("  completions: 10\n"), "name: render", "name: "+strings.Repeat("r", 62)),
			want: `Job.batch "` + strings.Repeat("r", 62) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("r", 62) + `": will not able to create pod with invalid DNS label: ` + strings.Repeat("r", 62) + `-9`},
		{name: "V1 success policy indexes", new: indexed("  completions: 5\n  successPolicy: {rules: [{succeededIndexes: \"0,3-2\", succeededCount: 6}]}\n"),
			want: `Job.batch "render" is invalid: [spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,3-2": error parsing succeededIndexes: non-increasing order, previous: 3, current: 2, spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions), spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)]`},
		{name: "V1 pod failure policy", new: edit(t, jobManifest, "spec:\n  template", "spec:\n  podFailurePolicy:\n    rules:\n    - {action: FailIndex, onExitCodes: {containerName: main, operator: In, values: [3, 0, 3]}}\n  template"),
			want: `Job.batch "render" is invalid: [spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set, spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "main": must be one of the container or initContainer names in the pod template, spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator, spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3, spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0,3]: must be ordered]`},
		{name: "V1 pod failure policy needs restartPolicy Never", new: edit(t, edit(t, jobManifest, "restartPolicy: Never", "restartPolicy: OnFailure"), "spec:\n  template", "spec:\n  podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: Maybe}]}]}\n  template"),
			want: `Job.batch "render" is invalid: [spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown", spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified]`},
		{name: "V2 completions of a non-indexed Job", old: job, new: edit(t, job, "spec:\n  selector", "spec:\n  completions: 3\n  selector"),
			want: `Job.batch "migrate" is invalid: spec.completions: Invalid value: 3: field is immutable`},
		{name: "V2 a suspended Job that has not started may change its scheduling directives",
			old: edit(t, job, "spec:\n  selector", "spec:\n  suspend: true\n  selector"),
			new: edit(t, edit(t, job, "spec:\n  selector", "spec:\n  suspend: true\n  selector"), "restartPolicy: Never", "restartPolicy: Never\n      nodeSelector: {pool: spot}")},
		{name: "status: Complete without its conditions and times", subresource: "status", old: job,
			new:  job + "status:\n  conditions: [{type: Complete, status: \"True\"}]\n",
			want: `Job.batch "migrate" is invalid: [status.completionTime: Required value: completionTime is required for Complete jobs, status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition, status.startTime: Required value: startTime is required for finished job]`},
		{name: "V2 allowed update: parallelism, activeDeadlineSeconds and suspend", old: job,
			new: edit(t, job, "spec:\n  selector", "spec:\n  completions: 1\n  parallelism: 3\n  activeDeadlineSeconds: 600\n  suspend: true\n  selector")},
		{name: "warning: a name that is no DNS label", new: edit(t, jobManifest, "name: render", "name: render.v2"),
			warnings: []string{"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"}},
		{name: "warning: an indexed Job too large to track its failed indexes",
			new:      indexed("  completions: 200000\n  parallelism: 20000\n"),
			warnings: []string{"spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"}},
	}
}

// jobTemplateImmutable is the recorded answer of validate-job-template-immutable (the
// template printed as the internal PodTemplateSpec, defaults and the generated labels in).
const jobTemplateImmutable = `Job.batch "migrate" is invalid: spec.template: Invalid value: {"labels":{"batch.kubernetes.io/controller-uid":"ccee5001-a9bd-4759-a70c-19b942a88270","batch.kubernetes.io/job-name":"migrate","controller-uid":"ccee5001-a9bd-4759-a70c-19b942a88270","job-name":"migrate"},"Spec":{"Volumes":null,"InitContainers":null,"Containers":[{"Name":"migrate","Image":"tools/migrate:3","Command":null,"Args":null,"WorkingDir":"","Ports":null,"EnvFrom":null,"Env":null,"Resources":{"Limits":null,"Requests":null,"Claims":null},"ResizePolicy":null,"RestartPolicy":null,"RestartPolicyRules":null,"VolumeMounts":null,"VolumeDevices":null,"LivenessProbe":null,"ReadinessProbe":null,"StartupProbe":null,"Lifecycle":null,"TerminationMessagePath":"/dev/termination-log","TerminationMessagePolicy":"File","ImagePullPolicy":"IfNotPresent","SecurityContext":null,"Stdin":false,"StdinOnce":false,"TTY":false}],` + jobTemplateTail

const cronNightly = `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: db, uid: 1b0e5c1a-0000-4000-8000-000000000003, resourceVersion: "7"}
spec:
  schedule: "30 2 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: dump, image: postgres:16}]
`

// rules.md valid.builtin, valid.update: a CronJob's schedule as robfig/cron parses it, its time zone, and a job
// template without a selector.
func TestCronJobValidation(t *testing.T) { runWorkloadCases(t, cronJobCases(t)) }

func cronJobCases(t *testing.T) []workloadCase {
	cron := cronNightly
	schedule := func(s string) string { return edit(t, cron, `"30 2 * * *"`, s) }
	return []workloadCase{
		{name: "valid", new: cron},
		{name: "descriptor and names", new: schedule(`"@weekly"`)},
		{name: "V1 schedule with six fields", new: schedule(`"0 30 2 * * *"`),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "0 30 2 * * *": expected exactly 5 fields, found 6: [0 30 2 * * *]`},
		{name: "V1 minute out of range", new: schedule(`"61 * * * *"`),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61`},
		{name: "V1 unknown descriptor", new: schedule(`"@fortnightly"`),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "@fortnightly": unrecognized descriptor: @fortnightly`},
		{name: "V1 time zone in the schedule", new: schedule(`"CRON_TZ=Europe/Berlin 30 2 * * *"`),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "CRON_TZ=Europe/Berlin 30 2 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
		{name: "V2 a stored TZ schedule may stay, not beside timeZone", old: schedule(`"TZ=UTC 30 2 * * *"`),
			new:  edit(t, schedule(`"TZ=UTC 30 3 * * *"`), "spec:\n", "spec:\n  timeZone: UTC\n"),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "TZ=UTC 30 3 * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule`},
		{name: "V1 unknown time zone", new: edit(t, cron, "spec:\n", "spec:\n  timeZone: Mars/Olympus\n"),
			want: `CronJob.batch "nightly" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`},
		{name: "V1 Local is no explicit time zone", new: edit(t, cron, "spec:\n", "spec:\n  timeZone: Local\n"),
			want: `CronJob.batch "nightly" is invalid: spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`},
		{name: "V1 malformed time zone name", new: edit(t, cron, "spec:\n", "spec:\n  timeZone: ../etc/passwd\n"),
			want: `CronJob.batch "nightly" is invalid: spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd`},
		{name: "V1 concurrency policy", new: edit(t, cron, "spec:\n", "spec:\n  concurrencyPolicy: Sometimes\n"),
			want: `CronJob.batch "nightly" is invalid: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"`},
		{name: "V1 job template with a selector", new: edit(t, cron, "    spec:\n      template", "    spec:\n      selector: {matchLabels: {a: b}}\n      template"),
			want: "CronJob.batch \"nightly\" is invalid: spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: `selector` will be auto-generated"},
		{name: "V1 name longer than 52", new: edit(t, cron, "name: nightly", "name: "+strings.Repeat("n", 53)),
			want: `CronJob.batch "` + strings.Repeat("n", 53) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("n", 53) + `": must be no more than 52 characters`},
		{name: "V2 an existing long name may be updated", old: edit(t, cron, "name: nightly", "name: "+strings.Repeat("n", 53)),
			new: edit(t, schedule(`"30 3 * * *"`), "name: nightly", "name: "+strings.Repeat("n", 53))},
		{name: "V1 missing schedule is reported by declarative validation", new: schedule(`""`),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Required value`},
		{name: "V2 an update is validated as a create: schedule", old: cron, new: schedule(`"30 25 * * *"`),
			want: `CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "30 25 * * *": end of range (25) above maximum (23): 25`},
		{name: "V2 allowed update: schedule, time zone, suspend and history limits", old: cron,
			new: edit(t, schedule(`"@hourly"`), "spec:\n", "spec:\n  timeZone: Europe/Berlin\n  suspend: true\n  successfulJobsHistoryLimit: 1\n  failedJobsHistoryLimit: 5\n")},
		{name: "warning: a name that is no DNS label", new: edit(t, cron, "name: nightly", "name: nightly.db"),
			warnings: []string{"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"}},
		{name: "warning: a stored TZ schedule on update", old: schedule(`"TZ=UTC 30 2 * * *"`), new: schedule(`"TZ=UTC 30 3 * * *"`),
			warnings: []string{"cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"}},
	}
}

const jobTemplateTail = `"EphemeralContainers":null,"RestartPolicy":"Never","TerminationGracePeriodSeconds":30,"ActiveDeadlineSeconds":null,"DNSPolicy":"ClusterFirst","NodeSelector":null,"ServiceAccountName":"","DeprecatedServiceAccount":"","AutomountServiceAccountToken":null,"NodeName":"","HostNetwork":false,"HostPID":false,"HostIPC":false,"ShareProcessNamespace":null,"SecurityContext":{"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"SupplementalGroups":null,"SupplementalGroupsPolicy":null,"FSGroup":null,"Sysctls":null,"FSGroupChangePolicy":null,"SeccompProfile":null,"AppArmorProfile":null,"SELinuxChangePolicy":null},"ImagePullSecrets":null,"Hostname":"","Subdomain":"","Affinity":null,"SchedulerName":"default-scheduler","Tolerations":null,"HostAliases":null,"PriorityClassName":"","Priority":null,"DNSConfig":null,"ReadinessGates":null,"RuntimeClassName":null,"EnableServiceLinks":null,"PreemptionPolicy":null,"Overhead":null,"TopologySpreadConstraints":null,"SetHostnameAsFQDN":null,"OS":null,"HostUsers":null,"SchedulingGates":null,"ResourceClaims":null,"Resources":null,"HostnameOverride":null,"SchedulingGroup":null,"EvictionResponders":null}}: field is immutable`

// An indexed Job without completions whose success policy counts indexes makes the
// server's validation panic (it reads completions unguarded): the request fails without a
// status. Validate says so with an error, never a 422 nor a panic of its own.
func TestJobValidationWhereTheServerPanics(t *testing.T) {
	doc := edit(t, jobManifest, "spec:\n  template", "spec:\n  completionMode: Indexed\n  parallelism: 2\n  successPolicy: {rules: [{succeededCount: 1}]}\n  template")
	obj := object(t, doc)
	if err := defaults.MustFor(kube.Default()).Default("batch/v1", "Job", obj); err != nil {
		t.Fatal(err)
	}
	res, err := validation.Validate(serverconfig.MustFor(kube.Default()), "batch/v1", "Job", "", obj, nil)
	if !errors.Is(err, registry.ErrServerPanics) || len(res.Errors) != 0 {
		t.Fatalf("got %v, %v: want an error wrapping ErrServerPanics", res.Errors, err)
	}
	if want := "the server's validation panics on this object: runtime error: invalid memory address or nil pointer dereference"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
