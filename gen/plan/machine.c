/* machine.c -- cores, memory and CI of this machine; see machine.h. */
#include "machine.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

/* cgroup v2 cpu.max "QUOTA PERIOD" or "max PERIOD": cores, or 0. */
static int cgroup_cores(void)
{
	char *s = NULL;
	int cores = 0;
	if (g_file_get_contents("/sys/fs/cgroup/cpu.max", &s, NULL, NULL)) {
		long long q = 0, p = 0;
		if (sscanf(s, "%lld %lld", &q, &p) == 2 && q > 0 && p > 0)
			cores = (int)((q + p - 1) / p);
		g_free(s);
		return cores;
	}
	char *q = NULL, *p = NULL;
	if (g_file_get_contents("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", &q, NULL, NULL) &&
	    g_file_get_contents("/sys/fs/cgroup/cpu/cpu.cfs_period_us", &p, NULL, NULL)) {
		long long qq = g_ascii_strtoll(q, NULL, 10), pp = g_ascii_strtoll(p, NULL, 10);
		if (qq > 0 && pp > 0)
			cores = (int)((qq + pp - 1) / pp);
	}
	g_free(q);
	g_free(p);
	return cores;
}

static guint64 cgroup_memory(void)
{
	const char *files[] = { "/sys/fs/cgroup/memory.max",
				"/sys/fs/cgroup/memory/memory.limit_in_bytes" };
	for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
		char *s = NULL;
		if (!g_file_get_contents(files[i], &s, NULL, NULL))
			continue;
		guint64 v = 0;
		if (g_ascii_isdigit(s[0]))
			v = g_ascii_strtoull(s, NULL, 10);
		g_free(s);
		/* v1 reports "no limit" as a huge number */
		if (v && v < (G_GUINT64_CONSTANT(1) << 60))
			return v;
	}
	return 0;
}

static guint64 mem_available(void)
{
	char *s = NULL;
	guint64 kb = 0;
	if (g_file_get_contents("/proc/meminfo", &s, NULL, NULL)) {
		const char *p = strstr(s, "MemAvailable:");
		if (p)
			kb = g_ascii_strtoull(p + strlen("MemAvailable:"), NULL, 10);
		g_free(s);
	}
	return kb * 1024;
}

void machine_probe(Machine *m)
{
	memset(m, 0, sizeof *m);
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		m->cores = CPU_COUNT(&set);
		m->cores_from = "affinity mask";
	}
	if (m->cores <= 0) {
		m->cores = (int)g_get_num_processors();
		m->cores_from = "online processors";
	}
	int cg = cgroup_cores();
	if (cg > 0 && cg < m->cores) {
		m->cores = cg;
		m->cores_from = "cgroup cpu quota";
	}
	m->memory = mem_available();
	m->memory_from = "MemAvailable";
	guint64 cm = cgroup_memory();
	if (cm && (!m->memory || cm < m->memory)) {
		m->memory = cm;
		m->memory_from = "cgroup memory limit";
	}
	if (g_getenv("GITHUB_ACTIONS"))
		m->ci = "GitHub Actions";
	else if (g_getenv("GITLAB_CI"))
		m->ci = "GitLab CI";
	else if (g_getenv("TF_BUILD"))
		m->ci = "Azure Pipelines";
	else if (g_strcmp0(g_getenv("CI"), "true") == 0 || g_strcmp0(g_getenv("CI"), "1") == 0)
		m->ci = "CI";
}
