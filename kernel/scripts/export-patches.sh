#!/usr/bin/env bash
# Export the lab tree's commits (base..HEAD) to kernel/patches with
# git format-patch and rewrite the series file to match.
set -euo pipefail
lab_prog=export-patches
# shellcheck source=../../lab/lib/common.sh
source "$(dirname "$0")/../../lab/lib/common.sh"

src=$LAB_BUILD/src/lab
dest=$LAB_TOP/kernel/patches
[[ -d $src/.git ]] || die "$EX_MISSING" "no lab tree in build/src/lab (run make kernel-lab)"
[[ -z $(git -C "$src" status --porcelain) ]] ||
	die "$EX_USAGE" "build/src/lab has uncommitted changes; commit them (git commit -s) first"

tmp=$(mktemp -d "$LAB_BUILD/export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git -C "$src" format-patch -q --no-signature --zero-commit --cover-letter -o "$tmp" base..HEAD
(cd "$tmp" && find . -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' -printf '%f\n' |
	sort >series)
# The cover letter's subject and blurb: kernel/cover-letter.txt (first
# line, then the text after the blank line); format-patch adds the
# shortlog and diffstat.
cover=$LAB_TOP/kernel/cover-letter.txt
[[ -f $cover ]] || die "$EX_MISSING" "kernel/cover-letter.txt not found"
awk -v cover="$cover" '
	BEGIN { getline subject <cover; getline blank <cover
		while ((getline l <cover) > 0) blurb = blurb l "\n" }
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", blurb; next }
	{ print }' "$tmp/0000-cover-letter.patch" >"$tmp/cover" &&
	mv "$tmp/cover" "$tmp/0000-cover-letter.patch"
rm -f "$dest"/*.patch
cp "$tmp"/*.patch "$dest"/ 2>/dev/null || true
mv "$tmp/series" "$dest/series"
# The tree now matches the series: record it so prepare-tree.sh keeps it.
printf '%s %s\n' "$(linux_source_version lab)" "$(series_sha)" >"$src/.lab-prepared"
printf 'head\n%s\n' "$(git -C "$src" rev-parse HEAD)" >"$src/.lab-prepared.head"
say "exported $(wc -l <"$dest/series") patch(es) and the cover letter to kernel/patches"
