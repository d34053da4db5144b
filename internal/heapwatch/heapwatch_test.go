package heapwatch

import "testing"

var keep [][]byte

func TestPeakSeesAnAllocation(t *testing.T) {
	before, peak := Peak(func() {
		for i := 0; i < 64; i++ {
			keep = append(keep, make([]byte, 1<<20))
		}
	})
	keep = nil
	if peak < before+32<<20 {
		t.Errorf("64 MiB held: peak %d bytes, %d before", peak, before)
	}
}
