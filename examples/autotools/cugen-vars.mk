# cugen-vars.mk for cudademo, written with cugen.mk by `cugen setup
# --backend automake` (cugen 0.1.0); do not edit. The variables of
# cugen.mk alone, each a path through $(top_builddir): cugen.mk includes
# it, and so can any other Makefile.am of the project that links what
# this directory builds (its SUBDIRS must come first):
#     include $(top_srcdir)/cugen-vars.mk
#     libfoo_la_LIBADD = $(CUGEN_LTLIB_<target>)
CUGEN_LIB_kernels = $(top_builddir)/cugen-build/libkernels.a
CUGEN_LTLIB_kernels = $(top_builddir)/cugen-build/libkernels.la
CUGEN_LIBS = -L$(CUDA_PATH)/targets/x86_64-linux/lib -lcudart_static -lrt -lpthread -ldl -lstdc++ -lm
