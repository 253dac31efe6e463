# The lab's build. `make` installs what is missing, builds both kernels,
# the workloads, the analysis tools and the guest image; `make test` does
# all that and runs the tests. Each step is incremental.

SHELL := /bin/bash
.DEFAULT_GOAL := all

KSCRIPTS := kernel/scripts

# One build at a time: make all, and the kernel and image recipes, hold
# MAKE_LOCK (flock), so a make by hand and lab.sh run's first-use make
# never build beside each other (two kernel builds in one tree break each
# other); the second waits. $(call locked,COMMANDS) runs one shell line
# holding it, unless this make runs inside one that does
# (LAB_MAKE_LOCKED, set for the makes and scripts it starts).
MAKE_LOCK := $(or $(LAB_BUILD),$(CURDIR)/build)/.make.lock
locked = if [ -z "$$LAB_MAKE_LOCKED" ]; then mkdir -p $(dir $(MAKE_LOCK)) && exec 9>>$(MAKE_LOCK) && \
	{ flock -n 9 || { echo "make: waiting for the build that holds $(MAKE_LOCK)" >&2 && flock 9; }; } && \
	export LAB_MAKE_LOCKED=1; fi && $(1)
# What make all builds (a subset for tests/lab/make-lock.t).
SETUP_GOALS := deps kernels workloads analysis image tools

.PHONY: all deps kernels kernel-vanilla kernel-lab kernel-debug kernel-vanilla-6.12 \
	kernel-test kernel-export kernel-reset kernel-check kernel-cost workloads analysis image tools \
	test test-build check-shell bench stress clean distclean fuzz sanitize

all:
	@$(call locked,$(MAKE) --no-print-directory $(SETUP_GOALS))

deps:
	@lab/make/deps.sh

kernels: kernel-vanilla kernel-lab

kernel-vanilla: deps
	@$(call locked,$(KSCRIPTS)/prepare-tree.sh vanilla && $(KSCRIPTS)/build-kernel.sh vanilla)

# Today's kernel, unpatched (linux-source-6.12, the same lab.config): the
# reference a user would pick instead of any policy of the series.
kernel-vanilla-6.12: deps
	@$(call locked,$(KSCRIPTS)/prepare-tree.sh vanilla-6.12 && $(KSCRIPTS)/build-kernel.sh vanilla-6.12)

kernel-lab: deps
	@$(call locked,$(KSCRIPTS)/prepare-tree.sh lab && $(KSCRIPTS)/build-kernel.sh lab)

# The reliability gate's kernel: the lab kernel with debug.config on top.
kernel-debug: deps
	@$(call locked,$(KSCRIPTS)/prepare-tree.sh lab && $(KSCRIPTS)/build-kernel.sh debug)

# The lab kernel with test.config on top: what exists only to be tested
# (fail_page_replace, for the safety fallback).  make test needs it.
kernel-test: deps
	@$(call locked,$(KSCRIPTS)/prepare-tree.sh lab && $(KSCRIPTS)/build-kernel.sh test)

# Write the commits of build/src/lab back to kernel/patches (git format-patch).
kernel-export:
	@$(KSCRIPTS)/export-patches.sh

# Throw away unexported work in build/src/lab and re-apply the series.
kernel-reset:
	@$(call locked,rm -f build/src/lab/.lab-prepared && \
		{ git -C build/src/lab reset -q --hard base 2>/dev/null || true; } && \
		$(KSCRIPTS)/prepare-tree.sh lab)

# checkpatch --strict on every patch and a build of every prefix.
kernel-check: deps
	@$(KSCRIPTS)/check-series.sh

# What the series adds to lru's and mglru's paths, from vanilla's and
# lab's vmlinux built with jump labels (cost.config; not the guest
# kernels): fails when more than static branches.
kernel-cost: deps tools
	@$(call locked,$(KSCRIPTS)/prepare-tree.sh vanilla && $(KSCRIPTS)/prepare-tree.sh lab && \
		$(KSCRIPTS)/build-kernel.sh cost-vanilla && $(KSCRIPTS)/build-kernel.sh cost-lab)
	@$(KSCRIPTS)/kernel-cost.sh

workloads:
	@$(MAKE) -s -C workloads

# Host helpers of the lab itself.
tools: build/tools/tsc-khz build/tools/kernel-cost

build/tools/tsc-khz: lab/tools/tsc-khz.c
	@mkdir -p $(@D)
	@gcc -std=c11 -Wall -Wextra -Werror -O2 -o $@ $<

# make kernel-cost's disassembly walker (kernel/scripts/kernel-cost.sh).
build/tools/kernel-cost: $(wildcard kernel/scripts/cost/*.[ch])
	@mkdir -p $(@D)
	@gcc -std=c11 -Wall -Wextra -Werror -O2 -o $@ $(filter %.c,$^) -lelf

analysis: deps
	@$(MAKE) -s -C analysis

image: workloads
	@$(call locked,{ [ ! -x images/build-selftests.sh ] || images/build-selftests.sh; } && \
		images/build-rootfs.sh && images/build-sources.sh)

# make test boots today's kernel too (tests/lab/vanilla-6.12.t): it is
# built here, not by make all.
test: test-build
	@tests/run

# What make test builds before it runs anything (.ci/run times it apart).
test-build: all kernel-test kernel-vanilla-6.12

# The unit areas again, the host tools built with AddressSanitizer and
# UndefinedBehaviorSanitizer (build/sanitize/); make test runs them too.
sanitize: deps
	@tests/run sanitize

# Fuzz the parsers of files users bring, FUZZ_SECONDS each (default 120):
# libFuzzer targets in fuzz/, not part of make test (which replays the
# kept inputs). RELIABILITY.md has the last results.
fuzz: deps workloads
	@$(MAKE) -s -C fuzz run

check-shell:
	@shellcheck -x lab.sh lab/*/*.sh kernel/scripts/*.sh images/*.sh tests/run tests/lib/*.bash .ci/run fuzz/run.sh

# The full reliability gate: every policy, debug kernel (RELIABILITY.md).
stress: all kernel-debug
	@lab/make/stress-gate.sh

# Benchmarks: the headline experiments (experiments/*.conf with bench = yes,
# BENCHMARKS.md and RESULTS.md); not part of make test.
bench: all
	@lab/make/bench.sh

clean:
	rm -rf build/workloads build/analysis build/image build/runs build/test-logs \
		build/sanitize build/fuzz

# Everything under build/, kernel trees and ccache'd objects included.
distclean:
	rm -rf build
