package shard_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/shard"
)

func ExampleParse() {
	spec, err := shard.Parse("2/3")
	if err != nil {
		panic(err)
	}
	owner := shard.Of(spec.Count, "apps", "Deployment", "prod", "web")
	fmt.Println(spec, owner, spec.Owns("apps", "Deployment", "prod", "web") == (owner == spec.Index))
	_, err = shard.Parse("4/3")
	fmt.Println(err)
	// Output:
	// 2/3 3 true
	// shard "4/3": want I/N with 1 ≤ I ≤ N
}
