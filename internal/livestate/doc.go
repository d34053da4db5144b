// Package livestate is the live state of a run beyond its objects: whether one was given
// (a LIVE dump, or a cluster read), the record a cluster read keeps of what it found absent
// or could not read (package cluster), and what all that is evidence of
// (predict.Evidence) — the warnings on each pair and the pairs it cannot predict
// ([State.Judge]). It also holds the two ends of a cluster read: the objects the manifests
// name ([Refs]) and the read kept as a dump, written to --save-live ([Keep]); and the
// admission chain's cluster state of what the read listed for it ([Admission]).
package livestate
