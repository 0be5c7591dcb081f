/* plan.c -- pool depths from cores and the profile; see plan.h. */
#include "plan.h"

#include <stdlib.h>

#include "util.h"

gboolean plan_make(Graph *g, const Config *c, const Machine *m, Plan *p, GError **err)
{
	const Profile *pr = c->profile;
	p->jobs = m->cores;
	p->jobs_from = m->cores_from;
	if (pr->jobs && g_strcmp0(pr->jobs, "auto") != 0) {
		p->jobs = atoi(pr->jobs);
		p->jobs_from = "profile jobs";
	}
	if (p->jobs < 1)
		p->jobs = 1;
	p->device = p->jobs;
	p->host = p->jobs;
	p->link = MAX(1, p->jobs / 2);
	char *why = g_strdup_printf("device work: %d jobs (%s)", p->device, p->jobs_from);
	graph_pool(g, "device", p->device, why);
	g_free(why);
	why = g_strdup_printf("host compiles and front ends: %d jobs", p->host);
	graph_pool(g, "host", p->host, why);
	g_free(why);
	why = g_strdup_printf("links: %d jobs", p->link);
	graph_pool(g, "link", p->link, why);
	g_free(why);
	(void)err;
	return TRUE;
}
