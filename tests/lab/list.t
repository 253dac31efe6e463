#!/usr/bin/env bash
# lab.sh list names every policy of LAB_POLICIES (and vanilla-mglru) and
# every workload of LAB_WORKLOADS, in their order, each with its line of
# LAB_ABOUT (lab/common.sh). And the lists are complete: every workload
# program in workloads/ (a wl_main or ycsb_main) and every policy the
# kernel series registers (.name = "..." in kernel/patches) is in them.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../../lab/common.sh
source "$top/lab/common.sh"

"$top/lab.sh" list >"$tmp/list"
# section NAME: the "  ENTRY  DESCRIPTION" lines under "NAME:".
section() {
	awk -v s="$1:" '/^[a-z]+:$/ { on = ($0 == s); next } on' "$tmp/list"
}

# shown SECTION ENTRY...: each ENTRY has its own line, in order, with its
# LAB_ABOUT line (non-empty) after it.
shown() {
	local sec=$1 e want=() got
	shift
	for e in "$@"; do
		if [[ -z ${LAB_ABOUT[$e]:-} ]]; then
			not_ok "$sec: $e has a LAB_ABOUT line in lab/common.sh"
			continue
		fi
		ok "$sec: $e has a LAB_ABOUT line in lab/common.sh"
		want+=("$e ${LAB_ABOUT[$e]}")
	done
	got=$(section "$sec" | sed -E 's/^  ([^ ]+) +/\1 /; s/  \(not in the built lab kernel\)$//')
	is "$got" "$(printf '%s\n' "${want[@]}")" "$sec: lab.sh list shows exactly these, in order, with their lines"
}

shown policies "${LAB_POLICIES[0]}" vanilla-mglru "${LAB_POLICIES[@]:1}"
shown workloads "${LAB_WORKLOADS[@]}"

stale=()
for k in "${!LAB_ABOUT[@]}"; do
	in_list "$k" "${LAB_POLICIES[@]}" vanilla-mglru "${LAB_WORKLOADS[@]}" || stale+=("$k")
done
is "${stale[*]}" "" "every LAB_ABOUT entry describes a listed policy or workload"

# Completeness, from the sources.
mapfile -t programs < <(cd "$top/workloads" && grep -lE '\b(wl|ycsb)_main\(argc' ./*.c |
	sed 's|^\./||; s|\.c$||' | sort)
is "${programs[*]}" "$(printf '%s\n' "${LAB_WORKLOADS[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" \
	"LAB_WORKLOADS is every workload program in workloads/"
mapfile -t registered < <(cd "$top/kernel/patches" && grep -v '^#' series | xargs cat |
	awk '/^\+.*struct page_replace_ops [a-z_]+ = \{/ { ops = 1; next }
	     ops && match($0, /^\+[[:space:]]*\.name = "[a-z0-9-]+",$/) {
		sub(/^\+[[:space:]]*\.name = "/, ""); sub(/",$/, ""); print; ops = 0 }' | sort -u)
((${#registered[@]} > 0)) || not_ok "the kernel series registers policies" "none found in kernel/patches"
for p in "${registered[@]}"; do
	check "the series' policy $p is in LAB_POLICIES or LAB_TEST_POLICIES" \
		in_list "$p" "${LAB_POLICIES[@]}" "${LAB_TEST_POLICIES[@]}"
done
done_testing
