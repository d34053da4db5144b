package api

import (
	"reflect"
	"sync"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/api/apps"
)

// Plans are worked out as the values decoded need them, by whichever goroutine meets a type
// first: goroutines decoding at once (under -race) decode what one alone decodes.
func TestDecodePlansShared(t *testing.T) {
	obj := decodeJSON(t, deployment)
	var want apps.Deployment
	if err := Decode(decodeJSON(t, deployment), &want); err != nil {
		t.Fatal(err)
	}
	plans.Clear() // so that the goroutines below build the plans
	var wg sync.WaitGroup
	got := make([]apps.Deployment, 8)
	errs := make([]error, len(got))
	for i := range got {
		wg.Go(func() { errs[i] = Decode(obj, &got[i]) })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || !reflect.DeepEqual(got[i], want) {
			t.Fatalf("goroutine %d: %v, %+v; want %+v", i, errs[i], got[i], want)
		}
	}
}

// A plan is only worked out as far as the values need: decoding a Deployment without
// volumes leaves the plan of a Volume unmade.
func TestDecodePlansLazy(t *testing.T) {
	plans.Clear()
	var d apps.Deployment
	if err := Decode(decodeJSON(t, deployment), &d); err != nil {
		t.Fatal(err)
	}
	n := 0
	plans.Range(func(k, _ any) bool {
		n++
		if k.(reflect.Type).Name() == "Volume" {
			t.Errorf("the plan of %v was made", k)
		}
		return true
	})
	t.Logf("%d plans", n)
	if n == 0 || n > 80 {
		t.Errorf("%d plans made for a small Deployment", n)
	}
}
