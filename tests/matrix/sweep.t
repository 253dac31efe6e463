#!/usr/bin/env bash
# A real lab.sh sweep: lru on cyclic-anon at 50% and 140% of a 128 MiB
# guest, one run each, with one page per swap-in. The table's kernel
# count is each run's pswpin; the loop that fits reads (almost) nothing
# back and its model and OPT nothing; the loop that does not fit reads
# back what lru's model does within 10% (tests/policies/model.t holds
# the tighter gate) and more than OPT; the curve is drawn, and a second
# invocation runs nothing.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
[[ -f $top/build/kernels/lab/bzImage ]] || skip_all "no lab kernel (make kernels)"
command -v gnuplot >/dev/null || skip_all "gnuplot is not installed (lab/make/deps.sh installs gnuplot-nox)"

opts=(--sizes "50%,140%" --policies lru --workloads cyclic-anon --reps 1 --mem 128M --timeout 400
	--sysctl vm.page-cluster=0 --results "$tmp/r" --name t)
rc=0
"$lab" sweep "${opts[@]}" -- --passes 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
check "sweep: exit 0" test "$rc" = 0 || diag "$(tail -n 5 "$tmp/err")"
csv=$tmp/r/t/sweep.csv
[[ -s $csv ]] || { not_ok "sweep.csv written"; done_testing; }
is "$(tail -n +2 "$csv" | cut -d, -f1-4 | paste -sd' ')" \
	"cyclic-anon,lru,50%,1 cyclic-anon,lru,140%,1" "a row per size, in the order given"
header=$(head -n1 "$csv")
col() { tr ',' '\n' <<<"$header" | grep -nx "$1" | cut -d: -f1; }
field() { awk -F, -v s="$1" -v c="$(col "$2")" '$3 == s { print $c }' "$csv"; }
for s in 50% 140%; do
	r=$(find "$tmp/r/t/size-${s/\%/pct}/cells" -name result.json)
	is "$(field "$s" kernel)" "$(jq -r .vmstat.pswpin "$r")" "$s: the kernel count is the run's pswpin"
	is "$(field "$s" cache_pages)" "$(jq -r .mem_available_pages "$r")" "$s: replayed at the run's MemAvailable"
done
is "$(field 50% opt_beyond),$(field 50% model_beyond)" "0,0" "50%: the loop fits, OPT and the model read nothing back"
d=$(field 50% distinct)
check "50%: the kernel reads back under 5% of the loop ($(field 50% kernel) of $d pages)" \
	test "$(field 50% kernel)" -lt "$((d / 20))"
k=$(field 140% kernel) m=$(field 140% model_beyond) o=$(field 140% opt_beyond)
near "$k" "$m" "$((m / 10))" "140%: lru reads back what its model does, within 10% ($k against $m)"
check "140%: more than OPT ($k against $o)" test "$k" -gt "$o"
check "the curve: PNG" bash -c "file -b '$tmp/r/t/plots/sweep-cyclic-anon-lru.png' | grep -q '^PNG image'"
rc=0
"$lab" sweep "${opts[@]}" -- --passes 2 >/dev/null 2>"$tmp/err2" || rc=$?
check "again: exit 0, nothing run" test "$rc" = 0 -a "$(grep -c ': running' "$tmp/err2")" = 0
done_testing
