// Package release proves the release and its install paths here, with the tools that make
// and check them in CI and on GitHub, pinned in modules of their own (tools/…) so that the
// main go.mod stays clean:
//
//   - goreleaser (tools/goreleaser) runs `check` and `release --snapshot --clean` on a
//     tagged copy of the work tree; every archive is listed in checksums.txt with its
//     SHA-256, holds the binary, the licence and the README, and its binary is of its
//     platform (ELF, Mach-O or PE of its architecture); the host's archive is unpacked and
//     run: `ssa-diff version` names the tag and the commit.
//   - the krew manifest (.krew.yaml) is rendered by krew-release-bot's own code
//     (tools/krew-release-bot: its `template` command, which downloads each archive to sum
//     it) from the snapshot's archives served on 127.0.0.1, and validated by krew's own
//     validate-krew-manifest (tools/krew), which installs every platform with
//     `kubectl krew install --manifest`.
//   - the GitHub Action (action.yml, action/*.sh) runs in a simulated runner: the composite
//     steps in order, their expressions evaluated, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and
//     GITHUB_PATH as files, RUNNER_OS and RUNNER_ARCH set, the release served on 127.0.0.1
//     and a fake GitHub API for the pull-request comment; a tampered archive is refused.
//   - the Helm plugin: helm-ssa-diff_TAG_OS_ARCH archives (the plugin's binary) and one
//     ssa-diff-VERSION.tgz (the plugin as Helm 4 installs it), installed into a real Helm
//     4.3.2 ($SSA_DIFF_HELM, else built from tools/helm) from a local copy and by URL, the
//     release served on 127.0.0.1: the install hook downloads the platform's archive and
//     checks its SHA-256 (a tampered one fails the install, and the hook says to uninstall
//     before trying again), `helm plugin list` lists the plugin and `helm ssa-diff upgrade`
//     predicts a recorded Helm 4 upgrade; with HELM_PLUGINS set apart from where Helm
//     installs archives (helm/helm#32646) the hook warns and the move it advises works
//     (TestHelmPluginInstalls, about a minute once the snapshot is made).
//   - the workflows pass actionlint (with shellcheck where it is installed), and the
//     Dockerfile's stages copy what the image needs.
//
// SSA_DIFF_RELEASE_TARGETS=all (make release-snapshot) builds every platform of
// .goreleaser.yaml; by default (make release-check) only the host's, and krew validates the
// platforms built.
package release
