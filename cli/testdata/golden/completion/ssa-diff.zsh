#compdef ssa-diff kubectl-ssa_diff
# zsh completion for ssa-diff: ssa-diff completion zsh > "${fpath[1]}/_ssa-diff"
# --output-file: FORMAT= then a file, or a file.
_ssa-diff-format-file() {
	if compset -P '*='; then
		_files
	else
		compadd -S '' -- diff= github= html= json= junit= markdown= objects= text= yaml=
		_files
	fi
}
_ssa-diff() {
	if (( CURRENT > 2 )) && [[ ${words[2]} == completion ]]; then
		_values 'shell' bash zsh fish powershell
		return
	fi
	if (( CURRENT > 2 )) && [[ ${words[2]} == version ]]; then
		return
	fi
	if (( CURRENT > 2 )) && [[ ${words[2]} == blame ]]; then
		shift words
		(( CURRENT-- ))
		_arguments -s \
			'*--time[How to show when a manager last wrote\: relative, full or none]:time:(relative full none)' \
			'*--now[The time ages are measured from, RFC 3339 (default\: the current time)]:now: ' \
			'*'{-o,--output}'[Output format\: text or json]:output:(text json)' \
			'*--color[Colour the owners column\: auto, always or never]:color:(auto always never)' \
			'*'{-h,--help}'[Show this help]' \
			'1:live:_files'
		return
	fi
	if (( CURRENT > 2 )) && [[ ${words[2]} == merge ]]; then
		shift words
		(( CURRENT-- ))
		_arguments -s \
			'*'{-o,--output}'[Output format\: diff, github, html, json, junit, markdown, objects, text, yaml]:output:(diff github html json junit markdown objects text yaml)' \
			'*--output-file[Write the output (-o) to FILE instead of standard output; FORMAT=PATH (repeatable) also writes the same prediction in another format to PATH (e.g]:file:_ssa-diff-format-file' \
			'*--report-html[Also write the report as one self-contained HTML page to FILE, from the same prediction as -o\: the summary, filters, and per object its diff, ownership map, conflicts, refusal and advice (for a CI artifact; -o html prints it on standard output)]:file:_files' \
			'*--report-url[Where the HTML report will be found (a CI artifact'\''s or job'\''s address)\: -o markdown links it]:report-url: ' \
			'*--show-managed-fields[Show metadata.managedFields in diffs]' \
			'*--show-secrets[Show Secret values in diffs instead of masking them]' \
			'*--color[Colour the text and diff outputs\: auto, always or never (auto\: on a terminal, unless NO_COLOR is set)]:color:(auto always never)' \
			'*--summary[Print a one-screen overview\: instead of the objects with -o text, on stderr with the other formats]' \
			'*--show-unchanged[Print the unchanged objects with -o text and markdown; by default they are folded into the summary'\''s count (JSON and YAML keep every object)]' \
			'*'{-h,--help}'[Show this help]' \
			'*:report:_files'
		return
	fi
	_arguments -s \
		'*'{-f,--filename}'[Manifests to apply\: a file, a directory or - (repeatable)]:file:_files' \
		'*'{-k,--kustomize}'[A kustomization directory, built as kubectl apply -k builds it (repeatable); each object is reported at the file it came from, each field at the patch or resource line that sets it]:directory:_files -/' \
		'*--source-root[Helm\: the directory the # Source\: paths of helm template output on standard input are relative to (the chart'\''s parent directory; default\: the current one)]:directory:_files -/' \
		'*--field-manager[The field manager of the apply (default\: kubectl; argocd-controller, kustomize-controller and helm with --applier argocd, flux and helm)]:field-manager: ' \
		'*--force-conflicts[Apply with force\: take conflicting fields from their owners]' \
		'*--applier[kubectl\: the whole kubectl apply --server-side request sequence; api\: one raw apply request, as controllers send; argocd\: an Argo CD sync with ServerSideApply=true; flux\: Flux'\''s kustomize-controller (both always forced, both taking over managers first); helm\: a Helm 4 install, upgrade or rollback of a release (--helm-release), its records read from the live state]:applier:(kubectl api argocd flux helm)' \
		'*--subresource[Apply to a subresource of each object\: status, scale, resize or ephemeralcontainers (as kubectl apply --server-side --subresource does); the object must exist]:subresource:(status scale resize ephemeralcontainers)' \
		'*--verb[The request (--applier api)\: apply, update (PUT of the whole object), patch (the manifests are patches, of --patch-type; a JSON patch, or a patch that names no object, patches the one object of LIVE) or create (POST)]:verb:(apply update patch create)' \
		'*--patch-type[The type of the patches of --verb patch, as kubectl'\''s --type names them\: json, merge or strategic]:patch-type:(json merge strategic)' \
		'*--kubectl[Predict a kubectl command that writes other than by apply, given as its command line\: '\''label deploy web tier=gold'\'', '\''annotate …'\'', '\''scale deploy web --replicas=3'\'', '\''set image deploy/web nginx=nginx\:1.27'\'', '\''patch deploy web -p …'\'', '\''replace -f FILE'\'', '\''create -f FILE'\'', '\''edit deploy web'\'' (MANIFESTS\: the objects as saved in the editor), '\''debug POD --image=busybox -c debugger'\'' (an ephemeral container; with --copy-to NAME a copy of the pod), '\''rollout restart deploy web'\'']:kubectl: ' \
		'*--crd[A file or directory of CustomResourceDefinitions (repeatable)]:file:_files' \
		'*--schema[An OpenAPI v3 or v2 document (kubectl get --raw /openapi/v3/apis/GROUP/VERSION), or a directory of them (repeatable)]:file:_files' \
		'*--allow-privileged[Whether the cluster'\''s kube-apiserver allows privileged and hostProcess containers (its --allow-privileged)]' \
		'*--service-ip-families[The IP families of the cluster'\''s service IP ranges (kube-apiserver'\''s --service-cluster-ip-range), the primary first\: IPv4, IPv6, IPv4,IPv6 or IPv6,IPv4]:service-ip-families:(IPv4 IPv6 IPv4\,IPv6 IPv6\,IPv4)' \
		'*--feature-gates[The cluster'\''s kube-apiserver --feature-gates, in its syntax\: Name=true,Other=false (repeatable; a later setting wins)]:feature-gates: ' \
		'*--runtime-config[The cluster'\''s kube-apiserver --runtime-config, in its syntax\: group/version=true,api/beta=false (repeatable; a later key wins)]:runtime-config: ' \
		'*--now[The time stamped into changed managedFields entries, and the time ages are measured from, RFC 3339 (default\: the current time)]:now: ' \
		'*'{-o,--output}'[Output format\: diff, github, html, json, junit, markdown, objects, text, yaml]:output:(diff github html json junit markdown objects text yaml)' \
		'*--output-file[Write the output (-o) to FILE instead of standard output; FORMAT=PATH (repeatable) also writes the same prediction in another format to PATH (e.g]:file:_ssa-diff-format-file' \
		'*--report-html[Also write the report as one self-contained HTML page to FILE, from the same prediction as -o\: the summary, filters, and per object its diff, ownership map, conflicts, refusal and advice (for a CI artifact; -o html prints it on standard output)]:file:_files' \
		'*--report-url[Where the HTML report will be found (a CI artifact'\''s or job'\''s address)\: -o markdown links it]:report-url: ' \
		'*--show-managed-fields[Show metadata.managedFields in diffs]' \
		'*--show-secrets[Show Secret values in diffs instead of masking them]' \
		'*--color[Colour the text and diff outputs\: auto, always or never (auto\: on a terminal, unless NO_COLOR is set)]:color:(auto always never)' \
		'*'{-n,--namespace}'[The namespace of namespaced objects that name none (with --applier argocd, the Application'\''s destination namespace) (default\: default; with --live-from-cluster, the context'\''s namespace)]:namespace: ' \
		'*--live-from-cluster[Read the live state from the cluster (kubectl'\''s kubeconfig, context and credentials; get and list permissions are enough) instead of a LIVE file]' \
		'*--kubeconfig[With --live-from-cluster\: the kubeconfig file (default\: KUBECONFIG, else ~/.kube/config, else the pod'\''s own configuration)]:file:_files' \
		'*--context[With --live-from-cluster\: the kubeconfig context (default\: the current context)]:context: ' \
		'*--request-timeout[With --live-from-cluster\: how long each request to the cluster may take, its retries included (1s, 2m, 3h; more than 0\: a server that never answers must not hang the run)]:request-timeout: ' \
		'*--save-live[With --live-from-cluster\: write what was read to FILE (a v1 List, all at once\: an interrupted run leaves the previous FILE) and predict from it\: given as LIVE, it predicts the same again offline]:file:_files' \
		'*--allow-missing-managed-fields[Predict against a LIVE dump (a List, or several objects) in which no object carries metadata.managedFields (made without kubectl get --show-managed-fields) as if nobody owned any field; without it such a dump cannot predict ownership (exit 2)]' \
		'*--kube-version[The Kubernetes minor whose kube-apiserver is predicted\: 1.32, 1.33, 1.34, 1.35, 1.36, 1.37 or 1.38 (v1.35 and 1.35.4 are read as 1.35); nearest\: the supported minor nearest to the live state'\''s cluster]:kube-version:(1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest)' \
		'*--jobs[How many objects are predicted in parallel (default\: the number of CPUs)]:jobs: ' \
		'*'{-R,--recursive}'[kubectl'\''s -R\: directories are read recursively (always; --recursive=false is refused)]' \
		'*--concurrency[kubectl diff'\''s --concurrency\: the same as --jobs (default\: the number of CPUs)]:concurrency: ' \
		'*--max-input-bytes[Read at most this much input, all files, standard input and the cluster'\''s answers together (suffixes Ki, Mi, Gi)]:max-input-bytes: ' \
		'*--max-document-bytes[Skip, as an error, a YAML document or JSON value larger than this; each item of a JSON List counts on its own (the List as a whole is bounded by --max-input-bytes), and so does each object read from the cluster]:max-document-bytes: ' \
		'*--max-depth[Refuse documents whose maps and lists nest deeper than this (at most 10000, the API server'\''s own limit)]:max-depth: ' \
		'*--max-yaml-alias-nodes[Refuse YAML documents whose aliases (*name) add more than this many nodes when expanded]:max-yaml-alias-nodes: ' \
		'*--max-files[Visit at most this many files and directories when reading directories]:max-files: ' \
		'*--max-objects[Read at most this many objects, manifests and live objects (List items each) together]:max-objects: ' \
		'*--argocd-app[Argo CD\: the Application'\''s name; its resource tracking (annotation argocd.argoproj.io/tracking-id, or the instance label) is added to every object, as Argo CD'\''s repo server does]:argocd-app: ' \
		'*--argocd-tracking[Argo CD\: the resource tracking method, annotation, label or annotation+label]:argocd-tracking:(annotation label annotation+label)' \
		'*--argocd-installation-id[Argo CD\: the installation id added as annotation argocd.argoproj.io/installation-id]:argocd-installation-id: ' \
		'*--argocd-no-csa-migration[Argo CD\: the sync option ClientSideApplyMigration=false]' \
		'*--argocd-csa-manager[Argo CD\: the client-side apply manager to migrate (the Application annotation argocd.argoproj.io/client-side-apply-migration-manager; default kubectl-client-side-apply)]:argocd-csa-manager: ' \
		'*--flux-kustomization[Flux\: the Kustomization, whose owner labels kustomize.toolkit.fluxcd.io/name and /namespace are added to every object]:flux-kustomization: ' \
		'*--flux-override-manager[Flux\: kustomize-controller'\''s --override-manager\: a manager whose Apply and Update entries Flux takes over, by name prefix (repeatable)]:flux-override-manager: ' \
		'*--flux-force[Flux\: the Kustomization'\''s spec.force\: an object refused as immutable is deleted and created again]' \
		'*--flux-ignore[Flux\: one rule of the Kustomization'\''s spec.ignore, as JSON ({"paths"\:\["/spec/replicas"\],"target"\:{"kind"\:"Deployment"}})\: the paths are left out of drift detection and, where they drifted, out of the apply (or applied with their live value when Flux alone applies them) (repeatable)]:flux-ignore: ' \
		'*--fail-on[What fails the run (exit 3 for rejected, 4 for the others)\: a comma-separated list of conflicts, takeover, deletion, rejected, prune (objects --prune deletes), approximate (predictions resting on what ssa-diff cannot see\: no schema, OpenAPI v2, version conversions, admission webhooks) and policy (a ValidatingAdmissionPolicy or PodSecurity of the cluster state denies the write, or warns), or none or all (repeatable)]:fail-on:(conflicts takeover deletion rejected prune approximate policy none all)' \
		'*--allow-takeover-from[A manager (glob) whose fields the applier may take\: takeovers from it and forced conflicts with it never fail (repeatable), e.g]:allow-takeover-from: ' \
		'*--protect[A manager (glob) whose fields nobody may take, such as a controller\: any takeover from it fails with exit 4 (repeatable), e.g]:protect: ' \
		'*--summary[Print a one-screen overview\: instead of the objects with -o text, on stderr with the other formats]' \
		'*--prune[Preview what the applier prunes\: the live objects it deletes because the manifests no longer name them (action prune)]' \
		'*'{-l,--selector}'[kubectl --prune\: the label selector of the objects to prune (key=value, key!=value, key in (a,b), key, !key; comma-separated)]:selector: ' \
		'*--all[kubectl --prune\: prune every object of the allowlisted kinds, whatever its labels]' \
		'*--prune-allowlist[kubectl --prune\: a kind to prune, as group/version/kind (core/v1/ConfigMap; repeatable); default\: kubectl'\''s list (ConfigMap, Endpoints, PersistentVolumeClaim, Pod, ReplicationController, Secret, Service, Job, CronJob, Ingress, DaemonSet, Deployment, ReplicaSet, StatefulSet, Namespace, PersistentVolume)]:prune-allowlist: ' \
		'*--disable-advice[Silence one advice by its id (repeatable)\: apiversion-deprecated, apiversion-mismatch, apiversion-removed, client-side-apply-leftovers, cluster-policy, co-owned-field-kept, co-owner-of-controller-value, condition-unhealthy, denied-by-policy, fights-controller, helm-stale-migration, item-removed-despite-co-owner, not-converged, overrides-manual-change, status-in-manifest, warned-by-policy]:disable-advice:(apiversion-deprecated apiversion-mismatch apiversion-removed client-side-apply-leftovers cluster-policy co-owned-field-kept co-owner-of-controller-value condition-unhealthy denied-by-policy fights-controller helm-stale-migration item-removed-despite-co-owner not-converged overrides-manual-change status-in-manifest warned-by-policy)' \
		'*--no-advice[Print no advice and no state line]' \
		'*--show-unchanged[Print the unchanged objects with -o text and markdown; by default they are folded into the summary'\''s count (JSON and YAML keep every object)]' \
		'*--ignore-path[Hide a field (FIELD) from the diffs and the gate'\''s findings, never from the prediction\: a JSON pointer (/spec/replicas) or JSONPath (.spec.replicas, .spec.template.spec.containers\[*\].image), for every object or, as Argo CD'\''s ignoreDifferences, for the objects of a TARGET GROUP/KIND\[/NAMESPACE/NAME\] (core for the core group, * any) (repeatable)]:ignore-path: ' \
		'*--ignore-manager[Hide the fields a manager owns from the diffs and the gate'\''s findings, as Argo CD'\''s managedFieldsManagers (repeatable)]:ignore-manager: ' \
		'*--skip[Kinds not predicted nor reported, as kubeconform'\''s -skip\: a comma-separated list of kinds (ConfigMap) or apiVersion/kind (apps/v1/Deployment) (repeatable)]:skip: ' \
		'*--ignore-filename-pattern[A regular expression (Go syntax) of file paths not read when walking a manifest directory, as kubeconform'\''s (repeatable)]:ignore-filename-pattern: ' \
		'*--argocd-application[An Argo CD Application manifest, read as Argo CD reads it\: implies --applier argocd and sets what the equivalent flags set — its name (--argocd-app), its destination namespace (-n), the sync option ClientSideApplyMigration=false (--argocd-no-csa-migration), its client-side-apply-migration-manager annotation (--argocd-csa-manager) and its ignoreDifferences (jsonPointers, the jqPathExpressions that are plain paths, managedFieldsManagers, per group/kind/namespace/name; as --ignore-path and --ignore-manager)]:file:_files' \
		'*--flux-kustomization-file[A Flux Kustomization manifest, read as kustomize-controller reads it\: implies --applier flux and sets what the equivalent flags set — its namespace/name (--flux-kustomization) and spec.force (--flux-force) — and changes each object as kustomize-controller does before it applies\: spec.targetNamespace (kustomize'\''s namespace transformer\: namespaced objects get it, cluster-scoped ones do not), then spec.postBuild substitution (${var}, ${var\:=default}, $${ escapes; strict, as the controller by default; substituteStrategy; objects labelled or annotated kustomize.toolkit.fluxcd.io/substitute\: disabled left alone) with the variables of substitute and of substituteFrom'\''s ConfigMaps and Secrets, found in the --flux-substitute-from files or the live objects]:file:_files' \
		'*--sync-status[With --applier argocd or flux\: say of each object what the GitOps controller shows before its sync — Argo CD'\''s sync status (Synced or OutOfSync, and the diff it shows) as its server-side diff compares, the ignore rules (--ignore-path, --ignore-manager, an Application'\''s ignoreDifferences) as its ignoreDifferences; Flux'\''s drift detection (created, configured or unchanged) — beside what the sync will change]' \
		'*--flux-substitute-from[A file of ConfigMaps and Secrets that a --flux-kustomization-file'\''s postBuild.substituteFrom names (repeatable); those not given are looked up in the live objects]:file:_files' \
		'*--admission-from[What the cluster'\''s admission chain reads — Namespaces, ServiceAccounts, LimitRanges, ResourceQuotas (with their status), PriorityClasses, Storage-, Ingress- and RuntimeClasses, ValidatingAdmissionPolicies and MutatingAdmissionPolicies with their bindings and params\: a dump (kubectl get namespaces,serviceaccounts,limitranges,resourcequotas,validatingadmissionpolicies,.]:file:_files' \
		'*--as[The user the writes come from, as the cluster authenticates it\: the admission policies'\'' request.userInfo (default\: unknown)]:as: ' \
		'*--as-uid[That user'\''s uid]:as-uid: ' \
		'*--as-group[A group of that user (repeatable)]:as-group: ' \
		'*--authorize[What the cluster'\''s authorizer answers for that user, for the admission policies that ask it\: '\''VERB RESOURCE\[.GROUP\]\[/SUB\] \[NAMESPACE/NAME\]=allow|deny'\'' or '\''VERB /PATH=allow|deny'\'', * for any (repeatable; the first that matches answers)]:authorize: ' \
		'*--helm-command[--applier helm\: the Helm 4 command predicted]:helm-command:(install upgrade rollback)' \
		'*--helm-release[--applier helm\: the release'\''s name (its namespace is -n)]:helm-release: ' \
		'*--server-side[kubectl'\''s --server-side\: alone, a server-side apply (what ssa-diff predicts; --server-side=false, a client-side apply, is not)]:server-side:(auto true false)' \
		'*--take-ownership[--applier helm\: Helm'\''s --take-ownership (adopt existing objects)]' \
		'*--helm-install[--applier helm\: upgrade'\''s --install (install a release that does not exist)]' \
		'*--skip-crds[--applier helm\: Helm'\''s --skip-crds]' \
		'*--helm-revision[--applier helm\: the revision a rollback goes back to (default\: the one before the last)]:helm-revision: ' \
		'*--helm-driver[--applier helm\: where the release'\''s records are (Helm'\''s HELM_DRIVER)]:helm-driver:(secret configmap)' \
		'*--helm-dry-run[--applier helm\: Helm'\''s --dry-run (client or server)\: what Helm checks before it stops, and what the command without it would do]:helm-dry-run:(client server)' \
		'*--shard[Predict only shard I of N (1-based) of the objects\: those whose group, kind, namespace and name hash (FNV-1a 64) to I; every shard reads every input]:shard: ' \
		'*--version[Print the version\: ssa-diff'\''s, its commit, Go'\''s, and the Kubernetes release whose server-side apply it predicts (also ssa-diff version)]' \
		'*'{-h,--help}'[Show this help]' \
		'1: :->first' \
		'*:file:_files'
	if [[ $state == first ]]; then
		_alternative 'commands:command:(blame version completion merge)' 'files:file:_files'
	fi
}
compdef _ssa-diff ssa-diff kubectl-ssa_diff
