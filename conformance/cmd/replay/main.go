// Command replay sends every recorded case in a folder through the engine and prints a
// line per failing case with its first difference, then "N passed, M failed".
//
//	go run ./conformance/cmd/replay [-strict] [-assigned] [-v] DIR
//
// With -assigned, the values the prediction names as assigned by the server must be ones
// the server's answer has and the prediction has not, and are then left out of the
// comparison (conformance.CompareAssigned).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ssa-diff/ssa-diff/conformance"
)

func main() {
	strict := flag.Bool("strict", false, "server defaults and metadata.generation must match too")
	verbose := flag.Bool("v", false, "print passing cases and every difference")
	assigned := flag.Bool("assigned", false, "check the values listed as assigned by the server, then leave them out")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: replay [-strict] [-assigned] [-v] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if _, err := os.Stat(dir); err != nil {
		fmt.Printf("no recorded cases at %s: skipping\n", dir)
		return
	}
	cases, err := conformance.LoadCases(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	passed, failed := 0, 0
	for _, c := range cases {
		res, err := conformance.Replay(c)
		var problems []string
		if err != nil {
			problems = []string{"replay: " + err.Error()}
		} else if *assigned {
			problems = conformance.CompareAssigned(c, res, *strict)
		} else {
			problems = conformance.Compare(c, res, *strict)
		}
		if len(problems) == 0 {
			passed++
			if *verbose {
				fmt.Printf("ok   %s\n", c.Name)
			}
			continue
		}
		failed++
		if *verbose {
			for _, p := range problems {
				fmt.Printf("FAIL %s: %s\n", c.Name, p)
			}
		} else {
			fmt.Printf("FAIL %s: %s\n", c.Name, problems[0])
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
