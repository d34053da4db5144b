// Command benchcorpus writes the benchmark corpora of ssa-diff: for each size N, a GitOps
// repository in OUT/N/repo and the live state of its cluster in OUT/N/live.json (see package
// benchcorpus).
//
//	go run ./testdata/benchcorpus/cmd/benchcorpus -out testdata/bench-corpus -sizes 1000,10000
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/testdata/benchcorpus"
)

func main() {
	out := flag.String("out", "testdata/bench-corpus", "the directory to write into")
	sizes := flag.String("sizes", "1000,10000", "comma-separated numbers of manifest objects")
	seed := flag.Uint64("seed", 1, "the random seed")
	cel := flag.Bool("cel", false, "add CEL validation rules to the CRDs (the CRD-heavy corpus of make bench-corpus-cel)")
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "benchcorpus: bad size %q\n", s)
			os.Exit(2)
		}
		t := time.Now()
		c, err := benchcorpus.Generate(benchcorpus.Options{Objects: n, Seed: *seed, CELRules: *cel})
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchcorpus: %v\n", err)
			os.Exit(1)
		}
		dir := filepath.Join(*out, strconv.Itoa(n))
		if err := c.Write(dir); err != nil {
			fmt.Fprintf(os.Stderr, "benchcorpus: %v\n", err)
			os.Exit(1)
		}
		size := 0
		for _, f := range c.Repo {
			size += len(f.Data)
		}
		fmt.Printf("%s: %d manifest objects in %d files (%d KiB), %d live objects (%d KiB), generated in %v\n",
			dir, c.Objects, len(c.Repo), size>>10, c.LiveObjects, len(c.Live)>>10, time.Since(t).Round(time.Millisecond))
		fmt.Printf("  appliers: %s\n  pull request: %s\n", counts(c.Appliers), counts(c.Changes))
	}
}

func counts(m map[string]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
