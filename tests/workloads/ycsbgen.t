#!/bin/bash
# The YCSB request generators against the Zipf law and YCSB's keys (C unit test).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"
unit_program test-ycsbgen
