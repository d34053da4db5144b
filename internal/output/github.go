package output

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// githubWriter prints GitHub Actions workflow commands: one annotation per finding,
// ::error for those that fail the run, ::warning and ::notice for the others, at the file
// and line of the manifest. Failures come first, since GitHub shows only the first few
// annotations of each kind per step; a summary line closes.
type githubWriter struct {
	w      *errWriter
	byKind [3][]string // error, warning, notice
}

func newGitHub(w io.Writer, _ Options) Writer { return &githubWriter{w: &errWriter{w: w}} }

func (g *githubWriter) Write(res *report.Result) error {
	for _, f := range res.Findings {
		cmd, i := "warning", 1
		switch f.Level {
		case report.LevelFailure:
			cmd, i = "error", 0
		case report.LevelNotice:
			cmd, i = "notice", 2
		}
		file, line := findingWhere(res, f)
		g.byKind[i] = append(g.byKind[i], workflowCommand(cmd, ciFile(input.Source{File: file}), line, shortTitle(res)+": "+f.Category, f.Message))
	}
	// Advice is a warning (or a notice) at the manifest document: it never fails the run.
	for _, a := range res.Advice {
		cmd, i := "warning", 1
		if a.Severity != "warning" {
			cmd, i = "notice", 2
		}
		g.byKind[i] = append(g.byKind[i], workflowCommand(cmd, ciFile(res.Source), res.Source.Line, shortTitle(res)+": "+a.ID, a.Message+" Fix: "+a.Fix))
	}
	// Values the prediction cannot know: a notice, so the diff's gaps are not a surprise.
	if l := assignedLine(res); l != "" {
		g.byKind[2] = append(g.byKind[2], workflowCommand("notice", ciFile(res.Source), res.Source.Line, shortTitle(res)+": assigned", l))
	}
	return nil
}

func (g *githubWriter) Close(rep *report.Report) error {
	for _, lines := range g.byKind {
		for _, l := range lines {
			g.w.write(l)
		}
	}
	g.w.write(summaryLine(rep) + "\n")
	return g.w.err
}

// workflowCommand prints ::cmd file=F,line=L,title=T::message, escaped as GitHub's runner
// unescapes: %, CR and LF in the message; also : and , in the properties.
func workflowCommand(cmd, file string, line int, title, message string) string {
	var props []string
	if file != "" {
		props = append(props, "file="+escapeProperty(file))
		if line > 0 {
			props = append(props, fmt.Sprintf("line=%d", line))
		}
	}
	props = append(props, "title="+escapeProperty(title))
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + escapeData(message) + "\n"
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// ciFile is the manifest's path as CI systems want it: cleaned, with forward slashes; ""
// for standard input.
func ciFile(src input.Source) string {
	if src.File == "" || src.File == input.StdinName {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(src.File))
}

// shortTitle names the object by kind and namespace/name.
func shortTitle(res *report.Result) string {
	if res.Kind == "" && res.DisplayName() == "" {
		return title(res)
	}
	if res.Namespace != "" {
		return res.Kind + " " + res.Namespace + "/" + res.DisplayName()
	}
	return res.Kind + " " + res.DisplayName()
}

// summaryLine is the run in one line: the counts and the exit status.
func summaryLine(rep *report.Report) string {
	s := rep.Summary
	prune := ""
	if s.Pruned > 0 {
		prune = fmt.Sprintf(", %d to prune", s.Pruned)
	}
	line := fmt.Sprintf("ssa-diff: %d object%s: %d to create, %d to update, %d unchanged, %d rejected, %d not predicted%s; %d conflict%s, %d field%s taken over, %d deleted",
		s.Objects, plural(s.Objects), s.Created, s.Updated, s.Unchanged, s.Rejected, s.Errors, prune,
		s.Conflicts, plural(s.Conflicts), s.Takeovers, plural(s.Takeovers), s.Deletions)
	return line + "; " + verdict(s) + "."
}

// verdict says what the exit status means.
func verdict(s report.Summary) string {
	switch s.ExitCode {
	case report.ExitError:
		return fmt.Sprintf("%d object%s could not be predicted (exit 2)", s.Errors, plural(s.Errors))
	case report.ExitRejected:
		return fmt.Sprintf("fails: the server would reject %d appl%s (exit 3)", s.Rejected, map[bool]string{true: "y", false: "ies"}[s.Rejected == 1])
	case report.ExitPolicy:
		return fmt.Sprintf("fails: %d finding%s break%s the policy (exit 4)", s.Failures, plural(s.Failures), map[bool]string{true: "s", false: ""}[s.Failures == 1])
	case report.ExitChanged:
		return "passes, with changes (exit 1)"
	}
	return "passes, nothing changes (exit 0)"
}
