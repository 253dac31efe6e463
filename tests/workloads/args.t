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

leftovers=$(find "$DIR" -mindepth 1 | head -5)
if [[ -z $leftovers ]]; then
	ok "rejected invocations left no files behind"
else
	not_ok "rejected invocations left no files behind" "$leftovers"
fi
done_testing
