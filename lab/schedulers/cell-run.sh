#!/usr/bin/env bash
# One cell of lab.sh matrix, as every engine runs it (a helper of the
# matrix, not a command of lab.sh):
#
#   cell-run.sh LOG COMMAND...
#
# runs COMMAND (the cell's lab.sh run, as lab.sh matrix --list-cells
# prints it) with its stdout in LOG.out and its stderr in LOG.log, then
# writes LOG.exit, one line "EXIT SECONDS HOST" (COMMAND's exit code, its
# wall time, this host's name), and exits with COMMAND's code. INT, TERM
# and HUP (Ctrl-C, scancel, GNU parallel's kill) are passed on to COMMAND
# as TERM (lab.sh run then stops its guest and removes its partial files),
# and the exit it ends with (143) is recorded. A cell whose cell-run.sh is
# killed outright leaves no LOG.exit: the matrix counts it as failed.
set -euo pipefail
lab_prog="lab cell-run"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"

(($# >= 2)) || die "$EX_USAGE" "usage: cell-run.sh LOG COMMAND..."
log=$1
shift
[[ -d $(dirname "$log") ]] || die "$EX_USAGE" "no directory $(dirname "$log") for the cell's log"

t0=$SECONDS
rm -f "$log.exit"
"$@" >"$log.out" 2>"$log.log" &
pid=$!
# shellcheck disable=SC2317 # run by the trap
pass_on() {
	kill -TERM "$pid" 2>/dev/null || true
}
trap pass_on INT TERM HUP
# A trapped signal ends wait early, with the command still running; bash
# keeps a background job's status, so the last wait gets it either way.
while kill -0 "$pid" 2>/dev/null; do
	wait "$pid" || true
done
rc=0
wait "$pid" || rc=$?
trap - INT TERM HUP
printf '%s %s %s\n' "$rc" "$((SECONDS - t0))" "$(uname -n)" >"$log.exit.tmp"
mv -f "$log.exit.tmp" "$log.exit"
exit "$rc"
