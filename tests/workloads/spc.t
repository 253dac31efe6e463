#!/bin/bash
# The SPC trace parser and page mapping (tests/workloads/test-spc.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

if make -s -C "$ROOT/workloads" OUT="$BIN" "$BIN/tests/test-spc" >"$TAP_TMP/log" 2>&1; then
	exec "$BIN/tests/test-spc"
fi
not_ok "build test-spc" "$(tail -5 "$TAP_TMP/log")"
done_testing
