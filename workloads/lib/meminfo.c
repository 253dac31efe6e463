#include "meminfo.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int meminfo_read(const char *path, const char *key, uint64_t *bytes)
{
	char line[256];
	size_t keylen = strlen(key);
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint64_t kib;

		if (strncmp(line, key, keylen) || line[keylen] != ':')
			continue;
		if (sscanf(line + keylen + 1, "%" SCNu64, &kib) == 1 &&
		    kib < (UINT64_MAX >> 10)) {
			*bytes = kib << 10;
			rc = 0;
		}
		break;
	}
	fclose(f);
	return rc;
}

uint64_t meminfo_total(void)
{
	uint64_t bytes;

	if (meminfo_read("/proc/meminfo", "MemTotal", &bytes))
		return 0;
	return bytes;
}
