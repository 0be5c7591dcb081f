/* install.h -- installing what the build made, as CMake and Meson do.
 *
 * Owns: where each file goes (the prefix and the GNU directories, libdir
 * with the platform's multiarch name under /usr on Debian), the install
 * manifest setup writes (BUILDDIR/.cugen/install.ini, sealed) with the
 * pkg-config and CMake package files beside it (pkgexport.c), the
 * install, clean and help targets of build.ninja and the Makefile, and
 * `cugen install`, which carries the manifest out under $DESTDIR
 * (installrun.c).
 */
#ifndef CUGEN_INSTALL_H
#define CUGEN_INSTALL_H

#include "config.h"
#include "resolve.h"
#include "toolkit.h"
#include "util.h"

#define INSTALL_MANIFEST ".cugen/install.ini"
#define INSTALL_FILES ".cugen/install" /* the .pc and CMake files */

/* libdir as configured, or the platform's default: lib, or under /usr
 * on Debian lib/<multiarch> (lib/x86_64-linux-gnu). */
char *install_libdir(const Config *c, const Toolkit *tk);
/* An installation directory, absolute (dir under the prefix unless
 * absolute). */
char *install_dir(const Config *c, const char *dir);
/* The RUNPATH t gets when installed with install_rpath = origin
 * ($ORIGIN/../lib for a program, $ORIGIN for a library), else NULL. */
char *install_rpath(const Config *c, const Toolkit *tk, const Target *t);

/* Stage the manifest and the package files into st; FALSE (err at the
 * target's line) where two files would be installed at one destination. */
gboolean install_stage(Stage *st, const Resolved *r, const char *builddir, GError **err);
/* The install, clean and help targets, in build.ninja's syntax or the
 * Makefile's (make: clean is make.c's); archs: the arch-sm_XX list,
 * space separated; gated: build.ninja is a gate (gate.h). */
char *install_targets(const Config *c, const char *cugen, const char *archs, gboolean make, gboolean gated);

/* pkgexport.c: the pkg-config file of installed library t, and the
 * project's CMake package (NAMEConfig.cmake, NAMEConfigVersion.cmake);
 * NULL when no library is installed. */
GString *install_pc_file(const Resolved *r, const Target *t);
GString *install_cmake_config(const Resolved *r);
GString *install_cmake_version(const Config *c);

/* rpath.c: the RUNPATH (or RPATH) of the ELF image in buf, in place:
 * add (or NULL) in front of its entries less those drop names
 * (':'-separated, or NULL) and the build tree's $ORIGIN padding; removed
 * when that leaves nothing. FALSE (and err) when buf is no ELF file
 * cugen can edit or the result does not fit; TRUE with nothing changed
 * when it has no RUNPATH. */
gboolean rpath_edit(guint8 *buf, gsize len, const char *add, const char *drop, GError **err);

#endif
