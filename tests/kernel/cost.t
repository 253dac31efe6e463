#!/usr/bin/env bash
# make kernel-cost (kernel/scripts/kernel-cost.sh): on small programs that
# differ from a reference by one thing each, the checker passes a hook
# behind a jump-label static branch and a duplicated tail, and fails an
# unconditional call, an unconditional counter update, a hook behind a
# plain key test (a static key without jump labels) and work added on the
# shortest way through a function; on the built kernels it reports every
# hot function of reclaim.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"

cost=$top/kernel/scripts/kernel-cost.sh
[[ -x $top/build/tools/kernel-cost ]] || skip_all "build/tools/kernel-cost not built (make tools)"

# One function, hot(), in five builds: VARIANT 0 is the reference, each
# other one adds one thing after the call to helper().
cat >"$tmp/hot.c" <<'EOF'
#if VARIANT == 1
struct key { int enabled; } lab_key;
/* x86-64 6.1's arch_static_branch(): a 5-byte NOP and a __jump_table entry */
static inline __attribute__((always_inline)) int key_on(struct key *k)
{
	asm goto("1: .byte 0x0f,0x1f,0x44,0x00,0x00\n\t"
		 ".pushsection __jump_table, \"aw\"\n\t"
		 ".balign 8\n\t"
		 ".long 1b - .\n\t"
		 ".long %l[yes] - .\n\t"
		 ".quad %c0 - .\n\t"
		 ".popsection"
		 : : "i"(k) : : yes);
	return 0;
yes:
	return 1;
}
#elif VARIANT == 3
int lab_count;
#elif VARIANT == 4
long lab_events;
#endif

__attribute__((noinline)) void helper(long *p) { __asm__ volatile("" : : "r"(p) : "memory"); }
__attribute__((noinline)) void hook(long *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

long hot(long *p, long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += p[i] * 3;
	helper(p);
#if VARIANT == 1	/* a hook behind a static branch: allowed */
	if (key_on(&lab_key))
		hook(p);
#elif VARIANT == 2	/* an unconditional call */
	hook(p);
#elif VARIANT == 3	/* static_branch_unlikely() without jump labels */
	if (__atomic_load_n(&lab_count, __ATOMIC_RELAXED) > 0)
		hook(p);
#elif VARIANT == 4	/* an unconditional counter update */
	__atomic_fetch_add(&lab_events, 1, __ATOMIC_RELAXED);
#endif
	return s;
}

int main(int argc, char **argv)
{
	long a[4] = { argc, argv[0][0] };

	return (int)hot(a, argc);
}
EOF
for v in 0 1 2 3 4; do
	gcc -std=gnu11 -O2 -fno-pie -no-pie -DVARIANT=$v -o "$tmp/hot$v" "$tmp/hot.c"
done

# run VARIANT [OPTION...]: the checker on hot0 against hotVARIANT; sets rc,
# and row (hot's table row).
run() {
	local v=$1
	shift
	rc=0
	"$cost" --function hot --files '' "$@" "$tmp/hot0" "$tmp/hot$v" >"$tmp/out$v" 2>"$tmp/err" || rc=$?
	row=$(grep '^| hot |' "$tmp/out$v" || true)
}

# field N of the row (1: function, 2: vanilla reachable, ...)
field() {
	awk -F' *[|] *' -v n="$1" '{ print $(n + 1) }' <<<"$row"
}

# The reference's instructions, counted from objdump apart from the
# checker: hot() has no dead code, so all but its alignment NOPs are
# reachable.
insns=$(objdump -d --no-show-raw-insn --disassemble=hot "$tmp/hot0" |
	grep -cP '^\s+[0-9a-f]+:\t(?!nop)')
jt_size=$(readelf -SW "$tmp/hot1" | awk '$2 == "__jump_table" { print $6 }')
sites=$((16#${jt_size:-0} / 16))

run 1
is "$rc" 0 "a hook behind a jump-label static branch passes"
is "$(field 2)" "$insns" "... the reference's path is hot()'s $insns instructions (objdump)"
is "$(field 6)" "+$sites" "... the lab adds the $sites site(s) of its __jump_table"
is "$(field 4)" 0 "... and no instruction that does work"
check "... the hook's call is not on the path" bash -c "! grep -q 'call <hook>' '$tmp/out1'"

run 2
is "$rc" 1 "an unconditional call fails"
check "... naming the callee" grep -q 'new call: hook' <<<"$row"
is "$(field 3)" "$(objdump -d --no-show-raw-insn --disassemble=hot "$tmp/hot2" |
	grep -cP '^\s+[0-9a-f]+:\t(?!nop)')" "... the lab's path is all of its hot() (objdump)"

run 4
is "$rc" 1 "an unconditional counter update fails"
is "$(field 4)" 1 "... one instruction added"
check "... the diff shows it" grep -q '^+ lock add.*<lab_events>(%rip)' "$tmp/out4"
run 4 --tolerance 1
is "$rc" 0 "... and passes with --tolerance 1"

run 3
is "$rc" 1 "a hook behind a key test (no jump labels) fails"
check "... as a key test, not as growth" grep -q '1 key test(s)' <<<"$row"
is "$(field 4)" 0 "... with no instruction added besides"

# The way through a function, not the multiset over it: ways() in three
# hand-written builds (assembly, so that the compiler cannot rearrange
# them). The reference adds 2 after an if that adds 1; "dup" duplicates
# the add of 2 into both arms (tail duplication: one work instruction more
# over the function, none more on any way through it); "short" does work
# on the way that skipped the add of 1, making the shortest way longer.
for v in ref dup short; do
	case $v in
	ref) body='test %rdi,%rdi; je 1f; add $1,%rax; 1: add $2,%rax; ret' ;;
	dup) body='test %rdi,%rdi; je 1f; add $1,%rax; add $2,%rax; ret; 1: add $2,%rax; ret' ;;
	short) body='test %rdi,%rdi; je 1f; add $1,%rax; jmp 2f; 1: imul $3,%rax,%rax; 2: add $2,%rax; ret' ;;
	esac
	printf '%s\n' '.text' '.globl ways' '.type ways,@function' "ways: $body" '.size ways,.-ways' \
		'.globl main' '.type main,@function' 'main: xor %eax,%eax; ret' >"$tmp/ways-$v.s"
	gcc -no-pie -o "$tmp/ways-$v" "$tmp/ways-$v.s"
done
ways() {
	rc=0
	"$cost" --function ways --files '' "$tmp/ways-ref" "$tmp/ways-$1" >"$tmp/ways.out" 2>"$tmp/err" || rc=$?
	row=$(grep '^| ways |' "$tmp/ways.out" || true)
}
ways dup
is "$rc" 0 "a duplicated tail passes: no way through the function does more"
is "$(field 4)" 1 "... though the multiset counts one instruction added"
is "$(field 7)" "3 / 3" "... the longest way does 3 instructions of work in both (test, add, add)"
is "$(field 8)" "2 / 2" "... the shortest 2 (test, add)"
ways short
is "$rc" 1 "work added on the shortest way fails"
is "$(field 8)" "2 / 3" "... the shortest way does 3 instead of 2"
check "... and the verdict says where" grep -q 'added on the shortest' <<<"$row"
ways ref
is "$rc" 0 "the reference against itself passes"
run 4
read -r ref_long _ lab_long <<<"$(field 7)"
is "$lab_long" "$((ref_long + 1))" "an unconditional counter update is one more on hot()'s longest way"
read -r ref_short _ lab_short <<<"$(field 8)"
is "$lab_short" "$((ref_short + 1))" "... and on its shortest"

# --cold: a function off the hot paths (a sysfs handler) is reported, not
# judged; the wrapper names store_enabled so.
rc=0
"$top/build/tools/kernel-cost" --cold hot "$tmp/hot0" "$tmp/hot2" hot >"$tmp/cold.out" 2>&1 || rc=$?
is "$rc" 0 "--cold: a function with a new call is not judged"
check "... its row says so" grep -q '^| hot |.*not judged: off the hot paths' "$tmp/cold.out"
check "kernel-cost.sh reports store_enabled (MGLRU's sysfs switch) cold" \
	grep -q '^COLD=(store_enabled)' "$cost"

usage_error "a bad --tolerance: exit 2, one line" "$cost" --tolerance x
usage_error "one vmlinux only: exit 2, one line" "$cost" "$tmp/hot0"
usage_error "a missing file: exit 2, one line" "$cost" "$tmp/hot0" "$tmp/none"
rc=0
LAB_BUILD=$tmp/nobuild "$cost" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 2 "no built kernels: exit 2"
check "... naming the command that builds them" grep -q 'make kernel-cost' "$tmp/err"
rc=0
"$cost" --function no_such_function --files '' "$tmp/hot0" "$tmp/hot1" >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 5 "a function in neither file: exit 5"

# The guest kernels (make test builds both).
vanilla=$top/build/src/vanilla/_out-vanilla/vmlinux
lab=$top/build/src/lab/_out-lab/vmlinux
if [[ -f $vanilla && -f $lab ]]; then
	rc=0
	"$cost" "$vanilla" "$lab" >"$tmp/kernel.md" 2>"$tmp/err" || rc=$?
	check "the kernels are compared (exit 0 or 1, not an error)" test "$rc" -le 1
	# The tool sees jump labels exactly when the lab kernel was built with
	# them (vmlinux keeps the table inside .data between
	# __start___jump_table and __stop___jump_table).
	if grep -q '^CONFIG_JUMP_LABEL=y' "$top/build/kernels/lab/config" 2>/dev/null; then
		check "the static keys are jump labels, found in vmlinux's table" \
			grep -qE '^Static branches: jump labels \(__jump_table: [1-9][0-9]* sites in vanilla, [1-9][0-9]* in lab\)' "$tmp/kernel.md"
	else
		check "the static keys are key tests (no CONFIG_JUMP_LABEL), as reported" \
			grep -q '^Static branches: \*\*none: the lab kernel has no __jump_table' "$tmp/kernel.md"
	fi
	for f in folio_mark_accessed folio_add_lru lru_add_fn folio_activate \
		shrink_folio_list shrink_active_list isolate_lru_folios \
		workingset_eviction workingset_refault sort_folio; do
		check "the table has $f" grep -qE "^\| $f( \(in [a-z_]+\))? \|" "$tmp/kernel.md"
	done
	mapfile -t rows < <(grep -E '^\| ' "$tmp/kernel.md")
	diag "${rows[@]}"
else
	skip "the built kernels are compared" "no vmlinux in build/src/{vanilla,lab} (make kernels)"
fi
# The cost kernels (jump labels on), when make kernel-cost built them: the
# series may add nothing but static branches to a native path.
if [[ -f $top/build/src/vanilla/_out-cost-vanilla/vmlinux && -f $top/build/src/lab/_out-cost-lab/vmlinux ]]; then
	rc=0
	"$cost" >"$tmp/cost.md" 2>"$tmp/err" || rc=$?
	check "with jump labels no native path gains an instruction (kernel-cost exit $rc)" test "$rc" = 0
	diag "$(grep -F 'FAIL' "$tmp/cost.md" || true)"
else
	skip "the native paths gain nothing with jump labels" "no cost kernels (make kernel-cost)"
fi
done_testing
