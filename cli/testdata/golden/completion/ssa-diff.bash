# bash completion for ssa-diff: source <(ssa-diff completion bash)
# --output-file: FORMAT= then a file, or a file.
_ssa_diff_format_file() {
	if [[ "$cur" == *=* ]]; then
		local format="${cur%%=*}=" path="${cur#*=}"
		COMPREPLY=($(compgen -P "$format" -f -- "$path"))
	else
		COMPREPLY=($(compgen -W "$1" -- "$cur") $(compgen -f -- "$cur"))
	fi
	compopt -o nospace 2>/dev/null
}
_ssa_diff() {
	local cur prev w=${COMP_CWORD}
	cur="${COMP_WORDS[w]}"
	prev="${COMP_WORDS[w-1]}"
	COMPREPLY=()
	# bash splits words at = (COMP_WORDBREAKS): the value of --flag=VALUE, and the file of
	# --output-file FORMAT=FILE, come after a word "=" (or are it, right after the =).
	if [[ "$cur" == "=" ]]; then
		cur=""
		w=$((w + 1))
	fi
	if [[ "${COMP_WORDS[w-1]}" == "=" && ${w} -ge 3 ]]; then
		prev="${COMP_WORDS[w-2]}"
		if [[ "${COMP_WORDS[w-3]}" == --output-file || ( "${COMP_WORDS[w-3]}" == "=" && "${COMP_WORDS[w-4]}" == --output-file ) ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
			return
		fi
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == completion ]]; then
		COMPREPLY=($(compgen -W "bash zsh fish powershell" -- "$cur"))
		return
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == version ]]; then
		return
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == blame ]]; then
		case "$prev" in
		--time)
			COMPREPLY=($(compgen -W "relative full none" -- "$cur"))
			return ;;
		--now)
			return ;;
		-o|--output)
			COMPREPLY=($(compgen -W "text json" -- "$cur"))
			return ;;
		--color)
			COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
			return ;;
		esac
		if [[ "$cur" == -* ]]; then
			COMPREPLY=($(compgen -W "--color --help --now --output --time -h -o" -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == merge ]]; then
		case "$prev" in
		-o|--output)
			COMPREPLY=($(compgen -W "diff github html json junit markdown objects text yaml" -- "$cur"))
			return ;;
		--output-file)
			_ssa_diff_format_file "diff= github= html= json= junit= markdown= objects= text= yaml="
			return ;;
		--report-html)
			COMPREPLY=($(compgen -f -- "$cur"))
			return ;;
		--report-url)
			return ;;
		--color)
			COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
			return ;;
		esac
		if [[ "$cur" == -* ]]; then
			COMPREPLY=($(compgen -W "--color --help --output --output-file --report-html --report-url --show-managed-fields --show-secrets --show-unchanged --summary -h -o" -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	case "$prev" in
	-f|--filename)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-k|--kustomize)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--source-root)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--field-manager)
		return ;;
	--applier)
		COMPREPLY=($(compgen -W "kubectl api argocd flux helm" -- "$cur"))
		return ;;
	--subresource)
		COMPREPLY=($(compgen -W "status scale resize ephemeralcontainers" -- "$cur"))
		return ;;
	--verb)
		COMPREPLY=($(compgen -W "apply update patch create" -- "$cur"))
		return ;;
	--patch-type)
		COMPREPLY=($(compgen -W "json merge strategic" -- "$cur"))
		return ;;
	--kubectl)
		return ;;
	--crd)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--schema)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--service-ip-families)
		COMPREPLY=($(compgen -W "IPv4 IPv6 IPv4,IPv6 IPv6,IPv4" -- "$cur"))
		return ;;
	--feature-gates)
		return ;;
	--runtime-config)
		return ;;
	--now)
		return ;;
	-o|--output)
		COMPREPLY=($(compgen -W "diff github html json junit markdown objects text yaml" -- "$cur"))
		return ;;
	--output-file)
		_ssa_diff_format_file "diff= github= html= json= junit= markdown= objects= text= yaml="
		return ;;
	--report-html)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--report-url)
		return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	-n|--namespace)
		return ;;
	--kubeconfig)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--context)
		return ;;
	--request-timeout)
		return ;;
	--save-live)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--kube-version)
		COMPREPLY=($(compgen -W "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest" -- "$cur"))
		return ;;
	--jobs)
		return ;;
	--concurrency)
		return ;;
	--max-input-bytes)
		return ;;
	--max-document-bytes)
		return ;;
	--max-depth)
		return ;;
	--max-yaml-alias-nodes)
		return ;;
	--max-files)
		return ;;
	--max-objects)
		return ;;
	--argocd-app)
		return ;;
	--argocd-tracking)
		COMPREPLY=($(compgen -W "annotation label annotation+label" -- "$cur"))
		return ;;
	--argocd-installation-id)
		return ;;
	--argocd-csa-manager)
		return ;;
	--flux-kustomization)
		return ;;
	--flux-override-manager)
		return ;;
	--flux-ignore)
		return ;;
	--fail-on)
		COMPREPLY=($(compgen -W "conflicts takeover deletion rejected prune approximate policy none all" -- "$cur"))
		return ;;
	--allow-takeover-from)
		return ;;
	--protect)
		return ;;
	-l|--selector)
		return ;;
	--prune-allowlist)
		return ;;
	--disable-advice)
		COMPREPLY=($(compgen -W "apiversion-deprecated apiversion-mismatch apiversion-removed client-side-apply-leftovers cluster-policy co-owned-field-kept co-owner-of-controller-value condition-unhealthy denied-by-policy fights-controller helm-stale-migration item-removed-despite-co-owner not-converged overrides-manual-change status-in-manifest warned-by-policy" -- "$cur"))
		return ;;
	--ignore-path)
		return ;;
	--ignore-manager)
		return ;;
	--skip)
		return ;;
	--ignore-filename-pattern)
		return ;;
	--argocd-application)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--flux-kustomization-file)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--flux-substitute-from)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--admission-from)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--as)
		return ;;
	--as-uid)
		return ;;
	--as-group)
		return ;;
	--authorize)
		return ;;
	--helm-command)
		COMPREPLY=($(compgen -W "install upgrade rollback" -- "$cur"))
		return ;;
	--helm-release)
		return ;;
	--server-side)
		COMPREPLY=($(compgen -W "auto true false" -- "$cur"))
		return ;;
	--helm-revision)
		return ;;
	--helm-driver)
		COMPREPLY=($(compgen -W "secret configmap" -- "$cur"))
		return ;;
	--helm-dry-run)
		COMPREPLY=($(compgen -W "client server" -- "$cur"))
		return ;;
	--shard)
		return ;;
	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "--admission-from --all --allow-missing-managed-fields --allow-privileged --allow-takeover-from --applier --argocd-app --argocd-application --argocd-csa-manager --argocd-installation-id --argocd-no-csa-migration --argocd-tracking --as --as-group --as-uid --authorize --color --concurrency --context --crd --disable-advice --fail-on --feature-gates --field-manager --filename --flux-force --flux-ignore --flux-kustomization --flux-kustomization-file --flux-override-manager --flux-substitute-from --force-conflicts --helm-command --helm-driver --helm-dry-run --helm-install --helm-release --helm-revision --help --ignore-filename-pattern --ignore-manager --ignore-path --jobs --kube-version --kubeconfig --kubectl --kustomize --live-from-cluster --max-depth --max-document-bytes --max-files --max-input-bytes --max-objects --max-yaml-alias-nodes --namespace --no-advice --now --output --output-file --patch-type --protect --prune --prune-allowlist --recursive --report-html --report-url --request-timeout --runtime-config --save-live --schema --selector --server-side --service-ip-families --shard --show-managed-fields --show-secrets --show-unchanged --skip --skip-crds --source-root --subresource --summary --take-ownership --verb --version -R -f -h -k -l -n -o" -- "$cur"))
		return
	fi
	if [[ ${COMP_CWORD} -eq 1 ]]; then
		COMPREPLY=($(compgen -W "blame version completion merge" -- "$cur"))
	fi
	COMPREPLY+=($(compgen -f -- "$cur"))
}
complete -o filenames -o bashdefault -F _ssa_diff ssa-diff kubectl-ssa_diff
