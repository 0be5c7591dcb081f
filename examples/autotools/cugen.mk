# cugen.mk for cudademo, written by `cugen setup --backend automake` from
# cugen.ini (cugen 0.1.0). Do not edit: run that command again when
# cugen.ini changes. Use it from Makefile.am, with CUGEN_INIT in
# configure.ac (cugen.m4):
#     include $(srcdir)/cugen.mk
#     prog_LDADD = $(CUGEN_LIB_<target>) $(CUGEN_LIBS)
# The CUDA code builds with cugen's per-arch graph (its GNU make backend)
# in $(CUGEN_BUILDDIR); make -jN runs it in parallel.

CUGEN_BUILDDIR = cugen-build
CUGEN_LIB_kernels = $(CUGEN_BUILDDIR)/libkernels.a
EXTRA_DIST += cugen.ini cugen.mk kernels/increment.cu kernels/kernels.h

$(CUGEN_BUILDDIR)/Makefile: $(srcdir)/cugen.ini
	$(AM_V_GEN)$(CUGEN) setup -S $(srcdir) -B $(CUGEN_BUILDDIR) --backend make $(CUGEN_SETUP_FLAGS)

cugen-all: $(CUGEN_BUILDDIR)/Makefile
	$(AM_V_at)$(MAKE) -C $(CUGEN_BUILDDIR) kernels
$(CUGEN_LIB_kernels): cugen-all
	@:

all-local: cugen-all

clean-local: cugen-clean
cugen-clean:
	-rm -rf $(CUGEN_BUILDDIR)

.PHONY: cugen-all cugen-clean
