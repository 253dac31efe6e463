#!/bin/bash
# The SPC trace parser and page mapping (tests/workloads/test-spc.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

unit_program test-spc
