# ssa-diff in a container: a static binary on an empty image, run as a non-root user.
#
#   docker build --build-arg VERSION=v1.2.3 -t ssa-diff .
#   docker run --rm -v "$PWD:/work" ssa-diff --applier argocd -o github apps/ live.json
#
# The build stage is the release build (.goreleaser.yaml): the same flags, CGO off (a static
# binary), kustomize's Go plugin loader left out (ssa-diff runs no kustomize plugins, as
# kubectl's -k runs none), the version linked in.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
ARG COMMIT=unknown
RUN CGO_ENABLED=0 go build -trimpath -tags kustomize_disable_go_plugin_support -ldflags "-s -w -X github.com/ssa-diff/ssa-diff/cli.linkedVersion=${VERSION} -X github.com/ssa-diff/ssa-diff/cli.linkedCommit=${COMMIT}" -o /out/ssa-diff .
# The helper for the cluster's admission policies and PodSecurity, found beside ssa-diff.
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/ssa-diff-admission ./cmd/ssa-diff-admission

FROM scratch
COPY --from=build /out/ssa-diff /ssa-diff
COPY --from=build /out/ssa-diff-admission /ssa-diff-admission
COPY LICENSE /LICENSE
# nobody's uid: the image holds no passwd file, and ssa-diff needs no home.
USER 65534:65534
WORKDIR /work
ENTRYPOINT ["/ssa-diff"]
