#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for awk and bash -c, in single quotes
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
# shellcheck source=../lib/contracts.bash
source "$top/tests/lib/contracts.bash"
export LAB_RESULTS=$tmp/res
need_guest vanilla
build=$lab_build img=$guest_image

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
	if bt_on_request "$bt"; then
		check "vanilla: $name (on request only) did not run under --trace all" test ! -e "$out"
		continue
	fi
	if bt_needs_framework "$bt"; then
		# no page_replace events (tracepoint) or functions (kprobe) there
		check "vanilla: $name fails to attach (no framework), and says so" \
			grep -qE "tracepoint not found: page_replace|Error attaching probe: 'k(ret)?probe:page_replace_" "$out"
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

# reclaim-rate.bt counts as /proc/vmstat does (its header says so). Its
# programs were attached before vmstat.before and detached after
# vmstat.after, so its total holds at least the run's deltas and at most
# the deltas over the tracers' window (vmstat.tracing to vmstat.traced):
# reclaim while the tracers start or stop is seen by one and not the
# other, so equality would be a race.
rate=$(awk '$1 == "total" { print $2, $3, $4, $5 }' "$dir/bpftrace/reclaim-rate.txt" 2>/dev/null)
vm_deltas() {
	awk 'FNR == NR { a[$1] = $2; next }
		{ b[$1] = $2 }
		END {
			n = split("pgscan_kswapd pgsteal_kswapd pgscan_direct pgsteal_direct", k, " ")
			for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), b[k[i]] - a[k[i]]
			print ""
		}' "$1" "$2" 2>/dev/null
}
run=$(vm_deltas "$dir/vmstat.before" "$dir/vmstat.after")
window=$(vm_deltas "$dir/vmstat.tracing" "$dir/vmstat.traced")
check "vanilla: reclaim-rate.bt's total of pgscan/pgsteal_kswapd/direct lies between the run's vmstat deltas and the tracers' (run $run, total $rate, tracers $window)" \
	awk -v lo="$run" -v x="$rate" -v hi="$window" 'BEGIN {
		if (split(lo, l, " ") != 4 || split(x, v, " ") != 4 || split(hi, h, " ") != 4) exit 1
		for (i = 1; i <= 4; i++) if (v[i] < l[i] || v[i] > h[i]) exit 1
	}'
is "$(undocumented_keys "$dir/result.json")" "" "vanilla: every key of the fresh result.json is in CONTRACTS.md"

# stat_sum TRACE FIELD...: trace-cmd report --stat fields summed over CPUs
# (the kernel's per-CPU ring buffer statistics, as trace-cmd saved them).
stat_sum() {
	local t=$1
	shift
	trace-cmd report --stat -i "$t" 2>/dev/null | awk -v fields="$*" '
		BEGIN { n = split(fields, f, ",") }
		{ for (i = 1; i <= n; i++) if (index($0, f[i] ":") == 1) { v = $0; sub(/^[^:]*:/, "", v); s += v; seen = 1 } }
		END { print seen ? s : "none" }'
}
# lost_check NAME DIR: what the run says it recorded and lost, against
# trace-cmd (its report's record lines, its saved kernel statistics).
lost_check() {
	local d=$2 tt=$build/analysis/trace-timeline
	read -r events lost < <(jq -r '"\(.trace_events) \([.trace_lost_events[]] | add)"' "$d/result.json")
	is "$events" "$(trace-cmd report -i "$d/trace.dat" 2>/dev/null | grep -cE '^ *.+ \[[0-9]{3}\] +[0-9]+\.[0-9]+: ')" \
		"$1: trace_events is the number of records trace-cmd report prints"
	is "$lost" "$(stat_sum "$d/trace.dat" "overrun,dropped events")" \
		"$1: trace_lost_events is the ring buffer's overrun + dropped events"
	"$tt" -q -o "$tmp/$1.csv" "$d/trace.dat"
	"$tt" --summary "$d/trace.dat" >"$tmp/$1.summary"
	is "$(awk '$1 == "lost_events:" { print $2 }' "$tmp/$1.summary")" "$lost" "$1: --summary prints it"
	in_gaps=$(awk '$1 == "lost_in_gaps:" { print $2 }' "$tmp/$1.summary")
	is "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "lost_events") c = i; next }
		{ s += $c } END { printf "%.0f\n", s }' "$tmp/$1.csv")" "$in_gaps" \
		"$1: the lost_events column sums to the summary's lost_in_gaps ($in_gaps of $lost)"
}
lost_check vanilla "$dir"

# A buffer far too small, and readers that cannot drain it: events are
# lost, and every reader says so. Readers that run keep up with 16 KiB on
# a quiet host (a landing CI lost nothing), so the guest stops them
# through the workload (LAB_INJECT=stalled-trace-reader): the run writes
# some 400 KiB of events, and each CPU keeps its last 16.
rc=0
LAB_INJECT=stalled-trace-reader "$top/lab.sh" run vanilla cyclic-anon --size 240M --trace events \
	--trace-buffer 16 --timeout 400 -- --passes 1 >"$tmp/small.out" 2>"$tmp/small.err" || rc=$?
small=$(tail -n1 "$tmp/small.out")
is "$rc" 0 "vanilla, 16 KiB buffer: the traced run exits 0"
is "$(jq -r .trace_buffer_kb "$small/result.json")" 16 "vanilla, 16 KiB buffer: result.json says 16"
check "vanilla, 16 KiB buffer: the guest stopped trace-cmd's readers" \
	grep -q "injecting: trace-cmd's readers stopped" "$small/console.log"
check "vanilla, 16 KiB buffer: events were lost" test "$(jq '[.trace_lost_events[]] | add' "$small/result.json")" -gt 0
lost_check small "$small"
check "vanilla, 16 KiB buffer: intervals that lost events have lost_gaps > 0" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "lost_events") e = i; if ($i == "lost_gaps") g = i }; next }
		$e > 0 && $g < 1 { bad = 1 } END { exit bad }' "$tmp/small.csv"
"$build/analysis/labstat" -m wall_s "$small" >"$tmp/small.table" 2>"$tmp/small.warn"
check "vanilla, 16 KiB buffer: labstat names the run as one that lost events" \
	grep -q "$(basename "$small")/result.json: lost [0-9.]*% of its trace events" "$tmp/small.table"

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
