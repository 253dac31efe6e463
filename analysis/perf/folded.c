#define _POSIX_C_SOURCE 200809L
#include "folded.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Appends s to buf at *len, ';' and ' ' made '_' when sanitize is set. */
static void put(char *buf, size_t *len, const char *s, int sanitize)
{
	for (; *s; s++)
		buf[(*len)++] = sanitize && (*s == ';' || isspace((unsigned char)*s)) ? '_' : *s;
}

char *folded_key(const struct perf_sample *s)
{
	static const char user[] = "[user]";
	size_t len = strlen(s->comm) + sizeof(user) + 1, n = 0;

	for (size_t i = 0; i < s->nframes; i++)
		len += strlen(s->frames[i]) + 1;
	char *key = malloc(len);
	if (key == NULL)
		return NULL;
	put(key, &n, s->comm, 1);
	if (s->nframes == 0) {
		key[n++] = ';';
		put(key, &n, user, 0);
	}
	for (size_t i = s->nframes; i-- > 0;) {
		key[n++] = ';';
		put(key, &n, s->frames[i], 1);
	}
	key[n] = '\0';
	return key;
}

int stack_split(struct stack *st, const char *key)
{
	size_t n = 1;

	memset(st, 0, sizeof(*st));
	for (const char *p = key; *p; p++)
		n += *p == ';';
	st->buf = strdup(key);
	st->frames = malloc(n * sizeof(*st->frames));
	if (st->buf == NULL || st->frames == NULL) {
		stack_free(st);
		return -1;
	}
	char *save = NULL;
	for (char *f = strtok_r(st->buf, ";", &save); f; f = strtok_r(NULL, ";", &save))
		st->frames[st->n++] = f;
	return 0;
}

void stack_free(struct stack *st)
{
	free(st->buf);
	free(st->frames);
	memset(st, 0, sizeof(*st));
}

const char *frame_base(const char *frame, char *buf, size_t len)
{
	size_t n = strcspn(frame, ".");

	if (frame[n] == '\0' || n == 0)
		return frame;
	if (n >= len)
		n = len - 1;
	memcpy(buf, frame, n);
	buf[n] = '\0';
	return buf;
}

int folded_read(FILE *in, struct strmap *stacks, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t n;
	int rc = 0;

	while ((n = getline(&line, &cap, in)) >= 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		char *sp = strrchr(line, ' '), *end;
		uint64_t count;
		if (sp == NULL || sp == line || !isdigit((unsigned char)sp[1])) {
			snprintf(err, errlen, "line %lu: not a folded stack (want: FRAME;FRAME... COUNT)", lineno);
			rc = -1;
			break;
		}
		errno = 0;
		count = strtoull(sp + 1, &end, 10);
		*sp = '\0';
		if (errno != 0 || *end != '\0' || strchr(line, ' ') != NULL) {
			snprintf(err, errlen, "line %lu: not a folded stack (want: FRAME;FRAME... COUNT)", lineno);
			rc = -1;
			break;
		}
		if (strmap_add(stacks, line, count) != 0) {
			snprintf(err, errlen, "out of memory at line %lu", lineno);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(in)) {
		snprintf(err, errlen, "read error after line %lu: %s", lineno, strerror(errno));
		rc = -1;
	}
	free(line);
	return rc;
}

int folded_write(FILE *out, const struct strmap *stacks)
{
	if (stacks->len == 0)
		return 0;
	const struct strmap_entry **list = strmap_sorted(stacks, STRMAP_BY_KEY);
	if (list == NULL)
		return -1;
	for (size_t i = 0; i < stacks->len; i++)
		fprintf(out, "%s %" PRIu64 "\n", list[i]->key, list[i]->count);
	free(list);
	return 0;
}
