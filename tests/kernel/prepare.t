#!/usr/bin/env bash
# prepare-tree.sh on a miniature "linux-source" tarball: the series becomes
# one git commit per patch on a `base` tag, a patch that does not apply
# stops everything with an error naming it, and unexported work in the
# tree is never overwritten.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"

# A tiny source tree with Debian's top-level .gitignore block.
mkdir -p "$tmp/src/linux-source-6.1/mm"
printf 'first line\nsecond line\n' >"$tmp/src/linux-source-6.1/mm/vmscan.c"
printf 'KERNEL = yes\n' >"$tmp/src/linux-source-6.1/Makefile"
printf '#\n# Debian packaging: ignore everything at the top level, since it isn'"'"'t\n# included in our repository\n#\n/*\n!/debian/\n' \
	>"$tmp/src/linux-source-6.1/.gitignore"
tar -C "$tmp/src" -cJf "$tmp/linux.tar.xz" linux-source-6.1

# Two patches made with git format-patch against it.
git init -q "$tmp/mk"
cp -r "$tmp/src/linux-source-6.1/." "$tmp/mk/"
cd "$tmp/mk"
sed -i '/^# Debian packaging/,/^!\/debian\/$/d' .gitignore
git add -A && git -c user.name=t -c user.email=t@t commit -qm base
sed -i 's/first line/first line, patched/' mm/vmscan.c
git -c user.name=t -c user.email=t@t commit -qsam "mm: patch one"
printf 'new file\n' >mm/page_replace.c
git add mm/page_replace.c && git -c user.name=t -c user.email=t@t commit -qsm "mm: patch two"
mkdir -p "$tmp/patches"
git format-patch -q -o "$tmp/patches" HEAD~2..HEAD
(cd "$tmp/patches" && find . -name '*.patch' -printf '%f\n' | sort >series)
cd "$top"

export LAB_BUILD=$tmp/build LAB_TARBALL=$tmp/linux.tar.xz LAB_PATCHES=$tmp/patches
rc=0
"$top/kernel/scripts/prepare-tree.sh" lab 2>"$tmp/err" || rc=$?
check "the series applies" test "$rc" = 0
lab=$tmp/build/src/lab
check "one commit per patch on top of base" test "$(git -C "$lab" rev-list --count base..HEAD)" = 2
check "the patched file has the change" grep -q 'first line, patched' "$lab/mm/vmscan.c"
check "a new file of the series is tracked" test -n "$(git -C "$lab" ls-files --full-name -- mm/page_replace.c)"
rc=0
"$top/kernel/scripts/prepare-tree.sh" lab 2>"$tmp/err" || rc=$?
check "a second prepare with the same series does nothing" test "$rc" = 0 -a ! -s "$tmp/err"

# Unexported work plus a changed series: refuse, keep the work.
printf 'my edit\n' >>"$lab/mm/vmscan.c"
sed -i 2d "$tmp/patches/series"
rc=0
"$top/kernel/scripts/prepare-tree.sh" lab 2>"$tmp/err" || rc=$?
check "unexported edits stop a re-apply" test "$rc" != 0
check "... with a message that says how to proceed" grep -q 'kernel-export' "$tmp/err"
check "... and the edit is still there" grep -q 'my edit' "$lab/mm/vmscan.c"
git -C "$lab" checkout -q -- mm/vmscan.c

# A patch that does not apply.
sed -i 's/first line/no such line/' "$tmp/patches/0001-mm-patch-one.patch"
rc=0
"$top/kernel/scripts/prepare-tree.sh" lab 2>"$tmp/err" || rc=$?
check "a broken patch fails the set-up" test "$rc" != 0
check "... naming the patch" grep -q '0001-mm-patch-one.patch' "$tmp/err"
check "... in one line" test "$(wc -l <"$tmp/err")" = 1
diag "$(cat "$tmp/err")"

# A series naming a missing file.
printf 'missing.patch\n' >"$tmp/patches/series"
rc=0
"$top/kernel/scripts/prepare-tree.sh" lab 2>"$tmp/err" || rc=$?
check "a missing patch file fails, naming it" grep -q 'missing.patch' "$tmp/err"
done_testing
