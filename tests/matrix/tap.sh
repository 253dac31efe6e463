# shellcheck shell=bash source=../lib/tap.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.bash"
