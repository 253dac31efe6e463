#!/usr/bin/env bash
# Configure and build one guest kernel flavour and install it into
# build/kernels/FLAVOUR/ (bzImage, config, info.json).
#
#   build-kernel.sh vanilla|lab|debug|test|cost-vanilla|cost-lab|vanilla-6.12
#
# vanilla: the unpatched source with lab.config (the reference kernel).
# vanilla-6.12: today's kernel (linux-source-6.12) with the same
#          lab.config: what a user would run instead of any policy here.
# lab:     the series applied, lab.config + series.config.
# debug:   the lab source with debug.config on top (reliability gate).
# test:    the lab source with test.config on top: what exists only to be
#          tested (fail_page_replace for the safety fallback).  It differs
#          from lab by a few symbols, so ccache serves most of its build.
# cost-vanilla, cost-lab: vanilla and lab with cost.config (jump labels
#          on), for make kernel-cost; vmlinux only, left in the object
#          directory (build/src/*/_out-cost-*), not installed.
#
# The object directory is an immediate subdirectory of the source tree, so
# the kernel's srctree is ".." and compiler command lines are the same in
# every tree: ccache then shares objects between vanilla and lab.
set -euo pipefail
lab_prog=build-kernel
# shellcheck source=../../lab/lib/common.sh
source "$(dirname "$0")/../../lab/lib/common.sh"

flavour=${1:-}
case $flavour in
vanilla) src=$LAB_BUILD/src/vanilla fragments="lab.config" ;;
vanilla-6.12) src=$LAB_BUILD/src/vanilla-6.12 fragments="lab.config" ;;
lab) src=$LAB_BUILD/src/lab fragments="lab.config series.config" ;;
debug) src=$LAB_BUILD/src/lab fragments="lab.config series.config debug.config" ;;
test) src=$LAB_BUILD/src/lab fragments="lab.config series.config test.config" ;;
cost-vanilla) src=$LAB_BUILD/src/vanilla fragments="lab.config cost.config" ;;
cost-lab) src=$LAB_BUILD/src/lab fragments="lab.config series.config cost.config" ;;
*) die "$EX_USAGE" "usage: build-kernel.sh vanilla|lab|debug|test|cost-vanilla|cost-lab|vanilla-6.12" ;;
esac
[[ -f $src/Makefile ]] || die "$EX_MISSING" "no source tree in ${src#"$LAB_TOP"/} (run prepare-tree.sh first)"

out_name=_out-$flavour
out=$src/$out_name
dest=$LAB_KERNEL_DIR/$flavour
mkdir -p "$out" "$LAB_KERNEL_DIR"

fragment=$out/lab-fragment.config
{
	for f in $fragments; do
		cat "$LAB_TOP/kernel/config/$f"
	done
} >"$fragment.new"

make_k() {
	local cc=gcc
	if command -v ccache >/dev/null; then
		cc="ccache gcc"
		export CCACHE_BASEDIR=$LAB_BUILD CCACHE_NOHASHDIR=true
	fi
	# Fixed build metadata: reproducible images and ccache hits.
	make -C "$src" O="$out_name" CC="$cc" HOSTCC="$cc" \
		KBUILD_BUILD_TIMESTAMP="Wed Mar 22 23:31:40 CET 2006" \
		KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab "$@"
}

if ! cmp -s "$fragment.new" "$fragment" || [[ ! -f $out/.config ]]; then
	say "configuring $flavour (allnoconfig + ${fragments// / + })"
	make_k -s allnoconfig KCONFIG_ALLCONFIG="$fragment.new" >/dev/null
	# Every option the fragments ask for must have stuck.
	missing=$(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$fragment.new" |
		while read -r line; do
			grep -qxF "$line" "$out/.config" || printf ' %s' "$line"
		done)
	[[ -z $missing ]] || die "$EX_HARNESS" "$flavour config lacks:$missing (a dependency is missing from kernel/config)"
	mv "$fragment.new" "$fragment"
else
	rm "$fragment.new"
fi

target=bzImage
[[ $flavour != cost-* ]] || target=vmlinux
say "building $flavour kernel (make -j$(($(nproc) + 1)) $target; about 10 min cold, 1-2 min incremental)"
start=$(date +%s)
if ! make_k -s -j"$(($(nproc) + 1))" "$target" >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "$EX_HARNESS" "$flavour kernel build failed; full log: ${out#"$LAB_TOP"/}/build.log"
fi
secs=$(($(date +%s) - start))
if [[ $flavour == cost-* ]]; then
	say "$flavour vmlinux ready in ${out#"$LAB_TOP"/} ($((secs))s)"
	exit 0
fi

release=$(cat "$out/include/config/kernel.release")
config_sha=$(sha_stdin <"$out/.config")
if [[ $flavour == vanilla* ]]; then
	series="none"
else
	series=$(series_sha)
	# series_sha names kernel/patches; a tree with commits or changes
	# not exported yet is something else, and says so.
	head=$(git -C "$src" rev-parse HEAD)
	exported=$(sed -n 2p "$src/.lab-prepared.head" 2>/dev/null || true)
	if [[ $head != "$exported" || -n $(git -C "$src" status --porcelain -uno) ]]; then
		series="unexported-tree-$head"
		[[ -z $(git -C "$src" status --porcelain -uno) ]] || series+="-dirty"
		say "warning: the $flavour tree is not the exported series (make kernel-export); recorded as $series"
	fi
fi
# The install: a new directory build/kernels/.FLAVOUR-<time>-<pid> with
# all three files, then build/kernels/FLAVOUR, a symbolic link, swapped to
# it in one rename. A reader that resolves the link once (lab/lib/guest.sh)
# never pairs one build's bzImage with another's info.json. The previous
# install stays (a run may have just resolved it); older ones go.
new=$LAB_KERNEL_DIR/.$flavour-$(date -u +%Y%m%dT%H%M%S)-$$
mkdir "$new"
cp "$out/arch/x86/boot/bzImage" "$new/bzImage"
cp "$out/.config" "$new/config"
jq -n --arg flavour "$flavour" --arg release "$release" \
	--arg series_sha "$series" --arg config_sha "$config_sha" \
	--arg source "$(linux_source_version "$flavour")" --argjson build_s "$secs" \
	'{flavour: $flavour, release: $release, series_sha: $series_sha,
	  config_sha: $config_sha, linux_source_version: $source,
	  last_build_s: $build_s}' >"$new/info.json"
prev=$(readlink "$dest" 2>/dev/null || true)
if [[ -d $dest && ! -L $dest ]]; then
	# The layout before this one, a plain directory: moved aside, once.
	prev=.$flavour-old-layout-$$
	mv -T "$dest" "$LAB_KERNEL_DIR/$prev"
fi
link=$(mktemp -u "$LAB_KERNEL_DIR/.$flavour-link.XXXXXX")
ln -s "$(basename "$new")" "$link"
mv -T "$link" "$dest"
for old in "$LAB_KERNEL_DIR/.$flavour-"*; do
	[[ -e $old ]] || continue
	[[ $(basename "$old") == "$(basename "$new")" || $(basename "$old") == "$prev" ]] || rm -rf "$old"
done
say "$flavour kernel $release ready in ${dest#"$LAB_TOP"/} (${secs}s)"
