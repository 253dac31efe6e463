#!/usr/bin/env bash
# tests/run itself, on a made-up tests/ tree: it counts passes, failures
# and skips, fails a script whose plan is missing or wrong or that exits
# non-zero, counts "1..0 # SKIP" as a skipped script, and with CI=true
# fails every skip that tests/allowed-skips does not list with a reason;
# a TODO failure that names its note is counted apart, not as a failure.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"

t=$tmp/tree
mkdir -p "$t/tests/a" "$t/tests/b"
cp "$top/tests/run" "$t/tests/run"
script() {	# script AREA/NAME.t LINE...: an executable test printing LINE...
	printf '#!/bin/sh\n' >"$t/tests/$1"
	local f=$t/tests/$1
	shift
	printf "echo '%s'\n" "$@" >>"$f"
	chmod +x "$f"
}
script a/good.t 'ok 1 - one' 'ok 2 - two' '1..2'
script a/skipone.t 'ok 1 - one' 'ok 2 - two # SKIP no tool' '1..2'
script a/skipall.t '1..0 # SKIP no fixture'
script b/good.t '1..1' 'ok 1 - plan first'

# runs CI [AREA...]: tests/run on the tree with CI=$1; sets rc, out.
runs() {
	rc=0
	CI=$1 "$t/tests/run" "${@:2}" >"$tmp/out" 2>&1 || rc=$?
	out=$(cat "$tmp/out")
}

runs ""
is "$rc $(tail -n1 <<<"$out")" "0 4 passed, 0 failed, 2 skipped" \
	"all pass: 4 passed (plan first or last), 2 skipped (one test, one script)"
check "a row per script, in area order" \
	test "$(grep -v '^ ' "$tmp/out" | awk '{ print $1 }' | head -n 4 | tr '\n' ' ')" = "a/good.t a/skipall.t a/skipone.t b/good.t "

runs true
is "$rc $(tail -n1 <<<"$out")" "1 4 passed, 2 failed, 0 skipped" "CI: both unlisted skips fail, as failures"
check "CI: the skipped test is named" grep -q 'skip not in tests/allowed-skips: a/skipone.t: two' "$tmp/out"
check "CI: the skipped script is named" grep -q 'skip not in tests/allowed-skips: a/skipall.t$' "$tmp/out"

printf '# comment\na/skipall.t | fixtures need a guest\na/skipone.t: t* | no tool in CI\n' >"$t/tests/allowed-skips"
runs true
is "$rc $(tail -n1 <<<"$out")" "0 4 passed, 0 failed, 2 skipped" "CI: listed skips pass"
printf 'a/skipall.t\n' >"$t/tests/allowed-skips"
runs true
is "$rc" 2 "an allowed skip without a reason is refused"
rm "$t/tests/allowed-skips"

# Known failures: a TODO that names its note does not fail; one that
# names none does.
script a/todo.t 'ok 1 - one' 'not ok 2 - two # TODO docs/notes/why.md' '1..2'
runs "" a
is "$rc $(tail -n1 <<<"$out")" "0 4 passed, 0 failed, 2 skipped, 1 known failures (TODO)" \
	"a TODO failure is counted apart and does not fail"
check "the known failure is listed under its row" grep -q '^    known: not ok 2 - two # TODO' "$tmp/out"
script a/todo.t 'ok 1 - one' 'not ok 2 - two # TODO later' '1..2'
runs "" a
is "$rc" 1 "a TODO without a docs/notes/ file fails its script"
rm "$t/tests/a/todo.t"

# Each way a script can under-report.
script b/noplan.t 'ok 1 - one'
script b/short.t 'ok 1 - one' '1..2'
script b/twoplans.t '1..1' 'ok 1 - one' '1..1'
script b/late.t 'ok 1 - one' '1..0 # SKIP too late'
printf '#!/bin/sh\necho "ok 1 - one"\necho "1..1"\nexit 3\n' >"$t/tests/b/dies.t"
chmod +x "$t/tests/b/dies.t"
script b/notok.t 'ok 1 - one' 'not ok 2 - two' '1..2'
# A sanitizer report the test itself never saw (its stderr thrown away).
# shellcheck disable=SC2016 # the script's own expansions
printf '#!/bin/bash\necho "ok 1 - one"; echo "1..1"\nlog=${ASAN_OPTIONS#log_path=}\necho "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >"${log%%%%:*}.1"\n' \
	>"$t/tests/b/asan.t"
chmod +x "$t/tests/b/asan.t"
runs "" b
is "$rc $(tail -n1 <<<"$out")" "1 8 passed, 7 failed, 0 skipped" "tests/run AREA: seven bad scripts, seven failures"
for why in "b/noplan.t: 0 plans" "b/short.t: plan says 2 tests, ran 1" "b/twoplans.t: 2 plans" \
	"b/late.t: skipped whole (1..0) after running 1 tests" "b/dies.t: exited with status 3" "not ok 2 - two" \
	"b/asan.t: sanitizer report: ==1==ERROR: AddressSanitizer: heap-buffer-overflow"; do
	check "named: $why" grep -qF "$why" "$tmp/out"
done
runs "" nosuch
is "$rc" 2 "an unknown area is a usage error"

# Scripts run side by side (LAB_TEST_JOBS), rows in script order; one
# marked "# tests/run: alone" runs with none beside it. Each script
# logs its start and end (seconds since the epoch, nanoseconds).
mkdir -p "$t/tests/c"
# shellcheck disable=SC2016 # the script's own expansions
timed() {	# timed NAME SECONDS [alone]: sleeps, logs its interval
	{
		printf '#!/bin/sh\n'
		[[ -z ${3:-} ]] || printf '# tests/run: alone\n'
		printf 'echo "%s start $(date +%%s%%N)" >>%s\n' "$1" "$tmp/spans"
		printf 'sleep %s\necho "ok 1 - %s"; echo 1..1\n' "$2" "$1"
		printf 'echo "%s end $(date +%%s%%N)" >>%s\n' "$1" "$tmp/spans"
	} >"$t/tests/c/$1.t"
	chmod +x "$t/tests/c/$1.t"
}
timed a-slow 2
timed b-fast 0
timed c-slow 2
timed d-alone 1 alone
timed e-after 1
rm -f "$tmp/spans"
start_s=$SECONDS
LAB_TEST_JOBS=2 runs "" c
wall=$((SECONDS - start_s))
is "$rc $(tail -n1 <<<"$out")" "0 5 passed, 0 failed, 0 skipped" "two jobs: five scripts pass"
check "two jobs: rows in script order, not the order they ended" \
	test "$(grep '^c/' "$tmp/out" | awk '{ print $1 }' | tr '\n' ' ')" = "c/a-slow.t c/b-fast.t c/c-slow.t c/d-alone.t c/e-after.t "
check "two jobs: scripts overlapped (wall ${wall}s, one by one they sleep 6 s)" test "$wall" -lt 6
# span NAME start|end: the time NAME logged
span() { awk -v n="$1" -v w="$2" '$1 == n && $2 == w { print $3 }' "$tmp/spans"; }
check "the alone script ran with no other beside it" \
	test "$(span d-alone start)" -ge "$(span c-slow end)" -a "$(span e-after start)" -ge "$(span d-alone end)"
check "the summary line says the jobs" grep -q '^script seconds by area: c [0-9]*s, wall [0-9]*s with 2 jobs$' "$tmp/out"
LAB_TEST_JOBS=x runs "" c
is "$rc $(cat "$tmp/out")" "2 tests/run: LAB_TEST_JOBS must be a positive integer, not 'x'" \
	"a bad LAB_TEST_JOBS: one line, exit 2"
done_testing
