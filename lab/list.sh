#!/usr/bin/env bash
# lab.sh list: what the lab can run, and which kernels are built.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

describe_policy() {
	case $1 in
	vanilla) echo "unpatched 6.1 (reference kernel, its own active/inactive LRU)" ;;
	vanilla-mglru) echo "unpatched 6.1 with MGLRU switched on via /sys/kernel/mm/lru_gen/enabled" ;;
	lru) echo "6.1's active/inactive lists behind the page_replace framework" ;;
	mglru) echo "6.1's multi-gen LRU, selected through the framework" ;;
	clockpro) echo "CLOCK-Pro (Jiang, Chen, Zhang, USENIX ATC 2005)" ;;
	cart) echo "CART (Bansal, Modha, FAST 2004)" ;;
	cart-r) echo "CART with the 2006 cyclic-access detector" ;;
	random) echo "random eviction, seeded (page_replace_random_seed=)" ;;
	esac
}

# Which policies does the built lab kernel offer? Its config says.
echo "policies:"
for p in "${LAB_POLICIES[@]:0:1}" vanilla-mglru "${LAB_POLICIES[@]:1}"; do
	state=""
	if [[ $p != vanilla* && -f $LAB_KERNEL_DIR/lab/config ]] && ! policy_in_kernel "$p" lab; then
		state="  (not in the built lab kernel)"
	fi
	printf '  %-14s %s%s\n' "$p" "$(describe_policy "$p")" "$state"
done
echo "workloads:"
printf '  %-14s %s\n' cyclic-anon "anonymous region > RAM, cyclic passes, stamps verified"
printf '  %-14s %s\n' cyclic-file "file > RAM on the data disk, cyclic reads (read|mmap)"
printf '  %-14s %s\n' webtrace "SPC I/O trace replay (synthetic web-search trace or --spc FILE)"
printf '  %-14s %s\n' mdb-bench "LRU-K indexed database: index page, record page, ..."
echo "kernels:"
for f in "${LAB_FLAVOURS[@]}"; do
	info=$LAB_KERNEL_DIR/$f/info.json
	if [[ -f $info ]]; then
		printf '  %-14s %s\n' "$f" "$(jq -r '"\(.release), series \(.series_sha[0:12]), config \(.config_sha[0:12])"' "$info")"
	else
		printf '  %-14s %s\n' "$f" "not built ($(build_hint "$f"))"
	fi
done
