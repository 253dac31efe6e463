#!/usr/bin/env bash
# The harness survives faults: each gives its own exit code and a clear
# message, keeps the console, never passes a broken run off as complete,
# and the next run still works. Faults are injected inside the guest
# (LAB_INJECT, see images/guest/init) or by killing QEMU from outside.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res

# fault NAME EXPECTED_CODE EXPECTED_EXIT [run options...]
fault() {
	local name=$1 code=$2 class=$3 rc=0 dir
	shift 3
	LAB_INJECT=$name "$top/lab.sh" run vanilla cyclic-anon --size 8M "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	dir=$(last_line "$tmp/$name.out")
	check "$name: exit code $code" test "$rc" = "$code"
	check "$name: result.json says $class" test "$(jq -r .exit "$dir/result.json" 2>/dev/null)" = "$class"
	check "$name: not marked verified" test "$(jq -r .verified "$dir/result.json" 2>/dev/null)" = false
	check "$name: console log kept" test -s "$dir/console.log"
	check "$name: one clear message on stderr" grep -q "$class" "$tmp/$name.err"
}

fault panic 5 panic
check "panic: the console shows the panic" \
	grep -q 'Kernel panic' "$(last_line "$tmp/panic.out")/console.log"
fault hang 6 timeout --timeout 25
fault crash 4 workload-failed
fault fill 1 harness-error

# QEMU killed from outside while the workload runs.
rc=0
LAB_INJECT=hang "$top/lab.sh" run vanilla cyclic-anon --size 8M --timeout 120 \
	>"$tmp/kill.out" 2>"$tmp/kill.err" &
pid=$!
for _ in $(seq 60); do
	grep -q 'injecting: hang' "$tmp/kill.err" 2>/dev/null && break
	sleep 1
done
pkill -KILL -f "qemu-system-x86_64.*$tmp/res" || true
wait "$pid" || rc=$?
dir=$(last_line "$tmp/kill.out")
check "killed QEMU: exit code 1" test "$rc" = 1
check "killed QEMU: result.json says harness-error" \
	test "$(jq -r .exit "$dir/result.json" 2>/dev/null)" = harness-error
check "killed QEMU: console log kept" test -s "$dir/console.log"

check "no partial directory left behind" \
	test -z "$(find "$LAB_RESULTS" -maxdepth 1 -name '.*.partial')"

# And the next run works.
rc=0
"$top/lab.sh" run vanilla cyclic-anon --size 8M >"$tmp/after.out" 2>"$tmp/after.err" || rc=$?
check "a run after all the faults passes" test "$rc" = 0
check "... and verifies its data" \
	test "$(jq -r .verified "$(last_line "$tmp/after.out")/result.json" 2>/dev/null)" = true
done_testing
