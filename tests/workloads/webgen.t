#!/bin/bash
# The web-search trace generator model (tests/workloads/test-webgen.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

if make -s -C "$ROOT/workloads" OUT="$BIN" "$BIN/tests/test-webgen" >"$TAP_TMP/log" 2>&1; then
	exec "$BIN/tests/test-webgen"
fi
not_ok "build test-webgen" "$(tail -5 "$TAP_TMP/log")"
done_testing
