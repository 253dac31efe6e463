#!/usr/bin/env bash
# shellcheck disable=SC2016 # programs for bash -c, in single quotes
# The top Makefile builds one thing at a time: make all and the kernel and
# image recipes hold LAB_BUILD/.make.lock, so a second make waits for the
# first (a make by hand beside lab.sh run's first-use make), and make all
# does not deadlock on the lock it holds when its own kernel recipes run.
# No kernel is built: KSCRIPTS points at scripts that only write down
# when they ran (the Makefile runs its real deps step).
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"

export LAB_BUILD=$tmp/build
lock=$LAB_BUILD/.make.lock
ks=$tmp/ks log=$tmp/log
mkdir -p "$ks"
# Each fake step logs "NAME FLAVOUR start T" and "... end T", a second apart.
for s in prepare-tree build-kernel; do
	cat >"$ks/$s.sh" <<EOF
#!/usr/bin/env bash
echo "$s \$1 start \$(date +%s.%N)" >>"$log"
sleep 1
echo "$s \$1 end \$(date +%s.%N)" >>"$log"
EOF
	chmod +x "$ks/$s.sh"
done
mk() { make -s -C "$top" KSCRIPTS="$ks" "$@"; }
# at STEP: its time in the log ("build-kernel lab end").
at() { awk -v k="$1" '$1 " " $2 " " $3 == k { print $4 }' "$log" | tail -n1; }
# le A B: A <= B, both seconds since the epoch.
# shellcheck disable=SC2317 # called through check
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a <= b) }'; }

# 1. Another holder of the lock: make kernel-lab waits until it lets go
# (the holder lets go a second after make says it waits, or after 60 s).
mkdir -p "$LAB_BUILD"
: >"$tmp/err"
(
	flock 9 && touch "$tmp/held"
	for _ in $(seq 600); do grep -q waiting "$tmp/err" && break; sleep 0.1; done
	sleep 1
	date +%s.%N >"$tmp/released"
) 9>>"$lock" &
holder=$!
for _ in $(seq 50); do [[ -e $tmp/held ]] && break; sleep 0.1; done
rc=0
mk kernel-lab 2>"$tmp/err" || rc=$?
wait "$holder"
is "$rc" 0 "make kernel-lab beside a holder of the lock: exits 0"
check "it said that it waits, and for which lock" grep -qF "waiting for the build that holds $lock" "$tmp/err"
check "its prepare-tree started after the holder let go" le "$(cat "$tmp/released")" "$(at 'prepare-tree lab start')"
check "prepare-tree and build-kernel ran under one hold (build after prepare)" \
	le "$(at 'prepare-tree lab end')" "$(at 'build-kernel lab start')"

# 2. make all holds the lock and runs its kernel recipes inside it: no
# deadlock (timeout's 124 would say so), both kernels built in turn.
: >"$log"
rc=0
timeout 120 make -s -C "$top" KSCRIPTS="$ks" SETUP_GOALS=kernels all >"$tmp/all.out" 2>"$tmp/all.err" &
all=$!
# 3. Meanwhile a second make (kernel-debug) waits for the whole make all.
# Its first step running means make all holds the lock; a probe with
# flock -n would take the lock itself and could make make all wait.
for _ in $(seq 300); do [[ -n $(at 'prepare-tree vanilla start') ]] && break; sleep 0.1; done
mk kernel-debug 2>"$tmp/debug.err" || rc=$?
wait "$all" || rc=$?
is "$rc" 0 "make all (kernels) and a make kernel-debug beside it: both exit 0, no deadlock"
check "make all built vanilla and lab" bash -c '[[ -n $1 && -n $2 ]]' _ "$(at 'build-kernel vanilla end')" "$(at 'build-kernel lab end')"
check "make all's kernel recipes did not wait for their own lock" bash -c '! grep -q waiting "$1"' _ "$tmp/all.err"
check "the second make waited" grep -q "waiting for the build that holds" "$tmp/debug.err"
check "the second make's debug build started after make all's last kernel" \
	le "$(at 'build-kernel lab end')" "$(at 'build-kernel debug start')"

# 4. Dry runs take no lock; lab run's first-use make is make all itself.
(flock 9 && sleep 5) 9>>"$lock" &
holder=$!
sleep 0.5
check "make -n kernel-lab does not wait for the lock" \
	bash -c 'timeout 4 make -s -n -C "$1" KSCRIPTS="$2" kernel-lab >/dev/null' _ "$top" "$ks"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
check "lab/commands/run.sh's first-use make is make all (and today's kernel when asked), with no lock of its own around it" \
	bash -c 'grep -qx "	goals=(all)" "$1" && grep -q "make -C \"\$LAB_TOP\" \"\${goals\[@\]}\"" "$1" &&
		! grep -q "flock.*make" "$1"' _ "$top/lab/commands/run.sh"
done_testing
