#!/usr/bin/env bash
# tests/run: alone (SIGINT must clean up within 5 s)
# Interruption and concurrency, on real guests. A run whose guest hangs
# (LAB_INJECT=hang) is registered; a second run made beside it records it
# in concurrent_guests; SIGINT to the hanging lab.sh run, and then to a
# lab.sh matrix whose cell hangs, stops the guest's whole process group and
# removes the work and partial directories within 5 s, with exit 130.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res
need_guest vanilla
# A script's background jobs ignore SIGINT unless job control is on; with
# it, each job is a process group of its own, as a command at a terminal.
set -m
# A signal ignored when a shell starts cannot be trapped in it, and a
# test run started in the background (nohup ... &) ignores SIGINT from
# the top: env gives the lab commands SIGINT's default back, as a
# terminal would.
interruptible=(env --default-signal=INT)

# wait_for FILE REGEX SECONDS: until FILE has a line matching REGEX.
wait_for() {
	local i
	for ((i = 0; i < $3; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 1
	done
	return 1
}

# interrupted NAME PID RUNDIR: SIGINT to PID (a lab command whose guest
# hangs, its results under RUNDIR); everything of that run is gone in 5 s.
interrupted() {
	local name=$1 pid=$2 dir=$3 part id rc=0 t0 t1 watchdog
	part=$(find "$dir" -name '.*.partial' | head -n1)
	id=$(basename "$part" .partial)
	id=${id#.}
	check "$name: its guest is running and registered ($id)" \
		test -n "$id" -a -e "$top/build/guests/$id.lock"
	check "$name: its QEMU runs" test -n "$(pgrep -f "qemu-system-x86_64 .*/runs/$id/")"
	t0=$SECONDS
	kill -INT "$pid"
	# a run that ignores SIGINT fails the checks below, not the whole suite
	(sleep 60 && kill -TERM "$pid") 2>/dev/null &
	watchdog=$!
	wait "$pid" || rc=$?
	t1=$SECONDS
	kill "$watchdog" 2>/dev/null || true
	wait "$watchdog" 2>/dev/null || true
	is "$rc" 130 "$name: SIGINT ends it with exit 130"
	check "$name: within 5 s ($((t1 - t0)) s)" test $((t1 - t0)) -le 5
	# its work directory (QEMU, timeout) or its partial directory (tail);
	# not the bare id, which a run beside it records among its neighbours
	if pgrep -f "runs/$id/|\.$id\.partial" >/dev/null; then
		not_ok "$name: no process of that run left (QEMU, timeout, tail)" \
			"$(pgrep -af "runs/$id/|\.$id\.partial")"
	else
		ok "$name: no process of that run left (QEMU, timeout, tail)"
	fi
	check "$name: no partial result directory" test -z "$(find "$dir" -name '.*.partial')"
	check "$name: no work directory (disk images)" test ! -e "$top/build/runs/$id"
	check "$name: no longer registered" test ! -e "$top/build/guests/$id.lock"
}

# 1. A run whose guest hangs in its timed phase.
LAB_INJECT=hang "${interruptible[@]}" "$top/lab.sh" run vanilla cyclic-anon --size 8M --timeout 900 \
	>"$tmp/hang.out" 2>"$tmp/hang.err" &
hang=$!
if ! wait_for "$tmp/hang.err" 'injecting: hang' 600; then
	not_ok "the hanging run reached its timed phase" "$(tail -n 5 "$tmp/hang.err")"
	kill -TERM "$hang" 2>/dev/null || true
	done_testing
fi
hang_id=$(basename "$(find "$LAB_RESULTS" -maxdepth 1 -name '.*.partial')" .partial)
hang_id=${hang_id#.}

# 2. Another run beside it: not held up, and it says what ran beside it.
rc=0
"$top/lab.sh" run vanilla cyclic-anon --size 8M --results "$tmp/beside" >"$tmp/beside.out" 2>"$tmp/beside.err" || rc=$?
r=$(last_line "$tmp/beside.out")/result.json
is "$rc" 0 "a run beside the hanging one completes"
check "... and records one concurrent guest or more" jq -e '.concurrent_guests >= 1' "$r"
# shellcheck disable=SC2016 # a jq program
check "... naming the hanging run ($hang_id)" \
	jq -e --arg id "$hang_id" '.concurrent_guest_ids | index($id) != null' "$r"

# 3. SIGINT to the hanging run.
interrupted "lab.sh run" "$hang" "$LAB_RESULTS"
check "lab.sh run: it said why it stopped" grep -q 'interrupted by SIGINT' "$tmp/hang.err"
check "lab.sh run: no result directory at all (the rep never finished)" \
	test -z "$(find "$LAB_RESULTS" -mindepth 1 -maxdepth 1 -not -name '.*')"

# 4. SIGINT to a matrix whose cell hangs.
LAB_INJECT=hang "${interruptible[@]}" "$top/lab.sh" matrix --policies vanilla --workloads cyclic-anon --reps 1 \
	--size 8M --timeout 900 --results "$tmp/m" --name int >"$tmp/m.out" 2>"$tmp/m.err" &
matrix=$!
if wait_for "$tmp/m/int/logs/vanilla-cyclic-anon-r1.log" 'injecting: hang' 600; then
	interrupted "lab.sh matrix" "$matrix" "$tmp/m"
	check "lab.sh matrix: the cell's log says it was stopped" \
		grep -q 'interrupted by SIGTERM' "$tmp/m/int/logs/vanilla-cyclic-anon-r1.log"
else
	not_ok "the matrix's cell reached its timed phase" "$(tail -n 5 "$tmp/m.err")"
	kill -TERM "$matrix" 2>/dev/null || true
fi
done_testing
