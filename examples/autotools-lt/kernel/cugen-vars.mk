# cugen-vars.mk for ltcomp-kernels, written with cugen.mk by `cugen setup
# --backend automake` (cugen 0.1.0); do not edit. The variables of
# cugen.mk alone, each a path through $(top_builddir): cugen.mk includes
# it, and so can any other Makefile.am of the project that links what
# this directory builds (its SUBDIRS must come first):
#     include $(top_srcdir)/kernel/cugen-vars.mk
#     libfoo_la_LIBADD = $(CUGEN_LTLIB_<target>)
CUGEN_LIB_kernels = $(top_builddir)/kernel/cugen-build/libkernels.a
CUGEN_DLINK_kernels = $(top_builddir)/kernel/cugen-build/obj/kernels/kernels.dlink.p.o
CUGEN_DLINK_LO_kernels = $(top_builddir)/kernel/cugen-build/obj/kernels/kernels.dlink.p.lo
CUGEN_LTLIB_kernels = $(top_builddir)/kernel/cugen-build/libkernels.la
CUGEN_LIBS = -L$(CUDA_PATH)/targets/x86_64-linux/lib -lcudadevrt -lcudart_static -lrt -lpthread -ldl -lstdc++ -lm
