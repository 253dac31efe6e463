#include "sources.h"

#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sources_patterns[SOURCES_PATTERNS] = {
	"EXPORT_SYMBOL",
	"spin_lock\\(",
	"struct page \\*",
};

const char *const sources_rg_flags[] = {
	"--no-config", "--no-ignore", "--hidden", "--no-messages", "--count-matches", NULL,
};

static int bad(const char *path, size_t line, const char *what)
{
	fprintf(stderr, "file-search: %s:%zu: %s\n", path, line, what);
	return -1;
}

static int parse_file(struct source_file *f, char *text)
{
	char *field[SOURCES_PATTERNS + 2], *save = NULL;
	unsigned n = 0;

	for (char *t = strtok_r(text, "\t", &save); t && n < SOURCES_PATTERNS + 2;
	     t = strtok_r(NULL, "\t", &save))
		field[n++] = t;
	if (n != SOURCES_PATTERNS + 2 || strtok_r(NULL, "\t", &save) ||
	    parse_u64(field[0], &f->size))
		return -1;
	for (unsigned i = 0; i < SOURCES_PATTERNS; i++)
		if (parse_u64(field[1 + i], &f->count[i]))
			return -1;
	f->path = strdup(field[SOURCES_PATTERNS + 1]);
	return f->path ? 0 : -1;
}

int sources_read(struct sources *s, const char *path)
{
	char header[64], *line = NULL;
	size_t cap = 0, lineno = 1;
	ssize_t len;
	FILE *in = fopen(path, "r");
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (!in) {
		fprintf(stderr, "file-search: %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(header, sizeof(header), "labsources1 patterns=%d\n", SOURCES_PATTERNS);
	len = getline(&line, &cap, in);
	if (len < 0 || strcmp(line, header)) {
		bad(path, 1, "not a labsources1 manifest of this program's patterns");
		goto out;
	}
	while ((len = getline(&line, &cap, in)) > 0) {
		struct source_file f;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = 0;
		if (s->n == s->cap) {
			size_t c = s->cap ? 2 * s->cap : 1024;
			struct source_file *p = realloc(s->files, c * sizeof(*p));

			if (!p) {
				bad(path, lineno, "out of memory");
				goto out;
			}
			s->files = p;
			s->cap = c;
		}
		if (parse_file(&f, line)) {
			bad(path, lineno, "not SIZE, the counts and PATH, tab-separated");
			goto out;
		}
		if (s->n && strcmp(s->files[s->n - 1].path, f.path) >= 0) {
			free(f.path);
			bad(path, lineno, "paths out of order");
			goto out;
		}
		s->files[s->n++] = f;
	}
	if (!s->n) {
		bad(path, lineno, "no files");
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(in);
	if (rc)
		sources_free(s);
	return rc;
}

const struct source_file *sources_find(const struct sources *s, const char *path)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->files[mid].path, path);

		if (!c)
			return &s->files[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void sources_free(struct sources *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->files[i].path);
	free(s->files);
	memset(s, 0, sizeof(*s));
}
