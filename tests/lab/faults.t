#!/usr/bin/env bash
# The harness survives faults: each gives its own exit code and a clear
# message, keeps the console, never passes a broken run off as complete,
# and the next run still works. Faults are injected inside the guest
# (LAB_INJECT, see images/guest/init) or by killing QEMU from outside.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res

# fault NAME EXPECTED_CODE EXPECTED_EXIT [run options...]; the workload is
# cyclic-anon, or FAULT_WORKLOAD.
fault() {
	local name=$1 code=$2 class=$3 rc=0
	shift 3
	LAB_INJECT=$name "$top/lab.sh" run vanilla "${FAULT_WORKLOAD:-cyclic-anon}" --size 8M "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	dir=$(last_line "$tmp/$name.out")
	check "$name: the guest injected it" grep -q "LAB: injecting: " "$dir/console.log"
	check "$name: exit code $code" test "$rc" = "$code"
	check "$name: result.json says $class" test "$(jq -r .exit "$dir/result.json" 2>/dev/null)" = "$class"
	check "$name: not marked verified" test "$(jq -r .verified "$dir/result.json" 2>/dev/null)" = false
	check "$name: console log kept" test -s "$dir/console.log"
	check "$name: one clear message on stderr" grep -q "$class" "$tmp/$name.err"
	# The analysis takes only runs whose exit is ok: none here.
	# shellcheck disable=SC2016 # positional parameters of bash -c
	check "$name: labstat finds no completed run in it" bash -c \
		'! "$1" "$2" >/dev/null 2>"$3" && grep -q "no completed runs" "$3"' _ \
		"$top/build/analysis/labstat" "$dir" "$tmp/$name.labstat"
}

fault panic 5 panic
check "panic: the console shows the panic" \
	grep -q 'Kernel panic' "$(last_line "$tmp/panic.out")/console.log"
fault hang 6 timeout --timeout 25
fault crash 4 workload-failed
fault fill 1 harness-error

# A tracer that ignores SIGINT: the guest gives up on it after
# LAB_TRACER_STOP_S seconds and names it, instead of holding the run until
# the host's --timeout (that would be exit 6, timeout).
LAB_TRACER_STOP_S=3 fault stuck-tracer 1 harness-error
check "stuck-tracer: the error names the tracer" \
	grep -q 'LAB-ERROR: --trace: injected-stuck-tracer did not exit within 3s of SIGINT' "$dir/console.log"
rc=0
LAB_TRACER_STOP_S=0 "$top/lab.sh" run vanilla cyclic-anon --size 8M >/dev/null 2>"$tmp/stop0.err" || rc=$?
check "LAB_TRACER_STOP_S=0: usage error" test "$rc" = 2
check "LAB_TRACER_STOP_S=0: one clear line" grep -q "bad LAB_TRACER_STOP_S '0'" "$tmp/stop0.err"

# The lab's two promises: a guest that runs another policy than the one
# asked for is exit 7, and lost or corrupted data is exit 3.
fault policy 7 policy-mismatch
check "policy: result.json keeps the policy the guest reported" \
	test "$(jq -r .policy_active "$dir/result.json" 2>/dev/null)" = injected-other
# init complements byte 5000 of the data file between setup and run: page
# 1 (5000 / 4096), the 8-byte word at offset 904 ((5000 % 4096) / 8 * 8).
FAULT_WORKLOAD=cyclic-file fault corrupt 3 verify-failed
# shellcheck disable=SC2016 # a jq program
check "corrupt: the workload found it at page 1, offset $(((5000 % 4096) / 8 * 8))" \
	jq -e --arg off "$(((5000 % 4096) / 8 * 8))" \
	'.workload_result.verified == false and (.workload_result.verify_error | test("^page 1 pass [0-9]+ offset " + $off + "$"))' \
	"$dir/result.json"

# A workload that fails in the guest: lab.sh run prints the workload's own
# last error line beside the exit code (here a --dir only the guest can
# judge; the lab's --dir /data comes first, the user's wins).
rc=0
"$top/lab.sh" run vanilla cyclic-file --size 8M -- --dir /no/such/dir \
	>"$tmp/wlerr.out" 2>"$tmp/wlerr.err" || rc=$?
dir=$(last_line "$tmp/wlerr.out")
check "failing workload: exit 4" test "$rc" = 4
check "failing workload: stderr has the workload's own error line" \
	grep -q "workload-failed: workload cyclic-file exited with status 2 in its setup phase: cyclic-file: .*/no/such/dir" \
	"$tmp/wlerr.err"
check "failing workload: result.json keeps it as workload_error" \
	jq -e '.workload_error | test("^cyclic-file: .*/no/such/dir")' "$dir/result.json"

# A boot that never reaches init (a 1 s limit is shorter than any boot):
# booted again on fresh disks twice, then a boot-stall failure, the
# stalled consoles kept; the same boot loop as lab.sh stress.
rc=0
"$top/lab.sh" run vanilla cyclic-anon --size 8M --boot-timeout 1 >"$tmp/stall.out" 2>"$tmp/stall.err" || rc=$?
dir=$(last_line "$tmp/stall.out")
check "boot stall: exit 6" test "$rc" = 6
check "boot stall: result.json exit boot-stall after 3 boots" \
	test "$(jq -r '.exit + " " + (.boot_stalls | tostring)' "$dir/result.json" 2>/dev/null)" = "boot-stall 3"
check "boot stall: each stalled console kept" \
	test -f "$dir/console.boot-stall-1.log" -a -f "$dir/console.boot-stall-2.log" -a -f "$dir/console.boot-stall-3.log"
check "boot stall: it said it booted again" grep -q 'booting again on fresh disks' "$tmp/stall.err"

# QEMU killed from outside while the workload runs.
rc=0
LAB_INJECT=hang "$top/lab.sh" run vanilla cyclic-anon --size 8M --timeout 300 \
	>"$tmp/kill.out" 2>"$tmp/kill.err" &
pid=$!
injected=0
for _ in $(seq 240); do
	grep -q 'injecting: hang' "$tmp/kill.err" 2>/dev/null && { injected=1; break; }
	sleep 1
done
# Killed either way (nothing is left running), but only a kill during the
# injected hang tests what this claims.
check "killed QEMU: the guest was in the injected hang when killed" test "$injected" = 1
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
