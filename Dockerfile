# ssa-diff in a container, two images from one build stage:
#
#   docker build -t ssa-diff .                          # the default: distroless (static-debian12:nonroot)
#   docker build --target debian -t ssa-diff:debian .   # debian-slim: a shell and apt, for exec credential plugins
#   docker run --rm -v "$PWD:/work" ssa-diff --applier argocd -o github apps/ live.json
#
# Both run as a non-root user (uid 65532) with a writable HOME (where exec credential
# plugins keep their caches: ~/.kube/cache, ~/.config/gcloud …) and the CA certificates that
# --live-from-cluster needs to reach a cloud cluster's API. A kubeconfig whose user is an
# exec plugin (aws eks get-token, gke-gcloud-auth-plugin, kubelogin) needs the plugin in the
# image: the static ones (gke-gcloud-auth-plugin, kubelogin, aws-iam-authenticator) can be
# mounted into either; `aws` needs the debian one with the CLI installed (docs/cli.md,
# "In a container").
#
# The build stage is the release build (.goreleaser.yaml): the same flags, CGO off (a static
# binary), kustomize's Go plugin loader left out (ssa-diff runs no kustomize plugins, as
# kubectl's -k runs none), the version and commit linked in; it runs on the build host's
# platform and cross-compiles for the image's (docker buildx --platform linux/amd64,linux/arm64).
# test/release's TestDockerfile checks what each stage copies.
FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS=linux
ARG TARGETARCH=amd64
ARG VERSION=devel
ARG COMMIT=unknown
RUN CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} go build -trimpath -tags kustomize_disable_go_plugin_support -ldflags "-s -w -X github.com/ssa-diff/ssa-diff/cli.linkedVersion=${VERSION} -X github.com/ssa-diff/ssa-diff/cli.linkedCommit=${COMMIT}" -o /out/ssa-diff .

# debian-slim, with ca-certificates, and a user whose home is made: for exec credential
# plugins that need a shell, Python or packages (FROM ssa-diff:debian, USER root,
# apt-get install awscli, USER ssa-diff).
FROM debian:bookworm-slim AS debian
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
	&& rm -rf /var/lib/apt/lists/* \
	&& useradd --create-home --home-dir /home/ssa-diff --uid 65532 --user-group --shell /bin/sh ssa-diff
COPY --from=build /out/ssa-diff /usr/local/bin/ssa-diff
COPY LICENSE /usr/share/doc/ssa-diff/LICENSE
USER 65532:65532
ENV HOME=/home/ssa-diff
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/ssa-diff"]

# The default image: distroless' static base holds CA certificates, time zones and a
# passwd file whose nonroot user (65532) has the writable home /home/nonroot.
FROM gcr.io/distroless/static-debian12:nonroot AS distroless
COPY --from=build /out/ssa-diff /usr/local/bin/ssa-diff
COPY LICENSE /usr/share/doc/ssa-diff/LICENSE
USER 65532:65532
ENV HOME=/home/nonroot
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/ssa-diff"]
