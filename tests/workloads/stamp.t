#!/bin/bash
# Page stamps and the reference-string writer (tests/workloads/test-stamp.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

unit_program test-stamp
