/* cudaflags.h -- the user's nvcc flags ([cuda] flags, a target's
 * cuda_flags) as cugen reads them.
 *
 * Owns: which nvcc options cugen sets itself and refuses in flags (with
 * the key to use instead), which ones choose a cugen setting and are
 * taken over (-std, -rdc/-dc, -dlto, --threads/-t), and the words that
 * pass on unchanged to every nvcc step.
 */
#ifndef CUGEN_CUDAFLAGS_H
#define CUGEN_CUDAFLAGS_H

#include <glib.h>

typedef struct {
	char *std;          /* from -std=X (c++17, ...), or NULL */
	const char *std_word;
	int rdc;            /* -1 not given, 0 -rdc=false, 1 -rdc=true or -dc */
	const char *rdc_word;
	gboolean dlto;      /* -dlto (device link-time optimisation) */
	const char *dlto_word;
	int threads;        /* --threads N / -t N, -1 not given */
	char *rest;         /* the other words, as a shell-quoted string;
			     * the value itself when nothing was taken */
	GPtrArray *words;   /* the value's words (the *_word point here) */
} CudaFlags;

/* Read value's words into f. FALSE for a flag cugen sets itself (*owned)
 * or a value it cannot use, with *bad the word (in f->words) and *why
 * what to say of it ("use archs instead", "expected a number ..."). */
gboolean cudaflags_read(const char *value, CudaFlags *f, const char **bad, char **why, gboolean *owned);
void cudaflags_clear(CudaFlags *f);

#endif
