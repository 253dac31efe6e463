/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instructions of chosen address ranges of an ELF file, from binutils'
 * objdump (AT&T syntax, --no-show-raw-insn), one pass over the file.
 *
 * Each instruction keeps its text with runs of blanks folded to one, the
 * address objdump resolved for it (a direct branch's or call's target, or
 * a RIP-relative operand's address, from its "# ADDR <sym>" comment), and
 * its kind for the control-flow walk.
 */
#ifndef KERNEL_COST_DISASM_H
#define KERNEL_COST_DISASM_H

#include <stddef.h>
#include <stdint.h>

enum insn_kind {
	INSN_PLAIN,	/* falls through to the next one */
	INSN_JUMP,	/* unconditional direct jmp */
	INSN_JCC,	/* conditional direct jump: both ways */
	INSN_CALL,	/* direct call: falls through */
	INSN_ICALL,	/* indirect call: falls through */
	INSN_IJUMP,	/* indirect jmp: a switch table or a tail call */
	INSN_STOP,	/* ret, ud2, int3: nothing follows */
};

struct insn {
	uint64_t addr;
	uint64_t next;		/* the address of the instruction after it */
	enum insn_kind kind;
	int has_ref;		/* ref below is set */
	uint64_t ref;		/* branch target or RIP-relative address */
	char *text;		/* "mnemonic operands", no comment */
};

struct insn_list {
	struct insn *v;		/* sorted by address */
	size_t n;
};

struct addr_range {
	uint64_t lo, hi;	/* [lo, hi) */
};

/*
 * Disassemble PATH with OBJDUMP, keeping the instructions that start in
 * one of the N ranges.  0, or -1 with one line in ERR.
 */
int disasm_ranges(const char *objdump, const char *path,
		  const struct addr_range *ranges, size_t n,
		  struct insn_list *out, char *err, size_t errlen);
void insn_list_free(struct insn_list *l);

/* The instruction at ADDR, or NULL. */
const struct insn *insn_at(const struct insn_list *l, uint64_t addr);

/* The mnemonic without prefixes (lock, notrack, bnd, rep...), its length. */
const char *insn_op(const struct insn *in, size_t *len);

#endif
