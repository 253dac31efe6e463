/* Unit tests of fio's terse output parser (lib/fioterse.c) on a line fio
 * 3.33 printed for a zipf randwrite job with verify (fio --terse-version=3
 * --percentile_list=50:99:99.9), and on lines it must refuse. */
#include "fioterse.h"
#include "tap.h"

#include <string.h>

static const char line[] =
	"3;fio-3.33;rw;0;0;2880;77837;19459;37;0;0;0.000000;0.000000;0;1217;1"
	"9.895586;53.193223;50.000000%=0;99.000000%=84;99.900000%=1220;0%=0;0"
	"%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0"
	";0%=0;0%=0;0;1217;19.924189;53.200265;0;0;0.000000%;0.000000;0.00000"
	"0;9952;765538;191384;13;0;0;0.000000;0.000000;0;4051;3.078521;81.200"
	"236;50.000000%=0;99.000000%=5;99.900000%=22;0%=0;0%=0;0%=0;0%=0;0%=0"
	";0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;0%=0;2;4052;"
	"4.440128;81.202401;0;0;0.000000%;0.000000;0.000000;6.250000%;25.0000"
	"00%;217;0;22;100.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.0%;76.12%;16.05%;1.25"
	"%;0.00%;0.12%;6.30%;0.06%;0.03%;0.00%;0.00%;0.03%;0.00%;0.03%;0.00%;"
	"0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;vda;0;0;0;0;0;0;0;0."
	"00%";

int main(void)
{
	struct fio_job job;
	char bad[sizeof(line)];

	tap_ok(fio_terse_parse(line, &job) == 0, "fio 3.33's terse line parses");
	tap_ok(!strcmp(job.name, "rw") && job.error == 0, "job name and error");
	tap_ok(job.read.kib == 2880 && job.read.iops == 19459 && job.read.runtime_ms == 37,
	       "read side: KiB, IOPS, runtime");
	tap_ok(job.write.kib == 9952 && job.write.iops == 191384 && job.write.runtime_ms == 13,
	       "write side: KiB, IOPS, runtime");
	tap_ok(job.read.npct == 3 && job.write.npct == 3, "three percentiles a side, unused slots skipped");
	tap_ok(fio_side_pct(&job.read, 50) == 0 && fio_side_pct(&job.read, 99) == 84 &&
	       fio_side_pct(&job.read, 99.9) == 1220, "read completion latency p50, p99, p99.9");
	tap_ok(fio_side_pct(&job.write, 99) == 5 && fio_side_pct(&job.write, 99.9) == 22,
	       "write completion latency p99, p99.9");
	tap_ok(fio_side_pct(&job.read, 90) == -1, "a percentile fio did not print is -1");
	tap_ok(job.read.clat_max_us == 1217 && job.read.clat_mean_us > 19.89 &&
	       job.read.clat_mean_us < 19.90, "completion latency max and mean");
	tap_ok(fio_terse_parse("3;fio-3.33;rw;0;0;1;2;3", &job) == -1, "a short line is refused");
	memcpy(bad, line, sizeof(line));
	bad[0] = '2';
	tap_ok(fio_terse_parse(bad, &job) == -1, "another terse version is refused");
	memcpy(bad, line, sizeof(line));
	memcpy(strstr(bad, "99.000000%=84"), "99.000000%x84", 13);
	tap_ok(fio_terse_parse(bad, &job) == -1, "a malformed percentile is refused");
	memcpy(bad, line, sizeof(line));
	memcpy(strstr(bad, ";2880;"), ";28x0;", 6);
	tap_ok(fio_terse_parse(bad, &job) == -1, "a malformed number is refused");
	return tap_done();
}
