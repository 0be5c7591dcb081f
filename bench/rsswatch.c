/* rsswatch.c -- run a command and report its wall time, CPU time and the
 * peak of the summed resident memory of all its descendants, sampled
 * every 100 ms from /proc (bench only; not part of cugen).
 * Usage: rsswatch OUTFILE CMD... ; OUTFILE gets "wall_s cpu_s peak_bytes". */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXP 65536

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Sum of RSS (bytes) over root and its descendants. */
static long long tree_rss(pid_t root)
{
	static int ppid[MAXP];
	static long long rss[MAXP];
	static int live[MAXP];
	int n = 0;
	static int pids[MAXP];
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *e;
	long page = sysconf(_SC_PAGESIZE);
	while ((e = readdir(d)) && n < MAXP) {
		int pid = atoi(e->d_name);
		if (pid <= 0 || pid >= MAXP)
			continue;
		char path[64], buf[1024];
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = 0;
		char *p = strrchr(buf, ')');
		if (!p)
			continue;
		int pp = 0;
		long long rsspages = 0;
		/* fields after ')': state ppid ... rss is field 24 overall */
		char st;
		long dummy;
		if (sscanf(p + 2, "%c %d %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %lld",
			   &st, &pp, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy,
			   &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &dummy, &rsspages) < 22)
			continue;
		ppid[pid] = pp;
		rss[pid] = rsspages * page;
		live[pid] = 1;
		pids[n++] = pid;
	}
	closedir(d);
	long long sum = 0;
	for (int i = 0; i < n; i++) {
		int p = pids[i], hops = 0;
		while (p > 1 && p != root && hops++ < 64 && p < MAXP && live[p])
			p = ppid[p];
		if (p == root)
			sum += rss[pids[i]];
	}
	for (int i = 0; i < n; i++)
		live[pids[i]] = 0;
	return sum;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: rsswatch OUTFILE CMD...\n");
		return 2;
	}
	double t0 = now();
	pid_t child = fork();
	if (child == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	long long peak = 0;
	int status = 0;
	for (;;) {
		pid_t r = waitpid(child, &status, WNOHANG);
		if (r == child)
			break;
		long long s = tree_rss(child);
		if (s > peak)
			peak = s;
		usleep(100000);
	}
	double wall = now() - t0;
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	FILE *f = fopen(argv[1], "w");
	if (f) {
		fprintf(f, "%.2f %.2f %lld\n", wall, cpu, peak);
		fclose(f);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
