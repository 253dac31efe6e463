#!/bin/bash
# fio's terse output parser (C unit test).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"
unit_program test-fioterse
