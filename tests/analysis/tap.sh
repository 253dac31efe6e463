# shellcheck shell=bash source=../lib/analysis.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/analysis.bash"
