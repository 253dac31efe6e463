#!/usr/bin/env bash
# Each kernel policy is the algorithm it names: on a small loop (and
# cart-r on webtrace, whose adaptation a loop does not test), with swap
# and file readahead off, the kernel reads back what the policy's model
# (pagesim, on the run's own reference string) misses beyond the first
# touches, within 5% (random: 10%, its model draws from a different
# stream of the same uniform law).  The model replays at the cache the
# loop really had (lab.sh bound --size resident: the loop's mean resident
# set, which the workload measures), not at MemAvailable: reclaim keeps
# free pages and other pages resident, and that shortfall is the kernel's
# memory, not the policy.  A patch that breaks an algorithm fails here.
# The near-OPT policy, clockpro-lirs, is also held to issue 14's goal: at
# most 1.15x OPT's misses beyond first touch, on both loops.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"
export LAB_RESULTS=$tmp/res

# Cells that meet the gate on the series of this commit (lru, cart-r and
# random on cyclic-file meet it too, left out for make test's time).
# clockpro met it in its four runs on this series (BENCHMARKS.md, "The
# kernel against its model": 1.02-1.04x), but its anonymous loop spread
# to 1.07x before patch 36, so it is not a default cell; run it with a
# tolerance: LAB_TEST_CELLS="POLICY:WORKLOAD[:TOLERANCE%] ...".
# The page-cache cells were held to 7% (clockpro-lirs, cyclic-file) and
# 8% (cart-r, webtrace) while the gate counted vmstat's refaults, which
# add the system's own files: 1.034-1.056x and 1.058x then, 1.017x and
# 0.998x counting the data's rereads (BENCHMARKS.md).
# cart-r on webtrace: its counter r must see the first reads of the
# Zipf replay (the miss op), or the type stays "cyclic" and the kernel
# reads back 1.64x its model.
cells=${LAB_TEST_CELLS:-lru:cyclic-anon cart:cyclic-anon cart:cyclic-file cart-r:cyclic-anon
random:cyclic-anon clockpro-lirs:cyclic-anon clockpro-lirs:cyclic-file cart-r:webtrace}
# Watermark boosting off: after a fragmenting allocation kswapd reclaims
# up to 1.5x the high watermark beyond its target, in a burst, so the
# cache the loop has shrinks and regrows mid-run, which the model's fixed
# cache does not do. With it on (6.1's default) clockpro-lirs cyclic-file
# read back 1.019-1.057x its model in 11 runs of 13 and 1.19x and 1.25x
# in two (CI: 1.13x); with it off 1.015-1.023x in 8 of 8
# (docs/notes/kernel-vs-model.md).
run_args=(--mem 192M --size 240M --timeout 400 --refs --sysctl vm.page-cluster=0
	--sysctl vm.watermark_boost_factor=0)

# within PCT KERNEL MODEL: numbers, |KERNEL - MODEL| <= PCT% of MODEL
# shellcheck disable=SC2317 # called through check
within() {
	awk -v t="$1" -v k="${2:-x}" -v m="${3:-x}" \
		'BEGIN { exit !(k != "x" && m != "x" && m > 0 && (k > m ? k - m : m - k) * 100 <= t * m) }'
}

# measure POLICY WORKLOAD N: one run (the N-th of the cell); prints
# "MODEL KERNEL OPT" (the model's misses beyond first touch, the kernel's
# counter, OPT's), "x" for what the bound did not give, or "fail RC" when
# the run failed (its stderr in $tmp/POLICY-WORKLOAD-N.err).  Uses
# counter, run_args, trace_args and wl_args of the cell.
measure() {
	local policy=$1 workload=$2 out=$tmp/$1-$2-$3 rc=0 dir
	"$top/lab.sh" run "$policy" "$workload" "${run_args[@]}" "${trace_args[@]}" \
		-- "${wl_args[@]}" >"$out.out" 2>"$out.err" || rc=$?
	dir=$(last_line "$out.out")
	if [[ $rc != 0 ]]; then
		echo "fail $rc"
		return
	fi
	"$top/lab.sh" bound --format csv --summary --size resident "$dir" >"$out.csv" 2>"$out.bound.err" || true
	# the summary row: model_refaults (the model's misses beyond the
	# first touch) against the kernel's swap-ins or refaults
	awk -F, -v c="$counter" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ m = $col["model_refaults"]; k = $col[c]; o = $col["opt_refaults"]
		  print (m == "" ? "x" : m), (k == "" ? "x" : k), (o == "" ? "x" : o); exit }
		END { if (NR < 2) print "x x x" }' "$out.csv"
}

for cell in $cells; do
	IFS=: read -r policy workload tol <<<"$cell"
	if [[ -z $tol ]]; then
		tol=5
		[[ $policy == random ]] && tol=10
	fi
	# Page-cache cells count the data disk's pages read back, from a
	# page-cache trace (lab.sh bound's kernel_data_rereads): vmstat's
	# refaults add the system's own files, 1-2% of these counts.
	trace_args=()
	case $workload in
	cyclic-anon) counter=kernel_pswpin ;;
	cyclic-file | webtrace)
		counter=kernel_data_rereads
		trace_args=(--trace events --trace-profile page-cache)
		;;
	*)
		not_ok "$cell: model.t knows no counter for $workload"
		continue
		;;
	esac
	case $workload in
	cyclic-anon) wl_args=(--passes 3) ;;
	cyclic-file) wl_args=(--passes 3 --readahead off) ;;
	webtrace) wl_args=(--readahead off) ;;
	esac
	read -r model kernel opt < <(measure "$policy" "$workload" 1)
	if [[ $model == fail ]]; then
		not_ok "$policy $workload: kernel within $tol% of its model (run exit $kernel)"
		diag "$(tail -n 2 "$tmp/$policy-$workload-1.err")"
		continue
	fi
	# Identical runs still spread (random draws; reclaim's batches meet
	# the loop at different pages), so a run outside the bound is run
	# once more and the two runs' sums decide, as cgroup.t does: an
	# algorithm that is not its model misses in both.
	runs=1
	if ! within "$tol" "$kernel" "$model"; then
		diag "$policy $workload: ${counter#kernel_} $kernel against model $model: a second run decides"
		read -r model2 kernel2 opt2 < <(measure "$policy" "$workload" 2)
		if [[ $model2 != fail && $model2$kernel2$opt2 =~ ^[0-9]+$ ]]; then
			model=$((model + model2)) kernel=$((kernel + kernel2)) opt=$((opt + opt2)) runs=2
		fi
	fi
	check "$policy $workload: kernel within $tol% of its model (${counter#kernel_} $kernel, model $model, runs $runs)" \
		within "$tol" "$kernel" "$model"
	if ((${#trace_args[@]})); then
		# a page-cache run with its references: how the kernel kept the hot set
		check "$policy $workload: result.json has the hot set's protection, every hot page mapped to a file" \
			jq -e '.data_page_cache.hot | .pages > 0 and .unmapped == 0 and .refs >= .pages' \
			"$(last_line "$tmp/$policy-$workload-1.out")/result.json"
	fi
	[[ $policy == clockpro-lirs ]] || continue
	check "$policy $workload: at most 1.15x OPT beyond first touch ($kernel against $opt, runs $runs)" \
		awk -v k="$kernel" -v o="$opt" 'BEGIN { exit !(k != "x" && o != "x" && o > 0 && k <= 1.15 * o) }'
done
done_testing
