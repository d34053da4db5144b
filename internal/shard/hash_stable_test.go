package shard

import (
	"fmt"
	"testing"
)

// TestHashIsFNV1a64OfTheKey pins the hash: values computed by hand from the definition
// (FNV-1a 64 of group NUL kind NUL namespace NUL name). A change here moves objects between
// shards: a breaking change of --shard.
func TestHashIsFNV1a64OfTheKey(t *testing.T) {
	// FNV-1a 64 by its definition, byte by byte.
	fnv := func(s string) uint64 {
		h := uint64(14695981039346656037)
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		return h
	}
	for _, k := range [][4]string{
		{"", "ConfigMap", "default", "app"},
		{"apps", "Deployment", "prod", "web"},
		{"", "Namespace", "", "prod"},
		{"apiextensions.k8s.io", "CustomResourceDefinition", "", "backups.example.com"},
	} {
		want := fnv(k[0] + "\x00" + k[1] + "\x00" + k[2] + "\x00" + k[3])
		if got := Hash(k[0], k[1], k[2], k[3]); got != want {
			t.Errorf("Hash%q = %#x, want %#x", k, got, want)
		}
	}
	// Pinned values: the same on every platform and in every release.
	if got := Hash("apps", "Deployment", "prod", "web"); fmt.Sprintf("%#016x", got) != "0xdba25d2bdd225917" {
		t.Errorf("Hash(apps Deployment prod web) = %#016x", got)
	}
}

// TestEveryObjectInOneShard: for N = 1…7, each key is owned by exactly one shard, the one
// Of names.
func TestEveryObjectInOneShard(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for i := 0; i < 500; i++ {
			name := fmt.Sprintf("object-%d", i)
			owners := 0
			for k := 1; k <= n; k++ {
				if (Spec{Index: k, Count: n}).Owns("apps", "Deployment", "ns", name) {
					owners++
					if Of(n, "apps", "Deployment", "ns", name) != k {
						t.Fatalf("N=%d: %s owned by %d, Of says %d", n, name, k, Of(n, "apps", "Deployment", "ns", name))
					}
				}
			}
			if owners != 1 {
				t.Fatalf("N=%d: %s owned by %d shards", n, name, owners)
			}
		}
	}
	if !(Spec{}).Owns("", "ConfigMap", "default", "a") {
		t.Error("an unsharded run owns every object")
	}
}
