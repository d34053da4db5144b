# ssa-diff — predict Kubernetes server-side apply offline.
#
#   make build          the binary, ./ssa-diff
#   make test           everything CI runs: vet, gofmt, unit tests, recorded cases, fixture score
#   make conformance    replay the recorded server cases (../shared/fixtures) through the engine
#   make generate       regenerate the embedded Kubernetes schema (needs the module proxy)
#   make fuzz           run every fuzz target for FUZZTIME each
#   make bench          benchmarks

GO        ?= go
FIXTURES  ?= $(abspath ../shared/fixtures)
FUZZTIME  ?= 10m
BIN       ?= ./ssa-diff

.PHONY: build test vet fmt-check unit conformance conformance-long fixturecheck generate fuzz fuzz-short bench example

build:
	$(GO) build -o $(BIN) .

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

unit:
	SSA_DIFF_FIXTURES=$(FIXTURES) $(GO) test ./...

conformance:
	SSA_DIFF_FIXTURES=$(FIXTURES) $(GO) run ./conformance/cmd/replay $(FIXTURES)

conformance-long:
	cd conformance/differential && SSA_DIFF_STEPS=$${SSA_DIFF_STEPS:-200000} $(GO) test -run TestDifferential -timeout 0 -v .

fixturecheck: build
	@if [ -d "$(FIXTURES)" ]; then python3 ../shared/tools/fixturecheck.py $(BIN) $(FIXTURES); \
	else echo "no recorded cases at $(FIXTURES): skipping the fixture score"; fi

test: vet fmt-check unit conformance fixturecheck

# Regenerate what is generated from Kubernetes' own Go types (client-go and friends, in
# modules of their own): the embedded schema and the encoding facts of the built-in kinds.
# Bumping Kubernetes is a version change in those go.mod files and a rerun.
generate:
	cd schema/gen && $(GO) run . -out ../builtin
	cd merge/defaults/gen && $(GO) run . -o ../zz_generated_types.go

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzFieldsV1$$' -fuzztime $(FUZZTIME) ./fieldpath
	$(GO) test -run '^$$' -fuzz '^FuzzManagedFields$$' -fuzztime $(FUZZTIME) ./fieldpath

fuzz-short:
	$(MAKE) fuzz FUZZTIME=10s

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The main job on a real example: an HPA owns spec.replicas, the manifest sets it (exit 3:
# the server would answer 409). Exit 2 would mean ssa-diff could not predict.
example: build
	$(BIN) testdata/examples/hpa-owns-replicas/manifest.yaml testdata/examples/hpa-owns-replicas/live.json || test $$? -ne 2
