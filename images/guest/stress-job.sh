#!/bin/sh
# The reliability gate, guest side (LAB_MODE=stress; busybox sh).
#
#   stress-job.sh RESULTS_DIR
#
# Runs the kernel's own moves between the LRU lists (lab-coldcheck), then,
# under memory pressure with swap: stress-ng's vm stressors, the kernel's
# mm selftests (/lab/selftests, built by images/build-selftests.sh) and the
# lab's data-verifying workloads inside a memcg whose memory.max is below
# their size. One line per test goes to RESULTS_DIR/stress.tsv:
#   NAME <tab> pass|fail|skip <tab> SECONDS <tab> DETAIL
# and its output to RESULTS_DIR/tests/NAME.log. Exit 0 only when every test
# passed (a selftest that reports SKIP counts as skipped, not failed).
#
# From /job/job.env (written by lab/commands/stress.sh):
#   LAB_STRESS_DURATION  seconds of stress-ng in total (default 60)
#   LAB_STRESS_GROUPS    which groups run ("none": none; lab/commands/stress.sh
#                        owns the list)
#   LAB_STRESS_INJECT    for the gate's own tests: "warn" prints a kernel
#                        WARNING line on the console, "fail" adds a failing
#                        test, "panic" crashes the kernel, "hang" never ends,
#                        "die" kills this script with a shell error

out=${1:?usage: stress-job.sh RESULTS_DIR}
# shellcheck disable=SC1091
. /job/job.env
duration=${LAB_STRESS_DURATION:-60}
groups=${LAB_STRESS_GROUPS:?job.env sets no LAB_STRESS_GROUPS}
inject=${LAB_STRESS_INJECT:-}
tsv=$out/stress.tsv
logs=$out/tests
mkdir -p "$logs" || exit 1
: >"$tsv" || exit 1
failed=0
xfail=""

# now_cs: centiseconds since boot, good enough for test durations.
# shellcheck source=job-lib.sh
. /lab/guest/job-lib.sh

# record NAME RESULT START_CS DETAIL
record() {
	secs=$(awk -v s="$3" -v e="$(now_cs)" 'BEGIN { printf "%.2f", (e - s) / 100 }')
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$secs" "$4" >>"$tsv"
	echo "LAB: stress test $1: $2 (${secs}s)${4:+ $4}"
	[ "$2" = fail ] && failed=1
	sync
}

# run_test NAME KIND TIMEOUT CMD...: KIND says how the exit code reads:
#   ksft      kselftest: 0 pass, 4 skip (KSFT_SKIP), anything else fails
#   stressng  stress-ng: 0 pass, 4 skip (not implemented here), else fails
#   plain     0 pass, anything else fails
run_test() {
	name=$1 kind=$2 limit=$3
	shift 3
	start=$(now_cs)
	echo "LAB: stress test $name: start"
	rc=0
	timeout -s KILL "$limit" "$@" </dev/null >"$logs/$name.log" 2>&1 || rc=$?
	elapsed=$((($(now_cs) - start) / 100))
	if [ $rc -eq 137 ] && [ $elapsed -ge "$limit" ]; then
		record "$name" fail "$start" "timed out after ${limit}s"
		return
	fi
	case $kind:$rc in
	*:0) record "$name" pass "$start" "" ;;
	ksft:4 | stressng:4) record "$name" skip "$start" "$(tail -n1 "$logs/$name.log" | tr '\t' ' ')" ;;
	ksft:*)
		# Subtests that fail on the unpatched kernel in this guest too
		# (RELIABILITY.md says why) do not fail the test; any other does.
		nok=$(sed -n 's/^not ok [0-9]* *\(.*\)/\1/p' "$logs/$name.log" | awk '!seen[$0]++')
		unexpected=$(printf '%s\n' "$nok" | awk -v x=" $xfail " 'NF && index(x, " " $0 " ") == 0')
		if [ -n "$nok" ] && [ -z "$unexpected" ]; then
			record "$name" pass "$start" "known failures only: $(printf '%s' "$nok" | tr '\n' ' ')"
		else
			record "$name" fail "$start" "exit status $rc: $(ksft_failures "$logs/$name.log")"
		fi
		;;
	*) record "$name" fail "$start" "exit status $rc: $(ksft_failures "$logs/$name.log")" ;;
	esac
}

# The failing subtests of a kselftest log (or its last line), for the report.
ksft_failures() {
	# awk dedupes: a forking test's buffered stdout repeats lines.
	f=$(sed -n 's/^not ok [0-9]* *\(.*\)/\1/p' "$1" | awk '!seen[$0]++' | tr '\n' ',' | sed 's/,$//')
	[ -n "$f" ] || f=$(tail -n1 "$1")
	echo "$f" | tr '\t' ' ' | cut -c1-200
}

# The verifying workloads, round after round, while process $1 lives (one
# round at least), in cgroup $2 if not empty, RAM share $3 MiB each; run
# as: run_test NAME plain LIMIT sh -c "$workload_rounds" - PID CGROUP SIZE
# shellcheck disable=SC2016
workload_rounds='
	pid=$1 cg=$2 size=$3 n=0
	[ -z "$cg" ] || echo $$ >"$cg/cgroup.procs" || exit 1
	while kill -0 "$pid" 2>/dev/null || [ $n -eq 0 ]; do
		for wl in cyclic-anon cyclic-file; do
			/lab/bin/$wl --size ${size}M --passes 2 --dir /data || {
				echo "round $n: $wl exited $?"
				exit 1
			}
		done
		n=$((n + 1))
	done
	echo "$n rounds verified"'

# lists_check NAME: with the caches dropped and swap off, the pages on the
# LRU lists must equal vmstat's counters, in total and per node
# (lab-lrucheck): a policy or a switch that lost or leaked a folio leaves
# them apart. Swap goes back on after.
lists_check() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	lc_start=$(now_cs)
	# Every swap device init set up (--swap disk or zram; none: none).
	lc_swaps=$(awk 'NR > 1 { print $1 }' /proc/swaps)
	lc_off=1
	for lc_s in $lc_swaps; do
		swapoff "$lc_s" >>"$logs/$1-swapoff.log" 2>&1 || lc_off=0
	done
	if [ $lc_off = 1 ]; then
		run_test "$1" plain 300 lab-lrucheck
		for lc_s in $lc_swaps; do
			swapon "$lc_s" || record "$1-swapon" fail "$(now_cs)" "swapon $lc_s failed"
		done
	else
		record "$1" fail "$lc_start" "swapoff failed: $(tail -n1 "$logs/$1-swapoff.log")"
	fi
}

has_group() {
	case " $groups " in *" $1 "*) return 0 ;; esac
	return 1
}

# A writable cwd: test_memcontrol makes its page cache with O_TMPFILE in ".".
cd /data || exit 1

# kernel_has CONFIG_X: the running kernel's config says =y.
kernel_has() {
	zcat /proc/config.gz 2>/dev/null | grep -qx "$1=y"
}

mem_total_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
echo "LAB: stress: ${duration}s of stress-ng, groups: $groups; MemTotal ${mem_total_mb} MiB"

case $inject in
'') ;;
warn)
	# The console scanner must catch this; it travels the real console path.
	echo "<4>WARNING: CPU: 0 PID: $$ at lab/stress-gate-injected.c:1 injected_warning+0x0/0x0" >/dev/kmsg
	;;
fail) run_test injected-failure plain 60 /lab/bin/lab-crash ;;
panic) echo c >/proc/sysrq-trigger ;;
hang) while :; do sleep 3600; done ;;
die)
	# The way the gate once died (an uptime of "0.98" read as octal "098"):
	# a shell arithmetic error ends this script with no test failed.
	bad=098
	echo "LAB: stress: injecting a job script error"
	echo $((bad + 1))
	;;
*)
	echo "LAB-ERROR: unknown LAB_STRESS_INJECT '$inject'"
	exit 1
	;;
esac

# --- the kernel's own list moves, first: before anything has been evicted,
# while the CLOCK-Pro policies still fill their hot sets from new folios
# (the moment a policy could take a move for an arrival).
if has_group lists; then
	run_test lists-madv-cold plain 300 /lab/bin/lab-coldcheck 16
fi

# --- a policy's history once its file is gone: deleting a file forgets
# every shadow entry of its pages, so the pages a policy counts in its
# history (cart's and cart-r's B1 and B2) fall to what other files left.
# With --fs xfs the page cache holds large folios, one shadow entry for
# several pages. A policy that counts no history is skipped.
# shellcheck disable=SC2016
history_forget='
	stats=$PAGE_REPLACE_STATS
	[ -r $stats ] || { echo "no $stats: this kernel has no page replacement policies"; exit 4; }
	hist() { awk "\$1 ~ /^cart_b[12]_file\$/ { s += \$2; n++ } END { print n ? s : -1 }" $stats; }
	counter() { awk -v k="$1" "\$1 == k { print \$2 }" $stats; }
	[ "$(hist)" -ge 0 ] || { echo "no cart_b1_file or cart_b2_file in $stats: no history counted"; exit 4; }
	mb=$(($1 * 3 / 2))
	dd if=/dev/zero of=/data/history bs=1M count=$mb conv=fsync 2>&1 | tail -n 1
	for pass in 1 2; do cat /data/history >/dev/null || exit 1; done
	before=$(hist) size=$(($mb * 256))
	entries=$(counter forgotten_truncate) pages=$(counter cart_forgotten)
	rm /data/history || exit 1
	after=$(hist)
	echo "history_before $before"
	echo "history_after $after"
	echo "file_pages $size"
	echo "entries_forgotten $(($(counter forgotten_truncate) - entries))"
	echo "pages_forgotten $(($(counter cart_forgotten) - pages))"
	[ "$before" -ge $((size / 4)) ] || { echo "the file left $before pages of history, fewer than a quarter of its $size"; exit 1; }
	[ "$after" -le $((before / 20)) ] || { echo "$after pages of history stayed after the file went, of $before"; exit 1; }'
if has_group history; then
	run_test history-forget ksft 600 sh -c "$history_forget" - "$mem_total_mb"
fi

# --- stress-ng's vm stressors, each for its share of the duration, sized to
# push the guest well into swap (two workers of 3/4 of RAM each).
if has_group stressng; then
	share=$((duration / 6))
	[ $share -ge 2 ] || share=2
	limit=$((share * 3 + 60))
	# KASAN and lockdep make everything several times slower.
	kernel_has CONFIG_KASAN && limit=$((limit * 4))
	big=$((mem_total_mb * 3 / 4))M
	common="--timeout ${share}s --page-in --verify --temp-path /data --metrics-brief"
	# shellcheck disable=SC2086
	{
		run_test stress-ng-vm stressng $limit stress-ng $common --vm 2 --vm-bytes $big
		run_test stress-ng-bigheap stressng $limit stress-ng $common --bigheap 2
		run_test stress-ng-mmap stressng $limit stress-ng $common --mmap 2 --mmap-bytes $big
		run_test stress-ng-mremap stressng $limit stress-ng $common --mremap 2 --mremap-bytes $big
		run_test stress-ng-madvise stressng $limit stress-ng $common --madvise 2
		run_test stress-ng-userfaultfd stressng $limit stress-ng $common --userfaultfd 2
	}
fi

# --- the kernel's vm selftests, while a sleeping hog holds half of RAM so
# that they run against reclaim and swap.
if has_group selftests; then
	if [ -r /lab/selftests/vm/TESTS ]; then
		stress-ng --vm 1 --vm-bytes $((mem_total_mb / 2))M --vm-keep --vm-hang 0 \
			--timeout 0 >"$logs/pressure-hog.log" 2>&1 &
		hog=$!
		sleep 5
		while read -r t; do
			st=/lab/selftests/vm/$t
			case $t in
			userfaultfd)
				# 6.1's test asks UFFDIO_API for every feature its headers
				# know, so without PTE_MARKER_UFFD_WP it fails at its start.
				if kernel_has CONFIG_PTE_MARKER_UFFD_WP; then
					# anon memory, 16 MiB, 8 bounces: small enough for this guest
					run_test "selftest-vm-$t" ksft 600 "$st" anon 16 8
				else
					record "selftest-vm-$t" skip "$(now_cs)" "kernel lacks CONFIG_PTE_MARKER_UFFD_WP, which the 6.1 test requires"
				fi
				;;
			# its 1-2 GiB regions are mapped, not touched: allow overcommit
			mremap_test)
				oc=$(cat /proc/sys/vm/overcommit_memory)
				echo 1 >/proc/sys/vm/overcommit_memory
				run_test "selftest-vm-$t" ksft 600 "$st"
				echo "$oc" >/proc/sys/vm/overcommit_memory
				;;
			*) run_test "selftest-vm-$t" ksft 600 "$st" ;;
			esac
		done </lab/selftests/vm/TESTS
		kill -INT $hog 2>/dev/null
		wait $hog
	else
		start=$(now_cs)
		record selftests-vm fail "$start" "no /lab/selftests/vm in the image (images/build-selftests.sh)"
	fi
fi

# --- the lab's verifying workloads in a memcg whose memory.max is half
# their size: reclaim and swap inside the cgroup, every byte checked.
if has_group memcg; then
	cg=/sys/fs/cgroup/lab-stress
	start=$(now_cs)
	if ! grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		record memcg-setup fail "$start" "no memory controller in cgroup v2 at /sys/fs/cgroup"
	elif ! echo +memory >/sys/fs/cgroup/cgroup.subtree_control || ! mkdir -p $cg; then
		record memcg-setup fail "$start" "cannot create a memory cgroup"
	else
		size_mb=$((mem_total_mb / 4))
		echo $((size_mb / 2))M >$cg/memory.max
		for wl in cyclic-anon cyclic-file; do
			# The subshell joins the cgroup; the workload inherits it.
			# shellcheck disable=SC2016
			run_test memcg-$wl plain 900 sh -c '
				echo $$ >"$1/cgroup.procs" || exit 1
				shift
				exec "$@"' - $cg /lab/bin/$wl --size ${size_mb}M --passes 2 --dir /data
		done
		peak=$(sed -n 's/^max //p' $cg/memory.events)
		start=$(now_cs)
		# The workloads must really have hit memory.max: else the test proved nothing.
		if [ "${peak:-0}" -gt 0 ]; then
			record memcg-limit-hit pass "$start" "memory.events max=$peak"
		else
			record memcg-limit-hit fail "$start" "memory.max was never reached"
		fi
		rmdir $cg
	fi
fi

# --- cgroup's test_memcontrol, on its own (its checks measure the memcgs it
# makes, which a hog outside them would disturb).
if has_group memcontrol; then
	if [ -x /lab/selftests/cgroup/test_memcontrol ]; then
		# Known failures of 6.1's test on the unpatched kernel in this guest
		# (RELIABILITY.md): test_memcg_high_sync needs memory.high throttling
		# to hold a 200 MiB mlock below memory.max for 10 s of poll(), a race
		# the slow TCG guest loses; test_memcg_min and _low expect exact
		# protection numbers, relaxed upstream after 6.1, and fail now and then.
		xfail="test_memcg_high_sync test_memcg_min test_memcg_low"
		run_test selftest-cgroup-test_memcontrol ksft 900 /lab/selftests/cgroup/test_memcontrol
		xfail=
	else
		start=$(now_cs)
		record selftest-cgroup-test_memcontrol fail "$start" "not in the image (images/build-selftests.sh)"
	fi
fi

# --- run-time switching: every few seconds the next policy, while
# stress-ng and the verifying workloads (in a memcg, so that memcg lruvecs
# are walked too) run; then, with the caches dropped and swap off, the LRU
# lists must still match their counters (lab-lrucheck): a switch that
# loses or leaks a folio leaves them apart.
if has_group switch; then
	pf=$PAGE_REPLACE_POLICY
	start=$(now_cs)
	if ! grep -q '^switches ' $PAGE_REPLACE_STATS 2>/dev/null; then
		record switch-setup skip "$start" "this kernel cannot switch its policy at run time"
	elif grep -q '\[mglru\]' $pf; then
		record switch-setup skip "$start" "mglru runs, and a switch to or from it is refused"
	else
		boot_policy=$(sed -n 's/.*\[\([^]]*\)\].*/\1/p' $pf)
		# Every list policy a user may pick: a switch to or from mglru is
		# refused (page_replace.rst, "Switching at run time").
		policies=$(tr -d '[]' <$pf | tr ' ' '\n' | grep -vx -e mglru -e '')
		nr_policies=$(echo "$policies" | wc -l)
		every=$((duration / 20))
		[ $every -ge 2 ] || every=2
		nr_switches=$((duration / every))
		[ $nr_switches -ge 1 ] || nr_switches=1
		# Round the list, starting after the boot policy: "T:POLICY ...".
		schedule=$(echo "$policies" | awk -v boot="$boot_policy" -v every=$every -v n=$nr_switches '
			{ p[NR - 1] = $0; if ($0 == boot) b = NR - 1 }
			END { for (k = 1; k <= n; k++) printf " %d:%s", k * every, p[(b + k) % NR] }')
		stat_of() { sed -n "s/^$1 //p" $PAGE_REPLACE_STATS; }
		fallbacks0=$(stat_of fallbacks)
		fallbacks0=${fallbacks0:-0}
		switches0=$(stat_of switches)
		echo "LAB: stress: switching among $nr_policies policies every ${every}s:$schedule"
		size_mb=$((mem_total_mb / 6))
		cg=/sys/fs/cgroup/lab-switch
		cgdir=""
		if grep -qw memory /sys/fs/cgroup/cgroup.controllers &&
			echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir -p $cg; then
			echo $((size_mb / 2))M >$cg/memory.max
			cgdir=$cg
		fi
		# The limit sits below the global dirty background threshold, and
		# 6.1's MGLRU does not wake the flushers from memcg reclaim (6.13's
		# "mm/vmscan: wake up flushers conditionally to avoid cgroup OOM"):
		# cyclic-file's setup fills the limit with dirty page cache and the
		# memcg OOMs, on the vanilla kernel too (RELIABILITY.md).  Start
		# background writeback at a quarter of the limit while this group runs.
		dirty_bg_bytes=$(cat /proc/sys/vm/dirty_background_bytes)
		dirty_bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
		echo $((size_mb * 1048576 / 8)) >/proc/sys/vm/dirty_background_bytes
		# shellcheck disable=SC2086 # one word per switch
		lab-switch "$logs/switch-schedule.jsonl" $schedule &
		switcher=$!
		# The stats file read all along, once a second: a read takes no
		# lock that a switch waits for, and must never fail meanwhile.
		(reads=0
		while kill -0 $switcher 2>/dev/null; do
			cat $PAGE_REPLACE_STATS >/dev/null || exit 1
			reads=$((reads + 1))
			sleep 1
		done
		echo $reads) >"$logs/switch-stats-reads" 2>&1 &
		reader=$!
		limit=$((duration * 4 + 600))
		kernel_has CONFIG_KASAN && limit=$((limit * 4))
		# stress-ng in a subshell of its own: run_test records it there.
		(run_test switch-stress-ng-vm stressng $limit stress-ng --vm 1 \
			--vm-bytes $((mem_total_mb / 2))M --page-in --verify \
			--timeout "${duration}s" --temp-path /data --metrics-brief) &
		stressng=$!
		# The workloads, round after round, until the last switch is done.
		run_test switch-workloads plain $limit sh -c "$workload_rounds" - $switcher "$cgdir" $size_mb
		wait $switcher
		wait $stressng
		start=$(now_cs)
		if wait $reader; then
			record switch-stats-reads pass "$start" "$(cat "$logs/switch-stats-reads") reads during the switches"
		else
			record switch-stats-reads fail "$start" "a read of the stats file failed: $(tail -n 1 "$logs/switch-stats-reads")"
		fi
		start=$(now_cs)
		done_ok=$(grep -c '"ok":true' "$logs/switch-schedule.jsonl")
		switched=$(($(stat_of switches) - switches0))
		dmesg | grep 'page_replace: switched' >"$logs/switch-kernel.log"
		slowest=$(awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "us") t = $i + 0;
			if (t > m) m = t } END { printf "%d", m }' "$logs/switch-kernel.log")
		if [ "$done_ok" -eq $nr_switches ] && [ "$switched" -ge $nr_switches ]; then
			record switch-sysfs pass "$start" "$nr_switches switches among $nr_policies policies, slowest ${slowest} us"
		else
			record switch-sysfs fail "$start" "$done_ok of $nr_switches writes succeeded, the kernel counted $switched: $(grep -v '"ok":true' "$logs/switch-schedule.jsonl" | head -n1)"
		fi
		start=$(now_cs)
		fell=$(stat_of fallbacks)
		fell=$((${fell:-0} - fallbacks0))
		if [ $fell -eq 0 ]; then
			record switch-no-fallback pass "$start" ""
		else
			record switch-no-fallback fail "$start" "$fell fallback(s): $(dmesg | grep 'falling back to lru' | tail -n1)"
		fi
		echo "$boot_policy" >$pf
		[ -z "$cgdir" ] || rmdir $cgdir
		# Writing one of the pair zeroes the other: restore the one in use.
		if [ "$dirty_bg_bytes" -gt 0 ]; then
			echo "$dirty_bg_bytes" >/proc/sys/vm/dirty_background_bytes
		else
			echo "$dirty_bg_ratio" >/proc/sys/vm/dirty_background_ratio
		fi
		lists_check switch-lru-check
	fi
fi

# --- a workload in a child cgroup with no limit, as systemd places a
# service, under global reclaim: stress-ng vm on every CPU holds half of
# RAM meanwhile, so kswapd and direct reclaimers on all CPUs reclaim the
# child's lruvec while the policy's state there is used and adapted.
if has_group cgroup; then
	cg=/sys/fs/cgroup/lab-work
	start=$(now_cs)
	if ! grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		record cgroup-setup fail "$start" "no memory controller in cgroup v2 at /sys/fs/cgroup"
	elif ! echo +memory >/sys/fs/cgroup/cgroup.subtree_control || ! mkdir -p $cg; then
		record cgroup-setup fail "$start" "cannot create a memory cgroup"
	else
		cpus=$(grep -c '^processor' /proc/cpuinfo)
		size_mb=$((mem_total_mb / 2))
		limit=$((duration * 4 + 600))
		kernel_has CONFIG_KASAN && limit=$((limit * 4))
		(run_test cgroup-stress-ng-vm stressng $limit stress-ng --vm "$cpus" \
			--vm-bytes $((mem_total_mb / 2))M --page-in --verify \
			--timeout "${duration}s" --temp-path /data --metrics-brief) &
		stressng=$!
		sleep 2
		# The workloads, round after round, until stress-ng is done.
		run_test cgroup-workloads plain "$limit" sh -c "$workload_rounds" - $stressng $cg $size_mb
		wait $stressng
		start=$(now_cs)
		# Global reclaim must really have scanned the child's lists.
		scanned=$(sed -n 's/^pgscan //p' $cg/memory.stat)
		if [ "${scanned:-0}" -gt 0 ]; then
			record cgroup-global-reclaim pass "$start" "$cpus CPUs, pgscan $scanned in the child cgroup"
		else
			record cgroup-global-reclaim fail "$start" "global reclaim never scanned the child cgroup"
		fi
		rmdir $cg
	fi
fi

# --- the machine shapes (lab.sh stress --numa, --swap zram, --thp, --fs,
# --vcpus): each group runs on a guest of its shape and is skipped on any
# other, saying which option it needs. Every workload verifies its data,
# and the lists must match their counters afterwards.

# one_round: a pid that has ended, for workload_rounds: one round only.
one_round() {
	true &
	wait $!
	echo $!
}

# memcg_rounds NAME CGROUP: one round of the verifying workloads, RAM/3
# each, in a new memcg CGROUP at half that, as test NAME.
memcg_rounds() {
	mr_cg=/sys/fs/cgroup/$2
	{ echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir -p "$mr_cg"; } || exit 1
	echo $((mem_total_mb / 6))M >"$mr_cg/memory.max"
	run_test "$1" plain 1200 sh -c "$workload_rounds" - "$(one_round)" "$mr_cg" $((mem_total_mb / 3))
	rmdir "$mr_cg"
}

# pinned_rounds NAME CPU SIZE_MB: cyclic-anon then cyclic-file, two passes
# each, pinned to CPU (their memory comes from CPU's node first), as a
# test of its own, in the background; the caller waits.
pinned_rounds() {
	mkdir -p "/data/$1"
	# shellcheck disable=SC2016 # the inner script's own expansions
	(run_test "$1" plain 1200 taskset -c "$2" sh -c '
		for wl in cyclic-anon cyclic-file; do
			/lab/bin/$wl --size "$1"M --passes 2 --dir "$2" || { echo "$wl exited $?"; exit 1; }
		done' - "$3" "/data/$1") &
}

if has_group numa; then
	start=$(now_cs)
	nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
	if [ "$nodes" -lt 2 ]; then
		record numa-setup skip "$start" "one NUMA node: needs lab.sh stress --numa 2 or more"
	else
		# A pair of workloads on each node with a CPU, each sized at 5/4
		# of its node, at once: every node reclaims and swaps, and refaults
		# its own page cache; with --numa-dimm node 0's span holds node
		# 1's memory.
		# node_refaults NODE: its page cache refaults so far
		node_refaults() { awk '$1 == "workingset_refault_file" { print $2 }' "$1/vmstat"; }
		pids="" before=""
		for n in /sys/devices/system/node/node[0-9]*; do
			cpu=$(cut -d, -f1 "$n/cpulist" | cut -d- -f1)
			[ -n "$cpu" ] || continue
			node_mb=$(awk '$3 == "MemTotal:" { print int($4 / 1024) }' "$n/meminfo")
			before="$before ${n##*/}:$(node_refaults "$n")"
			pinned_rounds "numa-${n##*/}" "$cpu" $((node_mb * 5 / 4))
			pids="$pids $!"
		done
		# shellcheck disable=SC2086 # one word a pid
		wait $pids
		start=$(now_cs)
		idle=""
		for nb in $before; do
			r=$(($(node_refaults "/sys/devices/system/node/${nb%%:*}") - ${nb#*:}))
			[ "$r" -gt 0 ] || idle="$idle ${nb%%:*}"
			nb_detail="${nb_detail:-}${nb%%:*} $r, "
		done
		if [ -z "$idle" ]; then
			record numa-reclaimed pass "$start" "page cache refaults by node: ${nb_detail%, }"
		else
			record numa-reclaimed fail "$start" "no page cache refault on$idle: ${nb_detail%, }"
		fi
		lists_check numa-lru-check
	fi
fi

if has_group zram; then
	start=$(now_cs)
	if ! grep -q '^/dev/zram' /proc/swaps; then
		record zram-setup skip "$start" "no zram swap: needs lab.sh stress --swap zram"
	else
		# The workloads do not compress: in a memcg at half their size
		# they swap to zram without filling the guest with zram's pages.
		memcg_rounds zram-workloads lab-zram
		start=$(now_cs)
		stored=$(awk '{ print $1 }' /sys/block/zram0/mm_stat 2>/dev/null)
		if [ "${stored:-0}" -gt 0 ] || [ "$(sed -n 's/^pswpout //p' /proc/vmstat)" -gt 0 ]; then
			record zram-swapped pass "$start" "pswpout $(sed -n 's/^pswpout //p' /proc/vmstat)"
		else
			record zram-swapped fail "$start" "nothing was swapped out to zram"
		fi
		lists_check zram-lru-check
	fi
fi

if has_group thp; then
	start=$(now_cs)
	thp=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
	fs=$(awk '$2 == "/data" { print $3 }' /proc/mounts)
	if [ "$thp" != always ] && [ "$fs" != xfs ]; then
		record thp-setup skip "$start" "no large folios: needs lab.sh stress --thp always or --fs xfs"
	else
		# Anonymous THPs (--thp always) swapped out and split under
		# reclaim, and the data disk's large folios (XFS) reclaimed, in a
		# memcg at half the workloads' size.
		thp0=$(sed -n 's/^thp_fault_alloc //p' /proc/vmstat)
		memcg_rounds thp-workloads lab-thp
		start=$(now_cs)
		thp1=$(sed -n 's/^thp_fault_alloc //p' /proc/vmstat)
		if [ "$thp" = always ] && [ "$((thp1 - thp0))" -eq 0 ]; then
			record thp-allocated fail "$start" "THP always, but no THP was faulted in"
		else
			record thp-allocated pass "$start" "thp $thp, data on $fs, thp_fault_alloc $((thp1 - thp0))"
		fi
		lists_check thp-lru-check
	fi
fi

if has_group smp; then
	start=$(now_cs)
	cpus=$(grep -c '^processor' /proc/cpuinfo)
	if [ "$cpus" -lt 4 ]; then
		record smp-setup skip "$start" "$cpus CPUs: needs lab.sh stress --vcpus 4 or more"
	else
		# A faulting process per CPU on one lruvec (--procs), each over
		# its own share of 1.25 x RAM, so that every CPU reclaims; and,
		# on a kernel that can switch, a switch every few seconds
		# meanwhile.
		size_mb=$((mem_total_mb * 5 / 4))
		pf=$PAGE_REPLACE_POLICY
		switcher=
		if grep -q '^switches ' $PAGE_REPLACE_STATS 2>/dev/null && ! grep -q '\[mglru\]' $pf; then
			boot_policy=$(sed -n 's/.*\[\([^]]*\)\].*/\1/p' $pf)
			schedule=$(tr -d '[]' <$pf | tr ' ' '\n' | grep -vx -e mglru -e '' -e "$boot_policy" |
				awk '{ printf " %d:%s", NR * 3, $0 }')
			# shellcheck disable=SC2086 # one word per switch
			lab-switch "$logs/smp-switch-schedule.jsonl" $schedule &
			switcher=$!
		fi
		for wl in cyclic-anon cyclic-file; do
			run_test "smp-$wl" plain 1800 /lab/bin/$wl --size ${size_mb}M --passes 2 --procs "$cpus" --dir /data
		done
		if [ -n "$switcher" ]; then
			wait $switcher
			start=$(now_cs)
			if grep -q '"ok":false' "$logs/smp-switch-schedule.jsonl"; then
				record smp-switch fail "$start" "$(grep '"ok":false' "$logs/smp-switch-schedule.jsonl" | head -n 1)"
			else
				record smp-switch pass "$start" "$(grep -c '"ok":true' "$logs/smp-switch-schedule.jsonl") switches"
			fi
			echo "$boot_policy" >$pf
		fi
		lists_check smp-lru-check
	fi
fi

# A test run in a subshell (switch-stress-ng-vm) records its failure only
# in the table.
cut -f2 "$tsv" | grep -qx fail && failed=1
sync
exit $failed
