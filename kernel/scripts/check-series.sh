#!/usr/bin/env bash
# The series' review gate: checkpatch --strict on every patch, a
# Signed-off-by on every patch, and a build of every prefix (bisectable):
# the x86-64 bzImage, and mm/ for i386 (ARCH=i386, the same config
# fragments), so that a break of 32-bit kernels cannot come back; then
# mm/ of the whole series under Debian's own config, with and without
# LRU_GEN_ENABLED, so that a distribution's build cannot break.
#
#   check-series.sh [--no-build]
#
# Prefixes are built in a separate worktree (build/src/check, outputs
# _out-check and _out-check-i386) so the lab tree is not disturbed; ccache
# makes each step an incremental rebuild.
#
# LAB_CHECK_PREFIXES (test suite only): the prefixes to build, numbers
# from 1, comma-separated (e.g. 12,13), instead of all of them.
set -euo pipefail
lab_prog="check-series"
# shellcheck source=../../lab/lib/common.sh
source "$(dirname "$0")/../../lab/lib/common.sh"

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

# The prefixes to build: all, or LAB_CHECK_PREFIXES (tests only).
prefixes=("${!commits[@]}")
if [[ -n ${LAB_CHECK_PREFIXES:-} ]]; then
	prefixes=()
	IFS=, read -ra wanted <<<"$LAB_CHECK_PREFIXES"
	for n in "${wanted[@]}"; do
		if [[ ! $n =~ ^[1-9][0-9]*$ ]] || ((n > ${#commits[@]})); then
			die "$EX_USAGE" "bad LAB_CHECK_PREFIXES '$LAB_CHECK_PREFIXES' (numbers from 1 to ${#commits[@]})"
		fi
		prefixes+=($((n - 1)))
	done
fi

check=$LAB_BUILD/src/check
if [[ ! -d $check ]]; then
	git -C "$src" worktree add -q --detach "$check" base
fi
frag=$(mktemp) frag32=$(mktemp)
trap 'rm -f "$frag" "$frag32"' EXIT
cat "$LAB_TOP/kernel/config/lab.config" "$LAB_TOP/kernel/config/series.config" >"$frag"
# i386: the same fragments without CONFIG_64BIT=y. ARCH=i386 hides that
# option's prompt, so allnoconfig would ignore the line anyway; it goes
# so that the fragment says what the build is.
{
	grep -v '^CONFIG_64BIT=' "$frag"
	echo '# CONFIG_64BIT is not set'
} >"$frag32"
export CCACHE_BASEDIR=$LAB_BUILD CCACHE_NOHASHDIR=true

# make_check ARCH OUT TARGET FRAGMENT: configure and build one target.
make_check() {
	local arch=$1 out=$2 target=$3 fragment=$4
	make -C "$check" ARCH="$arch" O="$out" -s allnoconfig KCONFIG_ALLCONFIG="$fragment" &&
		make -C "$check" ARCH="$arch" O="$out" -s -j"$(($(nproc) + 1))" CC="ccache gcc" \
			KBUILD_BUILD_TIMESTAMP="Wed Mar 22 23:31:40 CET 2006" \
			KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab "$target"
}

# show_errors LOG: the compiler's first errors, else the log's end.
show_errors() {
	grep -m 10 -E ': (fatal )?error:|undefined reference' "$1" >&2 || tail -n 20 "$1" >&2
}

for i in "${prefixes[@]}"; do
	n=$((i + 1))
	git -C "$check" checkout -q --detach "${commits[i]}"
	say "prefix $n/${#commits[@]}: ${series[i]}"
	start=$SECONDS
	if ! make_check x86_64 _out-check bzImage "$frag" >"$check/_out-check.log" 2>&1; then
		show_errors "$check/_out-check.log"
		die "$EX_HARNESS" "prefix $n (${series[i]}) does not build (log: ${check#"$LAB_TOP"/}/_out-check.log)"
	fi
	mid=$SECONDS
	if ! make_check i386 _out-check-i386 mm/ "$frag32" >"$check/_out-check-i386.log" 2>&1; then
		show_errors "$check/_out-check-i386.log"
		die "$EX_HARNESS" "prefix $n (${series[i]}): mm/ does not build for i386 (log: ${check#"$LAB_TOP"/}/_out-check-i386.log)"
	fi
	# What the 32-bit build leaves out of what the 64-bit one has.
	off=$(grep -E '^CONFIG_[A-Za-z0-9_]+=y$' "$frag32" | while read -r line; do
		if grep -qxF "$line" "$check/_out-check/.config" &&
			! grep -qxF "$line" "$check/_out-check-i386/.config"; then
			printf ' %s' "${line%=y}"
		fi
	done)
	[[ -z $off ]] || say "prefix $n: i386 builds without$off"
	say "prefix $n builds ($((mid - start)) s; i386 mm/ $((SECONDS - mid)) s)"
done
say "${#prefixes[@]} of ${#commits[@]} prefixes build, x86-64 and i386 mm/"

# Distributions build the series with their own configs: mm/ of the
# whole series under Debian's amd64 config (linux-config-6.1) with the
# policies of series.config on: as Debian ships it, with LRU_GEN_ENABLED=y
# as Fedora and Arch do, and with IDLE_PAGE_TRACKING=y, whose two page
# flags leave no room for the LRU_REFS bits (LRU_REFS_WIDTH 0: the
# multi-gen LRU degrades and the non-native policies do not start). Not
# for a subset of the prefixes (the test suite's LAB_CHECK_PREFIXES).
[[ -z ${LAB_CHECK_PREFIXES:-} ]] || exit 0
debian=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
[[ -r $debian ]] || die "$EX_MISSING" "$debian not found (install linux-config-6.1: make deps)"
git -C "$check" checkout -q --detach "${commits[-1]}"
for variant in debian debian-lru-gen-enabled debian-idle-page-tracking; do
	out=_out-check-$variant
	start=$SECONDS
	mkdir -p "$check/$out"
	{
		xz -dc "$debian"
		cat "$LAB_TOP/kernel/config/series.config"
		[[ $variant != debian-lru-gen-enabled ]] || echo CONFIG_LRU_GEN_ENABLED=y
		[[ $variant != debian-idle-page-tracking ]] || echo CONFIG_IDLE_PAGE_TRACKING=y
	} >"$check/$out/.config"
	if ! { make -C "$check" O="$out" -s olddefconfig &&
		make -C "$check" O="$out" -s -j"$(($(nproc) + 1))" CC="ccache gcc" \
			KBUILD_BUILD_TIMESTAMP="Wed Mar 22 23:31:40 CET 2006" \
			KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab mm/; } >"$check/$out.log" 2>&1; then
		show_errors "$check/$out.log"
		die "$EX_HARNESS" "mm/ of the series does not build under $variant's config (log: ${check#"$LAB_TOP"/}/$out.log)"
	fi
	say "mm/ builds under $variant's config ($((SECONDS - start)) s)"
done
