# cugen.m4 -- Autoconf macros for projects whose CUDA code cugen builds.
# Installed by cugen's `make install` into $(datadir)/aclocal.
#
# CUGEN_INIT
#   Finds cugen (AC_PATH_PROG; set CUGEN= to choose) and the CUDA toolkit:
#   --with-cuda=DIR, else $CUDA_PATH, else the directory above nvcc on
#   PATH, else /usr/local/cuda. Substitutes:
#     CUGEN              the cugen program
#     CUDA_PATH          the toolkit
#     CUGEN_SETUP_FLAGS  options cugen.mk passes to `cugen setup`
#     CUGEN_LIBS         what a program linking CUDA code of cugen needs
#                        (the CUDA runtime, libstdc++)
#   and stops with a clear message when either is missing.
AC_DEFUN([CUGEN_INIT],
[AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda=DIR],
    [the CUDA toolkit (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)])],
  [cugen_cuda=$withval], [cugen_cuda=])
AC_ARG_VAR([CUGEN], [the cugen program])
AC_ARG_VAR([CUDA_PATH], [the CUDA toolkit])
AC_PATH_PROG([CUGEN], [cugen])
AS_IF([test -z "$CUGEN"],
  [AC_MSG_ERROR([cugen not found: install it or give CUGEN=/path/to/cugen])])
AC_MSG_CHECKING([for the CUDA toolkit])
AS_IF([test -z "$cugen_cuda" && test -n "$CUDA_PATH"], [cugen_cuda=$CUDA_PATH])
AS_IF([test -z "$cugen_cuda"],
  [cugen_nvcc=`command -v nvcc 2>/dev/null`
   AS_IF([test -n "$cugen_nvcc"], [cugen_cuda=`dirname "$cugen_nvcc"`/..])])
AS_IF([test -z "$cugen_cuda" && test -x /usr/local/cuda/bin/nvcc], [cugen_cuda=/usr/local/cuda])
AS_IF([test -n "$cugen_cuda" && test -x "$cugen_cuda/bin/nvcc"],
  [AC_MSG_RESULT([$cugen_cuda])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([no CUDA toolkit (no bin/nvcc): use --with-cuda=DIR or set CUDA_PATH])])
CUDA_PATH=$cugen_cuda
CUGEN_SETUP_FLAGS="-D toolchain.cuda=$cugen_cuda"
CUGEN_LIBS="-L$cugen_cuda/targets/x86_64-linux/lib -lcudadevrt -lcudart_static -lrt -lpthread -ldl -lstdc++ -lm"
AC_SUBST([CUDA_PATH])
AC_SUBST([CUGEN_SETUP_FLAGS])
AC_SUBST([CUGEN_LIBS])
])
