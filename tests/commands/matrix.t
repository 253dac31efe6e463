#!/usr/bin/env bash
# lab.sh matrix without booting anything: bad arguments (the engines'
# too), resuming a matrix whose cells are complete (recorded runs placed
# in its cells), refusing other options under the same name, --list-cells,
# and going on past failed cells (a kernel that is not a bzImage fails
# each cell before booting), through the local engine and GNU parallel.
# tests/matrix/engines.t runs real cells through all three engines.
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

# The engines' bad input: one line, exit 2, nothing made.
usage_error "unknown --engine: exit 2, one line" "$lab" matrix --engine pbs --results "$tmp/r"
usage_error "--jobs 0: exit 2, one line" "$lab" matrix --jobs 0 --results "$tmp/r"
usage_error "--jobs with a leading zero: exit 2, one line" "$lab" matrix --jobs 02 --results "$tmp/r"
usage_error "missing --sshloginfile: exit 2, one line" "$lab" matrix --engine parallel \
	--sshloginfile "$tmp/no-such-hosts" --results "$tmp/r"
printf '# no hosts here\n\n' >"$tmp/empty-hosts"
usage_error "an --sshloginfile naming no host: exit 2, one line" "$lab" matrix --engine parallel \
	--sshloginfile "$tmp/empty-hosts" --results "$tmp/r"
usage_error "--sshloginfile without --engine parallel: exit 2, one line" "$lab" matrix \
	--sshloginfile "$tmp/empty-hosts" --results "$tmp/r"
usage_error "--wait without --engine slurm: exit 2, one line" "$lab" matrix --wait --results "$tmp/r"
usage_error "--partition without --engine slurm: exit 2, one line" "$lab" matrix --partition x --results "$tmp/r"
usage_error "--force with --engine slurm: exit 2, one line" "$lab" matrix --engine slurm --force --results "$tmp/r"
# Slurm's tools absent: a PATH with only what matrix.sh needs before it
# looks for them.
mkdir -p "$tmp/bin"
for t in bash env dirname nproc realpath jq sha256sum cut; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
usage_error "--engine slurm without Slurm's tools: exit 2, one line" \
	env PATH="$tmp/bin" "$lab" matrix --engine slurm --results "$tmp/r"
check "... the line names the missing tool" bash -c \
	"env PATH='$tmp/bin' '$lab' matrix --engine slurm --results '$tmp/r' 2>&1 | grep -q 'needs Slurm.s sbatch'"
usage_error "--engine parallel without GNU parallel: exit 2, one line" \
	env PATH="$tmp/bin" "$lab" matrix --engine parallel --results "$tmp/r"
# Oversubscribing: guest threads x jobs above this host's cores (a TCG
# guest is one thread).
cores=$(nproc)
usage_error "local --jobs over the cores ($((cores + 1)) x 1 vCPU on $cores): exit 2, one line" \
	"$lab" matrix --jobs $((cores + 1)) --vcpus 1 --results "$tmp/r"
usage_error "local --jobs 2 x --vcpus $cores under KVM: exit 2, one line" \
	env LAB_ACCEL=kvm "$lab" matrix --jobs 2 --vcpus "$cores" --results "$tmp/r"
check "nothing was made by the refused commands" test ! -e "$tmp/r"

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
rc=0
"$lab" matrix --name resume --results "$tmp/r" --policies vanilla,vanilla-mglru \
	--workloads cyclic-anon --reps 2 --mem 128M --jobs $((cores / 2 + 1)) --force >"$tmp/out" 2>"$tmp/err" || rc=$?
check "--force takes an oversubscribing --jobs (2 vCPUs x $((cores / 2 + 1)); every cell complete: exit 0)" test "$rc" = 0
# A TCG guest is one host thread whatever its vCPUs: as many jobs as
# cores pass, one more is refused without --force; under KVM a guest is
# a thread per vCPU.
for accel_jobs in "tcg $cores 0" "tcg $((cores + 1)) 2" "kvm $cores 2"; do
	read -r accel jobs want <<<"$accel_jobs"
	rc=0
	LAB_ACCEL=$accel "$lab" matrix --name resume --results "$tmp/r" --policies vanilla,vanilla-mglru \
		--workloads cyclic-anon --reps 2 --mem 128M --jobs "$jobs" >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "$accel, --jobs $jobs of 2 vCPUs on $cores cores: exit $want ($(head -c 120 "$tmp/err"))" test "$rc" = "$want"
done
is "$("$lab" matrix --name resume --results "$tmp/r" --policies vanilla,vanilla-mglru \
	--workloads cyclic-anon --reps 2 --mem 128M --list-cells | wc -c)" 0 "--list-cells: no command when every cell is complete"

# A cell whose run failed is not complete.
jq '.exit = "timeout"' "$fx"/*-vanilla-cyclic-anon-r1-*/result.json >"$tmp/failed.json"
f=$tmp/r/partial/cells/vanilla/cyclic-anon/r1/x-failed
mkdir -p "$f" && cp "$tmp/failed.json" "$f/result.json"
mkdir -p "$tmp/r/partial/cells/vanilla/cyclic-anon/r2/x-ok"
cp "$fx"/*-vanilla-cyclic-anon-r2-*/result.json "$tmp/r/partial/cells/vanilla/cyclic-anon/r2/x-ok/"
echo "not a kernel" >"$tmp/bzImage"
# --list-cells: one lab.sh run command per pending cell (by hand: all but
# vanilla r2, rep by rep, in the matrix's order), and nothing written.
opts=(--name partial --results "$tmp/r" --policies vanilla,vanilla-mglru --workloads cyclic-anon --reps 2)
"$lab" matrix "${opts[@]}" --list-cells -- --passes 2 >"$tmp/list" 2>"$tmp/list.err"
pm=$tmp/r/partial
{
	for c in vanilla:1 vanilla-mglru:1 vanilla-mglru:2; do
		p=${c%:*} i=${c#*:}
		echo "$top/lab.sh run $p cyclic-anon --results $pm/cells/$p/cyclic-anon/r$i --seed 1 -- --passes 2 "
	done
} >"$tmp/list.want"
is "$(cat "$tmp/list")" "$(cat "$tmp/list.want")" "--list-cells: the pending cells' lab.sh run commands, in order"
check "--list-cells: nothing on stderr" test ! -s "$tmp/list.err"
check "--list-cells: no matrix.json, no logs written" test ! -e "$pm/matrix.json" -a ! -e "$pm/logs"
rm -rf "$tmp/r/partial-list"
"$lab" matrix "${opts[@]/partial/partial-list}" --list-cells >"$tmp/list2"
is "$(wc -l <"$tmp/list2")" 4 "--list-cells of a new matrix: all 4 cells"
check "... and its directory is not made" test ! -e "$tmp/r/partial-list"
rc=0
LAB_KERNEL=$tmp/bzImage "$lab" matrix --name partial --results "$tmp/r" --policies vanilla,vanilla-mglru \
	--workloads cyclic-anon --reps 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
check "failures: exit is the failed cells' code (8, kernel missing/corrupt)" test "$rc" = 8
check "failures: 1 cell complete, 3 to run" grep -q '4 cells, 1 already complete, 3 to run' "$tmp/err"
check "failures: every failed cell tried and reported" test "$(grep -c 'FAILED with exit 8' "$tmp/err")" = 3
check "failures: summary names them" grep -q '3 of 4 cells failed' "$tmp/err"
check "failures: a log per tried cell" test "$(find "$tmp/r/partial/logs" -name '*.log' | wc -l)" = 3
check "failures: an ETA once a cell has finished" grep -q 'ETA' "$tmp/err"
check "failures: each tried cell's exit recorded (8, seconds, host)" \
	test "$(cat "$tmp/r/partial/logs"/*.exit | awk -v h="$(uname -n)" '$1 == 8 && $3 == h' | wc -l)" = 3
diag "$(tail -n 2 "$tmp/err")"

# The same through GNU parallel (this host, two at once): the same cells
# retried, the same report and exit.
if command -v parallel >/dev/null; then
	echo : >"$tmp/hosts"
	rc=0
	LAB_KERNEL=$tmp/bzImage "$lab" matrix --name partial --results "$tmp/r" --policies vanilla,vanilla-mglru \
		--workloads cyclic-anon --reps 2 --engine parallel --sshloginfile "$tmp/hosts" --jobs 2 \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	check "parallel: exit is the failed cells' code (8)" test "$rc" = 8
	check "parallel: 1 cell complete, 3 to run" grep -q '4 cells, 1 already complete, 3 to run' "$tmp/err"
	check "parallel: every failed cell reported, with its host" \
		test "$(grep -c "FAILED with exit 8 in [0-9]*s on $(uname -n)" "$tmp/err")" = 3
	check "parallel: summary names them" grep -q '3 of 4 cells failed' "$tmp/err"
	check "parallel: its joblog has the 3 cells, each exit 8" \
		test "$(awk -F'\t' 'NR > 1 && $7 == 8' "$tmp/r/partial/logs"/parallel-*.joblog | wc -l)" = 3
	is "$(last_line "$tmp/out")" "$tmp/r/partial" "parallel: stdout ends with the matrix directory"
else
	not_ok "GNU parallel is installed (lab/make/deps.sh installs it)"
fi
# Once more, locally: the earlier attempts' records do not count as this
# one's (each cell reported once, after it ran again).
rc=0
LAB_KERNEL=$tmp/bzImage "$lab" matrix --name partial --results "$tmp/r" --policies vanilla,vanilla-mglru \
	--workloads cyclic-anon --reps 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
check "rerun: exit 8 again" test "$rc" = 8
for c in "1/4] vanilla " "2/4] vanilla-mglru " "4/4] vanilla-mglru "; do
	is "$(grep -F "[$c" "$tmp/err" | sed -E 's/.*: (running|FAILED with exit 8).*/\1/' | paste -sd' ')" \
		"running FAILED with exit 8" "rerun: [$c... ran, then was reported failed, once"
done

# --alone: a cell's run that shared the host (concurrent_guests > 0) does
# not complete it; on a real invocation it is set aside as .shared-RUN_ID
# and the cell runs again (here the fake kernel fails it at once).
m=$tmp/r/alone
mkdir -p "$m/cells/vanilla/cyclic-anon/r1/x-shared" "$m/cells/vanilla/cyclic-anon/r2/x-alone"
jq '.concurrent_guests = 2' "$fx"/*-vanilla-cyclic-anon-r1-*/result.json >"$m/cells/vanilla/cyclic-anon/r1/x-shared/result.json"
jq '.concurrent_guests = 0' "$fx"/*-vanilla-cyclic-anon-r1-*/result.json >"$m/cells/vanilla/cyclic-anon/r2/x-alone/result.json"
opts=(--name alone --results "$tmp/r" --policies vanilla --workloads cyclic-anon --reps 2)
is "$("$lab" matrix "${opts[@]}" --list-cells | wc -l)" 0 "without --alone both cells are complete"
is "$("$lab" matrix "${opts[@]}" --alone --list-cells | grep -c ' --results [^ ]*/r1 ')" 1 \
	"--alone: the cell whose run shared the host is pending, the other not"
rc=0
LAB_KERNEL=$tmp/bzImage "$lab" matrix "${opts[@]}" --alone >"$tmp/out" 2>"$tmp/err" || rc=$?
check "--alone: the shared run is set aside as .shared-x-shared, kept" \
	test -f "$m/cells/vanilla/cyclic-anon/r1/.shared-x-shared/result.json" -a ! -e "$m/cells/vanilla/cyclic-anon/r1/x-shared"
check "... the cell ran again (and failed on the fake kernel: exit 8)" test "$rc" = 8
usage_error "--alone with --jobs 2 is refused" "$lab" matrix "${opts[@]}" --alone --jobs 2 --force

# A workload's own options: kept by the workloads whose cells ran, brought
# by a workload new to the matrix (and recorded beside the others).
m=$tmp/r/own
mkdir -p "$m/cells/vanilla/cyclic-anon/r1/x"
cp "$fx"/*-vanilla-cyclic-anon-r1-*/result.json "$m/cells/vanilla/cyclic-anon/r1/x/"
jq -n '{name: "own", run_options: [], workload_options: [], seed: 1, vary_seed: false,
	workload_options_for: {"cyclic-anon": ["--passes", "2"]}}' >"$m/matrix.json"
opts=(--name own --results "$tmp/r" --policies vanilla --reps 1)
usage_error "other options for a workload whose cells ran: exit 2" "$lab" matrix "${opts[@]}" \
	--workloads cyclic-anon --workload-options cyclic-anon='--passes 3' --list-cells
check "... naming the workload" bash -c '"$@" 2>&1 | grep -q "ran cyclic-anon with other options"' _ \
	"$lab" matrix "${opts[@]}" --workloads cyclic-anon --workload-options cyclic-anon='--passes 3' --list-cells
rc=0
LAB_KERNEL=$tmp/bzImage "$lab" matrix "${opts[@]}" --workloads cyclic-anon,webtrace \
	--workload-options cyclic-anon='--passes 2' --workload-options webtrace='--requests 10' >/dev/null 2>&1 || rc=$?
check "a new workload's own options join the matrix's" \
	jq -e '.workload_options_for == {"cyclic-anon": ["--passes", "2"], "webtrace": ["--requests", "10"]}' "$m/matrix.json"
done_testing
