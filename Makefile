# ssa-diff — predict Kubernetes server-side apply offline.
#
#   make build          the binary, ./ssa-diff, and its admission helper ./ssa-diff-admission
#   make lint           staticcheck (STATICCHECK, fetched through the module proxy)
#   make test           what every change must pass (CI runs it first): vet, gofmt,
#                       staticcheck, unit tests (every fuzz target's seed corpus), recorded cases, fixture
#                       score, the differential harness at 1.37 (the in-process field manager), the
#                       validation of custom resources against apiextensions-apiserver's
#   make conformance    the recorded server cases (replay), the modules that link k8s.io/kubernetes
#                       (differential-kubernetes), then the differential harness against the
#                       field managers of 1.33 and 1.38 built as processes (CI runs it after make test)
#   make differential-kubernetes  k8s.io/kubernetes' defaulting, decoding into the internal types
#                       and registry validation against ssa-diff's (part of make conformance)
#   make replay         replay the recorded server cases (../shared/fixtures) through the engine
#   make refresh-recorded  copy the recorded cases from ../shared/fixtures into testdata/recorded,
#                       printing each case added, removed or changed (make test fails while
#                       they differ: recorded-check)
#   make generate       regenerate the embedded Kubernetes tables of every minor kube/releases.txt lists
#                       (needs the module proxy; docs/minors.md)
#   make fuzz           run every fuzz target for FUZZTIME each
#   make fuzz-long      the same (FUZZTIME default 10m), writing each target's executions to FUZZ_REPORT
#   make bench-corpus   generate the benchmark repositories + live dumps (1,000 and 10,000 objects)
#   make bench          benchmarks: Go benchmarks (engine, whole CLI on the corpus), then the binary timed
#   make pgo            the CPU profile the release build is optimised with (default.pgo), from the
#                       benchmark corpus through every output format (docs/performance.md)
#   make startup        small predictions' whole-process start-up against a hello-world Go program (budget 3x)
#   make startup-floor  the floor under it: programs linking only ssa-diff's third-party imports, with and
#                       without CEL, client-go and kustomize (what helper programs could save at most)
#   make report-screenshots  the HTML report of each example, of hostile input and of the 1,000-object corpus,
#                       loaded in headless Chromium: screenshots in report-screenshots/ (git-ignored)
#   make release-check  the release proven here (test/release), for the host's platform: goreleaser check and
#                       release --snapshot, the archives checked and run, the krew manifest rendered by
#                       krew-release-bot and validated by krew, the Action in a simulated runner,
#                       the workflows linted (actionlint), the Dockerfile's stages (CI runs it after make test)
#   make release-snapshot  the same for every platform of .goreleaser.yaml (the release workflow runs it)
#   make e2e            --live-from-cluster against a real kube-apiserver and etcd: 1.37.2, or the
#                       release KUBE_VERSION names (v1.34.4, v1.35.4, v1.36.3), built once into
#                       KUBE_BIN (one folder per release) from the Go module proxy

GO        ?= go
FIXTURES  ?= $(abspath ../shared/fixtures)
FUZZTIME  ?= 10m
FUZZ_REPORT ?= fuzz-execs.txt
BIN       ?= ./ssa-diff
KUBE_VERSION ?= v1.37.2
KUBE_BIN  ?= $(HOME)/.cache/kube-apiserver-$(KUBE_VERSION:v%=%)/bin
# A real Helm 4 for make e2e (tools/helm pins it: 4.3.2), built once.
HELM_BIN  ?= $(HOME)/.cache/ssa-diff-helm-4.3.2/helm
FIXTURECHECK ?= ../shared/tools/fixturecheck.py
# The Go toolchain of the generators (make generate), fetched through the module proxy:
# Kubernetes 1.38 requires Go 1.27, so the generator modules' go.mod (pinning the newest
# release) builds with it, and the source readers (kube/gen, the feature gates, the layouts)
# ask the module proxy for 1.38's modules with it. The older minors' builds (go.1.<minor>.mod)
# run with the go command on PATH, each with the Go its module file asks for.
GEN_TOOLCHAIN ?= go1.27.3
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: release-check release-snapshot build test vet lint fmt-check unit refresh-recorded recorded-check replay conformance conformance-long conformance-served differential differential-kubernetes differential-133 differential-138 differential-minors fixturecheck generate fuzz fuzz-short fuzz-long bench bench-corpus pgo example startup startup-floor e2e report-screenshots

# kustomize's library imports Go's plugin loader, which ssa-diff never uses (kubectl's -k
# runs no plugins); with cgo on, linking it keeps every exported symbol: this tag leaves it
# out (25 MB instead of 43).
TAGS      ?= kustomize_disable_go_plugin_support

# Every go command of this Makefile (and of the tests, which inherit the environment) builds
# as the release does (.goreleaser.yaml): without cgo, -trimpath, the tag above. vet, the
# tests, staticcheck, the binary of the fixture scores and the modules under conformance/
# then find each other's compiled packages in one Go build cache instead of compiling them
# again under other flags (a package's cache key includes all three; docs/performance.md,
# "CI time"). Nothing ssa-diff builds or tests uses cgo. Other GOFLAGS of the environment are
# kept (other tags: TAGS=...).
export CGO_ENABLED = 0
override GOFLAGS := $(strip $(filter-out -trimpath -tags=%,$(GOFLAGS)) -trimpath -tags=$(TAGS))
export GOFLAGS

# The helper ssa-diff starts for the cluster's admission policies and PodSecurity
# (cmd/ssa-diff-admission), built beside the binary, where ssa-diff looks for it.
# Both are built as the release builds them (.goreleaser.yaml): without cgo, so statically
# linked (no dynamic loader, no libc start-up: a small prediction touches ~6% fewer pages
# and executes ~1.5% fewer instructions, docs/performance.md), and -trimpath; so what make
# startup, make bench and the fixture score measure is what users run.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -tags $(TAGS) -o $(BIN) .
	CGO_ENABLED=0 $(GO) build -trimpath -o $(dir $(BIN))ssa-diff-admission ./cmd/ssa-diff-admission

vet:
	$(GO) vet ./...

# staticcheck's default checks on the main module; the other modules' code is checked where
# their tests run (differential, differential-kubernetes), with the same staticcheck.
lint:
	$(GO) run $(STATICCHECK) ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# The tests read the recorded cases of testdata/recorded (SSA_DIFF_FIXTURES=DIR reads others).
unit:
	$(GO) test -timeout 20m ./...

refresh-recorded:
	sh testdata/recorded/refresh.sh $(FIXTURES) testdata/recorded

# Fails when testdata/recorded is not what ../shared/fixtures holds (a recording added or
# re-recorded there and not copied), saying what differs.
recorded-check:
	@if [ -d "$(FIXTURES)" ]; then sh testdata/recorded/refresh.sh -check $(FIXTURES) testdata/recorded; \
	else echo "no recorded cases at $(FIXTURES): testdata/recorded not compared with them"; fi

replay:
	SSA_DIFF_FIXTURES=$(FIXTURES) $(GO) run ./conformance/cmd/replay $(FIXTURES)

# What CI checks after make test (.ci/run runs it next): the recorded cases, the modules that
# link the server's code whole (differential-kubernetes: k8s.io/kubernetes at 1.37), then the
# differential harness at the two minors whose field manager runs as a process in CI
# (differential-133, differential-138: their oracles link k8s.io/kubernetes at 1.33 and 1.38,
# 1.38's built with Go 1.27). All of it is compiling that a cold Go build cache makes long and
# that make test leaves to this target (docs/performance.md, "CI time").
conformance: replay differential-kubernetes differential-133 differential-138

conformance-long:
	cd conformance/differential && SSA_DIFF_STEPS=$${SSA_DIFF_STEPS:-200000} $(GO) test -run TestDifferential -timeout 0 -v .
	cd conformance/internalapi && SSA_DIFF_OBJECTS=$${SSA_DIFF_OBJECTS:-2000} $(GO) test -count=1 -timeout 0 -v -run TestDecodeMatchesConversion .
	cd conformance/validation && SSA_DIFF_OBJECTS=$${SSA_DIFF_WRITES:-20000} $(GO) test -count=1 -timeout 0 -v -run TestValidationMatchesServer .
	cd conformance/crdvalidation && CRDVAL_OBJECTS=$${CRDVAL_OBJECTS:-120000} CRDVAL_CRDS=$${CRDVAL_CRDS:-3000} $(GO) test -run 'TestDifferential|TestCRDDifferential' -timeout 0 -v .
	$(MAKE) differential-minors

# The differential harness at every minor whose field manager runs as a process (the
# oracle1<minor> modules: 1.32–1.36 and 1.38; 1.37 is the in-process run above), each
# against that minor's own k8s.io/apimachinery: SSA_DIFF_MINOR_STEPS (8,000: seeds 1..320)
# per minor, one minor after the other. Each oracle's first build takes 7–16 minutes on a
# cold Go build cache (~1 min warm); a run, ~10–20 minutes on two cores (docs/minors.md).
# Part of `conformance-long`, not of `test`.
DIFF_MINORS ?= 1.32 1.33 1.34 1.35 1.36 1.38
differential-minors:
	cd conformance/differential && for m in $(DIFF_MINORS); do \
		SSA_DIFF_MINOR=$$m SSA_DIFF_ORACLE_TOOLCHAIN=$$( [ $$m = 1.38 ] && echo $(GEN_TOOLCHAIN) ) SSA_DIFF_STEPS=$${SSA_DIFF_MINOR_STEPS:-8000} \
			$(GO) test -count=1 -timeout 0 -run 'TestDifferential$$' -v . || exit 1; done

# The served versions of every built-in kind (schema.Type.Served) against kube-apiserver's
# default API configuration; it links the whole control plane, so it is not part of `test`.
conformance-served:
	cd conformance/defaulting && $(GO) test -tags served,$(TAGS) -count=1 -run TestServedByDefault -v .

fixturecheck: build
	@if [ -d "$(FIXTURES)" ]; then python3 $(FIXTURECHECK) $(BIN) $(FIXTURES); \
	else echo "no recorded cases at $(FIXTURES): skipping the fixture score"; fi

# The cases recorded from every minor's server (conformance/testdata/minors), through the
# binary with --kube-version set to each case's minor; a minor it does not predict yet is
# reported as known failures (SSA_DIFF_MINORS_STRICT=1 fails them).
fixturecheck-minors: build
	@sh conformance/testdata/minors/check.sh $(BIN) $(FIXTURECHECK)

# The fidelity gate of make test, cheap to build: the server's own field manager (package
# managedfields of k8s.io/apimachinery, which the main module compiles anyway, in-process) on
# random write sequences against the engine (bounded: 8,000 steps), and apiextensions-
# apiserver's validation of custom resources against ssa-diff's (bounded: 1,500 objects),
# each a module of its own (the product never links them). Beyond what the main module
# compiles they link ~150 packages (apiserver's and apiextensions-apiserver's, etcd's
# client, the HorizontalPodAutoscaler's scheme from k8s.io/kubernetes): ~1 minute cold.
# Then the two small generator modules (internal/smpmeta/gen, internal/olderminor), which
# link nothing new.
differential:
	cd conformance/differential && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 ./...
	cd conformance/crdvalidation && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 ./...
	cd internal/smpmeta/gen && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 ./...
	cd internal/olderminor && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 ./...

# The modules that link k8s.io/kubernetes' registry whole, each its own module (the product
# never links them): its defaulting on random objects of every built-in kind (defaulting),
# its decoding into the internal types against ssa-diff's (internalapi) and its registry
# validation (validation, 150 writes per kind). ~790 packages more than make test compiles
# (k8s.io/kubernetes' registry, apiserver, kube-aggregator): 3:15-3:37 on a cold Go build
# cache, 5.5-6 minutes of CPU (docs/performance.md, "CI time"); part of make conformance.
# Then the schema generator's own tests (it links k8s.io/kubernetes 1.38 and builds with
# GEN_TOOLCHAIN): its generated schema is what it writes from the readable copies; and the
# defaults generator, vetted and staticchecked (it has no tests: make generate runs it).
# Every module here and in differential is staticchecked before its tests run.
differential-kubernetes:
	cd conformance/defaulting && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 ./...
	cd conformance/internalapi && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 -short ./...
	cd conformance/validation && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 -short ./...
	cd schema/gen && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) vet ./... && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run $(STATICCHECK) ./... && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) test -count=1 ./...
	cd internal/defaults/gen && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) vet ./... && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run $(STATICCHECK) ./...

# The differential harness at 1.33 against 1.33.13's own field manager (the oracle133
# module, run as a process; its first build takes ~7 minutes on a cold Go build cache, under
# a minute on a warm one, which keeps its compiled packages): 2,000 steps (~10 s), part of
# `conformance`; SSA_DIFF_STEPS=8000 for the full run (docs/minors.md).
differential-133:
	cd conformance/differential && SSA_DIFF_MINOR=1.33 SSA_DIFF_STEPS=$${SSA_DIFF_STEPS:-2000} $(GO) test -count=1 -run TestDifferential .

# The differential harness at 1.38 against 1.38.0-beta.0's own field manager (the oracle138
# module, structured-merge-diff v7, run as a process): its module needs Go 1.27, which the
# harness's build of it asks for (GOTOOLCHAIN=$(GEN_TOOLCHAIN), fetched through the module
# proxy; .ci/run fetches it first); the harness itself and the engine build with this
# module's Go. 2,000 steps (~15 s) and the oracle's build (~1 min on a warm Go build cache,
# ~9.5 min cold) are part of `conformance`; SSA_DIFF_STEPS=8000 for the full run
# (docs/minors.md).
differential-138:
	cd conformance/differential && SSA_DIFF_MINOR=1.38 SSA_DIFF_ORACLE_TOOLCHAIN=$(GEN_TOOLCHAIN) SSA_DIFF_STEPS=$${SSA_DIFF_STEPS:-2000} $(GO) test -count=1 -timeout 60m -run TestDifferential .

# make test in two steps. vet compiles every package of the module (most of a cold run's
# compiling); then the rest runs TEST_JOBS targets at a time (make -j, each target's output
# printed whole when it ends): none compiles what another is compiling (lint reads vet's
# export data, unit the test variants, differential the server's packages), and each leaves
# a core idle at times (tests waiting, the fixture score's Python, links), which another fills.
TEST_JOBS ?= 2
test: vet fmt-check
	$(MAKE) --no-print-directory -j$(TEST_JOBS) -O lint unit recorded-check replay fixturecheck fixturecheck-minors differential

# The release and its install paths, proven with the tools pinned in tools/*/go.mod
# (goreleaser, krew, krew-release-bot) and actionlint: test/release's doc.go says what each
# test runs. release-check builds the archive of the host's platform only (cross-compiling
# the five others from a cold build cache takes ~4 minutes of CPU each: too much for every
# CI run); release-snapshot builds all six, as the release workflow does before publishing.
release-check:
	cd test/release && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -count=1 -timeout 40m ./...

release-snapshot:
	cd test/release && $(GO) vet ./... && SSA_DIFF_RELEASE_TARGETS=all $(GO) test -count=1 -timeout 90m -v ./...

# Regenerate what is generated from Kubernetes' own Go types (client-go and friends, in
# modules of their own): the embedded schemas, kind indexes and served-API facts, the
# encoding facts of the built-in kinds and the feature gates, of every minor kube/releases.txt
# lists. kube/gen first writes the module files the generators build each minor with (go.mod
# the newest release, go.1.<minor>.mod each older one) and the minors of the report's schema;
# the flag list of docs/cli.md follows --help. Adding or bumping a minor is a line of
# kube/releases.txt and a rerun (docs/minors.md).
generate:
	GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run ./kube/gen
	cd schema/gen && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run . -out ../builtin
	cd internal/defaults/gen && GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run . -o ../zz_generated_types.go
	cd conformance/internalapi && $(GO) run ./gen -out ../../internal/api
	GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run ./internal/features/gen -out internal/features/zz_generated.gates.go
	GOTOOLCHAIN=$(GEN_TOOLCHAIN) $(GO) run ./internal/api/layout/gen -out internal/api/layout/zz_generated.layouts.go
	for m in 32 33; do $(GO) run ./internal/api/gocmp/gen -release $$(grep "^v1\.$$m\." kube/releases.txt) -out internal/api/gocmp/core1$$m/zz_generated.types.go || exit 1; done
	$(GO) test ./cli -run TestDocsListTheFlags -update

# Every fuzz target of the module (testdata/fuzz/run.sh finds them), FUZZTIME each, the time
# limit an interrupt rather than -fuzztime: Go 1.26's -fuzztime deadline can fail a run that
# found nothing ("context deadline exceeded", golang/go#75804; see the script).
fuzz:
	GO=$(GO) sh testdata/fuzz/run.sh $(FUZZTIME)

fuzz-short:
	$(MAKE) fuzz FUZZTIME=2s

# The long run: every target for FUZZTIME (default 10m) each, the executions of each written
# to FUZZ_REPORT (name, package, executions, time, PASS or FAIL).
fuzz-long:
	GO=$(GO) sh testdata/fuzz/run.sh -o $(FUZZ_REPORT) $(FUZZTIME)

bench-corpus:
	$(GO) run ./testdata/benchcorpus/cmd/benchcorpus -out testdata/bench-corpus -sizes 1000,10000

# Profile-guided optimisation: default.pgo, beside main.go, is the CPU profile `go build` and
# `go install` apply to the binary by default (-pgo=auto; the release, the Dockerfile and make
# build get it alike). tools/pgo runs the command in-process under one CPU profile: the
# 10,000-object corpus in the JSON report (the CI gate's workload), the 1,000-object one in
# every other format. Regenerate it after a change that moves the hot path (it still applies
# to changed code, matched by function; a stale profile only optimises less).
PGO_NOW  = --now 2026-12-01T12:00:00Z
PGO_1K   = testdata/bench-corpus/1000/repo testdata/bench-corpus/1000/live.json
pgo:
	@[ -f testdata/bench-corpus/10000/live.json ] || $(MAKE) bench-corpus
	cd tools/pgo && $(GO) run . -o ../../default.pgo -C ../.. -- \
		'$(PGO_NOW) -o json testdata/bench-corpus/10000/repo testdata/bench-corpus/10000/live.json' \
		$(foreach f,text diff markdown junit github html yaml,'$(PGO_NOW) -o $(f) $(PGO_1K)')

# Start-up: the binary predicting one small example and one custom resource under CEL rules,
# in turn with a hello-world Go program in the same loop (the ratio of the medians of the
# first must stay under 3).
startup: build
	sh testdata/startup/startup.sh $(BIN)

startup-floor: build
	sh testdata/startup/floor.sh $(BIN)

bench: build
	@[ -f testdata/bench-corpus/1000/live.json ] || $(MAKE) bench-corpus
	$(GO) test -run '^$$' -bench . -benchmem ./...
	sh testdata/benchcorpus/bench.sh $(BIN) testdata/bench-corpus

# The end-to-end tests of --live-from-cluster: a real kube-apiserver (KUBE_VERSION, 1.37.2 by
# default) and etcd on free ports of 127.0.0.1, objects written by several managers, each
# prediction compared with the server's own dryRun=All of the same apply, and the server
# killed, then hung, in the middle of a read; ssa-diff, not told
# the version, predicts the minor the server's /version reports
# (conformance TestLiveFromClusterPicksMinor). The binaries are built once per release,
# outside the repository (conformance/kube-apiserver/build.sh); make test skips these tests.
#   make e2e KUBE_VERSION=v1.36.3                         # into ~/.cache/kube-apiserver-1.36.3/bin
#   make e2e KUBE_VERSION=v1.36.3 KUBE_BIN=/work/oracle/v1.36.3/bin
# TestHelmE2E (internal/helmplugin) installs a release with a real Helm 4 (HELM_BIN, built
# once from tools/helm; HELM_BIN=/work/oracle/helm/v4/helm to use one already built) and
# predicts its upgrades with --live-from-cluster --applier helm.
e2e:
	@[ -x "$(HELM_BIN)" ] || { echo "building Helm 4.3.2 into $(HELM_BIN), once"; $(GO) -C tools/helm build -o "$(HELM_BIN)" helm.sh/helm/v4/cmd/helm; }
	@if [ ! -x "$(KUBE_BIN)/kube-apiserver" ] || [ ! -x "$(KUBE_BIN)/etcd" ]; then \
		echo "building kube-apiserver $(KUBE_VERSION) and etcd into $(KUBE_BIN), once (~10-15 min on 2 cores)"; \
		sh conformance/kube-apiserver/build.sh "$(KUBE_BIN)" $(KUBE_VERSION); \
	fi
	SSA_DIFF_E2E=1 SSA_DIFF_KUBE_BIN="$(KUBE_BIN)" $(GO) test -count=1 -run '^(TestClusterE2E|TestClusterStoppedMidReadE2E|TestAdmissionE2E)$$' -v ./cli
	SSA_DIFF_E2E=1 SSA_DIFF_KUBE_BIN="$(KUBE_BIN)" $(GO) test -count=1 -run '^TestLiveFromClusterPicksMinor$$' -v ./conformance
	SSA_DIFF_E2E=1 SSA_DIFF_KUBE_BIN="$(KUBE_BIN)" SSA_DIFF_HELM="$(abspath $(HELM_BIN))" $(GO) test -count=1 -run '^TestHelmE2E$$' -v ./internal/helmplugin

# The browser tests of the HTML report (go test runs them too, where chromium is installed),
# keeping their screenshots to look at: wide and narrow pages of each example, the hostile
# input, the 1,000-object corpus (generated when testdata/bench-corpus has none) unfiltered
# and filtered to its refusals.
SCREENSHOTS ?= report-screenshots
report-screenshots:
	SSA_DIFF_SCREENSHOTS=$(abspath $(SCREENSHOTS)) $(GO) test -count=1 -run '^TestReportInBrowser' -v ./cli
	@ls -1 $(SCREENSHOTS)

# The main job on a real example: an HPA owns spec.replicas, the manifest sets it (exit 3:
# the server would answer 409). Exit 2 would mean ssa-diff could not predict.
example: build
	$(BIN) testdata/examples/hpa-owns-replicas/manifest.yaml testdata/examples/hpa-owns-replicas/live.json || test $$? -ne 2
