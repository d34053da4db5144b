module github.com/ssa-diff/ssa-diff/internal/olderminor

go 1.22
