#!/bin/bash
# Argument handling of every workload binary: --help, and bad arguments
# giving exit 2 with one "NAME: message" line on stderr.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"

# bad_args NAME DESCRIPTION ARGS...: exit 2, one stderr line naming NAME.
bad_args() {
	local name=$1 what=$2
	shift 2
	expect_exit 2 "$name: $what exits 2" "$BIN/$name" "$@"
	if [[ $(wc -l <<<"$ERR") -eq 1 && $ERR == "$name: "* && -z $OUT ]]; then
		ok "$name: $what gives one error line"
	else
		not_ok "$name: $what gives one error line" "stderr: $ERR" "stdout: $OUT"
	fi
}

for name in cyclic-anon cyclic-file webtrace-gen webtrace mdb-bench; do
	expect_exit 0 "$name --help exits 0" "$BIN/$name" --help
	check "$name --help prints usage" grep -q "^Usage: $name" <<<"$OUT"
	bad_args "$name" "an unknown option" --frobnicate
	bad_args "$name" "a missing option value" --seed
	bad_args "$name" "a negative seed" --seed -1
	bad_args "$name" "a non-numeric seed" --seed 12abc
	bad_args "$name" "a positional argument" stray
done

for name in cyclic-anon cyclic-file mdb-bench; do
	bad_args "$name" "size 12Q" --size 12Q --dir "$DIR"
	bad_args "$name" "size 0" --size 0 --dir "$DIR"
	bad_args "$name" "a negative size" --size -4M --dir "$DIR"
	bad_args "$name" "a size below one page" --size 100 --dir "$DIR"
	bad_args "$name" "an unknown phase" --phase warmup --size 4M --dir "$DIR"
done
for name in webtrace-gen webtrace; do
	bad_args "$name" "footprint 12Q" --footprint 12Q --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "footprint 0" --footprint 0 --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "0 requests" --requests 0 --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "a negative request count" --requests -5 --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "alpha 0" --alpha 0 --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "a non-numeric alpha" --alpha x --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "65 ASUs" --asus 65 --out "$DIR/t" --dir "$DIR"
	bad_args "$name" "a footprint below one object per ASU" --footprint 64K --out "$DIR/t" --dir "$DIR"
done

bad_args cyclic-anon "0 passes" --passes 0 --size 4M
bad_args cyclic-anon "a negative pass count" --passes -3 --size 4M
bad_args cyclic-file "an unknown mode" --mode write --size 4M --dir "$DIR"
bad_args cyclic-file "a missing data directory" --dir "$DIR/missing" --size 4M
bad_args webtrace-gen "no --out" --footprint 4M
bad_args webtrace-gen "an --out in a missing directory" --footprint 4M --out "$DIR/missing/t"
bad_args webtrace "a missing --spc file" --spc "$DIR/no-such.spc" --dir "$DIR"
bad_args webtrace "a --max-size below one page" --max-size 1K --footprint 4M --dir "$DIR"
bad_args webtrace "a missing data directory" --footprint 4M --dir "$DIR/missing"
bad_args mdb-bench "an unknown mode" --mode mmap2 --size 4M --dir "$DIR"
bad_args mdb-bench "0 ops" --ops 0 --size 4M --dir "$DIR"
bad_args mdb-bench "a size below 101 pages" --size 400K --dir "$DIR"
bad_args mdb-bench "an --emit-refs in a missing directory" --size 4M --ops 10 --dir "$DIR" --no-drop-caches --emit-refs "$DIR/missing/r"

# The workloads' own options come from a table the driver parses (struct
# wl_option, lib/driver.h): each kind of entry refuses a bad value with its
# parser's message (lib/args.c), word for word; an option with a check of
# its own (wl_opt_own) still gets the workload's.
# bad_msg NAME MESSAGE ARGS...: exit 2 and stderr exactly "NAME: MESSAGE".
bad_msg() {
	local name=$1 msg=$2
	shift 2
	expect_exit 2 "$name $*: exits 2" "$BIN/$name" "$@"
	is "$ERR" "$name: $msg" "$name $*: says so"
}
bad_msg fio "bad --ops value '0': must be at least 1" --ops 0
bad_msg fio "bad --stream-passes value 'x': expected a non-negative integer" --stream-passes x
bad_msg fio "bad --mode value 'read': expected randread or randwrite" --mode read
bad_msg fio "bad --theta value '1': a number above 0, not 1, up to 100" --theta 1
bad_msg kv-cache "bad --redis value '': the redis-server program to run" --redis ''
bad_msg kv-cache "bad --distribution value 'latest': expected zipfian or uniform" --distribution latest
bad_msg file-search "option '--sources' needs a value (see --help)" --sources
bad_msg mdb-bench "unknown option '--mlock-index=1' (see --help)" --mlock-index=1
bad_msg pgbench "bad --clients value '65': 1 to 64" --clients 65
bad_msg ycsb-sqlite "bad --distribution value 'zipf': expected uniform, zipfian or latest" --distribution zipf
bad_msg ycsb-sqlite "bad --scan-threads value '17': 1 to 16" --scan-threads 17
# ... and a good value reaches the workload's field: strings, flags and
# choices in the RESULT line of a setup.
expect_exit 0 "mdb-bench: a setup with --mode, --mlock-index and --ops" \
	"$BIN/mdb-bench" --phase setup --size 1M --dir "$DIR" --mode mmap --mlock-index --ops 7
is "$(result_field 'mode + " " + (.mlock_index | tostring) + " " + (.ops | tostring)')" \
	"mmap true 7" "mdb-bench: --mode, --mlock-index and --ops reach RESULT"
rm -f "$DIR"/mdb-*

leftovers=$(find "$DIR" -mindepth 1 | head -5)
if [[ -z $leftovers ]]; then
	ok "rejected invocations left no files behind"
else
	not_ok "rejected invocations left no files behind" "$leftovers"
fi
done_testing
