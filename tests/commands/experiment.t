#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2031 # programs for bash -c in single quotes; the series from a subshell
# Experiments as data (experiments/*.conf, lab/lib/experiment.sh): every
# experiment of the lab loads and lab.sh matrix --experiment lists one
# cell per policy, workload and rep of its .conf, each with its run and
# workload options, in DIR/NAME-SERIES; lab.sh compare --experiment
# compares the runs recorded there with the .conf's baseline and metrics
# (fixture runs, fixtures/README.md); bad experiments and options that
# the .conf owns are refused with exit 2. Nothing boots.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
fx=$top/tests/commands/fixtures/runs
export LAB_RESULTS=$tmp/results

build_analysis
# shellcheck source=../../lab/lib/common.sh
series=$(source "$top/lab/lib/common.sh" && series_sha | cut -c1-8)

# conf KEY FILE: the value of KEY in FILE, read here on its own.
conf() { sed -nE "s/^$1[[:space:]]*=[[:space:]]*(.*[^[:space:]])[[:space:]]*$/\1/p" "$2"; }

for f in "$top"/experiments/*.conf; do
	name=$(basename "$f" .conf)
	rc=0
	"$lab" matrix --experiment "$name" --list-cells >"$tmp/$name.cells" 2>"$tmp/$name.err" || rc=$?
	is "$rc" 0 "$name: lab.sh matrix --experiment $name --list-cells exits 0"
	np=$(conf policies "$f" | tr ',' '\n' | wc -l) nw=$(conf workloads "$f" | tr ',' '\n' | wc -l)
	is "$(wc -l <"$tmp/$name.cells")" "$((np * nw * $(conf reps "$f")))" \
		"$name: one cell per policy, workload and rep ($np x $nw x $(conf reps "$f"))"
	sub=$(conf results "$f")
	want="$LAB_RESULTS${sub:+/$sub}/$name-$series/cells/"
	check "$name: in results/${sub:+$sub/}$name-SERIES" bash -c '! grep -vF -- "$1" "$2"' _ "$want" "$tmp/$name.cells"
	opts=$(conf run_options "$f")
	for w in $(conf workloads "$f" | tr ',' ' '); do
		# a workload's own options (workload_options.W), or the common ones
		wl=$(conf "workload_options\\.$w" "$f")
		grep -qE "^workload_options\.$w[[:space:]]*=" "$f" || wl=$(conf workload_options "$f")
		check "$name: $w's cells have the run options '$opts' and, after --, '$wl'" \
			bash -c '! sed "s/\\\\,/,/g" "$3" | grep -F -- " $4 " | grep -vF -- "$1 -- $2"' _ \
			"--seed 1${opts:+ $opts}" "$wl" "$tmp/$name.cells" "$w"
	done
done

usage_error "an unknown experiment is refused" "$lab" matrix --experiment nonesuch
mkdir -p "$tmp/exp"
printf 'about = x\npolicies = lru\nworkloads = cyclic-anon\nreps = 1\nworkload_options.fio = --ops 1\n' >"$tmp/exp/own.conf"
rc=0
LAB_EXPERIMENTS=$tmp/exp "$lab" matrix --experiment own --list-cells 2>"$tmp/err" || rc=$?
is "$rc:$(cat "$tmp/err")" "2:lab matrix: $tmp/exp/own.conf: workload_options.fio: not one of its workloads" \
	"a workload's own options for a workload it does not run: exit 2, one line"
usage_error "an option the .conf owns is refused beside --experiment" "$lab" matrix --experiment suite --reps 2
usage_error "workload options are refused beside --experiment" "$lab" matrix --experiment suite -- --passes 1
printf 'about = x\npolicies = lru\nworkloads = cyclic-anon\nreps = 1\nrepetitions = 2\n' >"$tmp/exp/bad.conf"
rc=0
LAB_EXPERIMENTS=$tmp/exp "$lab" matrix --experiment bad --list-cells 2>"$tmp/err" || rc=$?
is "$rc" 2 "a .conf with an unknown key is refused (exit 2)"
check "... naming the file, the line and the key" grep -q "bad.conf:5: unknown key 'repetitions'" "$tmp/err"
printf 'about = x\npolicies = lru,lfu\nworkloads = cyclic-anon\nreps = 1\n' >"$tmp/exp/bad.conf"
rc=0
LAB_EXPERIMENTS=$tmp/exp "$lab" matrix --experiment bad --list-cells 2>"$tmp/err" || rc=$?
is "$rc" 2 "a .conf with an unknown policy is refused (exit 2)"

# compare --experiment: the fixture runs recorded as an experiment's matrix.
cat >"$tmp/exp/fx.conf" <<'CONF'
about = the fixture runs
policies = vanilla,vanilla-mglru
workloads = cyclic-anon
reps = 2
baseline = vanilla-mglru
metrics = majflt pswpin=vmstat.pswpin
CONF
mkdir -p "$LAB_RESULTS/fx-$series"
for d in "$fx"/*/; do
	mkdir "$LAB_RESULTS/fx-$series/$(basename "$d")"
	cp "$d/result.json" "$LAB_RESULTS/fx-$series/$(basename "$d")/"
done
rc=0
LAB_EXPERIMENTS=$tmp/exp "$lab" compare --experiment fx >"$tmp/cmp" 2>"$tmp/err" || rc=$?
is "$rc" 0 "compare --experiment fx exits 0"
check "... its first line names the experiment, its series and its runs" \
	grep -qx "Experiment fx (experiments/fx.conf: the fixture runs), series $series, ${LAB_RESULTS#"$top"/}/fx-$series" \
	<(head -n 1 "$tmp/cmp")
check "... with the .conf's baseline" grep -q 'ratio to vanilla-mglru' "$tmp/cmp"
is "$(grep -c 'mean ± 95% CI' "$tmp/cmp")" 2 "... and its two metrics only"
want=$(jq -s 'map(.majflt) | add / length' "$fx"/*-vanilla-cyclic-anon-*/result.json)
check "... vanilla's mean majflt is the fixtures' ($want)" \
	bash -c 'grep -A3 "^majflt" "$1" | grep -qE "^cyclic-anon .* $2 ± "' _ "$tmp/cmp" "$want"
rc=0
LAB_EXPERIMENTS=$tmp/exp "$lab" compare --experiment fx --series 0123abcd 2>"$tmp/err" || rc=$?
is "$rc" 2 "compare --experiment on a series without runs exits 2"
check "... saying how to make them" grep -q 'lab.sh matrix --experiment fx' "$tmp/err"
usage_error "compare --experiment refuses RESULTS beside it" "$lab" compare --experiment suite "$fx"

# report --experiment: the same runs, the .conf's baseline and metrics,
# the page in the matrix's directory.
rc=0
LAB_EXPERIMENTS=$tmp/exp "$lab" report --experiment fx >"$tmp/rep" 2>"$tmp/err" || rc=$?
is "$rc" 0 "report --experiment fx exits 0"
check "... writes report.html into the matrix's directory" test -s "$LAB_RESULTS/fx-$series/report.html"
check "... with the .conf's two metrics, against its baseline" \
	bash -c 'grep -q "pswpin" "$1" && grep -q "majflt" "$1" && ! grep -q "wall_s" "$1" && grep -q "vanilla-mglru" "$1"' \
	_ "$LAB_RESULTS/fx-$series/report.html"
usage_error "report --experiment refuses a DIR beside it" "$lab" report --experiment fx "$fx"
usage_error "report --series without --experiment is refused" "$lab" report --series 0123abcd "$fx"
done_testing
