/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An x86-64 ELF executable (vmlinux, or a small test program) as the cost
 * checker needs it: its sections' bytes by address, its symbols with the
 * source file each one came from, and its jump-label sites.
 *
 * The file of a symbol: the linker writes, for each input object, an
 * STT_FILE symbol followed by that object's local symbols, so a local
 * symbol's file is the last STT_FILE before it.  Global symbols come after
 * all of them; a global function gets the file whose local functions'
 * address hull (in the same section) contains it, since an object's .text
 * is laid out in one piece.
 *
 * Jump labels (CONFIG_JUMP_LABEL, x86-64, 6.1): __jump_table holds
 * struct jump_entry { s32 code; s32 target; long key; }, each field
 * relative to its own address; the key's two low bits are flags (bit 0:
 * the branch's direction, bit 1: objtool's "NOP this jmp" mark).
 */
#ifndef KERNEL_COST_ELF_IMAGE_H
#define KERNEL_COST_ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

struct elf_section {
	char *name;
	uint64_t addr;
	uint64_t size;
	int exec;			/* SHF_EXECINSTR */
	const unsigned char *data;	/* NULL for SHT_NOBITS */
};

struct elf_symbol {
	char *name;
	uint64_t addr;
	uint64_t size;
	int func;			/* STT_FUNC */
	int global;
	const char *file;		/* basename, or NULL when unknown */
	int section;			/* index into sections, or -1 */
};

struct jump_site {
	uint64_t code;
	uint64_t target;
	uint64_t key;			/* flags cleared */
};

struct elf_image {
	char *path;
	void *elf;			/* Elf * (libelf) */
	int fd;
	struct elf_section *sections;
	size_t nsections;
	struct elf_symbol *symbols;	/* sorted by address */
	size_t nsymbols;
	const struct elf_symbol **by_name; /* the symbols by name */
	char **files;			/* the STT_FILE names, owned */
	size_t nfiles;
	struct jump_site *sites;	/* sorted by code address */
	size_t nsites;
	int has_jump_table;
};

/* Open PATH; on failure write one line to ERR (size ERRLEN), return -1. */
int elf_image_open(struct elf_image *img, const char *path, char *err,
		   size_t errlen);
void elf_image_close(struct elf_image *img);

/* The symbol whose [addr, addr + size) holds ADDR, or NULL. */
const struct elf_symbol *elf_symbol_at(const struct elf_image *img,
				       uint64_t addr);

/*
 * How many symbols are named NAME; *FIRST is the index in by_name of the
 * first of them (they follow each other there).
 */
size_t elf_symbols_named(const struct elf_image *img, const char *name,
			 size_t *first);

/* Read N bytes at ADDR into OUT; 0 on success, -1 outside any section. */
int elf_read(const struct elf_image *img, uint64_t addr, void *out, size_t n);

/* The jump-label site at code address ADDR, or NULL. */
const struct jump_site *elf_site_at(const struct elf_image *img,
				    uint64_t addr);

#endif
