package predict

import (
	"context"
	"fmt"
	"iter"
	"runtime/debug"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/stackreserve"
)

// This file is a run's loop: every manifest of the run predicted on a bounded pool of
// workers, the manifests of one object in order (a chain), and each outcome yielded in the
// run's order.

// A Step is one result of a run, in the run's order: a manifest to predict, or one the run
// only passes through (an input that could not be read, a live object pruned).
type Step struct {
	// Object is where the apply goes. The steps predicted of one Object form a chain: each
	// is predicted against the object the one before it leaves.
	Object Identity
	// Apply is the apply, its Manifest and Live left out: Manifest and Live decode them in
	// the worker that predicts the step, so that a run holds a few trees at a time.
	Apply Apply
	// Manifest decodes the manifest; nil: the step is not predicted (it is yielded with no
	// Prediction and no Err).
	Manifest func() (map[string]any, error)
	// Live decodes the live object the chain starts from; nil: the apply creates it. Only
	// the first step of a chain's is read.
	Live func() (map[string]any, error)
	// Name is how the messages of other steps name this one (its file and line).
	Name string
}

// An Outcome is a Step predicted.
type Outcome struct {
	// Manifest is the manifest's tree (nil when the step is not predicted, or unreadable).
	Manifest map[string]any
	// Prediction is the apply predicted and judged; nil with Err, or for a step not predicted.
	Prediction *Prediction
	// Err: the manifest or the live object could not be read ("live object: …"), or the
	// engine could not predict the apply ("cannot predict …", a panic as an internal error).
	Err error
	// LiveFrom is the index of the step whose object this one was predicted against (the
	// one before it in its chain that left an object); -1: Step.Live's, or none.
	LiveFrom int
	// Warnings are the run's notes on this step, said after the prediction's: another
	// manifest applies the same object before it.
	Warnings []string
}

// A Schedule says how a run's steps are predicted.
type Schedule struct {
	// Jobs is how many steps are predicted at once (at least 1).
	Jobs int
	// Done, when set, is called in the worker with each step's outcome as soon as it is
	// known (in any order, from several goroutines), before the outcome is yielded: what a
	// caller does with each outcome in parallel.
	Done func(i int, o *Outcome)
}

// PredictAll predicts every step on at most s.Jobs workers and yields each step's outcome
// in the steps' order, as soon as it and the steps before it are done. The steps of one
// object are predicted in order, one after the other, each against the object the step
// before it leaves (its result's object, when it has one). The workers run at most 8 steps
// a job ahead of the caller (lookahead). Once ctx ends (or the caller stops iterating), no
// chain starts; the sequence ends, cut short, when the workers have finished the chains
// they had started.
func (r *Run) PredictAll(ctx context.Context, steps []Step, s Schedule) iter.Seq2[int, *Outcome] {
	return func(yield func(int, *Outcome) bool) {
		ctx, cancel := context.WithCancel(ctx)
		out := make([]*Outcome, len(steps))
		done := make([]chan struct{}, len(steps))
		for i := range done {
			done[i] = make(chan struct{})
		}
		stopped := make(chan struct{})
		ahead := newLookahead(s.Jobs)
		go func() {
			defer close(stopped)
			r.work(ctx, steps, s, out, done, ahead)
		}()
		defer func() {
			cancel() // a caller that stops iterating starts no more chains
			ahead.stop()
			<-stopped
		}()
		for i := range steps {
			select {
			case <-done[i]:
			case <-ctx.Done():
				return
			}
			o := out[i]
			out[i] = nil // let it go once yielded
			if !yield(i, o) {
				return
			}
			ahead.yielded(i + 1)
		}
	}
}

// lookahead bounds how far the workers run ahead of the caller: a chain starts only when
// its first step is within a window of the next step to yield. The outcomes held (and the
// trees a slow caller keeps waiting) stay a few per worker, and a caller that stops
// iterating stops the run within that window, however the goroutines are scheduled.
type lookahead struct {
	mu      sync.Mutex
	cond    *sync.Cond
	next    int // the next step to yield
	window  int
	stopped bool
}

func newLookahead(jobs int) *lookahead {
	a := &lookahead{window: 8 * max(jobs, 1)}
	a.cond = sync.NewCond(&a.mu)
	return a
}

// wait blocks until the step first may start; false once the run stopped.
func (a *lookahead) wait(first int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for !a.stopped && first >= a.next+a.window {
		a.cond.Wait()
	}
	return !a.stopped
}

// yielded records that the steps before next have been yielded.
func (a *lookahead) yielded(next int) {
	a.mu.Lock()
	a.next = next
	a.mu.Unlock()
	a.cond.Broadcast()
}

// stop wakes the feeder for good.
func (a *lookahead) stop() {
	a.mu.Lock()
	a.stopped = true
	a.mu.Unlock()
	a.cond.Broadcast()
}

// work predicts the chains of steps on s.Jobs workers, each outcome into out and its done
// closed; it returns when the workers have stopped.
func (r *Run) work(ctx context.Context, steps []Step, s Schedule, out []*Outcome, done []chan struct{}, ahead *lookahead) {
	chains := chainsOf(steps)
	work := make(chan []int)
	var wg sync.WaitGroup
	for i := 0; i < s.Jobs && i < len(chains); i++ {
		wg.Add(1)
		go func() {
			stackreserve.Reserve() // a prediction nests deep: one growth instead of several
			defer wg.Done()
			for chain := range work {
				r.predictChain(steps, chain, func(i int, o *Outcome) {
					if s.Done != nil {
						s.Done(i, o)
					}
					out[i] = o
					close(done[i])
				})
			}
		}()
	}
feed:
	for _, ch := range chains {
		// Chains come in the order of their first steps: the one holding the next step
		// to yield is always within the window, so waiting never starves the caller.
		if !ahead.wait(ch[0]) {
			break feed
		}
		select {
		case work <- ch:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
}

// chainsOf groups the steps' indexes into chains, in the order of each chain's first step:
// the predicted steps of one object together, every other step alone.
func chainsOf(steps []Step) [][]int {
	var chains [][]int
	byObject := map[Identity]int{}
	for i, st := range steps {
		if st.Manifest == nil {
			chains = append(chains, []int{i})
			continue
		}
		if c, ok := byObject[st.Object]; ok {
			chains[c] = append(chains[c], i)
			continue
		}
		byObject[st.Object] = len(chains)
		chains = append(chains, []int{i})
	}
	return chains
}

// predictChain predicts a chain's steps in order, each against the object the one before
// leaves, and hands each outcome to done.
func (r *Run) predictChain(steps []Step, chain []int, done func(int, *Outcome)) {
	var live map[string]any
	var liveErr error
	if f := steps[chain[0]].Live; f != nil && steps[chain[0]].Manifest != nil {
		live, liveErr = f()
	}
	liveFrom, prev := -1, -1
	for _, i := range chain {
		st := &steps[i]
		o := &Outcome{LiveFrom: -1}
		switch {
		case st.Manifest == nil:
		case liveErr != nil:
			o.Err = fmt.Errorf("live object: %w", liveErr)
		default:
			o.Manifest, o.Err = st.Manifest()
			if o.Err != nil {
				break
			}
			o.Prediction, o.Err = r.predictStep(st, o.Manifest, live)
			o.LiveFrom = liveFrom
			if prev >= 0 {
				o.Warnings = append(o.Warnings, fmt.Sprintf("the same object is also applied by %s; this apply is predicted against the object that one leaves", steps[prev].Name))
			}
			if o.Prediction != nil && o.Prediction.Result.Object != nil {
				live, liveFrom = o.Prediction.Result.Object, i
			}
			prev = i
		}
		done(i, o)
	}
}

// predictStep is Predict of one step, a panic in the engine its error.
func (r *Run) predictStep(st *Step, manifest, live map[string]any) (p *Prediction, err error) {
	defer func() {
		if v := recover(); v != nil {
			p, err = nil, fmt.Errorf("internal error in ssa-diff (please report it): %v\n%s", v, debug.Stack())
		}
	}()
	a := st.Apply
	a.Manifest, a.Live = manifest, live
	p, err = r.Predict(a)
	if err != nil {
		return nil, fmt.Errorf("cannot predict %s: %w", st.Object, err)
	}
	return p, nil
}
