package cli

import (
	"errors"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/flagvalue"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/blametext"
)

const blameUsage = `%[1]s blame shows who owns each field of live objects, and since when, from
their metadata.managedFields (like kubectl-blame).

Usage:
  %[1]s blame [flags] LIVE

LIVE is a file, a directory or - for standard input, as printed by
  kubectl get KIND NAME -o json --show-managed-fields

Flags:
`

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
		io.WriteString(stdout, flagvalue.Usages(fs, names))
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

	return blametext.Print(fs.Arg(0), stdin, stdout, stderr, blametext.Options{Format: *format, TimeMode: *timeMode, Now: now, Color: useColor})
}
