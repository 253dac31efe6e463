#!/bin/bash
# The latency histogram's buckets and percentiles (C unit test).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"
unit_program test-hist
