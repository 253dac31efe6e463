# shellcheck shell=bash disable=SC2034 # ROOT, TAP_TMP, OUT, ERR: for the sourcing test
# Helpers of tests/workloads: build the workloads, run one and read its
# RESULT line, read LABREFS1 reference strings. Sourced by its tap.sh.
# shellcheck source=tap.bash
source "$(dirname "${BASH_SOURCE[0]}")/tap.bash"
# shellcheck source=refs.bash
source "$(dirname "${BASH_SOURCE[0]}")/refs.bash"

ROOT=$top
TAP_TMP=$tmp
BIN=${WORKLOADS_OUT:-$build/workloads}
OUT=
ERR=

# build_workloads: the workload binaries (make skips what is up to date).
build_workloads() {
	if lab_make workloads OUT="$BIN" all >"$tmp/build.log" 2>&1; then
		ok "workloads build"
	else
		not_ok "workloads build" "$(tail -5 "$tmp/build.log")"
		done_testing
	fi
}

# unit_program NAME: build the C unit-test program tests/workloads/NAME.c
# and run it in place of this script (it prints its own TAP).
unit_program() {
	if lab_make workloads OUT="$BIN" "$BIN/tests/$1" >"$tmp/build.log" 2>&1; then
		exec "$BIN/tests/$1"
	fi
	not_ok "build $1" "$(tail -5 "$tmp/build.log")"
	done_testing
}

# expect_exit CODE DESCRIPTION COMMAND...: run, keep output in $OUT / $ERR.
expect_exit() {
	local want=$1 what=$2 got=0
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" || got=$?
	OUT=$(cat "$tmp/out")
	ERR=$(cat "$tmp/err")
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

# has_result: $OUT holds exactly one RESULT line with a JSON object.
has_result() {
	result_json | jq -e 'type == "object"' >/dev/null
}

# result_is JQ_EXPR: the RESULT object in $OUT satisfies a jq condition.
result_is() {
	result_json | jq -e "$1" >/dev/null
}
