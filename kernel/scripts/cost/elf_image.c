// SPDX-License-Identifier: GPL-2.0
/* Reading an x86-64 ELF executable with libelf: see elf_image.h. */
#define _DEFAULT_SOURCE
#include "elf_image.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sorted.h"
#include "xalloc.h"

#define JUMP_ENTRY_SIZE 16

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int read_sections(struct elf_image *img, Elf *elf, size_t shstrndx,
			 Elf_Scn **symtab)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	if (elf_getshdrnum(elf, &img->nsections))
		return -1;
	img->sections = xcalloc(img->nsections, sizeof(*img->sections));
	*symtab = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		struct elf_section *s;
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh))
			return -1;
		n = elf_ndxscn(scn);
		s = &img->sections[n];
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		s->name = xstrdup(name ? name : "");
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->exec = !!(sh.sh_flags & SHF_EXECINSTR);
		if (sh.sh_type == SHT_SYMTAB)
			*symtab = scn;
		if (sh.sh_type == SHT_NOBITS || !(sh.sh_flags & SHF_ALLOC))
			continue;
		data = elf_getdata(scn, NULL);
		if (data && data->d_size == sh.sh_size)
			s->data = data->d_buf;
	}
	return 0;
}

static int section_of(const struct elf_image *img, uint64_t addr)
{
	for (size_t i = 1; i < img->nsections; i++) {
		const struct elf_section *s = &img->sections[i];

		if (s->data && addr >= s->addr && addr - s->addr < s->size)
			return (int)i;
	}
	return -1;
}

static int by_addr(const void *a, const void *b)
{
	const struct elf_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* sized symbols first, so a lookup prefers them */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The address hull of one STT_FILE group's local functions in one section. */
struct hull {
	const char *file;
	int section;
	uint64_t lo, hi;
};

static void assign_global_files(struct elf_image *img, struct hull *hulls,
				size_t nhulls)
{
	for (size_t i = 0; i < img->nsymbols; i++) {
		struct elf_symbol *s = &img->symbols[i];

		if (!s->global || !s->func)
			continue;
		for (size_t h = 0; h < nhulls; h++) {
			if (hulls[h].section == s->section &&
			    s->addr >= hulls[h].lo && s->addr < hulls[h].hi) {
				s->file = hulls[h].file;
				break;
			}
		}
	}
}

static int read_symbols(struct elf_image *img, Elf *elf, Elf_Scn *scn)
{
	GElf_Shdr sh;
	Elf_Data *data;
	size_t n, kept = 0, nhulls = 0, group = 0;
	struct hull *hulls;
	const char *file = NULL;

	if (!gelf_getshdr(scn, &sh) || !(data = elf_getdata(scn, NULL)))
		return -1;
	n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	img->symbols = xcalloc(n, sizeof(*img->symbols));
	img->files = xcalloc(n, sizeof(*img->files));
	hulls = xcalloc(n, sizeof(*hulls));
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		struct elf_symbol *s;
		int type, section;

		if (!gelf_getsym(data, (int)i, &sym))
			return -1;
		type = GELF_ST_TYPE(sym.st_info);
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (type == STT_FILE) {
			img->files[img->nfiles] = xstrdup(name ? name : "");
			file = img->files[img->nfiles++];
			group = nhulls;
			continue;
		}
		if (GELF_ST_BIND(sym.st_info) != STB_LOCAL)
			file = NULL;
		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    type == STT_SECTION)
			continue;
		section = section_of(img, sym.st_value);
		s = &img->symbols[kept++];
		s->name = xstrdup(name);
		s->addr = sym.st_value;
		s->size = sym.st_size;
		s->func = type == STT_FUNC;
		s->global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
		s->file = file;
		s->section = section;
		if (file && s->func && s->size && !strstr(name, ".cold")) {
			size_t h;

			for (h = group; h < nhulls; h++)
				if (hulls[h].section == section)
					break;
			if (h == nhulls)
				hulls[nhulls++] = (struct hull){ file, section,
								 s->addr, s->addr };
			if (s->addr < hulls[h].lo)
				hulls[h].lo = s->addr;
			if (s->addr + s->size > hulls[h].hi)
				hulls[h].hi = s->addr + s->size;
		}
	}
	img->nsymbols = kept;
	assign_global_files(img, hulls, nhulls);
	free(hulls);
	qsort(img->symbols, kept, sizeof(*img->symbols), by_addr);
	return 0;
}

static int by_name_cmp(const void *a, const void *b)
{
	const struct elf_symbol *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);

	if (c)
		return c;
	return *x < *y ? -1 : *x > *y;
}

static void index_names(struct elf_image *img)
{
	img->by_name = xcalloc(img->nsymbols, sizeof(*img->by_name));
	for (size_t i = 0; i < img->nsymbols; i++)
		img->by_name[i] = &img->symbols[i];
	qsort(img->by_name, img->nsymbols, sizeof(*img->by_name), by_name_cmp);
}

static int by_code(const void *a, const void *b)
{
	const struct jump_site *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}

/*
 * Where the jump table is: its own section in an object file or a test
 * program, but inside .data in vmlinux, where 6.1's linker script
 * (JUMP_TABLE_DATA) brackets it with __start___jump_table and
 * __stop___jump_table.  0 when there is none: without CONFIG_JUMP_LABEL
 * the two symbols still exist, at one address.
 */
static int jump_table_bounds(const struct elf_image *img, uint64_t *lo,
			     uint64_t *hi)
{
	size_t a, b;

	for (size_t i = 1; i < img->nsections; i++) {
		if (!strcmp(img->sections[i].name, "__jump_table")) {
			*lo = img->sections[i].addr;
			*hi = *lo + img->sections[i].size;
			return 1;
		}
	}
	if (elf_symbols_named(img, "__start___jump_table", &a) != 1 ||
	    elf_symbols_named(img, "__stop___jump_table", &b) != 1)
		return 0;
	*lo = img->by_name[a]->addr;
	*hi = img->by_name[b]->addr;
	return *hi != *lo;
}

static int read_jump_table(struct elf_image *img, char *err, size_t errlen)
{
	uint64_t lo, hi;

	if (!jump_table_bounds(img, &lo, &hi))
		return 0;
	if (hi < lo || (hi - lo) % JUMP_ENTRY_SIZE) {
		fail(err, errlen, "%s: __jump_table is not a whole number of 16-byte entries",
		     img->path);
		return -1;
	}
	img->has_jump_table = 1;
	img->nsites = (hi - lo) / JUMP_ENTRY_SIZE;
	img->sites = xcalloc(img->nsites ? img->nsites : 1, sizeof(*img->sites));
	for (size_t i = 0; i < img->nsites; i++) {
		unsigned char e[JUMP_ENTRY_SIZE];
		uint64_t at = lo + i * JUMP_ENTRY_SIZE;
		int32_t code, target;
		int64_t key;

		if (elf_read(img, at, e, sizeof(e))) {
			fail(err, errlen, "%s: __jump_table entry at %#llx is in no section with data",
			     img->path, (unsigned long long)at);
			return -1;
		}
		memcpy(&code, e, 4);
		memcpy(&target, e + 4, 4);
		memcpy(&key, e + 8, 8);
		img->sites[i].code = at + (uint64_t)(int64_t)code;
		img->sites[i].target = at + 4 + (uint64_t)(int64_t)target;
		img->sites[i].key = (at + 8 + (uint64_t)key) & ~(uint64_t)3;
	}
	qsort(img->sites, img->nsites, sizeof(*img->sites), by_code);
	return 0;
}

int elf_image_open(struct elf_image *img, const char *path, char *err,
		   size_t errlen)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *symtab;
	Elf *elf;

	memset(img, 0, sizeof(*img));
	img->fd = -1;
	img->path = xstrdup(path);
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fail(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	img->fd = open(path, O_RDONLY);
	if (img->fd < 0) {
		fail(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	img->elf = elf;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		fail(err, errlen, "%s: not an ELF file", path);
		return -1;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    eh.e_type == ET_REL) {
		fail(err, errlen, "%s: not a linked x86-64 ELF executable", path);
		return -1;
	}
	if (elf_getshdrstrndx(elf, &shstrndx) ||
	    read_sections(img, elf, shstrndx, &symtab)) {
		fail(err, errlen, "%s: %s", path, elf_errmsg(-1));
		return -1;
	}
	if (!symtab) {
		fail(err, errlen, "%s: no symbol table (stripped)", path);
		return -1;
	}
	if (read_symbols(img, elf, symtab)) {
		fail(err, errlen, "%s: %s", path, elf_errmsg(-1));
		return -1;
	}
	index_names(img);
	return read_jump_table(img, err, errlen);
}

void elf_image_close(struct elf_image *img)
{
	for (size_t i = 0; i < img->nsections; i++)
		free(img->sections[i].name);
	for (size_t i = 0; i < img->nsymbols; i++)
		free(img->symbols[i].name);
	for (size_t i = 0; i < img->nfiles; i++)
		free(img->files[i]);
	free(img->sections);
	free(img->symbols);
	free(img->by_name);
	free(img->files);
	free(img->sites);
	if (img->elf)
		elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	free(img->path);
	memset(img, 0, sizeof(*img));
	img->fd = -1;
}

const struct elf_symbol *elf_symbol_at(const struct elf_image *img,
				       uint64_t addr)
{
	/* after the last symbol starting at or before addr */
	size_t lo = sorted_first_after(img->symbols, img->nsymbols,
				       sizeof(*img->symbols),
				       offsetof(struct elf_symbol, addr), addr);

	/* symbols may nest (an array inside a larger object): look back */
	for (size_t i = lo; i-- > 0 && lo - i < 64;) {
		const struct elf_symbol *s = &img->symbols[i];

		if (addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

size_t elf_symbols_named(const struct elf_image *img, const char *name,
			 size_t *first)
{
	size_t lo = 0, hi = img->nsymbols, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(img->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < img->nsymbols &&
	       !strcmp(img->by_name[lo + n]->name, name))
		n++;
	return n;
}

int elf_read(const struct elf_image *img, uint64_t addr, void *out, size_t n)
{
	int i = section_of(img, addr);
	const struct elf_section *s;

	if (i < 0)
		return -1;
	s = &img->sections[i];
	if (s->size - (addr - s->addr) < n)
		return -1;
	memcpy(out, s->data + (addr - s->addr), n);
	return 0;
}

const struct jump_site *elf_site_at(const struct elf_image *img,
				    uint64_t addr)
{
	size_t i = sorted_first_from(img->sites, img->nsites,
				     sizeof(*img->sites),
				     offsetof(struct jump_site, code), addr);

	return i < img->nsites && img->sites[i].code == addr ?
		       &img->sites[i] : NULL;
}
