#!/usr/bin/env bash
# Every bpftrace program, run in a guest against the kernel, and the
# trace-cmd recording: one vanilla boot with --trace all (trace-cmd and
# every .bt at once) checks that each vanilla-capable program printed
# what its header's Expect: lines promise and that trace.dat opens in
# trace-cmd report with vmscan events in it; programs that need the lab
# kernel's page_replace events must fail to attach there, and run on the
# lab kernel (policy lru) once it has those events.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=lib.bash
source "$top/tests/tracepoints/lib.bash"
export LAB_RESULTS=$tmp/res
build=${LAB_BUILD:-$top/build}
img=$build/image/rootfs.img

if [[ ! -f $img || ! -f $build/kernels/vanilla/bzImage ]]; then
	skip_all "kernel or guest image not built (make)"
fi

# The image must carry these very programs and the headers bpftrace's
# clang needs for tracepoint arguments (the guest kernel has no BTF).
stale=()
for bt in "$top"/tracepoints/*.bt; do
	debugfs -R "cat /lab/tracepoints/$(basename "$bt")" "$img" 2>/dev/null | cmp -s - "$bt" ||
		stale+=("$(basename "$bt")")
done
check "the guest image holds the current tracepoints/*.bt (else: make image)" test "${#stale[@]}" = 0
((${#stale[@]} == 0)) || diag "stale or missing in the image: ${stale[*]}"
check "the guest image has linux/types.h for bpftrace's tracepoint structs" \
	bash -c "debugfs -R 'stat /usr/include/linux/types.h' '$img' 2>/dev/null | grep -q '^Inode:'"

# run_traced POLICY NAME [MODE]: one boot with the tracers of MODE
# (default: every tracer); sets $dir.
run_traced() {
	local rc=0
	"$top/lab.sh" run "$1" cyclic-anon --size 240M --trace "${3:-all}" --timeout 400 -- --passes 1 \
		>"$tmp/$2.out" 2>"$tmp/$2.err" || rc=$?
	dir=$(tail -n1 "$tmp/$2.out")
	check "$1: the traced run exits 0" test "$rc" = 0
	((rc == 0)) || diag "$(tail -n 3 "$tmp/$2.err")"
}

dir=""
run_traced vanilla vanilla
for bt in "$top"/tracepoints/*.bt; do
	name=$(basename "$bt" .bt)
	out=$dir/bpftrace/$name.txt
	if bt_needs_framework "$bt"; then
		check "vanilla: $name fails to attach (no page_replace events), and says so" \
			grep -q 'tracepoint not found: page_replace' "$out"
		continue
	fi
	problems=$(bt_check_output "$bt" "$out" 2>&1 || echo "cannot read $out")
	check "vanilla: $name printed what it promises" test -z "$problems"
	[[ -z $problems ]] || diag "$problems" "$(head -c 600 "$out" 2>/dev/null)"
done

t=$dir/trace.dat
if trace-cmd report -i "$t" >"$tmp/report.txt" 2>"$tmp/report.err"; then
	ok "vanilla: trace-cmd report opens trace.dat"
else
	not_ok "vanilla: trace-cmd report opens trace.dat"
	diag "$(head -n 3 "$tmp/report.err")"
fi
n=$(grep -c 'mm_vmscan_' "$tmp/report.txt" || true)
check "vanilla: trace.dat holds vmscan events ($n)" test "$n" -gt 0
check "vanilla: ... including LRU isolation and kswapd wake-ups" \
	bash -c "grep -q mm_vmscan_lru_isolate '$tmp/report.txt' && grep -q mm_vmscan_kswapd_wake '$tmp/report.txt'"

# The framework's programs on the lab kernel, once it has their events.
framework=()
for bt in "$top"/tracepoints/*.bt; do bt_needs_framework "$bt" && framework+=("$bt"); done
if ((${#framework[@]})); then
	lab_h=$top/build/src/lab/include/trace/events/page_replace.h
	if [[ ! -f $build/kernels/lab/bzImage ]]; then
		skip "lab: page_replace programs" "the lab kernel is not built"
	elif [[ ! -f $lab_h ]] || ! grep -q 'page_replace_forget' "$lab_h"; then
		skip "lab: page_replace programs" "the lab kernel has no page_replace:page_replace_forget event yet (the framework has not landed)"
	else
		# Only these programs (--trace bpftrace:NAME,...), which is tested too.
		names=()
		for bt in "${framework[@]}"; do names+=("$(basename "$bt" .bt)"); done
		run_traced lru lab "bpftrace:$(IFS=,; echo "${names[*]}")"
		for name in "${names[@]}"; do
			problems=$(bt_check_output "$top/tracepoints/$name.bt" "$dir/bpftrace/$name.txt" 2>&1 || echo "cannot read output")
			check "lab: $name printed what it promises" test -z "$problems"
			[[ -z $problems ]] || diag "$problems"
		done
		ran=$(find "$dir/bpftrace" -name '*.txt' 2>/dev/null | wc -l)
		check "lab: bpftrace:NAME,... ran those ${#names[@]} program(s) alone ($ran ran)" \
			test "$ran" = "${#names[@]}"
		check "lab: ... and no trace-cmd" test ! -e "$dir/trace.dat"
	fi
fi
done_testing
