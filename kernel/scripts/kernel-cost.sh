#!/usr/bin/env bash
# make kernel-cost: proof, from the code, that the native policies (lru and
# mglru, tracing off) run nothing the series added but static branches.
#
#   kernel-cost.sh [--tolerance N] [--function NAME[:CONTAINER...]]...
#                  [--files F1,F2...] [VANILLA_VMLINUX LAB_VMLINUX]
#
# For each hot function of reclaim (HOT below), and each function of FILES
# whose size differs between the two kernels, it disassembles both
# vmlinux with objdump and walks the function's native path: the
# instructions reachable from its entry over direct jumps and
# fall-through, a static branch of a tracepoint or of a key the vanilla
# kernel does not have (page_replace_custom) taken the way it is off, any
# other static branch (lru_gen_caps: lru and mglru) both ways. A function
# inlined into a caller is compared through its caller (sort_folio in
# isolate_folios). The walk, the normalisation and the verdicts are in
# kernel/scripts/cost/ (built into build/tools/kernel-cost by make tools).
#
# Prints a Markdown table (function, vanilla and lab reachable
# instructions, instructions added, net difference, static-branch sites
# added, the work on the longest and on the shortest way through the
# function in each kernel, verdict), then the instructions that differ for
# each function whose paths differ. Instructions are compared normalised
# (addresses become symbols, registers %R, a register xor'ed with itself
# "mov $0x0"); the instructions that do work are loads, stores,
# arithmetic and tests (not jumps, calls, NOPs, register moves, pushes,
# pops, spills or frame adjustments), with numbers made N, so that a field
# offset moved by a grown struct is the same instruction. "added" counts
# those that lab's path has more often than vanilla's, over all of it: a
# tail the compiler duplicates in one kernel and not in the other counts
# there, though no way through the function runs it twice, so "added" is
# reported and not judged. The verdict counts along the way: a function
# fails when its longest or its shortest way from the entry to an exit
# (each loop once) carries more than N instructions of work more than
# vanilla's, or its path calls (or tail-calls) something more often than
# vanilla's, or, on a kernel without jump labels, it gained a key test:
# with CONFIG_JUMP_LABEL off a static key is a load, a test and a branch,
# not a patched NOP.
#
# --tolerance N (default 0): instructions of work a way may gain.
#   Register allocation and block layout change as soon as a hook's
#   out-of-line code exists (values move to other registers, callee-saved
#   registers are pushed, a tail is duplicated or merged): the net count
#   moves by a few instructions either way, which is why it is reported
#   and not judged, and why the judged count leaves those instructions
#   out. Measured on the series' first version (build/src/lab at
#   b1feebb16): in the twelve functions whose native paths only gained
#   guarded hooks (folio_mark_accessed, lru_add_fn, folio_activate,
#   isolate_lru_folios, inactive_is_low, move_folios_to_lru, shrink_node,
#   lru_deactivate_file_fn, lru_deactivate_fn, lru_lazyfree_fn,
#   lru_move_tail_fn, mlock_pagevec) the net difference is -1 to +3 and
#   the instructions added are 0 in every one. One per-CPU counter update
#   is one instruction and must fail, so the default allows none.
# --function SPEC: compare SPEC instead of HOT (repeat for several).
# --files LIST: source files (basenames) whose changed functions are added;
#   default FILES below, '' for none.
# VANILLA_VMLINUX LAB_VMLINUX: default the cost kernels' vmlinux, built
#   with jump labels by make kernel-cost (build/src/vanilla/_out-cost-vanilla,
#   build/src/lab/_out-cost-lab; build-kernel.sh cost-vanilla|cost-lab).
#
# Exit: 0 every function passes, 1 one does not, 2 bad usage or a missing
# vmlinux, 3 an unreadable ELF file, 4 objdump failed, 5 a function is in
# neither kernel, 8 the helper is not built (make tools).
set -euo pipefail
lab_prog="kernel-cost"
# shellcheck source=../../lab/lib/common.sh
source "$(dirname "$0")/../../lab/lib/common.sh"

# NAME[:CONTAINER...]: the function, then the callers it may be inlined
# into, innermost first (6.1's mm/swap.c, mm/vmscan.c, mm/workingset.c).
HOT=(
	folio_mark_accessed
	folio_add_lru
	lru_add_fn:folio_batch_move_lru
	folio_activate
	shrink_folio_list:shrink_inactive_list:shrink_list:shrink_lruvec
	shrink_active_list:shrink_list:shrink_lruvec
	isolate_lru_folios:shrink_inactive_list:shrink_list:shrink_lruvec
	workingset_eviction
	workingset_refault
	sort_folio:scan_folios:isolate_folios:evict_folios
)
# The files of the hot paths, and mm/mlock.c: with mm/swap.c and
# mm/vmscan.c, the callers of mm_inline.h's lruvec_add_folio().
FILES=vmscan.c,swap.c,workingset.c,mlock.c
# Functions of FILES off every hot path: reported, not judged.
#   store_enabled: the write of /sys/kernel/mm/lru_gen/enabled, by hand;
#   it switches to and from MGLRU through the framework now, which is
#   what its new calls (page_replace_policy, lru_gen_change_state) are.
COLD=(store_enabled)

tolerance=0 files=$FILES functions=() paths=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--tolerance)
		[[ ${2:-} =~ ^[0-9]+$ ]] || die "$EX_USAGE" "bad --tolerance '${2:-}' (a count >= 0)"
		tolerance=$2
		shift 2
		;;
	--function)
		[[ ${2:-} =~ ^[A-Za-z_][A-Za-z0-9_.]*(:[A-Za-z_][A-Za-z0-9_.]*)*$ ]] ||
			die "$EX_USAGE" "bad --function '${2:-}' (NAME[:CONTAINER...])"
		functions+=("$2")
		shift 2
		;;
	--files)
		[[ $# -ge 2 && $2 =~ ^([A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*)?$ ]] ||
			die "$EX_USAGE" "bad --files '${2:-}' (F1,F2... or '')"
		files=$2
		shift 2
		;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	-*) die "$EX_USAGE" "unknown option '$1' (kernel-cost.sh --help)" ;;
	*)
		paths+=("$1")
		shift
		;;
	esac
done
((${#functions[@]})) || functions=("${HOT[@]}")

case ${#paths[@]} in
0)
	vanilla=$LAB_BUILD/src/vanilla/_out-cost-vanilla/vmlinux
	lab=$LAB_BUILD/src/lab/_out-cost-lab/vmlinux
	for f in vanilla lab; do
		[[ -f ${!f} ]] || die "$EX_USAGE" "no $f vmlinux at ${!f#"$LAB_TOP"/} (make kernel-cost builds it)"
	done
	;;
2)
	vanilla=${paths[0]} lab=${paths[1]}
	for f in "$vanilla" "$lab"; do
		[[ -f $f ]] || die "$EX_USAGE" "no such file: $f"
	done
	;;
*) die "$EX_USAGE" "give both vmlinux files or none (kernel-cost.sh --help)" ;;
esac

helper=$LAB_BUILD/tools/kernel-cost
[[ -x $helper ]] || die "$EX_MISSING" "no ${helper#"$LAB_TOP"/} ($(build_hint tools) builds it)"

args=(--tolerance "$tolerance")
[[ -z $files ]] || args+=(--files "$files")
for c in "${COLD[@]}"; do
	args+=(--cold "$c")
done
printf '### Native-path cost: %s vs %s\n\n' "${vanilla#"$LAB_TOP"/}" "${lab#"$LAB_TOP"/}"
exec "$helper" "${args[@]}" "$vanilla" "$lab" "${functions[@]}"
