/* version.h -- cugen's release and commit (version.c). */
#ifndef CUGEN_VERSION_H
#define CUGEN_VERSION_H

/* "0.1.0 (commit 0123abc...)", "(commit ...-dirty)" for a modified tree,
 * "(commit unknown)" where the build could not tell */
const char *cugen_version(void);

#endif
