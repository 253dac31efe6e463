#!/usr/bin/env bash
# lab.sh stress and lab/make/stress-gate.sh refuse bad arguments with exit 2 and
# one line on stderr, before booting anything or writing a result.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res

# bad DESCRIPTION COMMAND...: exit 2, exactly one stderr line, no results.
bad() {
	local desc=$1 rc=0
	shift
	env "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "$desc: exit 2" test "$rc" = 2
	check "$desc: one line on stderr" test "$(wc -l <"$tmp/err")" = 1
	check "$desc: nothing written" test ! -e "$LAB_RESULTS"
}

lab=$top/lab.sh
bad "no policy" "$lab" stress
bad "unknown policy" "$lab" stress nosuchpolicy
bad "unknown option" "$lab" stress vanilla --reps 3
bad "option without value" "$lab" stress vanilla --duration
bad "duration not a number" "$lab" stress vanilla --duration 1m
bad "duration zero" "$lab" stress vanilla --duration 0
bad "duration too long" "$lab" stress vanilla --duration 90000
bad "bad --mem" "$lab" stress vanilla --mem lots
bad "--mem too small" "$lab" stress vanilla --mem 64M
bad "bad --timeout" "$lab" stress vanilla --timeout -5
bad "vanilla on the debug kernel" "$lab" stress vanilla --kernel debug
bad "unknown kernel flavour" "$lab" stress lru --kernel fast
bad "lab policy on the vanilla kernel" "$lab" stress lru --kernel vanilla
bad "unknown fault to inject" LAB_STRESS_INJECT=explode "$lab" stress vanilla
bad "unknown test group" "$lab" stress vanilla --groups "stressng fuzz"
bad "empty --groups" "$lab" stress vanilla --groups " "
bad "--vcpus zero" "$lab" stress vanilla --vcpus 0
bad "--vcpus not a number" "$lab" stress vanilla --vcpus four
bad "--vcpus above 8" "$lab" stress vanilla --vcpus 9
bad "bad --boot-timeout" "$lab" stress vanilla --boot-timeout 0
bad "--boot-arg of the lab's own" "$lab" stress vanilla --boot-arg page_replace=lru
bad "--scan with two files" "$lab" stress --scan a b

gate=$top/lab/make/stress-gate.sh
bad "gate: unknown option" "$gate" --fast
bad "gate: bad --kernel" "$gate" --kernel vanilla
bad "gate: bad --duration" "$gate" --duration -1
bad "gate: unknown policy" "$gate" --policies "lru nosuch"
bad "gate: --doc in a missing directory" "$gate" --doc "$tmp/no/such/dir/R.md"

rc=0
"$lab" stress --help >"$tmp/out" 2>&1 || rc=$?
check "--help: exit 0" test "$rc" = 0
check "--help lists the exit codes" grep -q 'Exit codes' "$tmp/out"
done_testing
