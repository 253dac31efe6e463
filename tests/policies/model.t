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
run_args=(--mem 192M --size 240M --timeout 400 --refs --sysctl vm.page-cluster=0)

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
	out=$tmp/$policy-$workload
	rc=0
	case $workload in
	cyclic-anon) wl_args=(--passes 3) ;;
	cyclic-file) wl_args=(--passes 3 --readahead off) ;;
	webtrace) wl_args=(--readahead off) ;;
	esac
	"$top/lab.sh" run "$policy" "$workload" "${run_args[@]}" "${trace_args[@]}" \
		-- "${wl_args[@]}" >"$out.out" 2>"$out.err" || rc=$?
	dir=$(last_line "$out.out")
	if [[ $rc != 0 ]]; then
		not_ok "$policy $workload: kernel within $tol% of its model (run exit $rc)"
		diag "$(tail -n 2 "$out.err")"
		continue
	fi
	"$top/lab.sh" bound --format csv --summary --size resident "$dir" >"$out.csv" 2>"$out.bound.err" || true
	# the summary row: model_refaults (the model's misses beyond the
	# first touch) against the kernel's swap-ins or refaults
	read -r model kernel opt < <(awk -F, -v c="$counter" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ print $col["model_refaults"], $col[c], $col["opt_refaults"]; exit }' "$out.csv")
	check "$policy $workload: kernel within $tol% of its model (${counter#kernel_} ${kernel:-?}, model ${model:-?})" \
		awk -v k="${kernel:-x}" -v m="${model:-x}" -v t="$tol" \
		'BEGIN { exit !(k != "x" && m != "x" && m > 0 && (k > m ? k - m : m - k) * 100 <= t * m) }'
	[[ $policy == clockpro-lirs ]] || continue
	check "$policy $workload: at most 1.15x OPT beyond first touch (${kernel:-?} against ${opt:-?})" \
		awk -v k="${kernel:-x}" -v o="${opt:-x}" 'BEGIN { exit !(k != "x" && o != "x" && o > 0 && k <= 1.15 * o) }'
done
done_testing
