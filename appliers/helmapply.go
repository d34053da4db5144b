package appliers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// HelmApply is a Helm command as an Applier: the whole command is predicted first
// (HelmPlan.Run: Helm's objects are not independent — it refuses a release whole, stops
// after a failed create, deletes only when every write succeeded), then each object's
// Apply answers what the command does to it. Its Prunes names the objects the command
// deletes.
type HelmApply struct {
	Outcome *HelmOutcome
	// Schemas is the registry the command was predicted with.
	Schemas *schema.Registry
}

func (h HelmApply) Name() string         { return "helm" }
func (h HelmApply) Manager() string      { return HelmManager }
func (h HelmApply) AlwaysForces() bool   { return false }
func (h HelmApply) Subresources() bool   { return false }
func (h HelmApply) SendsNamespace() bool { return true }

// Apply is what the command does to req's object: its requests' result; for an object
// Helm sends nothing for, the live object unchanged, saying why; for the object Helm
// refuses the command over, Helm's refusal. With req.Force and a command without
// --force-conflicts, the object's requests as they would be with it.
func (h HelmApply) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	r := h.find(req.Object)
	if r == nil {
		return nil, fmt.Errorf("the Helm command has no object %s", describeObject(req.Object))
	}
	if req.Force && r.Result != nil && !r.write.force && h.Outcome.Plan != nil {
		w := r.write
		w.force = true
		return h.Outcome.Plan.write(e, h.Schemas, r.sent, req.Live, req.Now, w)
	}
	if r.Result != nil {
		return r.Result, nil
	}
	res := &merge.Result{Endpoint: req.Endpoint, Action: merge.ActionUnchanged, Object: unstructured.DeepCopyObject(req.Live)}
	if req.Live == nil {
		res.Action, res.Object = merge.ActionUnchanged, nil
	}
	if r.Error != "" {
		res.Action, res.Object = merge.ActionRejected, nil
		res.Rejection = &merge.StatusError{Code: 0, Reason: "HelmRefused", Message: r.Error}
		res.Warnings = append(res.Warnings, "Helm refuses the command before it writes anything: no object of the release is written")
		return res, nil
	}
	res.Warnings = append(res.Warnings, "Helm sends nothing for it: "+r.NotSent)
	return e.AsStored(req.Endpoint, res), nil
}

// find is the command's result for obj, by group, kind, namespace and name.
func (h HelmApply) find(obj map[string]any) *HelmObjectResult {
	if h.Outcome == nil {
		return nil
	}
	for i := range h.Outcome.Objects {
		r := &h.Outcome.Objects[i]
		sent := r.sent
		if sent == nil {
			sent = r.Target.Object
		}
		if sameObject(sent, obj) || sameObject(r.Target.Object, obj) {
			return r
		}
	}
	return nil
}

// Prunes says why the command deletes o (an object of the revision it starts from that
// the new one drops), "" when it does not.
func (h HelmApply) Prunes(o PruneCandidate) string {
	if h.Outcome == nil {
		return ""
	}
	for _, d := range h.Outcome.Deleted {
		g, _ := splitAPIVersion(d.Object)
		kind, _ := d.Object["kind"].(string)
		ns, name := nsName(d.Object)
		if !d.Kept && g == o.GVK.Group && kind == o.GVK.Kind && ns == o.Namespace && name == o.Name {
			return d.Why
		}
	}
	return ""
}

// sameObject reports whether a and b name the same object (group, kind, namespace,
// name; a missing namespace matches any).
func sameObject(a, b map[string]any) bool {
	ga, _ := splitAPIVersion(a)
	gb, _ := splitAPIVersion(b)
	ka, _ := a["kind"].(string)
	kb, _ := b["kind"].(string)
	nsa, na := nsName(a)
	nsb, nb := nsName(b)
	return ga == gb && ka == kb && na == nb && (nsa == nsb || nsa == "" || nsb == "")
}

func describeObject(obj map[string]any) string {
	kind, _ := obj["kind"].(string)
	ns, name := nsName(obj)
	return strings.TrimPrefix(kind+" "+ns+"/"+name, " ")
}

// helmKind is Helm 4's install, upgrade or rollback of a release. Its settings are Helm's
// own flags (the command's --helm-*): the whole command is predicted once the live state,
// which holds the release's records, is read; the applier built here answers each object
// from that prediction.
func helmKind() Kind {
	return Kind{
		Name:               "helm",
		Usage:              "a Helm 4 install, upgrade or rollback of a release (--helm-release), its records read from the live state",
		Manager:            HelmManager,
		Apply:              "Helm 4's server-side apply",
		ForceHint:          "`helm upgrade --force-conflicts`",
		Prune:              "always, the objects of the release's last revision that the new one no longer holds",
		AlwaysPrunes:       true,
		ClientSideIsItsOwn: true,
		RendersChart:       true,
		RecordsRevisions:   true,
		Options: []Option{
			{Name: "helm-command", Arg: "install|upgrade|rollback", Default: string(HelmUpgrade), Usage: "--applier helm: the Helm 4 command predicted.",
				Choices: []string{string(HelmInstall), string(HelmUpgrade), string(HelmRollback)}},
			{Name: "helm-release", Arg: "NAME", Usage: "--applier helm: the release's name (its namespace is -n)."},
			{Name: "server-side", Arg: "auto|true|false", Usage: "kubectl's --server-side: alone, a server-side apply (what ssa-diff predicts; --server-side=false, a client-side apply, is not). With --applier helm, Helm's --server-side auto|true|false (install: true; upgrade, rollback: auto, which follows the release's records; alone: true).",
				Completions: []string{"auto", "true", "false"}, Alone: "true", Check: checkHelmServerSide, Others: othersServerSide},
			{Name: "take-ownership", Usage: "--applier helm: Helm's --take-ownership (adopt existing objects)."},
			{Name: "helm-install", Usage: "--applier helm: upgrade's --install (install a release that does not exist)."},
			{Name: "skip-crds", Usage: "--applier helm: Helm's --skip-crds."},
			{Name: "helm-revision", Arg: "N", Default: "0", Usage: "--applier helm: the revision a rollback goes back to (default: the one before the last).",
				Check: checkHelmRevision},
			{Name: "helm-driver", Arg: "secret|configmap", Default: "secret", Usage: "--applier helm: where the release's records are (Helm's HELM_DRIVER).",
				Completions: []string{"secret", "configmap"}, Check: checkHelmDriver},
			{Name: "helm-dry-run", Arg: "client|server", Usage: "--applier helm: Helm's --dry-run (client or server): what Helm checks before it stops, and what the command without it would do.",
				Completions: []string{"client", "server"}},
		},
		New: func(Settings) (Applier, error) { return HelmApply{}, nil },
	}
}

// checkHelmRevision refuses a --helm-revision that is not a number.
func checkHelmRevision(v string) error {
	if _, err := strconv.Atoi(v); err != nil {
		return fmt.Errorf("must be a number, not %q", v)
	}
	return nil
}

// checkHelmDriver refuses a --helm-driver Helm does not take (HELM_DRIVER's names, singular
// or plural; the in-memory and SQL drivers hold no records a cluster read can see).
// checkHelmServerSide takes Helm's values of --server-side.
func checkHelmServerSide(v string) error {
	switch v {
	case "auto", "true", "false":
		return nil
	}
	return fmt.Errorf("must be auto, true or false, not %q", v)
}

// othersServerSide is --server-side to the other appliers: kubectl's switch, a server-side
// apply (alone, or true); false and auto, Helm's values, are refused; any other value is
// left to Check.
func othersServerSide(v string) error {
	switch v {
	case "auto", "false":
		return fmt.Errorf("--server-side=%s: ssa-diff predicts server-side applies only (kubectl apply without --server-side is client-side, not predicted); %s is Helm's (--applier helm)", v, strconv.Quote(v))
	}
	return nil
}

func checkHelmDriver(v string) error {
	switch v {
	case "secret", "secrets", "configmap", "configmaps":
		return nil
	}
	return fmt.Errorf("must be secret or configmap, not %q", v)
}
