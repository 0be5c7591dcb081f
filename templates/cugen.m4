# cugen.m4 -- Autoconf macros for projects whose CUDA code cugen builds.
# Installed by cugen's `make install` into $(datadir)/aclocal.
#
# CUGEN_INIT([CUDA-DIR], [ACTION-IF-FOUND], [ACTION-IF-NOT-FOUND], [ARCHS])
#   Finds cugen (AC_PATH_PROG; set CUGEN= to choose) and the CUDA toolkit.
#   Without CUDA-DIR it declares --with-cuda=DIR. A project with a
#   --with-cuda of its own passes that value instead, and no second option
#   is declared: CUGEN_INIT([$with_cuda]). The value is a directory; yes,
#   guess, check, auto or empty to search ($CUDA_PATH, the directory above
#   nvcc on PATH, /usr/local/cuda); or no, for no CUDA.
#   Without ARCHS it declares --with-cuda-archs=LIST; a project with an
#   arch option of its own passes its value. LIST replaces cugen.ini's
#   [cuda] archs: cugen's spelling (80 90), CMake's (80-real;90) or nvcc's
#   -gencode options (-gencode=arch=compute_80,code=sm_80 ...).
#   What configure found reaches cugen's setup through two variables the
#   project may set before CUGEN_INIT (make variables are fine, e.g.
#   CUGEN_CPPFLAGS='-I$(abs_top_builddir) -DHAVE_CONFIG_H'):
#     CUGEN_CPPFLAGS     include paths and defines for every TU cugen
#                        compiles (CUDA, C and C++)
#     CUGEN_NVCCFLAGS    more nvcc flags for the CUDA TUs
#   with configure's CPPFLAGS, CFLAGS, CXXFLAGS and LDFLAGS; when they
#   change (configure runs again), cugen.mk sets the build up again.
#   Found: substitutes
#     CUGEN              the cugen program
#     CUDA_PATH          the toolkit
#     CUGEN_SETUP_FLAGS  options cugen.mk passes to `cugen setup`
#     CUGEN_LIBS         what a program linking CUDA code of cugen needs
#                        (the CUDA runtime, libstdc++); cugen-vars.mk
#                        sets it again from cugen.ini's cudart and target
#   and runs ACTION-IF-FOUND. Not found (no cugen, no toolkit, or no):
#   runs ACTION-IF-NOT-FOUND, by default an error that says what is
#   missing; with an action, CUDA is optional. Either way the automake
#   conditional CUGEN_ENABLED says which (Makefile.am: `if CUGEN_ENABLED`
#   around `include cugen.mk`).
AC_DEFUN([CUGEN_INIT],
[m4_ifblank([$1],
  [AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR],
      [the CUDA toolkit (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda); no: without CUDA])],
    [cugen_cuda=$withval], [cugen_cuda=])],
  [cugen_cuda=$1])
m4_ifblank([$4],
  [AC_ARG_WITH([cuda-archs],
    [AS_HELP_STRING([--with-cuda-archs=LIST],
      [GPU archs to build, instead of cugen.ini's (80 90, 80-real;90 or -gencode options)])],
    [cugen_archs=$withval], [cugen_archs=])],
  [cugen_archs=$4])
AC_ARG_VAR([CUGEN], [the cugen program])
AC_ARG_VAR([CUGEN_CPPFLAGS], [include paths and defines for the TUs cugen compiles])
AC_ARG_VAR([CUGEN_NVCCFLAGS], [more nvcc flags for the CUDA TUs cugen compiles])
AC_ARG_VAR([CUDA_PATH], [the CUDA toolkit])
cugen_found=yes
cugen_why=
AS_CASE([$cugen_cuda],
  [no], [cugen_found=no
         cugen_why="CUDA is off (--with-cuda=no)"],
  [yes|guess|check|auto], [cugen_cuda=])
AS_IF([test "$cugen_found" = yes],
  [AC_PATH_PROG([CUGEN], [cugen])
   AS_IF([test -z "$CUGEN"],
     [cugen_found=no
      cugen_why="cugen not found: install it or give CUGEN=/path/to/cugen"],
     [AS_IF([command -v "$CUGEN" >/dev/null 2>&1 && "$CUGEN" --version >/dev/null 2>&1], [],
       [cugen_found=no
        cugen_why="cugen '$CUGEN' does not run: install it or give CUGEN=/path/to/cugen"])])])
AS_IF([test "$cugen_found" = yes],
  [AC_MSG_CHECKING([for the CUDA toolkit])
   AS_IF([test -z "$cugen_cuda" && test -n "$CUDA_PATH"], [cugen_cuda=$CUDA_PATH])
   AS_IF([test -z "$cugen_cuda"],
     [cugen_nvcc=`command -v nvcc 2>/dev/null`
      AS_IF([test -n "$cugen_nvcc"], [cugen_cuda=`dirname "$cugen_nvcc"`/..])])
   AS_IF([test -z "$cugen_cuda" && test -x /usr/local/cuda/bin/nvcc], [cugen_cuda=/usr/local/cuda])
   AS_IF([test -n "$cugen_cuda" && test -x "$cugen_cuda/bin/nvcc"],
     [AC_MSG_RESULT([$cugen_cuda])],
     [AC_MSG_RESULT([no])
      cugen_found=no
      cugen_why="no CUDA toolkit (no bin/nvcc): use --with-cuda=DIR or set CUDA_PATH"])])
AS_IF([test "$cugen_found" = yes],
  [CUDA_PATH=$cugen_cuda
   CUGEN_SETUP_FLAGS="-D toolchain.cuda=$cugen_cuda"
   AS_CASE([$cugen_archs],
     [""|yes|no], [],
     [*\'*], [AC_MSG_ERROR([--with-cuda-archs: no single quotes in the list])],
     [CUGEN_SETUP_FLAGS="$CUGEN_SETUP_FLAGS -D 'cuda.archs=$cugen_archs'"])
   CUGEN_LIBS="-L$cugen_cuda/targets/x86_64-linux/lib -lcudadevrt -lcudart_static -lrt -lpthread -ldl -lstdc++ -lm"
   $2],
  [m4_default([$3], [AC_MSG_ERROR([$cugen_why])])])
AC_SUBST([CUDA_PATH])
AC_SUBST([CUGEN_SETUP_FLAGS])
AC_SUBST([CUGEN_LIBS])
m4_ifdef([AM_CONDITIONAL], [AM_CONDITIONAL([CUGEN_ENABLED], [test "$cugen_found" = yes])])
])
