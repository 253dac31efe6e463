#!/bin/bash
# Size parsing and MemTotal reading (tests/workloads/test-size.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

if make -s -C "$ROOT/workloads" OUT="$BIN" "$BIN/tests/test-size" >"$TAP_TMP/log" 2>&1; then
	exec "$BIN/tests/test-size"
fi
not_ok "build test-size" "$(tail -5 "$TAP_TMP/log")"
done_testing
