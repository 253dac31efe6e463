#!/bin/bash
# The RESP client's reply parser and command encoding (C unit test).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"
unit_program test-resp
