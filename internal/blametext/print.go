package blametext

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/blame"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/schema"
)

// maxOwnerColumn caps the width of the owners column of the blame text.
const maxOwnerColumn = 56

// Options say how to print: Format is "text" or "json"; TimeMode shows when a manager last
// wrote as "relative" (to Now), "full" (RFC 3339) or "none"; Color colours the owners
// column.
type Options struct {
	Format, TimeMode string
	Now              time.Time
	Color            bool
}

// Print prints the blame of every object of the live input path (a file, a directory, or
// "-" for stdin) to stdout, errors and warnings to stderr, and returns the exit status: 2
// when an object could not be read.
func Print(path string, stdin io.Reader, stdout, stderr io.Writer, opts Options) int {
	format, timeMode, now, useColor := opts.Format, opts.TimeMode, opts.Now, opts.Color
	// Objects are kept as text and decoded one at a time: a dump's trees are never all
	// held at once.
	loader := &input.Loader{Stdin: stdin, DeferDecoding: true}
	objs, errs := input.Split(loader.Load(path))
	code := 0
	for _, err := range errs {
		fmt.Fprintf(stderr, "error: %v\n", err)
		code = 2
	}
	type jsonObject struct {
		APIVersion string        `json:"apiVersion"`
		Kind       string        `json:"kind"`
		Namespace  string        `json:"namespace,omitempty"`
		Name       string        `json:"name"`
		Source     input.Source  `json:"source"`
		Fields     []blame.Field `json:"fields"`
	}
	var out []jsonObject
	for i, o := range objs {
		obj, err := o.Decode()
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			code = 2
			continue
		}
		lines, err := blame.Annotate(obj)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", o.Errorf("/metadata/managedFields", "%v", err))
			code = 2
			continue
		}
		gvk := schema.GVKOf(obj)
		md, _ := obj["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		if !input.HasManagedFields(obj) {
			fmt.Fprintf(stderr, "warning: %s has no metadata.managedFields; kubectl get hides them unless given --show-managed-fields\n", o.Source)
		}
		if format == "json" {
			fields := blame.Fields(lines)
			if fields == nil {
				fields = []blame.Field{}
			}
			out = append(out, jsonObject{gvk.APIVersion(), gvk.Kind, ns, name, o.Source, fields})
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout, "---")
		}
		writeBlame(stdout, lines, timeMode, now, palette{useColor})
	}
	if format == "json" {
		if out == nil {
			out = []jsonObject{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return 2
		}
	}
	return code
}

// palette colours the owners column.
type palette struct{ on bool }

func (p palette) cyan(s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[36m" + s + "\x1b[0m"
}

// ownerLabel prints the owners of a line: name (Update/status), co-owners joined by ", ",
// then when the most recent of them last wrote.
func ownerLabel(owners []fieldpath.ManagerRef, mode string, now time.Time) (string, string) {
	if len(owners) == 0 {
		return "", ""
	}
	var names []string
	var latest *time.Time
	for _, o := range owners {
		n := o.Manager
		var tags []string
		if o.Operation == fieldpath.OperationUpdate {
			tags = append(tags, "Update")
		}
		if o.Subresource != "" {
			tags = append(tags, "/"+o.Subresource)
		}
		if len(tags) > 0 {
			n += " (" + strings.Join(tags, " ") + ")"
		}
		names = append(names, n)
		if o.Time != nil && (latest == nil || o.Time.After(*latest)) {
			latest = o.Time
		}
	}
	when := ""
	if latest != nil {
		switch mode {
		case "relative":
			when = output.Ago(*latest, now)
		case "full":
			when = latest.UTC().Format(time.RFC3339)
		}
	}
	return strings.Join(names, ", "), when
}

func writeBlame(w io.Writer, lines []blame.Line, mode string, now time.Time, p palette) {
	type row struct{ who, when, text string }
	rows := make([]row, len(lines))
	whoWidth, whenWidth := 0, 0
	for i, l := range lines {
		who, when := ownerLabel(l.Owners, mode, now)
		if len(who) > maxOwnerColumn {
			who = who[:maxOwnerColumn-1] + "…"
		}
		rows[i] = row{who, when, l.Text}
		whoWidth = max(whoWidth, len([]rune(who)))
		whenWidth = max(whenWidth, len(when))
	}
	for _, r := range rows {
		who := r.who + strings.Repeat(" ", whoWidth-len([]rune(r.who)))
		when := strings.Repeat(" ", whenWidth-len(r.when)) + r.when
		col := who
		if whenWidth > 0 {
			col += "  " + when
		}
		fmt.Fprintf(w, "%s  %s\n", p.cyan(col), r.text)
	}
}
