#!/bin/bash
# The web-search trace generator model (tests/workloads/test-webgen.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

unit_program test-webgen
