#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs in single quotes
# lab.sh compare on runs from more than one host (result.json's host, as
# a matrix through GNU parallel or Slurm makes them): the recorded runs
# given hosts by hand. A table that mixes CPU models or accelerators is
# warned about; --by host splits its rows by host, each row the mean of
# that host's runs alone; one CPU model on two hosts, or runs from before
# host was recorded, are no reason to warn.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
lab=$top/lab.sh
fx=$top/tests/commands/fixtures/runs

build_analysis

# place DIR R1HOST R2HOST [JQ]: the recorded runs under DIR, rep 1's with
# host R1HOST and rep 2's with R2HOST (JSON objects; null: no host field),
# each changed by the jq program JQ too.
place() {
	local dir=$1 h1=$2 h2=$3 prog=${4:-.} d b h
	for d in "$fx"/*/; do
		b=$(basename "$d")
		h=$h2
		[[ $b == *-r1-* ]] && h=$h1
		mkdir -p "$dir/$b"
		jq --argjson h "$h" "if \$h == null then . else . + {host: \$h} end | $prog" \
			"$d/result.json" >"$dir/$b/result.json"
	done
}
hx='{"name": "node-a", "cpu_model": "Model X", "cores": 2, "load_1m": 0.5}'
hy='{"name": "node-b", "cpu_model": "Model Y", "cores": 8, "load_1m": 1.0}'
hx2='{"name": "node-c", "cpu_model": "Model X", "cores": 2, "load_1m": 0.1}'

# Two CPU models: one warning, the table as before.
place "$tmp/mixed" "$hx" "$hy"
rc=0
"$lab" compare --format csv --metric majflt "$tmp/mixed" >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 0 "two CPU models: exit 0"
check "two CPU models: a warning naming both, with a host of each" \
	grep -q "warning: .*different CPU models ('Model X' on node-a, 'Model Y' on node-b).*--by host" "$tmp/err"
is "$(grep -c warning "$tmp/err")" 1 "two CPU models: one warning line"
is "$(awk -F, '$1 == "majflt" && $2 == "cyclic-anon" {print $3 "/" $7}' "$tmp/out")" 2/2 \
	"two CPU models: without --by host, one row of both reps per policy"

# --by host: a row per host, each the mean of its own run.
rc=0
"$lab" compare --by host --format csv --metric majflt "$tmp/mixed" >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 0 "--by host: exit 0"
check "--by host: no warning" bash -c "! grep -q warning '$tmp/err'"
for h in node-a:r1 node-b:r2; do
	for p in vanilla vanilla-mglru; do
		want=$(jq -r .majflt "$fx"/*-"$p"-cyclic-anon-"${h#*:}"-*/result.json)
		got=$(awk -F, -v row="cyclic-anon host=${h%:*}" -v p="$p" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 == "majflt" && $2 == row { print $col[p "_n"] ":" $col[p "_mean"] }' "$tmp/out")
		is "$got" "1:$want" "--by host: row host=${h%:*}, $p: n 1, its run's majflt ($want)"
	done
done

# One CPU model on two hosts: nothing to warn about.
place "$tmp/same" "$hx" "$hx2"
"$lab" compare --format csv "$tmp/same" >/dev/null 2>"$tmp/err"
check "one CPU model on two hosts: no warning" bash -c "! grep -q warning '$tmp/err'"
# Results from before host was recorded.
place "$tmp/old" null null
"$lab" compare --format csv "$tmp/old" >/dev/null 2>"$tmp/err"
check "runs without host: no warning" bash -c "! grep -q warning '$tmp/err'"
"$lab" compare --by host --format csv --metric majflt "$tmp/old" >"$tmp/out" 2>/dev/null
is "$(awk -F, '$1 == "majflt" && $2 ~ /^cyclic-anon/ {print $2 "/" $3}' "$tmp/out")" "cyclic-anon/2" \
	"runs without host, --by host: one row of both reps"

# Two accelerators (same CPU model): a warning too.
place "$tmp/accel" "$hx" "$hx2" 'if .run_id | test("-r1-") then .accel = "kvm" else . end'
"$lab" compare --format csv "$tmp/accel" >/dev/null 2>"$tmp/err"
check "two accelerators: a warning naming both" \
	grep -q "warning: .*different accelerators (kvm on node-a, tcg on node-c)" "$tmp/err"

usage_error "--by with an unknown key: exit 2, one line" "$lab" compare --by cpu "$tmp/mixed"
done_testing
