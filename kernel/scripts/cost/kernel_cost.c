// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-cost: what a lab kernel adds to the native paths of functions,
 * compared with a reference kernel (kernel/scripts/kernel-cost.sh runs it
 * on vanilla's and the lab's vmlinux; its header says why and how).
 *
 *   kernel-cost [--tolerance N] [--files F1,F2...] [--cold NAME]...
 *               REFERENCE LAB REQUEST...
 *
 * REQUEST is NAME[:CONTAINER...] (units.h).  --files adds the functions of
 * those source files (basenames) whose size differs; --cold NAME reports
 * that function without judging it (repeatable).  Writes a Markdown
 * table, then the differing instructions of each function whose paths
 * differ.  Exit 0 when every function passes (report.h), 1 when one does
 * not, 2 on bad usage, 3 on an unreadable ELF file, 4 when objdump fails,
 * 5 when a requested function is in neither kernel.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"
#include "elf_image.h"
#include "native_path.h"
#include "report.h"
#include "units.h"
#include "xalloc.h"

#define EXIT_GREW 1
#define EXIT_USAGE 2
#define EXIT_ELF 3
#define EXIT_OBJDUMP 4
#define EXIT_NOFUNC 5

static void usage(const char *msg)
{
	fprintf(stderr, "kernel-cost: %s (usage: kernel-cost [--tolerance N] [--files F1,F2...] [--cold NAME]... REFERENCE LAB NAME[:CONTAINER...]...)\n",
		msg);
	exit(EXIT_USAGE);
}

static int by_lo(const void *a, const void *b)
{
	const struct addr_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every range of side SIDE of the units, sorted and merged. */
static struct addr_range *ranges_of(const struct unit_list *l, int side,
				    size_t *n)
{
	struct addr_range *r = xcalloc(4 * l->n, sizeof(*r));
	size_t k = 0, m = 0;

	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; j < l->v[i].in[side].nranges; j++)
			r[k++] = l->v[i].in[side].ranges[j];
	qsort(r, k, sizeof(*r), by_lo);
	for (size_t i = 0; i < k; i++) {
		if (m && r[i].lo <= r[m - 1].hi) {
			if (r[i].hi > r[m - 1].hi)
				r[m - 1].hi = r[i].hi;
		} else {
			r[m++] = r[i];
		}
	}
	*n = m;
	return r;
}

struct side {
	struct elf_image img;
	struct insn_list insns;
	struct key_tests keys;
};

static void disassemble(struct side *s, const struct elf_image *ref,
			const struct unit_list *units, int index)
{
	char err[512];
	size_t n;
	struct addr_range *r = ranges_of(units, index, &n);
	const char *objdump = "objdump";

	if (disasm_ranges(objdump, s->img.path, r, n, &s->insns, err, sizeof(err))) {
		fprintf(stderr, "kernel-cost: %s\n", err);
		exit(EXIT_OBJDUMP);
	}
	free(r);
	key_tests_find(&s->img, ref, &s->insns, &s->keys);
}

static void open_side(struct side *s, const char *path)
{
	char err[512];

	memset(s, 0, sizeof(*s));
	if (elf_image_open(&s->img, path, err, sizeof(err))) {
		fprintf(stderr, "kernel-cost: %s\n", err);
		exit(EXIT_ELF);
	}
}

static void discover(struct unit_list *units, const struct side *sides,
		     const char *files)
{
	char *list = xstrdup(files), *save = NULL;

	for (char *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save))
		units_discover(units, &sides[0].img, &sides[1].img, f);
	free(list);
}

/* Whether LABEL ("name" or "name (file.c)") names one of COLD[0..NCOLD). */
static int is_cold(const char *label, char **cold, size_t ncold)
{
	size_t n = strcspn(label, " ");

	for (size_t i = 0; i < ncold; i++)
		if (strlen(cold[i]) == n && !strncmp(label, cold[i], n))
			return 1;
	return 0;
}

static int compare(const struct unit_list *units, struct side *sides,
		   long tolerance, char **cold, size_t ncold)
{
	struct cost_row *rows = xcalloc(units->n, sizeof(*rows));
	int failed = 0;

	for (size_t i = 0; i < units->n; i++) {
		rows[i].label = units->v[i].label;
		rows[i].jump_labels = sides[1].img.has_jump_table;
		rows[i].cold = is_cold(rows[i].label, cold, ncold);
		for (int k = 0; k < 2; k++)
			native_path_walk(&sides[k].img, &sides[0].img,
					 &sides[k].insns, &sides[k].keys,
					 &units->v[i].in[k], &rows[i].path[k]);
	}
	report_table_head(stdout);
	for (size_t i = 0; i < units->n; i++) {
		struct cost_verdict v = cost_judge(&rows[i], tolerance);

		report_table_row(stdout, &rows[i], &v);
		failed |= !v.pass;
	}
	for (size_t i = 0; i < units->n; i++)
		report_diff(stdout, &rows[i]);
	for (size_t i = 0; i < units->n; i++)
		for (int k = 0; k < 2; k++)
			native_path_free(&rows[i].path[k]);
	free(rows);
	return failed;
}

static void print_mode(const struct side *sides, long tolerance)
{
	if (sides[1].img.has_jump_table)
		printf("Static branches: jump labels (__jump_table: %zu sites in vanilla, %zu in lab). ",
		       sides[0].img.nsites, sides[1].img.nsites);
	else
		printf("Static branches: **none: the lab kernel has no __jump_table (CONFIG_JUMP_LABEL off)**, so every static key is a load, a test and a conditional jump (a \"key test\"): counted in the sites column and failing the function. ");
	printf("Tolerance: %ld instruction(s).\n\n", tolerance);
}

int main(int argc, char **argv)
{
	struct side sides[2];
	struct unit_list units = { 0 };
	const char *files = NULL;
	char **cold = NULL;
	size_t ncold = 0;
	long tolerance = 0;
	char err[512];
	int i, failed;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--tolerance") && i + 1 < argc) {
			char *end;

			errno = 0;
			tolerance = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || tolerance < 0)
				usage("--tolerance wants a count >= 0");
		} else if (!strcmp(argv[i], "--files") && i + 1 < argc) {
			files = argv[++i];
		} else if (!strcmp(argv[i], "--cold") && i + 1 < argc) {
			cold = xrealloc(cold, (ncold + 1) * sizeof(*cold));
			cold[ncold++] = argv[++i];
		} else {
			usage("unknown option or missing value");
		}
	}
	if (argc - i < 3)
		usage("two ELF files and at least one function wanted");
	open_side(&sides[0], argv[i]);
	open_side(&sides[1], argv[i + 1]);
	for (int k = i + 2; k < argc; k++) {
		if (units_request(&units, &sides[0].img, &sides[1].img, argv[k],
				  err, sizeof(err))) {
			fprintf(stderr, "kernel-cost: %s\n", err);
			return EXIT_NOFUNC;
		}
	}
	if (files)
		discover(&units, sides, files);
	for (int k = 0; k < 2; k++)
		disassemble(&sides[k], &sides[0].img, &units, k);
	print_mode(sides, tolerance);
	failed = compare(&units, sides, tolerance, cold, ncold);
	free(cold);
	units_free(&units);
	for (int k = 0; k < 2; k++) {
		insn_list_free(&sides[k].insns);
		key_tests_free(&sides[k].keys);
		elf_image_close(&sides[k].img);
	}
	return failed ? EXIT_GREW : 0;
}
