// Package batch is the validation of the batch group's kinds — Job and CronJob — as
// the registry of kube-apiserver 1.32 to 1.38 runs it: each kind's strategy (Strategy) with the options
// it derives from the stored object, the group's validators over the internal types of
// package internal/api/batch, and the declarative validation each minor enforces for the group.
//
// A Job's spec describes pods that run to completion: its pod template restarts OnFailure
// or Never, its selector is generated from the Job's uid unless manualSelector says
// otherwise (the strategy adds the selector and the template's job-name and controller-uid
// labels when the Job is created), and once created its template is frozen — unless the
// Job is suspended and has not started, when the scheduling directives (node affinity,
// node selector, tolerations, labels, annotations, scheduling gates) and the containers'
// resources may change. Indexed Jobs add completions per index, a failure budget per
// index, and success policies over index ranges ("1,3-5"). A Job's status is checked
// against the transitions the Job controller may make.
//
// A CronJob's schedule is parsed as the server parses it (github.com/robfig/cron/v3,
// standard five fields or a descriptor such as @hourly), its time zone is looked up in the
// IANA database the server embeds (time/tzdata, imported here for the same reason), and a
// time zone written into the schedule (CRON_TZ= or TZ=) is refused unless an older stored
// schedule already had one. Its job template is a Job's spec without a selector.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package batch
