package main

// minor is the Kubernetes minor this module links (oraclemain's switches read it).
const minor = 36
