#!/usr/bin/env bash
# Extract Debian's linux-source-6.1 into build/src/FLAVOUR and, for the lab
# tree, apply kernel/patches/series as one git commit per patch.
#
#   prepare-tree.sh vanilla|lab|vanilla-6.12
#
# vanilla-6.12 is today's kernel, the users' alternative to the series:
# Debian's linux-source-6.12 (bookworm-security), unpatched.
#
# The lab tree is a git repository (tag `base` is the pristine source), so a
# patch can be edited there and exported back with export-patches.sh.  It is
# rebuilt from the series whenever the series changes, unless it holds
# commits or edits that were never exported; then we stop instead of
# throwing work away.
set -euo pipefail
lab_prog=prepare-tree
# shellcheck source=../../lab/lib/common.sh
source "$(dirname "$0")/../../lab/lib/common.sh"

flavour=${1:-}
package=$(flavour_source "$flavour")
case $flavour in
vanilla | lab) tarball=$LAB_TARBALL ;;
vanilla-6.12) tarball=$LAB_TARBALL_612 ;;
*) die "$EX_USAGE" "usage: prepare-tree.sh vanilla|lab|vanilla-6.12" ;;
esac

src=$LAB_BUILD/src/$flavour
stamp=$src/.lab-prepared
[[ -r $tarball ]] || die "$EX_MISSING" "$tarball not found (install $package: make deps)"
version=$(linux_source_version "$flavour")

extract() {
	local tmp=$LAB_BUILD/src/.extract-$flavour.$$
	say "extracting $tarball ($version) into build/src/$flavour"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xf "$tarball" -C "$tmp"
	rm -rf "$src"
	mv "$tmp/$package" "$src"
	rmdir "$tmp"
}

git_k() {
	git -C "$src" -c user.name="Lab Build" -c user.email=lab@localhost \
		-c advice.detachedHead=false "$@"
}

# The pristine tree as a repository whose first commit is tagged `base`.
init_repo() {
	printf '/_out*/\n/.lab-prepared*\n' >"$src/.git-exclude-lab"
	# Debian's .gitignore ignores everything at the top level (its packaging
	# keeps only debian/ in git); drop that block so git sees the kernel.
	sed -i '/^# Debian packaging/,/^!\/debian\/$/d' "$src/.gitignore"
	git_k init -q
	cp "$src/.git-exclude-lab" "$src/.git/info/exclude"
	rm "$src/.git-exclude-lab"
	git_k add -A
	git_k commit -q -m "linux-source-6.1 $version (Debian)"
	git_k tag base
}

apply_series() {
	local p n=0
	git_k reset -q --hard base
	while read -r p; do
		[[ -z $p || $p == \#* ]] && continue
		n=$((n + 1))
		[[ -f $LAB_PATCHES/$p ]] ||
			die "$EX_MISSING" "series names $p, which is not in ${LAB_PATCHES#"$LAB_TOP"/}"
		if ! git_k am -q --keep-cr "$LAB_PATCHES/$p" >/dev/null 2>&1; then
			git_k am --abort >/dev/null 2>&1 || true
			die "$EX_HARNESS" "patch $n ($p) does not apply to linux-source-6.1 $version"
		fi
	done <"$LAB_PATCHES/series"
	say "applied $n patch(es) to build/src/lab"
}

if [[ $flavour != lab ]]; then
	want="$version"
	if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
		exit 0
	fi
	extract
	printf '%s\n' "$want" >"$stamp"
	exit 0
fi

want="$version $(series_sha)"
if [[ -d $src/.git && -f $stamp ]]; then
	[[ $(cat "$stamp") == "$want" ]] && exit 0
	# The series changed. Only re-apply if the tree holds nothing unexported.
	recorded_head=$(sed -n 2p "$stamp.head" 2>/dev/null || true)
	if [[ -n $(git_k status --porcelain) ]] ||
		[[ $(git_k rev-parse HEAD) != "$recorded_head" ]]; then
		die "$EX_HARNESS" "build/src/lab has unexported changes and kernel/patches changed; export them (make kernel-export) or discard them (make kernel-reset)"
	fi
	[[ $version == "$(head -n1 "$stamp" | cut -d' ' -f1)" ]] || {
		extract
		init_repo
	}
else
	extract
	init_repo
fi
apply_series
printf '%s\n' "$want" >"$stamp"
printf 'head\n%s\n' "$(git_k rev-parse HEAD)" >"$stamp.head"
