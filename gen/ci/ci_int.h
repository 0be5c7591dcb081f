/* ci_int.h -- what ci.c (`cugen ci`, its options and checks, the
 * workflow of a cugen.ini project) and cinvcc.c (the workflow of a build
 * that runs `cugen nvcc`) share. */
#ifndef CUGEN_CI_INT_H
#define CUGEN_CI_INT_H

#include <glib.h>

/* A template's text with every line indented by n spaces. */
char *ci_indented(const char *name, const char *const *vars, int n);

/* `cugen ci --nvcc`: the project's own build command in every job. */
typedef struct {
	const char *provider;
	int indent;             /* of the provider's scripts */
	int shards;
	const char *archs;      /* --archs: the arch entries the shards split */
	const char *command;    /* --nvcc */
	const char *upload;     /* --upload: what the combine job keeps */
	const char *image, *repo, *ref;
} CiNvcc;

/* The workflow's text, and in *said one line per shard for stderr;
 * NULL with err for archs, shards or a command it cannot take. */
char *ci_nvcc_workflow(const CiNvcc *o, GString *said, GError **err);

#endif
