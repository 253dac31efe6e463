#!/usr/bin/env bash
# The series' review gate: checkpatch --strict on every patch, a
# Signed-off-by on every patch, and a build of every prefix (bisectable).
#
#   check-series.sh [--no-build]
#
# Prefixes are built in a separate worktree (build/src/check) so the lab
# tree is not disturbed; ccache makes each step an incremental rebuild.
set -euo pipefail
lab_prog="check-series"
# shellcheck source=../../lab/common.sh
source "$(dirname "$0")/../../lab/common.sh"

build=1
[[ ${1:-} == --no-build ]] && build=0
src=$LAB_BUILD/src/lab
patches=$LAB_TOP/kernel/patches
[[ -d $src/.git ]] || die "$EX_MISSING" "no lab tree (run make kernel-lab first)"

mapfile -t series < <(grep -v -e '^#' -e '^$' "$patches/series")
((${#series[@]})) || {
	say "the series is empty: nothing to check"
	exit 0
}

bad=0
for p in "${series[@]}"; do
	# Debian's python3 first: checkpatch's spdxcheck needs its python3-ply.
	out=$(PATH=/usr/bin:$PATH perl "$src/scripts/checkpatch.pl" --strict --no-summary --terse \
		--root="$src" "$patches/$p" 2>&1) || true
	if [[ -n $out ]]; then
		say "checkpatch: $p"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		bad=1
	fi
	grep -q '^Signed-off-by: ' "$patches/$p" || {
		say "$p has no Signed-off-by"
		bad=1
	}
done
((bad == 0)) || die "$EX_HARNESS" "the series does not pass checkpatch --strict"
say "checkpatch --strict: ${#series[@]} patch(es) clean, all signed off"
((build)) || exit 0

# The lab tree must hold exactly the series: one commit per patch on base.
mapfile -t commits < <(git -C "$src" rev-list --reverse base..HEAD)
((${#commits[@]} == ${#series[@]})) ||
	die "$EX_HARNESS" "build/src/lab has ${#commits[@]} commits but the series ${#series[@]} patches (make kernel-reset or kernel-export)"

check=$LAB_BUILD/src/check
if [[ ! -d $check ]]; then
	git -C "$src" worktree add -q --detach "$check" base
fi
frag=$(mktemp)
trap 'rm -f "$frag"' EXIT
cat "$LAB_TOP/kernel/config/lab.config" "$LAB_TOP/kernel/config/series.config" >"$frag"
export CCACHE_BASEDIR=$LAB_BUILD CCACHE_NOHASHDIR=true
for i in "${!commits[@]}"; do
	n=$((i + 1))
	git -C "$check" checkout -q --detach "${commits[i]}"
	say "prefix $n/${#commits[@]}: ${series[i]}"
	start=$SECONDS
	if ! { make -C "$check" O=_out-check -s allnoconfig KCONFIG_ALLCONFIG="$frag" &&
		make -C "$check" O=_out-check -s -j"$(($(nproc) + 1))" CC="ccache gcc" \
			KBUILD_BUILD_TIMESTAMP="Wed Mar 22 23:31:40 CET 2006" \
			KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab bzImage; } \
		>"$check/_out-check.log" 2>&1; then
		tail -n 20 "$check/_out-check.log" >&2
		die "$EX_HARNESS" "prefix $n (${series[i]}) does not build"
	fi
	say "prefix $n builds ($((SECONDS - start)) s)"
done
say "all ${#commits[@]} prefixes build"
