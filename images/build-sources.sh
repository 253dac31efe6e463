#!/usr/bin/env bash
# Build the guest's read-only sources disk, which file-search copies its
# tree from: Debian's linux-source-6.1 tree (/sources/linux) and its
# manifest (/sources/manifest: every file's size and the matches the
# host's ripgrep counts in it for each of file-search's patterns, written
# by file-search-manifest).
#
#   build-sources.sh            -> build/image/sources.img
#
# sources.img is a symbolic link to sources-<key>.img, key a hash of the
# source package's version, ripgrep's and file-search-manifest's sources
# (its patterns and ripgrep flags): a new one is made only when one of
# them changes, and replaces the old in one rename of the link.
set -euo pipefail
lab_prog=build-sources
# shellcheck source=../lab/lib/common.sh
source "$(dirname "$0")/../lab/lib/common.sh"

tool=$LAB_BUILD/workloads/file-search-manifest
[[ -x $tool ]] || die "$EX_MISSING" "build/workloads/file-search-manifest missing (make workloads)"
[[ -r $LAB_TARBALL ]] || die "$EX_MISSING" "$LAB_TARBALL not found (install linux-source-6.1: make deps)"
[[ -x /usr/bin/rg ]] || die "$EX_MISSING" "/usr/bin/rg not found (make deps installs ripgrep)"
dir=$LAB_BUILD/image
# What the manifest depends on: the tree, ripgrep, and the patterns and
# flags (lib/sources.c) the tool runs it with; not the rest of the tool's
# libraries, whose changes would rebuild the disk for nothing.
key=$({ linux_source_version vanilla && rg --version | sed -n 1p &&
	cat "$LAB_TOP"/workloads/file-search-manifest.c "$LAB_TOP"/workloads/lib/{sources,rgcount}.[ch]; } |
	sha_stdin | cut -c1-16)
img=sources-$key.img
mkdir -p "$dir"
if [[ ! -f $dir/$img ]]; then
	stage=$dir/sources-stage.$$
	trap 'rm -rf "$stage" "$dir/$img.tmp"' EXIT
	rm -rf "$dir"/sources-stage.*
	mkdir -p "$stage"
	say "extracting $(basename "$LAB_TARBALL") for the sources disk"
	tar -xf "$LAB_TARBALL" -C "$stage"
	mv "$stage/linux-source-6.1" "$stage/linux"
	say "counting file-search's patterns in it with the host's ripgrep"
	"$tool" "$stage/linux" >"$stage/manifest" ||
		die "$EX_HARNESS" "file-search-manifest failed on the linux-source tree"
	mib=$(($(du -sm "$stage" | cut -f1) * 5 / 4 + 64))
	files=$(find "$stage" | wc -l)
	mkfs.ext4 -q -F -L labsources -N $((files + files / 4 + 1024)) -d "$stage" \
		"$dir/$img.tmp" "${mib}M" >/dev/null
	mv "$dir/$img.tmp" "$dir/$img"
	rm -rf "$stage"
	trap - EXIT
fi
link=$(mktemp -u "$dir/.sources-link.XXXXXX")
ln -s "$img" "$link"
mv -T "$link" "$dir/sources.img"
# Older disks go (a run pins the one it boots with a hard link).
for old in "$dir"/sources-*.img; do
	[[ $(basename "$old") == "$img" ]] || rm -f "$old"
done
say "sources disk ready: build/image/sources.img ($img, $(du -m "$dir/$img" | cut -f1) MiB)"
