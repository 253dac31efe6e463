# shellcheck shell=bash source=../lib/workloads.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/workloads.bash"
