#!/usr/bin/env bash
# lab.sh list: what the lab can run (the registry, lab/registry/, read by
# lab/lib/common.sh), and which kernels are built.
set -euo pipefail
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"

# Which policies does the built lab kernel offer? Its config says.
echo "policies:"
for p in "${LAB_POLICIES[@]}"; do
	state=""
	if ! policy_vanilla "$p" && [[ -f $LAB_KERNEL_DIR/lab/config ]] && ! policy_in_kernel "$p" lab; then
		state="  (not in the built lab kernel)"
	fi
	printf '  %-14s %s%s\n' "$p" "${LAB_ABOUT[$p]:-?}" "$state"
done
echo "workloads:"
for w in "${LAB_WORKLOADS[@]}"; do
	printf '  %-14s %s\n' "$w" "${LAB_ABOUT[$w]:-?}"
done
echo "kernels:"
for f in "${LAB_FLAVOURS[@]}"; do
	info=$LAB_KERNEL_DIR/$f/info.json
	if [[ -f $info ]]; then
		printf '  %-14s %s\n' "$f" "$(jq -r '"\(.release), series \(.series_sha[0:12]), config \(.config_sha[0:12])"' "$info")"
	else
		printf '  %-14s %s\n' "$f" "not built ($(build_hint "$f"))"
	fi
done
