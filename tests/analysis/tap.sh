# shellcheck shell=bash source=../lib/analysis.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/analysis.bash"

# refuses_output TOOL DESCRIPTION RC ARGS...: TOOL -o FILE ARGS exits RC
# with one stderr line and leaves neither FILE nor a temporary beside it.
refuses_output() {
	local tool=$1 desc=$2 want=$3 rc
	shift 3
	rm -f "$TMP/out.csv"
	set +e
	"$tool" -o "$TMP/out.csv" "$@" 2>"$TMP/err"
	rc=$?
	set -e
	tap_is "$rc $(wc -l <"$TMP/err")" "$want 1" "$desc: exit $want, one error line"
	tap_ok "$desc: no output file, no temporary left" \
		bash -c "! ls '$TMP'/out.csv* 2>/dev/null | grep -q ."
}
