package main

// minor is the Kubernetes minor (1.<minor>) whose code this build of the program links.
// Here it is the harness's own (InProcessMinor: this directory builds in its module, so
// that vet and the compiler check the program); each process oracle's module keeps a
// minor.go of its own naming its minor, which BuildOracle keeps in place of this one.
const minor = 37
