package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/blame"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/schema"
)

const blameUsage = `%[1]s blame shows who owns each field of live objects, and since when, from
their metadata.managedFields (like kubectl-blame).

Usage:
  %[1]s blame [flags] LIVE

LIVE is a file, a directory or - for standard input, as printed by
  kubectl get KIND NAME -o json --show-managed-fields

Flags:
`

// maxOwnerColumn caps the width of the owners column of the blame text.
const maxOwnerColumn = 56

// blameOptions are blame's flags.
type blameOptions struct {
	timeMode, now, format, color string
	help                         bool
}

// blameFlagSet defines blame's flags on o: the flag set and the argument names the usage
// shows.
func blameFlagSet(prog string, o *blameOptions) (*pflag.FlagSet, map[string]string) {
	fs := pflag.NewFlagSet(prog+" blame", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVar(&o.timeMode, "time", "relative", "How to show when a manager last wrote: relative, full or none.")
	fs.StringVar(&o.now, "now", "", "The time ages are measured from, RFC 3339 (default: the current time).")
	fs.StringVarP(&o.format, "output", "o", "text", "Output format: text or json.")
	fs.StringVar(&o.color, "color", "auto", "Colour the owners column: auto, always or never.")
	fs.BoolVarP(&o.help, "help", "h", false, "Show this help.")
	return fs, map[string]string{"time": "MODE", "now": "TIME", "output": "FORMAT", "color": "WHEN"}
}

func runBlame(prog string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o blameOptions
	fs, names := blameFlagSet(prog, &o)
	timeMode, nowFlag, format, color, help := &o.timeMode, &o.now, &o.format, &o.color, &o.help
	fail := func(format string, a ...any) int {
		return usageError(stderr, prog+" blame", "blame: "+fmt.Sprintf(format, a...))
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			*help = true
		} else {
			return fail("%v", err)
		}
	}
	if *help {
		fmt.Fprintf(stdout, blameUsage, prog)
		io.WriteString(stdout, flagUsages(fs, names))
		return 0
	}
	if fs.NArg() != 1 {
		return fail("want exactly one LIVE argument, got %d", fs.NArg())
	}
	switch *timeMode {
	case "relative", "full", "none":
	default:
		return fail("--time must be relative, full or none, not %q", *timeMode)
	}
	if *format != "text" && *format != "json" {
		return fail("-o must be text or json, not %q", *format)
	}
	now := time.Now().UTC()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return fail("--now: %q is not an RFC 3339 time", *nowFlag)
		}
		now = t.UTC()
	}
	useColor := *color == "always" || (*color == "auto" && isTerminal(stdout) && os.Getenv("NO_COLOR") == "")

	return blameAll(fs.Arg(0), stdin, stdout, stderr, *format, *timeMode, now, useColor)
}

// blameAll prints the blame of every object of the live input path in format (text or
// json), and returns the exit status: 2 when an object could not be read.
func blameAll(path string, stdin io.Reader, stdout, stderr io.Writer, format, timeMode string, now time.Time, useColor bool) int {
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
