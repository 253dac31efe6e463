#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for awk and bash -c, in single quotes
# --trace perf in a guest: one lab kernel boot with --trace events,perf
# on a cyclic-anon that swaps yields perf.data, a report naming reclaim's
# functions with perf report's own numbers, folded stacks whose counts
# sum to the samples perf counts in perf.data, and the metrics in
# result.json; a guest image without perf is refused before booting.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../lib/contracts.bash
source "$top/tests/lib/contracts.bash"
export LAB_RESULTS=$tmp/res
need_guest lab
lb=$lab_build img=$guest_image
command -v perf >/dev/null || skip_all "no perf on the host (lab/make/deps.sh installs linux-perf)"
build_perf_tools

check "the guest image carries perf (else: make image)" \
	bash -c "debugfs -R 'stat /usr/bin/perf' '$img' 2>/dev/null | grep -q '^Inode:'"

rc=0
"$top/lab.sh" run lru cyclic-anon --size 300M --trace perf,events --perf-hz 499 --timeout 600 -- --passes 2 \
	>"$tmp/run.out" 2>"$tmp/run.err" || rc=$?
d=$(tail -n1 "$tmp/run.out")
is "$rc" 0 "a profiled run exits 0"
((rc == 0)) || { diag "$(tail -n 3 "$tmp/run.err")"; done_testing; }
r=$d/result.json
is "$(jq -r '[.trace, .perf_freq_hz, .perf.freq_hz] | join(" ")' "$r")" "events,perf 499 499" \
	"result.json: trace in one spelling, the rate asked for and the one sampled"
check "perf.data and trace.dat are both there" test -s "$d/perf.data" -a -s "$d/trace.dat"
check "the workload swapped (pswpout > 0), so reclaim ran" test "$(jq .vmstat.pswpout "$r")" -gt 0

# perf's own count of the samples in perf.data, against the folded stacks.
samples=$(perf report -f -i "$d/perf.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
is "$(awk '{ s += $NF } END { print s }' "$d/perf/folded.txt")" "$samples" \
	"folded stacks: counts sum to perf report --stats' SAMPLE events ($samples)"
is "$(jq .perf.samples "$r")" "$samples" "result.json: perf.samples is that count"

# perf report's own self and children of reclaim's functions, with the
# guest's symbols, against report.txt.
perf report -f -i "$d/perf.data" --kallsyms "$d/perf/kallsyms" --children --sort sym --stdio -g none \
	2>/dev/null >"$tmp/perf-report.txt"
for sym in shrink_folio_list shrink_node; do
	want=$(awk -v s="$sym" '$3 == "[k]" && $4 == s { print $1, $2; exit }' "$tmp/perf-report.txt")
	got=$(awk -v s="$sym" '/by children/ { on = 1; next } on && $3 == s { print $1, $2; exit }' "$d/perf/report.txt")
	check "report.txt names $sym, with perf report's children and self ($want)" \
		test -n "$want" -a "$got" = "$want"
done

# shellcheck disable=SC2317 # run by check
holds() { jq -e "$1" "$r" >/dev/null; }	# holds FILTER: true of result.json
check "perf.reclaim_cpu_share is a share above 0" holds '.perf.reclaim_cpu_share > 0 and .perf.reclaim_cpu_share <= 1'
is "$(jq '.perf.pages_reclaimed' "$r")" "$(jq '.vmstat.pgsteal_anon + .vmstat.pgsteal_file' "$r")" \
	"perf.pages_reclaimed is vmstat's pgsteal_anon + pgsteal_file"
check "perf.us_per_reclaimed_page is a positive number" holds '.perf.us_per_reclaimed_page > 0'
near "$(jq '[.perf.reclaim_us_per_page[]] | add' "$r")" "$(jq .perf.us_per_reclaimed_page "$r")" 0.001 \
	"the parts of reclaim's microseconds per page add up to the total"
is "$(undocumented_keys "$r")" "" "every key of the fresh result.json is in CONTRACTS.md"

# An image without perf (a copy with /usr/bin/perf removed): refused with
# exit 8 and one line saying so, before anything boots.
fake=$tmp/build
mkdir -p "$fake/kernels" "$fake/image"
ln -s "$(readlink -f "$lb/kernels/lab")" "$fake/kernels/lab"
ln -s "$lb/tools" "$fake/tools"
cp --sparse=always "$(readlink -f "$img")" "$fake/image/noperf.img"
debugfs -w -R 'rm /usr/bin/perf' "$fake/image/noperf.img" >/dev/null 2>&1
sha=$(sha256sum "$fake/image/noperf.img" | cut -c1-64)
mv "$fake/image/noperf.img" "$fake/image/rootfs-$sha.img"
ln -s "rootfs-$sha.img" "$fake/image/rootfs.img"
rc=0
LAB_ACCEL=tcg LAB_BUILD=$fake "$top/lab.sh" run lru cyclic-anon --size 8M --trace perf --results "$tmp/noperf" \
	>"$tmp/noperf.out" 2>"$tmp/noperf.err" || rc=$?
is "$rc:$(wc -l <"$tmp/noperf.err")" "8:1" "an image without perf: exit 8, one line"
check "... saying the image has no perf and how to rebuild it" \
	grep -q 'the guest image has no perf (/usr/bin/perf); rebuild it with make image' "$tmp/noperf.err"
check "... before booting (no result, no console)" test -z "$(find "$tmp/noperf" "$fake/runs" -mindepth 1 2>/dev/null)"
rm -rf "$fake"
done_testing
