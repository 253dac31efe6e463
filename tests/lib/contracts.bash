# shellcheck shell=bash disable=SC2016,SC2154 # backquotes are the pattern; top is tap.bash's
# undocumented_keys RESULT.json...: every key of result.json (top level,
# and inside params and kernel) that CONTRACTS.md's "Results" section
# does not name in backquotes, as "FILE: KEY" lines. Sourced.
undocumented_keys() {
	local documented
	documented=$(sed -n '/^## Results/,/^## /p' "$top/CONTRACTS.md" | tr '\n' ' ' | grep -o '`[^`]*`' | tr -d '`' |
		tr ' ' '\n' | sed 's/[(),]//g' | sort -u)
	jq -r '(keys[]), (.params // {} | keys[] | "params." + .), (.kernel // {} | keys[] | "kernel." + .)
		| "\(input_filename)\t\(.)"' "$@" |
		while IFS=$'\t' read -r file key; do
			grep -qxF -- "${key##*.}" <<<"$documented" || echo "$file: $key"
		done
}
