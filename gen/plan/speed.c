/* speed.c -- the speed probe and the parsing of a given speed; see
 * speed.h. */
#include "speed.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "planknobs.h"

typedef struct {
	guint32 key, left, right; /* children by index, 0: none (the root is 1) */
} Node;

static guint32 xorshift(guint32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static int cmp_key(const void *a, const void *b)
{
	guint32 x = ((const Node *)a)->key, y = ((const Node *)b)->key;
	return x < y ? -1 : x > y;
}

/* The fixed work: a tree of SPEED_PROBE_NODES random keys (unbalanced, as
 * a symbol table's chains and a compiler's trees are walked: a pointer
 * chased and a branch taken either way at every step), searched
 * SPEED_PROBE_LOOKUPS times, then sorted. Returns a sum of what it saw,
 * so that none of it is left out. */
static guint64 probe_work(void)
{
	Node *t = g_new(Node, SPEED_PROBE_NODES + 1);
	guint32 x = 2463534242u;
	guint64 seen = 0;
	t[1] = (Node){ xorshift(&x), 0, 0 };
	for (guint32 n = 2; n <= SPEED_PROBE_NODES; n++) {
		const guint32 k = xorshift(&x);
		guint32 i = 1;
		for (;;) {
			guint32 *c = k < t[i].key ? &t[i].left : &t[i].right;
			if (!*c) {
				*c = n;
				break;
			}
			i = *c;
		}
		t[n] = (Node){ k, 0, 0 };
	}
	for (guint32 j = 0; j < SPEED_PROBE_LOOKUPS; j++) {
		const guint32 k = xorshift(&x);
		for (guint32 i = 1; i; i = k < t[i].key ? t[i].left : t[i].right)
			seen += t[i].key & 7;
	}
	qsort(t + 1, SPEED_PROBE_NODES, sizeof *t, cmp_key);
	seen += t[SPEED_PROBE_NODES / 2].key;
	g_free(t);
	return seen;
}

/* The start all jobs wait for, so that they run at once. */
typedef struct {
	GMutex lock;
	GCond go;
	gboolean started;
} Start;

typedef struct {
	Start *start;
	double cpu;   /* its median round's CPU seconds */
	guint64 seen; /* what probe_work saw: kept, so that nothing is left out */
} Job;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static gpointer probe_thread(gpointer data)
{
	Job *self = data;
	g_mutex_lock(&self->start->lock);
	while (!self->start->started)
		g_cond_wait(&self->start->go, &self->start->lock);
	g_mutex_unlock(&self->start->lock);
	/* the median of its rounds: a moment's disturbance (another
	 * process, a frequency step) counts in one of them at most */
	double t[SPEED_PROBE_ROUNDS];
	for (int r = 0; r < SPEED_PROBE_ROUNDS; r++) {
		const double t0 = thread_cpu();
		self->seen += probe_work();
		t[r] = thread_cpu() - t0;
	}
	qsort(t, SPEED_PROBE_ROUNDS, sizeof *t, cmp_double);
	self->cpu = t[SPEED_PROBE_ROUNDS / 2];
	return NULL;
}

double speed_probe(int jobs, double *cpu)
{
	jobs = CLAMP(jobs, 1, SPEED_PROBE_MAX_JOBS);
	Start start = { 0 };
	g_mutex_init(&start.lock);
	g_cond_init(&start.go);
	Job *job = g_new0(Job, jobs);
	GThread **threads = g_new0(GThread *, jobs);
	int started = 0;
	for (int i = 0; i < jobs; i++) {
		job[i].start = &start;
		if (!(threads[i] = g_thread_try_new("cugen-speed", probe_thread, &job[i], NULL)))
			break;
		started++;
	}
	/* all at once: each job shares the machine with the others, as a
	 * build's jobs do */
	g_mutex_lock(&start.lock);
	start.started = TRUE;
	g_cond_broadcast(&start.go);
	g_mutex_unlock(&start.lock);
	double *v = g_new(double, MAX(started, 1));
	for (int i = 0; i < started; i++) {
		g_thread_join(threads[i]);
		v[i] = job[i].cpu;
	}
	double med = 0;
	if (started) {
		qsort(v, (size_t)started, sizeof *v, cmp_double);
		med = v[started / 2];
	}
	g_free(v);
	g_free(threads);
	g_free(job);
	g_mutex_clear(&start.lock);
	g_cond_clear(&start.go);
	*cpu = med;
	if (med <= 0)
		return 1;
	const double s = round(med / SPEED_REFERENCE_CPU * 20) / 20;
	return CLAMP(s, 0.25, 8);
}

void speed_settle(Speed *s, const Speed *kept)
{
	if (s->speed <= 0 && kept && kept->speed > 0) {
		*s = *kept;
		s->from = "this machine's probe at this build directory's first setup";
	} else if (s->speed <= 0) {
		s->probe_jobs = CLAMP(s->probe_jobs, 1, SPEED_PROBE_MAX_JOBS);
		s->speed = speed_probe(s->probe_jobs, &s->probe_cpu);
		s->from = "a probe of this machine";
	}
	s->used = TRUE;
}
