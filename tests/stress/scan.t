#!/usr/bin/env bash
# The gate's console scanner (lab.sh stress --scan) on console texts: each
# kind of kernel report is found and named, with its line; a clean console
# (real ones from stress runs on the vanilla kernel and on a KASAN +
# lockdep debug build with OOM kills, and harness lines that quote report
# words) passes.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
fx=$top/tests/stress/fixtures

# expect FIXTURE "KIND ..." : exit 5 and exactly these kinds, in order.
expect() {
	local f=$1 want=$2 rc=0 got
	"$top/lab/commands/stress.sh" --scan "$fx/$f.log" >"$tmp/out" 2>"$tmp/err" || rc=$?
	got=$(cut -f1 "$tmp/out" | tr '\n' ' ' | sed 's/ $//')
	check "$f: exit 5 (kernel report)" test "$rc" = 5
	check "$f: finds '$want' (got '$got')" test "$got" = "$want"
}

expect warning warning
expect kasan kasan
expect lockdep-circular lockdep
expect lockdep-inconsistent lockdep
expect soft-lockup "soft-lockup panic"
expect hung-task "hung-task panic"
expect oops "bug oops panic"
expect bad-page bad-page
expect list-corruption "list-corruption bug"
expect sleep-in-atomic sleep-in-atomic
expect panic panic

# The finding names its console line.
"$top/lab/commands/stress.sh" --scan "$fx/kasan.log" >"$tmp/kasan" || true
check "a finding carries its line number and text" \
	grep -qP '^kasan\t2\t.*BUG: KASAN: use-after-free' "$tmp/kasan"

for clean in clean-vanilla-stress clean-debug-stress clean-with-lab-lines; do
	rc=0
	"$top/lab/commands/stress.sh" --scan "$fx/$clean.log" >"$tmp/out" 2>&1 || rc=$?
	check "$clean: exit 0" test "$rc" = 0
	check "$clean: no finding" test ! -s "$tmp/out"
done

# A report anywhere in a long clean console is still found.
{ cat "$fx/clean-vanilla-stress.log"; cat "$fx/warning.log"; cat "$fx/clean-vanilla-stress.log"; } >"$tmp/mixed.log"
rc=0
"$top/lab/commands/stress.sh" --scan "$tmp/mixed.log" >"$tmp/out" || rc=$?
check "a WARNING in the middle of a clean console: exit 5" test "$rc" = 5
check "... at its line" grep -qP "^warning\t$(($(wc -l <"$fx/clean-vanilla-stress.log") + 2))\t" "$tmp/out"

# Bad use of --scan.
rc=0
"$top/lab/commands/stress.sh" --scan "$tmp/no-such.log" >/dev/null 2>"$tmp/err" || rc=$?
check "--scan of a missing file: exit 2" test "$rc" = 2
check "... with one line on stderr" test "$(wc -l <"$tmp/err")" = 1
rc=0
"$top/lab/commands/stress.sh" --scan >/dev/null 2>"$tmp/err" || rc=$?
check "--scan without a file: exit 2" test "$rc" = 2
done_testing
