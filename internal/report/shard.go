package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// Shard is the part of a shard's report that the whole run's report does not have: which
// shard it is, which run it is of, and where each of its results goes in the whole run.
type Shard struct {
	// Index is the shard, 1-based, of Count.
	Index int `json:"index"`
	Count int `json:"count"`
	// Run identifies the run's inputs: the same in every shard of one run (package shard's
	// RunID: a hash of every result's identity and source, in order).
	Run string `json:"run"`
	// Total is the number of results of the whole run.
	Total int `json:"total"`
	// Results has one entry per result of this report, in the same order.
	Results []ShardResult `json:"results"`
}

// ShardResult is where one result goes in the whole run, and the inputs its text formats
// show (Result.Live and Result.Manifest, which the report does not otherwise carry).
type ShardResult struct {
	Position int            `json:"position"`
	Live     map[string]any `json:"live,omitempty"`
	Manifest map[string]any `json:"manifest,omitempty"`
}

// ErrNotMergeable is wrapped by Merge's errors: the reports are not the shards of one run.
var ErrNotMergeable = errors.New("the reports are not all the shards of one run")

// Merge folds the reports of every shard of one run, in any order, into the report the run
// would have made unsharded: its results in the run's order, each with its inputs, and its
// summary counted again. It refuses reports that are not shards' reports, of different
// runs, options, minors or shard counts, and a missing or repeated shard. names name the
// reports in errors (one per report).
func Merge(names []string, reps []*Report) (*Report, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("%w: no reports", ErrNotMergeable)
	}
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("report %d", i+1)
	}
	first := reps[0]
	for i, r := range reps {
		if r.Shard == nil {
			return nil, fmt.Errorf("%w: %s is not a shard's report (made without --shard)", ErrNotMergeable, name(i))
		}
		if err := r.Shard.check(len(r.Results)); err != nil {
			return nil, fmt.Errorf("%s: %w", name(i), err)
		}
	}
	byIndex := make(map[int]int, len(reps))
	for i, r := range reps {
		s, f := r.Shard, first.Shard
		switch {
		case s.Count != f.Count:
			return nil, fmt.Errorf("%w: %s is shard %d of %d, %s of %d", ErrNotMergeable, name(i), s.Index, s.Count, name(0), f.Count)
		case r.Options.KubernetesVersion != first.Options.KubernetesVersion:
			return nil, fmt.Errorf("%w: %s predicts Kubernetes %s, %s %s", ErrNotMergeable, name(i), r.Options.KubernetesVersion, name(0), first.Options.KubernetesVersion)
		case s.Run != f.Run || s.Total != f.Total:
			return nil, fmt.Errorf("%w: %s is of another run than %s (other inputs: run %s, %s)", ErrNotMergeable, name(i), name(0), s.Run, f.Run)
		case !r.Options.Now.Equal(first.Options.Now):
			return nil, fmt.Errorf("%w: %s was made at %s, %s at %s (give every shard the same --now)", ErrNotMergeable, name(i), r.Options.Now.Format(time.RFC3339Nano), name(0), first.Options.Now.Format(time.RFC3339Nano))
		case !sameOptions(r.Options, first.Options):
			return nil, fmt.Errorf("%w: %s was made with other options than %s", ErrNotMergeable, name(i), name(0))
		case r.APIVersion != first.APIVersion:
			return nil, fmt.Errorf("%w: %s is %s, %s %s", ErrNotMergeable, name(i), r.APIVersion, name(0), first.APIVersion)
		}
		if j, ok := byIndex[s.Index]; ok {
			return nil, fmt.Errorf("%w: shard %d of %d is given twice (%s and %s)", ErrNotMergeable, s.Index, s.Count, name(j), name(i))
		}
		byIndex[s.Index] = i
	}
	var missing []int
	for k := 1; k <= first.Shard.Count; k++ {
		if _, ok := byIndex[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: shard%s %s of %d missing", ErrNotMergeable, plural(len(missing)), joinInts(missing), first.Shard.Count)
	}

	results := make([]*Result, first.Shard.Total)
	from := make([]int, first.Shard.Total)
	for i, r := range reps {
		for k, res := range r.Results {
			sr := r.Shard.Results[k]
			if results[sr.Position] != nil {
				return nil, fmt.Errorf("%w: result %d of the run is in %s and %s", ErrNotMergeable, sr.Position+1, name(from[sr.Position]), name(i))
			}
			res.Live, res.Manifest = sr.Live, sr.Manifest
			results[sr.Position], from[sr.Position] = res, i
		}
	}
	for p, res := range results {
		if res == nil {
			return nil, fmt.Errorf("%w: result %d of the run is in no shard", ErrNotMergeable, p+1)
		}
	}
	out := New(first.Options)
	out.APIVersion = first.APIVersion
	out.Results = results
	out.Summarize()
	return out, nil
}

// check checks a shard's own record: its index, and one entry per result, each in the run.
func (s *Shard) check(results int) error {
	switch {
	case s.Count < 1 || s.Index < 1 || s.Index > s.Count:
		return fmt.Errorf("%w: shard %d of %d", ErrNotMergeable, s.Index, s.Count)
	case len(s.Results) != results:
		return fmt.Errorf("%w: %d results, %d shard entries", ErrNotMergeable, results, len(s.Results))
	case s.Total < results:
		return fmt.Errorf("%w: %d results of a run of %d", ErrNotMergeable, results, s.Total)
	}
	for _, r := range s.Results {
		if r.Position < 0 || r.Position >= s.Total {
			return fmt.Errorf("%w: result position %d outside the run's %d", ErrNotMergeable, r.Position, s.Total)
		}
	}
	return nil
}

func sameOptions(a, b Options) bool {
	a.Now, b.Now = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

func joinInts(ns []int) string {
	sort.Ints(ns)
	var b bytes.Buffer
	for i, n := range ns {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, n)
	}
	return b.String()
}

// ErrNotReport is wrapped by Read's errors.
var ErrNotReport = errors.New("not an ssa-diff report")

// Read decodes a JSON report (-o json) as written: numbers as json.Number, so that the
// objects it carries print again as they were read. name names the input in errors. Fields
// a report does not have, and trailing data, are refused.
func Read(r io.Reader, name string) (*Report, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var rep Report
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: %w: %w", name, ErrNotReport, jsonError(err, dec))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: %w: data after the report", name, ErrNotReport)
	}
	if rep.APIVersion != APIVersion || rep.Kind != Kind {
		return nil, fmt.Errorf("%s: %w: apiVersion %q, kind %q (want %s %s)", name, ErrNotReport, rep.APIVersion, rep.Kind, APIVersion, Kind)
	}
	for i, res := range rep.Results {
		if res == nil {
			return nil, fmt.Errorf("%s: %w: results[%d] is null", name, ErrNotReport, i)
		}
	}
	return &rep, nil
}

// jsonError says where the decoder stopped.
func jsonError(err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("at byte %d: %w", se.Offset, err)
	}
	return fmt.Errorf("at byte %d: %w", dec.InputOffset(), err)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// MergeFiles reads the shards' JSON reports from files ("-": stdin) and folds them (Merge)
// into the whole run's report.
func MergeFiles(names []string, stdin io.Reader) (*Report, error) {
	reps := make([]*Report, 0, len(names))
	for _, name := range names {
		rep, err := readFile(name, stdin)
		if err != nil {
			return nil, err
		}
		reps = append(reps, rep)
	}
	return Merge(names, reps)
}

// readFile reads one shard's JSON report ("-": stdin).
func readFile(name string, stdin io.Reader) (*Report, error) {
	if name == input.StdinName {
		return Read(stdin, "stdin")
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, name)
}
