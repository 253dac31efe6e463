# shellcheck shell=bash source=../lib/bpftrace.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/bpftrace.bash"
