package library

import (
	"flag"
	"io"

	"k8s.io/klog/v2"
)

// SilenceLogs stops the plugins' logging, which is a server's (informers syncing, policies
// refreshed): a program running them for ssa-diff calls it once, before New.
func SilenceLogs() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}
