/* version.c -- what `cugen --version` says and shard manifests record:
 * the release (VERSION) and the commit it was built from (obj/commit.h,
 * written by make: git describe, or the COMMIT file of a git archive). */
#include "version.h"

#include "commit.h"

const char *cugen_version(void)
{
	return CUGEN_VERSION " (commit " CUGEN_COMMIT ")";
}
