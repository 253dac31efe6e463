# shellcheck shell=bash source=../lib/sim.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/sim.bash"
