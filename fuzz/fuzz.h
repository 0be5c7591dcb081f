/* fuzz.h -- what the fuzz targets share: a scratch directory, a small
 * project tree to read INI files against, and a fake CUDA toolkit.
 *
 * Every target defines LLVMFuzzerTestOneInput() (and may define
 * LLVMFuzzerInitialize()); it is linked either with libFuzzer (make fuzz)
 * or with replay.c, a main() that runs saved inputs once each (make check
 * replays fuzz/regressions/ and fuzz/corpus/ that way).
 *
 * The fake toolkit replaces toolkit_probe() and toolkit_dryrun() through
 * the linker's --wrap: the probe returns a Toolkit with CUDA 13.0's GPU
 * codes, and a dry run answers from nvcc outputs recorded in fuzz/dryrun/
 * (see fake_toolkit.c for how they are keyed and recorded).
 */
#ifndef CUGEN_FUZZ_H
#define CUGEN_FUZZ_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A fresh private directory for this process (removed at exit). */
const char *fuzz_tmpdir(void);
/* rm -rf path (no error if it does not exist). */
void fuzz_rm_rf(const char *path);
/* Write data to path (aborts on failure: the harness is broken then). */
void fuzz_write(const char *path, const void *data, gsize len);
/* The project directory: tmpdir/p with the sources and directories that
 * the seeds name (k.cu, m.cpp, a.c, src/, lib/, include/, ...). */
const char *fuzz_project(void);
/* The input as a C string (it ends at its first NUL, as text read by a C
 * program would). Not g_strndup(): the input need not hold a NUL. */
char *fuzz_text(const uint8_t *data, size_t size);
/* Make GLib criticals and warnings fatal: a g_return_if_fail() that
 * fires is a bug. */
void fuzz_glib_strict(void);

#endif
