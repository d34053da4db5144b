// Package flagvalue holds what the command's flags are made of: the values that check what
// they are given as they are parsed (a byte size, a bounded positive integer, a shard I/N,
// IP families), the flags of the appliers' options (appliers.Kind.Options, read back by
// name), and the usage listing of a flag set (the name and argument of each flag on one
// line, its description wrapped and indented below). The flags themselves are the
// command's (package cli).
package flagvalue
