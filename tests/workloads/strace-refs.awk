# Page references of a database's files from an "strace -f -y -s 0" log, as
# ycsb/iotap.c should record them: one per 4 KiB page each read, write,
# pread64 or pwrite64 transferred, objects numbered by first reference,
# LOG (written through stdio, which the tap does not see) left out. read
# and write positions are followed through openat, lseek and the bytes
# moved. Multi-threaded logs: "<unfinished ...>" calls are completed by
# their "resumed" line, in the order they returned.
# Usage: awk -v prefix=DBDIR/ -f strace-refs.awk LOG
function page_refs(path, off, n,    p) {
	if (n <= 0 || index(path, prefix) != 1 || path ~ /\/LOG(\.old)?$/) return
	if (!(path in obj)) obj[path] = nobj++
	for (p = int(off / 4096); p <= int((off + n - 1) / 4096); p++)
		printf "%.0f\n", obj[path] * 2^40 + p
}
function syscall(line,    call, res, n, fdpath, fd, path, args, m, a) {
	call = line; sub(/\(.*/, "", call)
	res = line; sub(/.*\) += /, "", res); n = res + 0
	fdpath = line; sub(/^[^<]*</, "", fdpath); sub(/>.*/, "", fdpath)
	fd = line; sub(/^[a-z0-9]+\(/, "", fd); sub(/<.*/, "", fd)
	if (call == "openat") {
		if (res ~ /^[0-9]+</) pos[n] = 0
	} else if (call == "lseek") {
		if (n >= 0) pos[fd] = n
	} else if (call == "pread64" || call == "pwrite64") {
		args = line; sub(/\) += .*/, "", args); m = split(args, a, ", ")
		page_refs(fdpath, a[m] + 0, n)
	} else if (call == "read" || call == "write") {
		page_refs(fdpath, pos[fd], n)
		if (n > 0) pos[fd] += n
	}
}
{
	pid = $1; line = $0; sub(/^[0-9]+ +/, "", line)
	if (line ~ / <unfinished \.\.\.>$/) { sub(/ <unfinished \.\.\.>$/, "", line); pending[pid] = line; next }
	if (line ~ /^<\.\.\. [a-z0-9]+ resumed>/) { sub(/^<\.\.\. [a-z0-9]+ resumed>/, "", line); line = pending[pid] line; delete pending[pid] }
	syscall(line)
}
