#include "webgen_opts.h"

#include "args.h"
#include "err.h"
#include "meminfo.h"
#include "stamp.h"

int webgen_option(int c, const char *arg, struct webgen_params *p, const char **footprint_arg)
{
	uint64_t v;

	switch (c) {
	case WEBGEN_OPT_FOOTPRINT:
		*footprint_arg = arg;
		return 1;
	case WEBGEN_OPT_REQUESTS:
		p->requests = arg_positive("--requests", arg);
		return 1;
	case WEBGEN_OPT_ASUS:
		v = arg_positive("--asus", arg);
		if (v > WEBGEN_MAX_ASUS)
			die(EXIT_LAB_USAGE, "bad --asus value '%s': at most %u", arg,
			    WEBGEN_MAX_ASUS);
		p->asus = (unsigned)v;
		return 1;
	case WEBGEN_OPT_ALPHA:
		if (parse_double(arg, &p->alpha) || !(p->alpha > 0) || p->alpha > 10)
			die(EXIT_LAB_USAGE, "bad --alpha value '%s': expected a number in (0, 10]",
			    arg);
		return 1;
	case WEBGEN_OPT_RATE:
		if (parse_double(arg, &p->rate) || !(p->rate > 0) || p->rate > 1e9)
			die(EXIT_LAB_USAGE,
			    "bad --rate value '%s': expected requests/s in (0, 1e9]", arg);
		return 1;
	default:
		return 0;
	}
}

void webgen_finish_options(struct webgen_params *p, const char *footprint_arg)
{
	uint64_t memtotal = meminfo_total();

	if (footprint_arg)
		p->footprint_bytes = arg_size("--footprint", footprint_arg, memtotal);
	else if (!memtotal)
		die(EXIT_LAB_RUNTIME, "cannot read MemTotal from /proc/meminfo; give --footprint");
	if (p->footprint_bytes / LAB_PAGE_SIZE / WEBGEN_OBJECT_PAGES < p->asus)
		die(EXIT_LAB_USAGE, "footprint of %llu bytes is too small: need one 32 KiB object per ASU",
		    (unsigned long long)p->footprint_bytes);
}
