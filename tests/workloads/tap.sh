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

# Build the workloads (and with "tests" the unit-test programs) once.
build_workloads() {
	local log="$TAP_TMP/build.log" targets=(all)
	[[ ${1:-} == tests ]] && targets+=(test-bins)
	if make -s -C "$ROOT/workloads" OUT="$BIN" "${targets[@]}" >"$log" 2>&1; then
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
