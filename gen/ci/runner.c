/* runner.c -- CI runners by name; see runner.h. */
#include "runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "plan.h"
#include "template.h"
#include "units.h"
#include "util.h"

#define GiB 1073741824.0

static GKeyFile *table(void)
{
	static GKeyFile *k;
	if (!k) {
		k = g_key_file_new();
		char *text = template_text("runners.ini");
		GError *e = NULL;
		if (!g_key_file_load_from_data(k, text, (gsize)-1, G_KEY_FILE_NONE, &e))
			g_error("templates/runners.ini: %s", e->message); /* a build bug */
		g_free(text);
	}
	return k;
}

GPtrArray *runner_names(void)
{
	GPtrArray *out = g_ptr_array_new();
	gchar **groups = g_key_file_get_groups(table(), NULL);
	for (gchar **g = groups; *g; g++)
		g_ptr_array_add(out, (char *)g_intern_string(*g));
	g_strfreev(groups);
	g_ptr_array_add(out, (char *)"this-machine");
	g_ptr_array_add(out, NULL);
	return out;
}

/* A build gets the machine's memory less 1 GiB and 5% for the OS, the CI
 * agent and the page cache, in steps of half a GiB. */
static guint64 usable_memory(guint64 memory)
{
	double u = (double)memory - GiB - (double)memory / 20;
	u = floor(u / (GiB / 2)) * (GiB / 2);
	return (guint64)MAX(u, GiB / 2);
}

static gboolean parse_cores(const char *s, int *cores)
{
	if (!*s || strlen(s) > 5)
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isdigit(*p))
			return FALSE;
	*cores = atoi(s);
	return *cores > 0;
}

static gboolean parse_size(const char *s, guint64 *bytes)
{
	return units_parse_size(s, bytes) && *bytes >= 64 * 1024 * 1024;
}

Runner *runner_lookup(const char *spec, GError **err)
{
	Runner *r = g_new0(Runner, 1);
	r->name = g_strdup(spec);
	const char *colon = strchr(spec, ':');
	if (strcmp(spec, "this-machine") == 0) {
		Machine m;
		machine_probe(&m);
		r->cores = m.cores;
		r->memory = m.memory ? m.memory : (guint64)(8 * GiB);
		r->usable = r->memory;
		r->usable_from = m.memory ? m.memory_from : "unknown, assumed 8 GiB";
		r->title = g_strdup_printf("this machine: %d cores (%s), %.1f GiB memory (%s)", m.cores,
					   m.cores_from, r->memory / GiB, r->usable_from);
		r->source = g_strdup("measured by cugen's machine probe");
		return r;
	}
	if (colon) {
		char *c = g_strndup(spec, (gsize)(colon - spec));
		gboolean ok = parse_cores(c, &r->cores) && parse_size(colon + 1, &r->memory);
		g_free(c);
		if (!ok) {
			cg_usage_error(err, "--runner %s: expected CORES:MEMORY such as 2:7G", spec);
			runner_free(r);
			return NULL;
		}
		r->usable = usable_memory(r->memory);
		r->usable_from = "the machine's less 1 GiB and 5% for the system";
		r->title = g_strdup_printf("a machine with %d cores and %s memory", r->cores, colon + 1);
		r->source = g_strdup("given on the command line");
		return r;
	}
	GKeyFile *k = table();
	if (!g_key_file_has_group(k, spec)) {
		GPtrArray *names = runner_names();
		char *known = g_strjoinv(", ", (char **)names->pdata);
		const char *hint = cg_suggest(spec, (const char *const *)names->pdata);
		if (hint)
			cg_usage_error(err, "unknown runner '%s'; did you mean '%s'? (known: %s, or CORES:MEMORY)", spec, hint, known);
		else
			cg_usage_error(err, "unknown runner '%s' (known: %s, or CORES:MEMORY)", spec, known);
		g_free(known);
		g_ptr_array_free(names, TRUE);
		runner_free(r);
		return NULL;
	}
	char *cores = g_key_file_get_string(k, spec, "cores", NULL);
	char *mem = g_key_file_get_string(k, spec, "memory", NULL);
	char *disk = g_key_file_get_string(k, spec, "disk", NULL);
	char *limit = g_key_file_get_string(k, spec, "time_limit", NULL);
	r->title = g_key_file_get_string(k, spec, "title", NULL);
	r->source = g_key_file_get_string(k, spec, "source", NULL);
	if (!cores || !mem || !r->title || !r->source || !parse_cores(cores, &r->cores) ||
	    !parse_size(mem, &r->memory) || (disk && !parse_size(disk, &r->disk)) ||
	    (limit && !units_parse_duration(limit, &r->time_limit)))
		g_error("templates/runners.ini: [%s] is incomplete or malformed", spec); /* a build bug */
	g_free(cores);
	g_free(mem);
	g_free(disk);
	g_free(limit);
	r->usable = usable_memory(r->memory);
	r->usable_from = "the runner's less 1 GiB and 5% for the system and the CI agent";
	return r;
}

void runner_free(Runner *r)
{
	if (!r)
		return;
	g_free(r->name);
	g_free(r->title);
	g_free(r->source);
	g_free(r);
}
