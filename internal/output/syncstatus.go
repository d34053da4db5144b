package output

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
)

// This file says what the GitOps controller shows of an object before its sync
// (report.Result.SyncStatus, --sync-status): Argo CD's sync status with the diff it shows,
// Flux's drift detection.

// syncStatusLine is the sentence the human formats print of s ("" when there is none).
func syncStatusLine(s *judge.SyncStatus) string {
	if s == nil {
		return ""
	}
	switch s.Tool + " " + s.Status {
	case judge.ToolArgoCD + " " + judge.ArgoCDSynced:
		return "Argo CD shows it Synced"
	case judge.ToolArgoCD + " " + judge.ArgoCDOutOfSync:
		return "Argo CD shows it OutOfSync"
	case judge.ToolArgoCD + " " + judge.ArgoCDUnknown:
		return "Argo CD cannot compare it (Unknown): " + s.Error
	case judge.ToolFlux + " " + judge.FluxUnchanged:
		return "Flux detects no drift (unchanged): it applies nothing"
	case judge.ToolFlux + " " + judge.FluxConfigured:
		return "Flux detects drift (configured): it applies the object"
	case judge.ToolFlux + " " + judge.FluxCreated:
		return "Flux creates it (created)"
	}
	return s.Tool + ": " + s.Status
}

// syncDiffTexts are the two sides of the diff Argo CD shows for an OutOfSync object, as
// the human formats print objects (managedFields aside, Secret values masked unless
// shown); equal when it shows none.
func syncDiffTexts(s *judge.SyncStatus, opts Options) (string, string, error) {
	if s == nil || s.Status != judge.ArgoCDOutOfSync {
		return "", "", nil
	}
	live, pred := forDisplay(s.NormalizedLive, s.PredictedLive, opts)
	var a, b string
	var err error
	if live != nil {
		if a, err = renderYAML(live); err != nil {
			return "", "", err
		}
	}
	if pred != nil {
		if b, err = renderYAML(pred); err != nil {
			return "", "", err
		}
	}
	return a, b, nil
}

// syncStatus prints the sync status and, for Argo CD's OutOfSync, the diff it shows.
func (t *textWriter) syncStatus(res *report.Result) error {
	line := syncStatusLine(res.SyncStatus)
	if line == "" {
		return nil
	}
	if res.SyncStatus.OutOfSync() {
		line = t.p.yellow(line)
	}
	t.w.printf("  %s\n", line)
	a, b, err := syncDiffTexts(res.SyncStatus, t.opts)
	if err != nil {
		return err
	}
	if body := unifiedBody(a, b, DefaultContext, t.p); body != "" {
		t.w.printf("    %s\n", t.p.dim("the diff it shows (its normalized live object → after the sync):"))
		for _, l := range strings.SplitAfter(strings.TrimSuffix(body, "\n"), "\n") {
			t.w.printf("    %s", l)
		}
		t.w.write("\n")
	}
	return nil
}

// syncStatus is the markdown of the sync status and, for Argo CD's OutOfSync, the diff it
// shows.
func (m *markdownWriter) syncStatus(res *report.Result) (string, error) {
	line := syncStatusLine(res.SyncStatus)
	if line == "" {
		return "", nil
	}
	var sb strings.Builder
	sb.WriteString("**" + line + "**\n\n")
	a, b, err := syncDiffTexts(res.SyncStatus, m.opts)
	if err != nil {
		return "", err
	}
	if body := unifiedBody(a, b, DefaultContext, palette{}); body != "" {
		sb.WriteString("<details><summary>the diff Argo CD shows</summary>\n\n```diff\n" + body + "```\n\n</details>\n\n")
	}
	return sb.String(), nil
}

// htmlSync is the sync status of an object on the page.
type htmlSync struct {
	Line      string
	OutOfSync bool
	Diff      *htmlDiff
}

// syncStatus is the page's view of res's sync status (nil when there is none).
func (h *htmlWriter) syncStatus(res *report.Result) (*htmlSync, error) {
	line := syncStatusLine(res.SyncStatus)
	if line == "" {
		return nil, nil
	}
	v := &htmlSync{Line: line, OutOfSync: res.SyncStatus.OutOfSync()}
	a, b, err := syncDiffTexts(res.SyncStatus, h.opts)
	if err != nil || a == b {
		return v, err
	}
	v.Diff = textsDiff(a, b, &htmlDiff{From: "Argo CD's normalized live object", To: "after the sync"})
	return v, nil
}

// syncStatus writes an object's sync status, and the diff Argo CD shows.
func (p *page) syncStatus(v *htmlSync) {
	if v == nil {
		return
	}
	p.raw("<p class=\"sync")
	if v.OutOfSync {
		p.raw(" warn")
	}
	p.raw("\" data-sync>")
	p.text(v.Line)
	p.raw("</p>")
	if v.Diff != nil {
		p.diff(v.Diff)
	}
}
