#!/usr/bin/env bash
# The gate fails when it should, each way with its own exit code, a report
# that names the cause, stress.json saying so and the console kept; and it
# never passes vacuously. Faults are injected inside a vanilla guest
# (LAB_STRESS_INJECT, see images/guest/stress-job.sh) with no other test
# group, to keep each boot short.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
export LAB_RESULTS=$tmp/res

# gate NAME INJECT GROUPS [stress options...]: run it; sets rc and dir.
gate() {
	local name=$1 inject=$2 groups=$3
	shift 3
	rc=0
	LAB_STRESS_INJECT=$inject "$top/lab.sh" stress vanilla --duration 5 --groups "$groups" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	dir=$(tail -n1 "$tmp/$name.out")
	diag "$name: exit $rc, $(grep -c . "$tmp/$name.err") lines of report, $dir"
}
json() { jq -r "$1" "$dir/stress.json" 2>/dev/null; }

# A kernel WARNING on the console fails a run whose tests all pass.
gate warn warn memcg
check "warning: exit 5" test "$rc" = 5
check "warning: the tests themselves passed" test "$(json '[.tests[] | select(.result != "pass")] | length')" = 0
check "warning: stress.json verdict fail, exit kernel-report" test "$(json '.verdict + " " + .exit')" = "fail kernel-report"
check "warning: the finding is a warning with its console line" \
	test "$(json '.console_findings[0].kind')" = warning
check "warning: the report names it" grep -q 'FAIL (kernel-report).*warning' "$tmp/warn.err"
check "warning: console log kept" grep -q 'WARNING: CPU: 0 PID' "$dir/console.log"

# A failing test fails the gate and is named.
gate fail fail none
check "failing test: exit 4" test "$rc" = 4
check "failing test: stress.json exit tests-failed" test "$(json .exit)" = tests-failed
check "failing test: recorded as failed" \
	test "$(json '.tests[] | select(.name == "injected-failure") | .result')" = fail
check "failing test: the report names it" grep -q 'failed: injected-failure' "$tmp/fail.err"
check "failing test: console clean, so the failure is the test's" test "$(json '.console_findings | length')" = 0

# The guest kernel panics mid-run.
gate panic panic none
check "panic: exit 5" test "$rc" = 5
check "panic: finding panic" test "$(json '[.console_findings[].kind] | index("panic") != null')" = true
check "panic: console log kept" grep -q 'Kernel panic' "$dir/console.log"

# The guest hangs: the timeout kills it.
gate hang hang none --timeout 40
check "hang: exit 6" test "$rc" = 6
check "hang: stress.json exit timeout" test "$(json .exit)" = timeout
check "hang: console log kept" test -s "$dir/console.log"

# The guest never reaches init (as 6.1 with debug.config now and then under
# TCG): booted again twice on fresh disks, then a boot-stall failure with
# every console kept. A 1 s limit is shorter than any boot here.
gate stall "" none --boot-timeout 1
check "boot stall: exit 6" test "$rc" = 6
check "boot stall: stress.json exit boot-stall after 3 boots" \
	test "$(json '.exit + " " + (.boot_stalls | tostring)')" = "boot-stall 3"
check "boot stall: each stalled console kept" \
	test -f "$dir/console.boot-stall-1.log" -a -f "$dir/console.boot-stall-2.log" -a -f "$dir/console.boot-stall-3.log"
check "boot stall: the report says it booted again" grep -q 'booting again on fresh disks' "$tmp/stall.err"
check "boot stall: the report names the cause" grep -q 'FAIL (boot-stall): guest never reached init' "$tmp/stall.err"
gate stall-arg "" none --boot-timeout soon
check "bad --boot-timeout: exit 2" test "$rc" = 2
check "bad --boot-timeout: one clear line" grep -q "bad --boot-timeout 'soon'" "$tmp/stall-arg.err"

# The job script itself dies (as it did when an uptime of "0.98" became the
# bad octal number "098"): no test failed, and the verdict says why.
gate die die none
check "job script died: exit 4" test "$rc" = 4
check "job script died: stress.json exit job-died" test "$(json .exit)" = job-died
check "job script died: the note has the shell's own error" \
	grep -q 'stress-job.sh exited with status 2 after 0 tests: .*arithmetic syntax error' <<<"$(json .note)"
check "job script died: the report names the reason" grep -q 'FAIL (job-died): .*arithmetic syntax error' "$tmp/die.err"

# Nothing ran: not a pass.
gate empty "" none
check "no test at all: exit 1, not a pass" test "$rc" = 1
check "no test at all: verdict fail" test "$(json .verdict)" = fail

check "no partial result directory left behind" \
	test -z "$(find "$LAB_RESULTS" -maxdepth 1 -name '.*.partial')"
done_testing
