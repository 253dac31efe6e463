#!/usr/bin/env bash
# stress-gate.sh --table-only: the RELIABILITY.md table from gate runs
# (two real vanilla runs, one passing and one failing), the prose around it
# kept, the file replaced atomically; bad input refused.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
runs=$top/tests/stress/fixtures/runs
pass=$runs/20261203T095922-vanilla-stress-r1-b730
fail=$runs/20261203T094700-vanilla-stress-r1-1234
gate=$top/lab/make/stress-gate.sh

cat >"$tmp/R.md" <<'DOC'
# Title kept
Prose before.
<!-- stress-gate:begin (lab/make/stress-gate.sh rewrites this part) -->
old table
<!-- stress-gate:end -->
Prose after.
DOC
rc=0
"$gate" --table-only --doc "$tmp/R.md" "$pass" "$fail" >"$tmp/out" 2>&1 || rc=$?
check "table-only: exit 0" test "$rc" = 0
check "the prose before is kept" grep -qx 'Prose before.' "$tmp/R.md"
check "the prose after is kept" grep -qx 'Prose after.' "$tmp/R.md"
check "the old table is gone" test "$(grep -c 'old table' "$tmp/R.md")" = 0
# The pass row's cells, counted here from the run's stress.json.
read -r wall release total passed skipped < <(jq -r '[.wall_s, .kernel.release, (.tests | length),
	([.tests[] | select(.result == "pass")] | length), ([.tests[] | select(.result == "skip")] | length)]
	| @tsv' "$pass/stress.json")
command=$(jq -r .command "$pass/stress.json")
row="| vanilla | vanilla $release | **pass** | $wall s | $passed/$total, $skipped skipped | clean | \`$command\` |"
check "the passing run is a pass row with its command ($passed/$total, $wall s)" grep -qxF -- "$row" "$tmp/R.md"
check "the failing run is a fail row naming why" \
	grep -qE '^\| vanilla \| .*\*\*fail\*\* \(tests-failed\)' "$tmp/R.md"
check "the test matrix has a column per run" \
	grep -qE '^\| selftest-cgroup-test_memcontrol \| pass [0-9.]+s \| fail [0-9.]+s \|$' "$tmp/R.md"
check "the details name the failing subtests" \
	grep -q 'selftest-cgroup-test_memcontrol: fail; exit status 1: test_memcg_min,test_memcg_high_sync' "$tmp/R.md"
check "no temporary file left" test ! -e "$tmp/R.md.tmp"

# A run that needed a second boot says so under the table.
mkdir -p "$tmp/stalled"
jq '.boot_stalls = 1' "$pass/stress.json" >"$tmp/stalled/stress.json"
"$gate" --table-only --doc "$tmp/R.md" "$tmp/stalled" >"$tmp/out" 2>&1
check "a boot stall is named in the details" \
	grep -qx -- '- vanilla: 1 boot(s) stalled before init, each booted again on fresh disks (console.boot-stall-N.log kept)' "$tmp/R.md"

rc=0
"$gate" --table-only --doc "$tmp/new.md" "$pass" >/dev/null 2>&1 || rc=$?
check "a missing doc is created with the markers" \
	test "$rc" = 0 -a "$(grep -c 'stress-gate:' "$tmp/new.md" 2>/dev/null)" = 2

# bad DESCRIPTION ARGS...: exit 2, one line, the doc untouched.
bad() {
	local desc=$1 rc=0 before
	shift
	before=$(sha256sum "$tmp/R.md")
	"$gate" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "$desc: exit 2" test "$rc" = 2
	check "$desc: one line on stderr" test "$(wc -l <"$tmp/err")" = 1
	check "$desc: doc untouched" test "$(sha256sum "$tmp/R.md")" = "$before"
}
bad "--table-only without runs" --table-only --doc "$tmp/R.md"
bad "a run dir without stress.json" --table-only --doc "$tmp/R.md" "$tmp"
echo '{"x":1}' >"$tmp/stress.json"
bad "a stress.json that is not a gate result" --table-only --doc "$tmp/R.md" "$tmp"
bad "run dirs without --table-only" --doc "$tmp/R.md" "$pass"
done_testing
