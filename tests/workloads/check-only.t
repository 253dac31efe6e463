#!/bin/bash
# --check-only of every workload (lab/lib/job.sh runs it on the host before a
# guest boots): it parses the options and the input files they name, exits
# 0 with nothing on stdout, or 2 with the workload's one error line (for a
# trace: FILE:LINE), and creates, writes or requires nothing, not even its
# --dir or its --emit-refs file. strace is the independent witness: no
# file is opened for writing, created, removed or renamed.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
SCRATCH=$TAP_TMP/scratch
mkdir -p "$SCRATCH"

# nothing_written LOG: the strace log shows no file opened for writing,
# created, removed or renamed, and no directory made (calls that failed
# changed nothing: the sanitizers' runtime tries mkdir on its log path).
nothing_written() {
	! grep -E 'O_WRONLY|O_RDWR|O_CREAT|^[0-9]+ +(mkdir|unlink|rename|rmdir|truncate|creat)' "$1" |
		grep -vE ' = -1 E[A-Z]+ '
}

# checked NAME DESCRIPTION ARGS...: NAME --check-only ARGS, run in an
# empty directory with --dir a missing one; exit 0, stdout empty, nothing
# written.
checked() {
	local name=$1 what=$2
	shift 2
	expect_exit 0 "$name: --check-only $what exits 0" \
		bash -c 'cd "$1" && shift && exec strace -f -qq -e trace=%file -e signal=none -o ../strace.log "$@"' \
		_ "$SCRATCH" "$BIN/$name" --check-only --dir "$TAP_TMP/missing" "$@"
	is "$OUT" "" "$name: --check-only $what prints nothing on stdout"
	if nothing_written "$TAP_TMP/strace.log" >/dev/null; then
		ok "$name: --check-only $what writes nothing (strace)"
	else
		not_ok "$name: --check-only $what writes nothing (strace)" \
			"$(nothing_written "$TAP_TMP/strace.log" | head -3 || true)"
	fi
}

printf '0,0,4096,r,0\n0,8,8192,w,0.1\n1,16,4096,r,0.2\n' >"$TAP_TMP/good.spc"
printf '0,0,4096,r,0\n0,8,4096,r,0.1\n0,16,4096,q,0.2\n' >"$TAP_TMP/bad.spc"

# Every workload of the registry (lab/registry/workloads.tsv).
mapfile -t names < <(awk -F'\t' '/^#/ || NF == 0 { next } !h++ { next } { print $1 }' \
	"$top/lab/registry/workloads.tsv")
check "the registry lists the workloads" test "${#names[@]}" -ge 7
for name in "${names[@]}"; do
	expect_exit 0 "$name --help exits 0" "$BIN/$name" --help
	check "$name --help names --check-only (lab/lib/job.sh looks for it)" grep -q -- '--check-only' <<<"$OUT"
done

checked cyclic-anon "with a size and passes" --size 4M --passes 2 --emit-refs "$TAP_TMP/r"
checked cyclic-file "with mmap mode" --size 4M --mode mmap --readahead off
checked mdb-bench "with ops" --size 4M --ops 10 --emit-refs "$TAP_TMP/r"
checked ycsb-leveldb "with a mix sequence" --size 2M --workload abc --phase run
checked ycsb-sqlite "with a cache" --size 2M --cache 256K --phase setup
checked pgbench "with 8 clients" --size 64M --clients 8 --transactions 10 --bin /no/pg
checked file-search "with two passes" --size 4M --passes 2 --rg /no/rg
checked get-scan "with three streams" --size 2M --scan-threads 3 --phase run
checked fio "in randwrite mode" --size 4M --mode randwrite --theta 0.8 --ops 10
checked webtrace "of a generated trace" --footprint 4M --requests 100
checked webtrace "of a valid --spc trace" --spc "$TAP_TMP/good.spc" --emit-refs "$TAP_TMP/r"
check "no --emit-refs file was created" test ! -e "$TAP_TMP/r"
check "no --dir was created" test ! -e "$TAP_TMP/missing"

# A malformed trace: exit 2, the parser's FILE:LINE line, nothing written.
expect_exit 2 "webtrace: --check-only of a malformed trace exits 2" \
	bash -c 'cd "$1" && shift && exec strace -f -qq -e trace=%file -e signal=none -o ../strace.log "$@"' \
	_ "$SCRATCH" "$BIN/webtrace" --check-only --spc "$TAP_TMP/bad.spc" --dir "$TAP_TMP/missing"
is "$ERR" "webtrace: $TAP_TMP/bad.spc:3: opcode is not r, R, w or W" \
	"webtrace: the one error line names the file and line 3"
is "$OUT" "" "webtrace: a malformed trace prints no RESULT"
check "webtrace: a malformed trace writes nothing (strace)" nothing_written "$TAP_TMP/strace.log"

# Bad options stay errors under --check-only.
usage_error "cyclic-anon: --check-only --size 0 exits 2" "$BIN/cyclic-anon" --check-only --size 0
usage_error "mdb-bench: --check-only below 101 pages exits 2" "$BIN/mdb-bench" --check-only --size 400K
usage_error "ycsb-sqlite: --check-only --workload g exits 2" "$BIN/ycsb-sqlite" --check-only --workload g
usage_error "ycsb-leveldb: --check-only below 100 records exits 2" "$BIN/ycsb-leveldb" --check-only --size 64K
usage_error "webtrace: --check-only of a missing --spc exits 2" "$BIN/webtrace" --check-only --spc "$TAP_TMP/none.spc"
usage_error "cyclic-file: --check-only --readahead maybe exits 2" "$BIN/cyclic-file" --check-only --readahead maybe

leftovers=$(find "$SCRATCH" -mindepth 1 | head -5)
is "$leftovers" "" "the working directory stayed empty"
done_testing
