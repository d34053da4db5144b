package merge

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestForcedAfterConflictsAgrees replays every scenario and, at each of its applies, sends
// the same apply without force and with (twice: the first answer as its Request.Unforced,
// as the client's forced request after a 409, and without), as its manager and as
// "kubectl" (whose relaxation forces an apply whose conflicts the last-applied annotation
// allows), to an engine that finishes a forced apply from the walks of the apply that met
// the conflicts (applyOnce's pendingForce, an answer's unforcedApply) and to one that walks
// again (structured-merge-diff's updater, the reference): the answers must be the same,
// also with another apply's answer as Unforced (ignored), and some forced applies must
// have taken conflicts (the path is tested).
func TestForcedAfterConflictsAgrees(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	fast := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	full := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	full.noShortcuts = true
	taken, kept := 0, 0
	var other *Result // an earlier apply's answer refused with conflicts
	for _, sc := range append(append([]scenario{}, scenarios...), edgeScenarios...) {
		var live map[string]any
		now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
		for i, o := range sc.ops {
			now = now.Add(time.Minute)
			req := Request{Live: live, Object: objFromYAML(t, o.body), Manager: o.manager, Force: o.force, Now: now}
			if o.sub != "" {
				src := live
				if src == nil {
					src = req.Object
				}
				ns, name := nsName(src)
				req.Endpoint = Endpoint{GVK: schema.GVKOf(src), Namespace: ns, Name: name, Subresource: o.sub}
			}
			if o.apply {
				for _, manager := range []string{o.manager, KubectlManager} {
					// The answer without force is the forced apply's Unforced, as a
					// client's second request (and, to be ignored, that of another
					// apply: the previous one's).
					var unforced *Result
					for _, force := range []bool{false, true, true} {
						r := req
						r.Force, r.Manager = force, manager
						r.Object = unstructured.DeepCopyObject(req.Object)
						if force {
							r.Unforced = unforced
						}
						a, errA := fast.Apply(r)
						b, errB := full.Apply(r)
						if (errA == nil) != (errB == nil) {
							t.Fatalf("%s op %d force=%v %s: errors %v and %v", sc.name, i, force, manager, errA, errB)
						}
						ja, _ := json.Marshal(a)
						jb, _ := json.Marshal(b)
						if string(ja) != string(jb) {
							t.Errorf("%s op %d force=%v %s:\nfrom the conflicts' walks %s\nwalked again %s", sc.name, i, force, manager, ja, jb)
						}
						if !force {
							if a != nil && a.unforced != nil {
								kept++
							}
							unforced = a
						} else if a != nil && a.Rejection == nil && len(a.Conflicts) > 0 {
							taken++
						}
					}
					if other != nil {
						r := req
						r.Force, r.Manager, r.Unforced = true, manager, other
						a, _ := fast.Apply(r)
						b, _ := full.Apply(r)
						ja, _ := json.Marshal(a)
						jb, _ := json.Marshal(b)
						if string(ja) != string(jb) {
							t.Errorf("%s op %d %s with another apply's answer as Unforced:\n%s\nwalked again %s", sc.name, i, manager, ja, jb)
						}
					}
					if unforced != nil && unforced.unforced != nil {
						other = unforced
					}
				}
			} else if live != nil {
				md := metadataOf(req.Object)
				for _, k := range []string{"uid", "creationTimestamp", "resourceVersion"} {
					if v, ok := metadataOf(live)[k]; ok {
						md[k] = v
					}
				}
			}
			var res *Result
			var err error
			switch {
			case o.apply:
				res, err = fast.Apply(req)
			case live == nil:
				res, err = fast.Create(req)
			default:
				res, err = fast.Update(req)
			}
			if err != nil || res.Object == nil {
				continue
			}
			live = res.Object
			if res.Action == ActionCreate {
				metadataOf(live)["uid"] = "00000000-0000-0000-0000-000000000001"
				metadataOf(live)["creationTimestamp"] = now.Format(time.RFC3339)
			}
		}
	}
	t.Logf("%d forced applies took conflicts, %d answers kept their walks for one", taken, kept)
	if taken < 5 || kept < 5 {
		t.Errorf("only %d forced applies took conflicts, %d answers kept their walks: the scenarios do not test the path", taken, kept)
	}
}

// TestPendingForceIsTaken holds applyOnce to its bargain: an apply that meets conflicts
// keeps its walks, the same apply with force takes them (and only once), and its outcome
// is that of the forced apply made from scratch by structured-merge-diff's updater.
func TestPendingForceIsTaken(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	e := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	first, err := e.Apply(deploymentRequest(t))
	if err != nil || first.Rejection != nil {
		t.Fatalf("first apply: %v %v", err, first.Rejection)
	}
	req := deploymentRequest(t)
	req.Live, req.Manager = first.Object, "other"
	container(req.Object, 0)["image"] = "registry.example/web:2.0"
	live := unstructured.CopyAsDecoded(req.Live)
	cfg := unstructured.CopyAsDecoded(req.Object)
	entries, _, err := managedFieldsOf(live)
	if err != nil {
		t.Fatal(err)
	}
	// The reference walks again with structured-merge-diff's own updater.
	ref := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	ref.noShortcuts = true
	outcome := func(e *Engine, reuse bool) *applyOutcome {
		r, err := e.newRequest(admitted{Request: req})
		if err != nil {
			t.Fatal(err)
		}
		managed, err := fieldpath.Decode(entries)
		if err != nil {
			t.Fatal(err)
		}
		if reuse {
			if out, s := r.applyOnce(live, cfg, managed, "other", false); s == nil || s.Code != 409 || len(out.conflicts) == 0 {
				t.Fatalf("the apply without force: %v, want conflicts", s)
			}
			if r.pending == nil {
				t.Fatal("the apply that met conflicts kept no walks")
			}
		}
		out, s := r.applyOnce(live, cfg, managed, "other", true)
		if s != nil {
			t.Fatalf("the forced apply: %v", s.Message)
		}
		if r.pending != nil {
			t.Fatal("the forced apply left the walks it was to take")
		}
		return out
	}
	a, b := outcome(e, true), outcome(ref, false)
	if a.object == nil || !unstructured.Equal(a.object, b.object) {
		t.Errorf("objects differ:\n%v\n%v", a.object, b.object)
	}
	ea, err1 := a.managed.Encode()
	eb, err2 := b.managed.Encode()
	ja, _ := json.Marshal(ea)
	jb, _ := json.Marshal(eb)
	if err1 != nil || err2 != nil || string(ja) != string(jb) {
		t.Errorf("entries differ (%v, %v):\n%s\n%s", err1, err2, ja, jb)
	}
}
