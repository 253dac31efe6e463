# Shared TAP helpers for tests/workloads/*.t (sourced, not run).
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=${WORKLOADS_OUT:-$ROOT/build/workloads}
TAP_COUNT=0
TAP_FAILED=0

ok() {
	TAP_COUNT=$((TAP_COUNT + 1))
	echo "ok $TAP_COUNT - $1"
}

not_ok() {
	TAP_COUNT=$((TAP_COUNT + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_COUNT - $1"
	shift
	local line
	for line in "$@"; do
		echo "# $line"
	done
}

# check DESCRIPTION COMMAND...: ok if the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then
		ok "$what"
	else
		not_ok "$what" "failed: $*"
	fi
}

# expect_exit CODE DESCRIPTION COMMAND...: run, keep output in $OUT / $ERR.
expect_exit() {
	local want=$1 what=$2 got=0
	shift 2
	"$@" >"$TAP_TMP/out" 2>"$TAP_TMP/err" || got=$?
	OUT=$(cat "$TAP_TMP/out")
	ERR=$(cat "$TAP_TMP/err")
	if [[ $got -eq $want ]]; then
		ok "$what"
	else
		not_ok "$what" "exit $got, wanted $want: $*" "stderr: $ERR"
	fi
}

# The JSON object of the single RESULT line in $OUT, or fail.
result_json() {
	local lines
	lines=$(grep -c '^RESULT ' <<<"$OUT" || true)
	[[ $lines -eq 1 ]] || return 1
	sed -n 's/^RESULT //p' <<<"$OUT"
}

# result_field KEY: a field of $OUT's RESULT object (jq syntax after the dot).
result_field() {
	result_json | jq -r ".$1"
}

# Build the workload binaries (make skips what is up to date).
build_workloads() {
	local log="$TAP_TMP/build.log"
	if make -s -C "$ROOT/workloads" OUT="$BIN" all >"$log" 2>&1; then
		ok "workloads build"
	else
		not_ok "workloads build" "$(tail -5 "$log")"
		done_testing
	fi
}

done_testing() {
	echo "1..$TAP_COUNT"
	if ((TAP_FAILED)); then
		exit 1
	fi
	exit 0
}

TAP_TMP=$(mktemp -d)
trap 'rm -rf "$TAP_TMP"' EXIT
OUT=
ERR=

# refs_magic FILE: the 8-byte magic of a reference-string file.
refs_magic() {
	head -c 8 "$1"
}

# refs_count FILE: number of references (ids after the 16-byte header).
refs_count() {
	local bytes
	bytes=$(stat -c %s "$1")
	echo $(((bytes - 16) / 8))
}

# refs_ids FILE N: the first N ids, space separated, as decimal numbers.
refs_ids() {
	od -An -v -tu8 -j16 -N$((8 * $2)) "$1" | xargs
}

# refs_header FILE: page size and flags as "PAGESIZE FLAGS".
refs_header() {
	od -An -v -tu4 -j8 -N8 "$1" | xargs
}

# has_result: $OUT holds exactly one RESULT line with a JSON object.
has_result() {
	result_json | jq -e 'type == "object"' >/dev/null
}

# result_is JQ_EXPR: the RESULT object in $OUT satisfies a jq condition.
result_is() {
	result_json | jq -e "$1" >/dev/null
}

# refs_all FILE: every id, one per line.
refs_all() {
	od -An -v -w8 -tu8 -j16 "$1" | tr -d ' '
}
