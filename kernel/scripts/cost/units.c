// SPDX-License-Identifier: GPL-2.0
/* Which code to compare: see units.h. */
#define _DEFAULT_SOURCE
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"


static int is_clone_of(const char *sym, const char *name)
{
	size_t n = strlen(name);
	const char *rest = sym + n;

	if (strncmp(sym, name, n) || *rest != '.' || strstr(rest, ".cold"))
		return 0;
	return !strncmp(rest, ".constprop.", 11) || !strncmp(rest, ".isra.", 6) ||
	       !strncmp(rest, ".part.", 6);
}

/*
 * The function symbol for NAME in IMG: NAME itself when there is exactly
 * one, else its only clone; NULL when there is none or it is ambiguous.
 */
static const struct elf_symbol *function_named(const struct elf_image *img,
					       const char *name)
{
	const struct elf_symbol *found = NULL;
	size_t first, n = elf_symbols_named(img, name, &first), hits = 0;

	for (size_t i = first; i < first + n; i++)
		if (img->by_name[i]->func && img->by_name[i]->size) {
			found = img->by_name[i];
			hits++;
		}
	if (hits)
		return hits == 1 ? found : NULL;
	/* clones sort right after "NAME." */
	for (size_t i = first; i < img->nsymbols; i++) {
		const struct elf_symbol *s = img->by_name[i];

		if (strncmp(s->name, name, strlen(name)))
			break;
		if (s->func && s->size && is_clone_of(s->name, name)) {
			found = s;
			hits++;
		}
	}
	return hits == 1 ? found : NULL;
}

/* S and its cold part (S.cold, from the same file) as a unit. */
static void make_unit(const struct elf_image *img, const struct elf_symbol *s,
		      struct function_unit *u)
{
	char cold[512];
	size_t first, n;

	memset(u, 0, sizeof(*u));
	u->name = s->name;
	u->entry = s->addr;
	u->ranges[u->nranges++] = (struct addr_range){ s->addr, s->addr + s->size };
	snprintf(cold, sizeof(cold), "%s.cold", s->name);
	n = elf_symbols_named(img, cold, &first);
	for (size_t i = first; i < first + n && u->nranges < 4; i++) {
		const struct elf_symbol *c = img->by_name[i];

		if (c->size && (n == 1 || c->file == s->file ||
				(c->file && s->file && !strcmp(c->file, s->file))))
			u->ranges[u->nranges++] =
				(struct addr_range){ c->addr, c->addr + c->size };
	}
}

static int have_symbol(const struct unit_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].symbol, name))
			return 1;
	return 0;
}

static void add_pair(struct unit_list *l, const char *label,
		     const struct elf_image *ref, const struct elf_symbol *a,
		     const struct elf_image *lab, const struct elf_symbol *b,
		     int requested)
{
	struct unit_pair *p;

	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	p = &l->v[l->n++];
	p->label = xstrdup(label);
	p->symbol = xstrdup(a->name);
	p->requested = requested;
	make_unit(ref, a, &p->in[0]);
	make_unit(lab, b, &p->in[1]);
}

int units_request(struct unit_list *l, const struct elf_image *ref,
		  const struct elf_image *lab, const char *request, char *err,
		  size_t errlen)
{
	char *spec = xstrdup(request), *save = NULL, *name, *wanted;
	char label[512];
	int rc = -1;

	wanted = strtok_r(spec, ":", &save);
	for (name = wanted; name; name = strtok_r(NULL, ":", &save)) {
		const struct elf_symbol *a = function_named(ref, name);
		const struct elf_symbol *b = function_named(lab, name);

		if (!a || !b)
			continue;
		if (name == wanted)
			snprintf(label, sizeof(label), "%s", wanted);
		else
			snprintf(label, sizeof(label), "%s (in %s)", wanted, name);
		add_pair(l, label, ref, a, lab, b, 1);
		rc = 0;
		break;
	}
	if (rc)
		snprintf(err, errlen, "%s: no function of that name (or of its containers) in both %s and %s",
			 wanted ? wanted : request, ref->path, lab->path);
	free(spec);
	return rc;
}

/* The one function named NAME in FILE of IMG, or NULL. */
static const struct elf_symbol *function_in_file(const struct elf_image *img,
						 const char *name,
						 const char *file)
{
	const struct elf_symbol *found = NULL;
	size_t first, n = elf_symbols_named(img, name, &first), hits = 0;

	for (size_t i = first; i < first + n; i++) {
		const struct elf_symbol *s = img->by_name[i];

		if (s->func && s->size && s->file && !strcmp(s->file, file)) {
			found = s;
			hits++;
		}
	}
	return hits == 1 ? found : NULL;
}

/* In .init.text or .exit.text: run once, never on a reclaim path. */
static int boot_or_exit_code(const struct elf_image *img,
			     const struct elf_symbol *s)
{
	const char *sec;

	if (s->section < 0)
		return 0;
	sec = img->sections[s->section].name;
	return !strncmp(sec, ".init", 5) || !strncmp(sec, ".exit", 5);
}

void units_discover(struct unit_list *l, const struct elf_image *ref,
		    const struct elf_image *lab, const char *file)
{
	char label[512];

	for (size_t i = 0; i < lab->nsymbols; i++) {
		const struct elf_symbol *b = lab->by_name[i], *a;

		if (!b->func || !b->size || !b->file || strcmp(b->file, file) ||
		    strstr(b->name, ".cold") || have_symbol(l, b->name) ||
		    boot_or_exit_code(lab, b))
			continue;
		a = function_in_file(ref, b->name, file);
		if (!a || a->size == b->size ||
		    function_in_file(lab, b->name, file) != b)
			continue;
		snprintf(label, sizeof(label), "%s (%s)", b->name, file);
		add_pair(l, label, ref, a, lab, b, 0);
	}
}

void units_free(struct unit_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].label);
		free(l->v[i].symbol);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
