package output

import (
	"math/bits"
	"strings"
)

// The line diff of `diff -u` as GNU diffutils 3.8 computes it, which is what `kubectl diff`
// prints (it runs `diff -u -N` on the two files). A minimal diff is not unique: where an
// inserted block's last line repeats the line before it, or a line occurs many times, two
// correct diffs align the change differently and group the hunks differently. To print
// what kubectl prints, ssa-diff follows GNU diff's steps (src/io.c, src/analyze.c and
// gnulib's diffseq.h), written anew here:
//
//  1. the identical prefix and suffix of the two texts are set aside, except `horizon`
//     lines of each (the context), which shift_boundaries may need (find_identical_ends);
//  2. the lines left are numbered by equivalence class, in order of first appearance;
//  3. lines matching nothing in the other text, and runs of lines matching very many, are
//     marked changed at once and left out of the comparison (discard_confusing_lines);
//  4. Myers' O(ND) algorithm with the divide-and-conquer midpoint search (diag and
//     compareseq), giving up on an exact midpoint past TOO_EXPENSIVE edits;
//  5. each run of changes is slid, over identical lines, to merge with the runs around it
//     and to end where the other text's changes end (shift_boundaries);
//  6. the changes are grouped into hunks with `context` lines around them, two changes at
//     most 2×context unchanged lines apart sharing a hunk (find_hunk).
//
// The texts are those renderYAML prints: every line ends in a newline (a text without one
// at its end is read as if it had one).

// gnuLineDiff is the line diff GNU diff prints for a and b with context lines of context:
// every line of both, in order, each change's removals before its additions.
func gnuLineDiff(a, b string, context int) []lineOp {
	if a != "" && !strings.HasSuffix(a, "\n") {
		a += "\n"
	}
	if b != "" && !strings.HasSuffix(b, "\n") {
		b += "\n"
	}
	prefixEnd, suffix0, suffix1 := identicalEnds(a, b, context)
	x := splitLines(a[prefixEnd:suffix0])
	y := splitLines(b[prefixEnd:suffix1])
	changed0, changed1 := compareLines(x, y)

	var out []lineOp
	for _, l := range splitLines(a[:prefixEnd]) {
		out = append(out, lineOp{' ', l})
	}
	i0, i1 := 0, 0
	for i0 < len(x) || i1 < len(y) {
		if changed0.at(i0) || changed1.at(i1) {
			for changed0.at(i0) {
				out = append(out, lineOp{'-', x[i0]})
				i0++
			}
			for changed1.at(i1) {
				out = append(out, lineOp{'+', y[i1]})
				i1++
			}
			continue
		}
		out = append(out, lineOp{' ', x[i0]})
		i0++
		i1++
	}
	for _, l := range splitLines(a[suffix0:]) {
		out = append(out, lineOp{' ', l})
	}
	return out
}

// identicalEnds is find_identical_ends: the byte offset where the compared part of both
// texts begins (the identical prefix less horizon lines) and where it ends in each (the
// identical suffix less horizon lines, and less the rest of a line the suffix starts in).
func identicalEnds(a, b string, horizon int) (prefixEnd, suffix0, suffix1 int) {
	n0, n1 := len(a), len(b)
	p := 0
	for p < n0 && p < n1 && a[p] == b[p] {
		p++
	}
	// Back to the start of the line, then horizon lines more.
	for i := horizon; p != 0; p-- {
		if a[p-1] == '\n' {
			if i == 0 {
				break
			}
			i--
		}
	}
	prefixEnd = p

	p0, p1 := n0, n1
	beg0 := prefixEnd + max(0, n0-n1) // the suffix never reaches into either prefix
	for p0 != beg0 {
		p0--
		p1--
		if a[p0] != b[p1] {
			p0++
			p1++
			beg0 = p0
			break
		}
	}
	i := horizon
	if !((p0 == 0 || a[p0-1] == '\n') && (p1 == 0 || b[p1-1] == '\n')) {
		i++ // the rest of the line the suffix starts in
	}
	for ; i > 0 && p0 != n0; i-- {
		for a[p0] != '\n' {
			p0++
		}
		p0++
	}
	return prefixEnd, p0, p1 + p0 - beg0
}

// flags marks changed lines; index -1 and len are false sentinels, as GNU diff allocates them.
type flags []bool

func newFlags(n int) flags        { return make(flags, n+2) }
func (f flags) at(i int) bool     { return f[i+1] }
func (f flags) set(i int, v bool) { f[i+1] = v }
func (f flags) lines() int        { return len(f) - 2 }
func floorLog2(n int) int         { return bits.Len(uint(n)) - 1 }
func equivClasses(x, y []string) (ex, ey []int, count int) {
	classes := make(map[string]int, len(x)+len(y))
	number := func(lines []string) []int {
		e := make([]int, len(lines))
		for i, l := range lines {
			c, ok := classes[l]
			if !ok {
				c = len(classes) + 1 // class 0 is for lines not hashed: none here
				classes[l] = c
			}
			e[i] = c
		}
		return e
	}
	ex = number(x)
	ey = number(y)
	return ex, ey, len(classes) + 1
}

// compareLines marks the lines of x and y that the diff removes and adds.
func compareLines(x, y []string) (flags, flags) {
	ex, ey, nclasses := equivClasses(x, y)
	changed := [2]flags{newFlags(len(x)), newFlags(len(y))}
	equivs := [2][]int{ex, ey}
	undiscarded, realIndex := discardConfusingLines(equivs, changed, nclasses)
	d := &diffContext{
		xv: undiscarded[0], yv: undiscarded[1],
		xreal: realIndex[0], yreal: realIndex[1],
		changed0: changed[0], changed1: changed[1],
	}
	nx, ny := len(d.xv), len(d.yv)
	diags := nx + ny + 3
	d.fdiag = make([]int, 2*diags)
	d.bdiag = d.fdiag[diags:]
	d.off = ny + 1
	// TOO_EXPENSIVE: about the square root of the input size, at least 4096.
	d.tooExpensive = max(4096, 1<<((floorLog2(diags)>>1)+1))
	d.compareseq(0, nx, 0, ny, false)
	shiftBoundaries(equivs, changed)
	return changed[0], changed[1]
}

// discardConfusingLines is discard_confusing_lines: a line matching no line of the other
// text is marked changed and left out of the comparison; one matching very many lines is
// left out too where it sits in a run of such lines between lines matching nothing.
// It returns the equivalence classes of the lines kept, and their indexes.
func discardConfusingLines(equivs [2][]int, changed [2]flags, nclasses int) (undiscarded, realIndex [2][]int) {
	var count [2][]int
	for f := range 2 {
		count[f] = make([]int, nclasses)
		for _, e := range equivs[f] {
			count[f][e]++
		}
	}
	var discards [2][]byte
	for f := range 2 {
		end := len(equivs[f])
		discards[f] = make([]byte, end)
		many := 5
		if end >= 64 {
			many <<= (floorLog2(end) >> 1) - 3
		}
		for i, e := range equivs[f] {
			switch n := count[1-f][e]; {
			case n == 0:
				discards[f][i] = 1
			case n > many:
				discards[f][i] = 2
			}
		}
	}
	for f := range 2 {
		dis := discards[f]
		end := len(dis)
		for i := 0; i < end; i++ {
			if dis[i] == 2 {
				dis[i] = 0 // a provisional discard not inside a run of discards
				continue
			}
			if dis[i] == 0 {
				continue
			}
			// A run of discardable lines starting with one matching nothing.
			provisional := 0
			j := i
			for ; j < end && dis[j] != 0; j++ {
				if dis[j] == 2 {
					provisional++
				}
			}
			for j > i && dis[j-1] == 2 {
				j--
				dis[j] = 0
				provisional--
			}
			length := j - i
			if length>>2 < provisional {
				// A quarter of the run provisional: keep all of them.
				for ; j > i; j-- {
					if dis[j-1] == 2 {
						dis[j-1] = 0
					}
				}
				continue
			}
			minimum := 2
			if length >= 4 {
				minimum = 1<<((floorLog2(length)>>1)-1) + 1
			}
			// Keep every subrun of minimum or more provisional lines.
			consec := 0
			for j = 0; j < length; j++ {
				switch {
				case dis[i+j] != 2:
					consec = 0
				case consec+1 == minimum:
					consec++
					j -= consec // back to the subrun's start, to keep it all
				case consec+1 > minimum:
					consec++
					dis[i+j] = 0
				default:
					consec++
				}
			}
			// From the run's start to 3 lines in a row matching nothing, or the first
			// line matching nothing 8 lines in, keep the provisional lines; the same
			// from its end.
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && dis[i+j] == 1 {
					break
				}
				switch dis[i+j] {
				case 2:
					consec = 0
					dis[i+j] = 0
				case 0:
					consec = 0
				default:
					consec++
				}
				if consec == 3 {
					break
				}
			}
			i += length - 1
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && dis[i-j] == 1 {
					break
				}
				switch dis[i-j] {
				case 2:
					consec = 0
					dis[i-j] = 0
				case 0:
					consec = 0
				default:
					consec++
				}
				if consec == 3 {
					break
				}
			}
		}
	}
	for f := range 2 {
		for i, e := range equivs[f] {
			if discards[f][i] == 0 {
				undiscarded[f] = append(undiscarded[f], e)
				realIndex[f] = append(realIndex[f], i)
			} else {
				changed[f].set(i, true)
			}
		}
	}
	return undiscarded, realIndex
}

// diffContext is diffseq.h's context: the sequences compared (equivalence classes of the
// lines kept), where their lines are, and the furthest points of the searches by diagonal.
type diffContext struct {
	xv, yv             []int
	xreal, yreal       []int
	changed0, changed1 flags
	fdiag, bdiag       []int // indexed by diagonal + off
	off                int
	tooExpensive       int
}

// compareseq finds the changes between xv[xoff:xlim] and yv[yoff:ylim], by halves.
func (d *diffContext) compareseq(xoff, xlim, yoff, ylim int, findMinimal bool) {
	for xoff < xlim && yoff < ylim && d.xv[xoff] == d.yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && d.xv[xlim-1] == d.yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			d.changed1.set(d.yreal[yoff], true)
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			d.changed0.set(d.xreal[xoff], true)
		}
	default:
		xmid, ymid, loMinimal, hiMinimal := d.diag(xoff, xlim, yoff, ylim, findMinimal)
		d.compareseq(xoff, xmid, yoff, ymid, loMinimal)
		d.compareseq(xmid, xlim, ymid, ylim, hiMinimal)
	}
}

// diag is diffseq.h's diag: the midpoint of a shortest edit script of the two parts, by
// searching from both ends at once; past tooExpensive edits (unless findMinimal), the
// point furthest along of either search.
func (d *diffContext) diag(xoff, xlim, yoff, ylim int, findMinimal bool) (xmid, ymid int, loMinimal, hiMinimal bool) {
	fd, bd, off := d.fdiag, d.bdiag, d.off
	xv, yv := d.xv, d.yv
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[fmid+off] = xoff
	bd[bmid+off] = xlim
	for c := 1; ; c++ {
		if fmin > dmin {
			fmin--
			fd[fmin-1+off] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+off] = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			tlo, thi := fd[k-1+off], fd[k+1+off]
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-k
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[k+off] = x
			if odd && bmin <= k && k <= bmax && bd[k+off] <= x {
				return x, y, true, true
			}
		}
		if bmin > dmin {
			bmin--
			bd[bmin-1+off] = maxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+off] = maxInt
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			tlo, thi := bd[k-1+off], bd[k+1+off]
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-k
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[k+off] = x
			if !odd && fmin <= k && k <= fmax && x <= fd[k+off] {
				return x, y, true, true
			}
		}
		if findMinimal || c < d.tooExpensive {
			continue
		}
		// Too expensive: the forward diagonal furthest along (max x+y), or the backward
		// one (min x+y), whichever got further.
		fxybest, fxbest := -1, 0
		for k := fmax; k >= fmin; k -= 2 {
			x := min(fd[k+off], xlim)
			y := x - k
			if ylim < y {
				x, y = ylim+k, ylim
			}
			if fxybest < x+y {
				fxybest, fxbest = x+y, x
			}
		}
		bxybest, bxbest := maxInt, 0
		for k := bmax; k >= bmin; k -= 2 {
			x := max(xoff, bd[k+off])
			y := x - k
			if y < yoff {
				x, y = yoff+k, yoff
			}
			if x+y < bxybest {
				bxybest, bxbest = x+y, x
			}
		}
		if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
			return fxbest, fxybest - fxbest, true, false
		}
		return bxbest, bxybest - bxbest, false, true
	}
}

const maxInt = int(^uint(0) >> 1)

// shiftBoundaries is shift_boundaries: each run of changed lines slides over identical
// lines, first back to merge with the runs before it, then forward to merge with those
// after it, as far as it goes, and at last back to where it ends against a run of changes
// in the other text, if it can.
func shiftBoundaries(equivs [2][]int, changed [2]flags) {
	for f := range 2 {
		ch, other, eq := changed[f], changed[1-f], equivs[f]
		iEnd := ch.lines()
		i, j := 0, 0
		for {
			for i < iEnd && !ch.at(i) {
				for other.at(j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			for i++; ch.at(i); i++ {
			}
			for other.at(j) {
				j++
			}
			var runlength, corresponding int
			for {
				runlength = i - start
				for start > 0 && eq[start-1] == eq[i-1] {
					start--
					ch.set(start, true)
					i--
					ch.set(i, false)
					for ch.at(start - 1) {
						start--
					}
					for j--; other.at(j); j-- {
					}
				}
				corresponding = iEnd
				if other.at(j - 1) {
					corresponding = i
				}
				for i != iEnd && eq[start] == eq[i] {
					ch.set(start, false)
					start++
					ch.set(i, true)
					i++
					for ch.at(i) {
						i++
					}
					for j++; other.at(j); j++ {
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				ch.set(start, true)
				i--
				ch.set(i, false)
				for j--; other.at(j); j-- {
				}
			}
		}
	}
}
