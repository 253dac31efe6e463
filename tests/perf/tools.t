#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for awk and bash -c, in single quotes
# perf-reclaim and perf-diff on a hand-written perf script profile
# (fixtures/script.txt: 11 samples on 2 CPUs whose scopes and parts are
# counted by hand in the comments below), and their refusals.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
build_perf_tools
pr=$build/analysis/perf-reclaim
pd=$build/analysis/perf-diff
fx=$top/tests/perf/fixtures

run=$tmp/runs/a
mkdir -p "$run/perf"
"$pr" --top 100 --result "$fx/result.json" --folded "$run/perf/folded.txt" --report "$run/perf/report.txt" \
	--json "$tmp/metrics.json" "$fx/script.txt"
check "perf-reclaim exits 0 on the fixture" test -s "$tmp/metrics.json"
m() { jq -r "$1" "$tmp/metrics.json"; }

# By hand: 11 samples, one in the idle loop (swapper in do_idle; the
# other swapper sample is a softirq: busy). Reclaim: the four kswapd
# samples and two direct ones (try_to_free_pages under a fault,
# try_to_free_mem_cgroup_pages); faults: the direct one and the
# [unknown] one in the exception's entry (do_user_addr_fault under
# exc_page_fault, no handle_mm_fault). Parts of the 10 busy samples:
# policy 2 (clockpro_referenced leaves), rmap 1 (folio_referenced_one
# under clockpro_referenced: the nearer frame wins), lock 1
# (queued_spin_lock_slowpath leaf), swapout 1 (__swap_writepage),
# shadow 1 (workingset_eviction), other 4 ([user], softirq, [unknown]
# in a fault, clear_page_rep).
is "$(m '[.samples, .idle_samples, .cpus, .period_ns] | join(" ")')" "11 1 2 1003009" \
	"samples, idle samples, CPUs (0 and 1) and period, as counted by hand"
is "$(m '[.reclaim_cpu_share, .kswapd_cpu_share, .direct_reclaim_cpu_share, .fault_cpu_share] | join(" ")')" \
	"0.6 0.4 0.2 0.2" "reclaim 6/10, kswapd 4/10, direct 2/10, faults 2/10 of the busy samples"
is "$(m '[.policy_cpu_share, .rmap_cpu_share, .lock_cpu_share, .shadow_cpu_share, .swapout_cpu_share] | join(" ")')" \
	"0.2 0.1 0.1 0.1 0.1" "parts of busy CPU: policy 2, rmap 1, lock 1, shadow 1, swapout 1 of 10"
is "$(m '.reclaim_split | [.policy, .rmap, .lock, .shadow, .swapout, .other] | map(. * 6 | round) | join(" ")')" \
	"2 1 1 1 1 0" "reclaim's split: policy 2, rmap, lock, shadow, swapout 1 each, other 0 of 6"
# Time: 2 CPUs x guest_wall_s 5.5 s over 11 samples = 1 s a sample;
# pgsteal_anon + pgsteal_file = 6000 pages.
is "$(m '[.reclaim_cpu_s, .busy_cpu_s, .pages_reclaimed, .us_per_reclaimed_page] | join(" ")')" \
	"6 10 6000 1000" "6 reclaim samples of 1 s over 6000 pages: 1000 us a page; 10 s busy"
near "$(m '.reclaim_us_per_page.policy')" 333.333 0.001 "policy's part of it: 2/6 of 1000 us"
near "$(m '.sample_coverage')" "$(awk 'BEGIN { print 11 * 1003009e-9 / 11 }')" 1e-9 \
	"sample_coverage: 11 periods of 1003009 ns over 2 x 5.5 s"
jq 'del(.vmstat.pgsteal_anon, .vmstat.pgsteal_file)' "$fx/result.json" >"$tmp/old-kernel.json"
"$pr" --result "$tmp/old-kernel.json" --json "$tmp/m2.json" "$fx/script.txt"
is "$(jq -r .pages_reclaimed "$tmp/m2.json")" 6000 "without pgsteal_anon/file: pgsteal_kswapd + pgsteal_direct"
"$pr" --json "$tmp/m3.json" "$fx/script.txt"
is "$(jq -r '[.samples, .us_per_reclaimed_page, .busy_cpu_s] | join(" ")' "$tmp/m3.json")" "11  " \
	"without --result: the shares, no times (null)"

f=$run/perf/folded.txt
is "$(awk '{ s += $NF } END { print NR, s }' "$f")" "10 11" "folded: 10 distinct stacks whose counts sum to the 11 samples"
is "$(grep -c '^kswapd0;ret_from_fork;kthread;kswapd;balance_pgdat;shrink_node;shrink_lruvec;shrink_folio_list;clockpro_referenced 2$' "$f")" 1 \
	"folded: the two equal kswapd stacks are one line, outermost frame first, with count 2"
check "folded: a thread name's space becomes _ (my_prog)" grep -q '^my_prog;entry_SYSCALL_64_after_hwframe;' "$f"
check "folded: a sample without kernel frames is [user]" grep -qx 'cyclic-anon;\[user\] 1' "$f"
check "folded: sorted as stackcollapse-perf.pl sorts" bash -c 'LC_ALL=C sort -c "$1"' _ "$f"

r=$run/perf/report.txt
self_of() { awk -v s="$1" '/by self/ { on = 1; next } /^#/ && on && /by children/ { on = 0 } on && $3 == s { print $1; exit }' "$r"; }
children_of() { awk -v s="$1" '/by children/ { on = 1; next } on && $3 == s { print $1; exit }' "$r"; }
is "$(self_of clockpro_referenced)" "18.18%" "report: clockpro_referenced's self is 2 of 11 samples"
is "$(children_of shrink_node)" "54.55%" "report: shrink_node's children is 6 of 11"
is "$(children_of walk_pgd)" "9.09%" "report: a recursive frame (walk_pgd twice) counts once per sample"
check "report: busy CPU by scope says reclaim 60%" grep -q '60.00%  reclaim (kswapd 40.00%, direct 20.00%)' "$r"

# perf-diff: run b is run a with twice the timed phase, so each of its
# samples stands for 2 s instead of 1.
jq --slurpfile p "$tmp/metrics.json" '.perf = $p[0]' "$fx/result.json" >"$run/result.json"
mkdir -p "$tmp/runs/b/perf"
cp "$f" "$tmp/runs/b/perf/folded.txt"
jq '.guest_wall_s = 11 | .policy = "lru"' "$run/result.json" >"$tmp/runs/b/result.json"
mkdir -p "$tmp/stacks"
"$pd" --top 3 --stacks "$tmp/stacks" --label-a clockpro -a "$run" --label-b lru -b "$tmp/runs/b" >"$tmp/diff.csv"
is "$(awk -F, 'NR == 2 { print $2, $5, $6, $7 }' "$tmp/diff.csv")" "clockpro_referenced 2.000000 4.000000 -2.000000" \
	"perf-diff: the largest difference first (clockpro_referenced: 2 s against 4 s of self time)"
is "$(awk -F, '$2 == "shrink_folio_list" { print $8, $9 }' "$tmp/diff.csv")" "" \
	"perf-diff: rows are ranked by self time (shrink_folio_list, no self time, is not in the top 3)"
is "$(wc -l <"$tmp/diff.csv")" 4 "perf-diff --top 3: a header and 3 rows"
want=$(grep -E ';clockpro_referenced(;| )' "$f" | awk '{ s += $NF } END { print s }')
is "$(awk '{ s += $NF } END { print s }' "$tmp/stacks/01-clockpro_referenced-clockpro.folded")" "$want" \
	"perf-diff --stacks: the stacks through clockpro_referenced ($want samples, by grep)"
"$pd" --format html --link-prefix plots/ --stacks "$tmp/stacks" --label-a clockpro -a "$run" --label-b lru \
	-b "$tmp/runs/b" >"$tmp/diff.html"
check "perf-diff --format html: each symbol links its stacks" \
	grep -q '<a href="plots/01-clockpro_referenced-clockpro.folded">clockpro</a>' "$tmp/diff.html"

# Refusals: one line on stderr, a distinct exit code, nothing written.
refuse() {	# refuse CODE DESCRIPTION COMMAND...
	local want=$1 desc=$2 rc=0 err
	shift 2
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	if [[ $rc == "$want" && $(wc -l <<<"$err") == 1 && $err == perf-* ]]; then
		ok "$desc"
	else
		not_ok "$desc" "exit $rc, stderr: $err"
	fi
}
printf 'not a header\n' >"$tmp/bad.txt"
refuse 3 "perf-reclaim: a line that is no sample header: exit 3, one line" \
	"$pr" --folded "$tmp/out/never.txt" "$tmp/bad.txt"
check "... and nothing written" test ! -e "$tmp/out"
: >"$tmp/empty.txt"
refuse 3 "perf-reclaim: no samples: exit 3, one line" "$pr" "$tmp/empty.txt"
sed '0,/1003009/s//2006018/' "$fx/script.txt" >"$tmp/mixed.txt"
refuse 3 "perf-reclaim: samples of two periods: exit 3, one line" "$pr" "$tmp/mixed.txt"
printf 'x    1 [000]     1.0:    1000 cpu-clock:\n\tnot a frame\n' >"$tmp/frame.txt"
refuse 3 "perf-reclaim: a call chain line that is no frame: exit 3, one line" "$pr" "$tmp/frame.txt"
# A thread perf lost track of (it exited first) is printed ":-1    -1".
{ cat "$fx/script.txt"; printf ':-1    -1 [000]     9.0:    1003009 cpu-clock: \n\tffffffff810542b8 do_exit ([kernel.kallsyms])\n\n'; } >"$tmp/lost.txt"
check "perf-reclaim: a sample of a thread perf did not know (:-1 -1) is read" \
	"$pr" --folded "$tmp/lost-folded.txt" "$tmp/lost.txt"
check "... and counted under its comm" grep -q '^:-1;do_exit 1$' "$tmp/lost-folded.txt"
printf 'x    -2 [000]     1.0:    1000 cpu-clock:\n' >"$tmp/negtid.txt"
refuse 3 "perf-reclaim: another negative tid is no header: exit 3, one line" "$pr" "$tmp/negtid.txt"
refuse 2 "perf-reclaim: an unknown option: exit 2, one line" "$pr" --nope
refuse 1 "perf-reclaim: a SCRIPT that does not exist: exit 1, one line" "$pr" "$tmp/nope.txt"
"$pr" --folded "$tmp/keep.txt" "$fx/script.txt"
cp "$tmp/keep.txt" "$tmp/keep.before"
"$pr" --folded "$tmp/keep.txt" "$tmp/bad.txt" 2>/dev/null || true
check "perf-reclaim: a failed run leaves the previous output whole" cmp -s "$tmp/keep.txt" "$tmp/keep.before"
refuse 2 "perf-diff: a set without runs: exit 2, one line" "$pd" --label-a a -a "$run" --label-b b
refuse 2 "perf-diff: two sets of one label: exit 2, one line" "$pd" --label-a a -a "$run" --label-b a -b "$run"
refuse 3 "perf-diff: a run without a profile: exit 3, one line" \
	"$pd" --label-a a -a "$run" --label-b b -b "$fx"
# An output that is no regular file (a FIFO here, /dev/null in use) is
# written in place: renaming a temporary file over it would replace it.
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
"$pr" --folded "$tmp/fifo" "$fx/script.txt"
wait
check "perf-reclaim --folded FIFO: written into the FIFO, which stays one" \
	bash -c 'test -p "$1" && cmp -s "$2" "$3"' _ "$tmp/fifo" "$tmp/from-fifo" "$f"
check "no temporary files left" test -z "$(find "$tmp" -name '*.tmp')"
done_testing
