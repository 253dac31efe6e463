/*
 * UMass / SPC block I/O traces: one request per line,
 *   ASU,LBA,Size,Opcode,Timestamp
 * ASU: application storage unit, integer 0..SPC_MAX_ASU.
 * LBA: start in 512-byte sectors.  Size: bytes, 1..SPC_MAX_SIZE.
 * Opcode: r or w, either case.  Timestamp: seconds, decimal, >= 0.
 * Exactly five fields (real UMass traces have five); spaces or tabs around
 * a field and a trailing CR are tolerated. Blank lines and lines whose
 * first non-blank character is '#' are ignored.
 *
 * Page mapping: a request touches 4 KiB pages
 *   floor(LBA*512/4096) .. floor((LBA*512 + Size - 1)/4096)
 * and the last page must be below 2^40 (the page-id field of a reference).
 */
#ifndef LAB_SPC_H
#define LAB_SPC_H

#include <stddef.h>
#include <stdint.h>

#define SPC_SECTOR 512u
#define SPC_MAX_ASU 4095u
#define SPC_MAX_SIZE (16u << 20)
#define SPC_MAX_PAGE ((uint64_t)1 << 40)

struct spc_req {
	uint64_t lba;
	double ts;
	uint32_t size;
	uint16_t asu;
	char op; /* 'r' or 'w' */
};

/* 1: parsed into *out; 0: blank or comment; -1: malformed, *why set. */
int spc_parse_line(const char *line, struct spc_req *out, const char **why);

/* First and last 4 KiB page a request touches (see the mapping above). */
void spc_pages(const struct spc_req *r, uint64_t *first, uint64_t *last);

struct spc_trace {
	struct spc_req *reqs;
	size_t n;
	size_t cap;
};

/* Append one request; 0 or -1 when out of memory. */
int spc_trace_push(struct spc_trace *t, const struct spc_req *r);
void spc_trace_free(struct spc_trace *t);

/*
 * Read a whole trace file into t. On error returns -1 and writes
 * "file:line: reason" (or "file: reason") into err; t is then empty.
 */
int spc_load(const char *path, struct spc_trace *t, char *err, size_t errlen);

#endif
