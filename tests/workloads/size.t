#!/bin/bash
# Size parsing and MemTotal reading (tests/workloads/test-size.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

unit_program test-size
