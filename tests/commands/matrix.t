#!/usr/bin/env bash
# lab.sh matrix without booting anything: bad arguments, resuming a
# matrix whose cells are complete (recorded runs placed in its cells),
# refusing other options under the same name, and going on past failed
# cells (a kernel that is not a bzImage fails each cell before booting).
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
fx=$top/tests/commands/fixtures/runs

usage_error "unknown policy: exit 2, one line" "$lab" matrix --policies vanilla,nope --results "$tmp/r"
usage_error "unknown workload: exit 2, one line" "$lab" matrix --workloads nope --results "$tmp/r"
usage_error "bad --reps: exit 2, one line" "$lab" matrix --reps 0 --results "$tmp/r"
usage_error "unknown option: exit 2, one line" "$lab" matrix --frobnicate
usage_error "bad --name: exit 2, one line" "$lab" matrix --name ../x --results "$tmp/r"
check "--help exits 0" bash -c "'$lab' matrix --help >/dev/null"

# Complete cells: the recorded runs, one per (policy, rep).
m=$tmp/r/resume
for p in vanilla vanilla-mglru; do
	i=0
	for d in "$fx"/*-"$p"-cyclic-anon-*/; do
		[[ $(jq -r .policy "$d/result.json") == "$p" ]] || continue
		i=$((i + 1))
		mkdir -p "$m/cells/$p/cyclic-anon/r$i/$(basename "$d")"
		cp "$d/result.json" "$m/cells/$p/cyclic-anon/r$i/$(basename "$d")/"
	done
done
rc=0
"$lab" matrix --name resume --results "$tmp/r" --policies vanilla,vanilla-mglru \
	--workloads cyclic-anon --reps 2 --mem 128M >"$tmp/out" 2>"$tmp/err" || rc=$?
check "resume: every cell complete, exit 0" test "$rc" = 0
check "resume: nothing run (4 complete, 0 to run)" grep -q '4 cells, 4 already complete, 0 to run' "$tmp/err"
check "resume: each cell reported as skipped" test "$(grep -c 'complete, skipped' "$tmp/err")" = 4
check "resume: stdout ends with the matrix directory" test "$(tail -n1 "$tmp/out")" = "$m"
check "resume: matrix.json records the options" \
	jq -e '.run_options == ["--mem", "128M"] and .workload_options == [] and .seed == 1' "$m/matrix.json"
usage_error "same name, other options: exit 2, one line" "$lab" matrix --name resume --results "$tmp/r" \
	--policies vanilla --workloads cyclic-anon --reps 2 --mem 256M

# A cell whose run failed is not complete.
jq '.exit = "timeout"' "$fx"/*-vanilla-cyclic-anon-r1-*/result.json >"$tmp/failed.json"
f=$tmp/r/partial/cells/vanilla/cyclic-anon/r1/x-failed
mkdir -p "$f" && cp "$tmp/failed.json" "$f/result.json"
mkdir -p "$tmp/r/partial/cells/vanilla/cyclic-anon/r2/x-ok"
cp "$fx"/*-vanilla-cyclic-anon-r2-*/result.json "$tmp/r/partial/cells/vanilla/cyclic-anon/r2/x-ok/"
echo "not a kernel" >"$tmp/bzImage"
rc=0
LAB_KERNEL=$tmp/bzImage "$lab" matrix --name partial --results "$tmp/r" --policies vanilla,vanilla-mglru \
	--workloads cyclic-anon --reps 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
check "failures: exit is the failed cells' code (8, kernel missing/corrupt)" test "$rc" = 8
check "failures: 1 cell complete, 3 to run" grep -q '4 cells, 1 already complete, 3 to run' "$tmp/err"
check "failures: every failed cell tried and reported" test "$(grep -c 'FAILED with exit 8' "$tmp/err")" = 3
check "failures: summary names them" grep -q '3 of 4 cells failed' "$tmp/err"
check "failures: a log per tried cell" test "$(find "$tmp/r/partial/logs" -name '*.log' | wc -l)" = 3
check "failures: an ETA once a cell has finished" grep -q 'ETA' "$tmp/err"
diag "$(tail -n 2 "$tmp/err")"
done_testing
