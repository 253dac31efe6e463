#!/usr/bin/env bash
# Jump labels in the guests: the lab kernel is built with
# CONFIG_JUMP_LABEL=y, as distributions build it, so a static key is a
# patched NOP and every flip rewrites kernel text with text_poke_bp().
# A guest that flips keys under load runs to its end: 24 run-time
# switches (each turns page_replace_custom off and on again, whose sites
# sit in reclaim's paths under lru_lock and i_pages with IRQs off) while
# cyclic-anon swaps, traced (trace-cmd's start and stop flip the keys of
# every event it records, and sched_switch's). Under QEMU's TCG with a
# thread per vCPU such storms livelocked the guest (a vCPU looping on an
# int3 that memory no longer held; docs/notes/jump-labels.md), so the lab
# runs TCG single-threaded: a livelock here ends as a timeout (exit 6).
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res
need_guest lab

check "the lab kernel is built with jump labels (CONFIG_JUMP_LABEL=y; else make kernel-lab)" \
	grep -qx 'CONFIG_JUMP_LABEL=y' "$lab_build/kernels/lab/config"

# 24 switches a second apart, through every list policy four times.
switches="" t=0
for _ in 1 2 3 4; do
	for p in clockpro cart random cart-r clockpro-lirs lru; do
		t=$((t + 1))
		switches+=${switches:+,}$t:$p
	done
done
rc=0
"$top/lab.sh" run lru cyclic-anon --mem 192M --size 240M --timeout 400 --trace events \
	--switch-at "$switches" -- --passes 10 >"$tmp/out" 2>"$tmp/err" || rc=$?
dir=$(last_line "$tmp/out")
res=$dir/result.json
is "$rc" 0 "the switch storm ran to its end (exit 6 would be the livelock's timeout)"
[[ $rc == 0 ]] || diag "$(tail -n 3 "$tmp/err")"
check "data verified across the switches" test "$(jq -r .verified "$res" 2>/dev/null)" = true
n=$(jq '[.switches[] | select(.ok)] | length' "$res" 2>/dev/null || echo 0)
is "$n" 24 "every switch was taken"
check "no WARNING, BUG or Oops on the console" \
	bash -c "! grep -aE 'WARNING:|BUG:|Oops' '$dir/console.log'"
if [[ $(jq -r .accel "$res" 2>/dev/null) == tcg ]]; then
	# qemu.cmdline is quoted for the shell (printf %q: "\,").
	check "TCG ran single-threaded (-accel tcg,thread=single)" \
		grep -q -- '-accel tcg,thread=single ' <(tr -d "\\\\" <"$dir/qemu.cmdline")
else
	skip "TCG ran single-threaded" "the guest ran under KVM"
fi
done_testing
