/* archspell.h -- arch lists as other tools spell them, in cugen's words:
 * the archs and ptx values of [cuda]. */
#ifndef CUGEN_ARCHSPELL_H
#define CUGEN_ARCHSPELL_H

#include <glib.h>

/* An arch list as CMake spells it (CMAKE_CUDA_ARCHITECTURES, CUDAARCHS:
 * "80;90", "80-real", "90-virtual", all, all-major, native) as cugen's
 * archs and ptx ("80 90" with ptx "80 90"; "80" with none; "compute_90");
 * FALSE for a word CMake would refuse too. */
gboolean archspell_cmake(const char *spec, char **archs, char **ptx);

/* nvcc's options for the same ("-gencode=arch=compute_80,code=sm_80
 * -gencode arch=compute_90,code=[sm_90,compute_90]", --generate-code,
 * -arch=sm_80, or the bare arch=...,code=... words) as archs and ptx
 * ("80 90" with ptx "90"). FALSE for anything else; *bad is then the
 * gencode whose code is not built from its own compute arch
 * (arch=compute_80,code=sm_86), where that is why. */
gboolean archspell_gencode(const char *spec, char **archs, char **ptx, char **bad);
/* Whether nvcc -gencode options list an arch's PTX before its SASS
 * (code=[compute_80,sm_80], as CMake writes them): nvcc's fatbinary
 * keeps that order (cugen.ini's ptx_first). */
gboolean archspell_gencode_ptx_first(const char *spec);

/* Whether spec looks like nvcc's options rather than an arch list. */
gboolean archspell_is_gencode(const char *spec);

#endif
