/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An instruction's text made comparable between two builds: what is an
 * address in one kernel is a different number in the other, so
 *   - a branch inside the function becomes "<L>", one out of it (a call,
 *     a tail call) the callee's name, clone numbers dropped
 *     (lru_gen_add_folio.constprop.0 -> lru_gen_add_folio.constprop);
 *   - a RIP-relative operand becomes "<symbol+offset>(%rip)";
 *   - any other number that is a kernel address (at or above
 *     0xffffffff80000000, or a negative 32-bit displacement that
 *     sign-extends there) becomes "<addr>";
 *   - a register (but %rip, %rsp and the segments) becomes "%R": which
 *     one the compiler picked is not a cost;
 *   - the zeroing idiom, xor or sub of a register from itself, becomes
 *     "mov $0x0,%R", the same work written another way.
 * Field offsets and immediates stay: they are the code.
 */
#ifndef KERNEL_COST_NORMALISE_H
#define KERNEL_COST_NORMALISE_H

#include "disasm.h"
#include "elf_image.h"

/* The symbol name without clone numbers; a new string. */
char *symbol_base_name(const char *name);

/* IN's text normalised; INSIDE: IN's branch target is in the function. */
char *normalise(const struct elf_image *img, const struct insn *in,
		int inside);

/*
 * A normalised text that only moves values between registers or saves
 * them: a register move, a push or pop of a register, a frame adjustment
 * of %rsp, a spill to or a reload from the stack.  The compiler adds and
 * drops these with register pressure.
 */
int register_shuffle(const char *text);

/*
 * The shape of an instruction that does work, for counting what was
 * added: its normalised text with every number replaced by N (a field
 * offset that moved because a struct grew is the same work), a memory
 * operand without displacement given one, a stack slot taken for the
 * register it stands for, the size suffix dropped (testq and test),
 * cltq written as the movslq it is, a lea that adds two registers as
 * the add it is (normalise() already writes the zeroing "xor %R,%R" of a
 * register with itself as "mov $0x0,%R");
 * NULL for control flow (jumps, calls, returns, NOPs: block layout and
 * calls are judged apart) and register shuffles, before or after that.
 * A new string.
 */
char *work_shape(const char *text);

/* The name a call or tail call of IN goes to, or "*indirect"; new string. */
char *callee_name(const struct elf_image *img, const struct insn *in);

#endif
