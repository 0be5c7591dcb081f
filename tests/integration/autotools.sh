# examples/autotools: an autotools project (configure.ac with CUGEN_INIT,
# Makefile.am including cugen.mk, a C program linking a CUDA static
# library) builds with autoreconf -fi && ./configure && make && make check,
# and passes make distcheck. Its committed cugen.mk and m4/cugen.m4 are
# what cugen writes and installs today.
. "$(dirname "$0")/lib.sh"
need_cuda
for t in autoreconf automake make; do
	command -v $t >/dev/null || skip "no $t (Debian: autoconf automake)"
done

copy_example autotools "$WORK/p"
cd "$WORK/p" || exit 1
cmp -s m4/cugen.m4 "$SRC/templates/cugen.m4" || die "examples/autotools/m4/cugen.m4 is not templates/cugen.m4"
cp cugen.mk cugen.mk.committed
run "$CUGEN" setup --backend automake
cmp cugen.mk cugen.mk.committed || die "the committed cugen.mk is not what cugen setup --backend automake writes"
rm cugen.mk.committed

run autoreconf -fi
run ./configure CUGEN="$CUGEN" --with-cuda="$CUDA_PATH"
grep -q "^CUGEN_LIBS = .*-lcudart_static" Makefile || die "CUGEN_INIT did not substitute CUGEN_LIBS"
make -j2 >make.log 2>&1 || { tail -30 make.log; die "make failed"; }
grep -q 'CUDA sm_80 obj/kernels/kernels/increment.cu.p/sm_80.cubin' make.log || die "no per-arch device compile"
./demo --help | grep -q 'archs 800,900' || die "demo --help"
make check >check.log 2>&1 || { tail -30 check.log; die "make check failed"; }
grep -q '^# FAIL:  0' check.log || die "make check reported failures"
make >make2.log 2>&1 || die "second make failed"
grep -q '^gcc .*-o demo' make2.log && die "the second make relinked demo"

note "configure without a toolkit says so"
if ./configure CUGEN="$CUGEN" --with-cuda=/nonexistent >conf.log 2>&1; then die "configure accepted --with-cuda=/nonexistent"; fi
grep -q "no CUDA toolkit (no bin/nvcc): use --with-cuda=DIR or set CUDA_PATH" conf.log || { tail conf.log; die "no clear message"; }
run ./configure CUGEN="$CUGEN" --with-cuda="$CUDA_PATH"

note "make distcheck"
make distcheck DISTCHECK_CONFIGURE_FLAGS="CUGEN=$CUGEN --with-cuda=$CUDA_PATH" >dc.log 2>&1 || { tail -40 dc.log; die "make distcheck failed"; }
grep -q 'archives ready for distribution' dc.log || die "distcheck did not finish"
note "make install and make uninstall: what cugen.ini installs, under configure's directories"
copy_example autotools "$WORK/inst"
cd "$WORK/inst" || exit 1
mkdir shared
printf '#include "kshared.h"\n__global__ void k(int *p) { *p = 1; }\nint kshared_version(void) { return 1; }\n' >shared/kshared.cu
printf 'int kshared_version(void);\n' >shared/kshared.h
printf '[target kshared]\ntype = shared\nsources = shared/kshared.cu\ninclude = shared\nheaders = shared/kshared.h\n' >>cugen.ini
run "$CUGEN" setup --backend automake
run autoreconf -fi
run ./configure CUGEN="$CUGEN" --with-cuda="$CUDA_PATH" --prefix="$WORK/pfx" --libdir="$WORK/pfx/lib64"
make -j2 >make.log 2>&1 || { tail -30 make.log; die "make (kshared) failed"; }
make install DESTDIR="$WORK/dd" >inst.log 2>&1 || { tail -30 inst.log; die "make install failed"; }
D=$WORK/dd$WORK/pfx
for f in bin/demo lib64/libkshared.so.1.0 lib64/libkshared.so.1 lib64/libkshared.so include/kshared.h \
	lib64/pkgconfig/kshared.pc lib64/pkgconfig/kernels.pc; do
	case $f in lib64/pkgconfig/kernels.pc) [ ! -e "$D/$f" ] || die "make install installed $f (install = no)" ;;
	*) [ -e "$D/$f" ] || { find "$WORK/dd"; die "make install did not install $f"; } ;; esac
done
[ "$(readlink "$D/lib64/libkshared.so")" = libkshared.so.1 ] || die "libkshared.so is not a link to its SONAME"
grep -qx "prefix=$WORK/pfx" "$D/lib64/pkgconfig/kshared.pc" && grep -qx 'libdir=${prefix}/lib64' "$D/lib64/pkgconfig/kshared.pc" || { cat "$D/lib64/pkgconfig/kshared.pc"; die "kshared.pc has not configure's libdir"; }
make uninstall DESTDIR="$WORK/dd" >un.log 2>&1 || { tail -30 un.log; die "make uninstall failed"; }
left=$(find "$WORK/dd" ! -type d)
[ -z "$left" ] || die "make uninstall left: $left"
# DESTDIR is quoted as automake quotes it: its quotes run nothing
make install DESTDIR="$WORK/q';touch $WORK/pwned;'" >inst.log 2>&1 || { tail -30 inst.log; die "make install with quotes in DESTDIR failed"; }
[ ! -e "$WORK/pwned" ] || die "a quote in DESTDIR ran a command"
[ -d "$WORK/q';touch $WORK/pwned;'" ] || die "make install did not install under the quoted DESTDIR"
note "make install prefix=DIR installs under DIR"
make install prefix="$WORK/pfx2" libdir="$WORK/pfx2/lib" >inst2.log 2>&1 || { tail -30 inst2.log; die "make install prefix= failed"; }
grep -qx "prefix=$WORK/pfx2" "$WORK/pfx2/lib/pkgconfig/kshared.pc" || die "make install prefix= did not move the .pc's prefix"
make uninstall prefix="$WORK/pfx2" libdir="$WORK/pfx2/lib" >un2.log 2>&1 || { tail -30 un2.log; die "make uninstall prefix= failed"; }
left=$(find "$WORK/pfx2" ! -type d)
[ -z "$left" ] || die "make uninstall prefix= left: $left"
[ ! -e "$WORK/pfx" ] || die "something was installed under the configured prefix without DESTDIR"

note "libtool: CUGEN_LTLIB_kernels in a program's LDADD and a shared library's LIBADD"
if command -v libtoolize >/dev/null 2>&1; then
	copy_example autotools "$WORK/lt"
	cd "$WORK/lt" || exit 1
	sed -i 's/^AC_PROG_CC$/AC_PROG_CC\nLT_INIT/' configure.ac
	grep -q '^LT_INIT' configure.ac || die "could not add LT_INIT"
	printf 'pic = yes\n' >>cugen.ini
	run "$CUGEN" setup --backend automake
	grep -q '^CUGEN_LTLIB_kernels = $(top_builddir)/cugen-build/libkernels.la$' cugen-vars.mk || die "no CUGEN_LTLIB_kernels"
	echo 'int demo_wrap_version(void) { return 1; }' >src/wrap.c
	cat >>Makefile.am <<'EOF2'
lib_LTLIBRARIES = libdemowrap.la
libdemowrap_la_SOURCES = src/wrap.c
libdemowrap_la_LIBADD = $(CUGEN_LTLIB_kernels)
bin_PROGRAMS += demo_conv demo_shared
demo_conv_SOURCES = src/main.c
demo_conv_CPPFLAGS = -I$(srcdir)/kernels
demo_conv_LDADD = $(CUGEN_LTLIB_kernels)
demo_shared_SOURCES = src/main.c
demo_shared_CPPFLAGS = -I$(srcdir)/kernels
demo_shared_LDADD = libdemowrap.la
EOF2
	run autoreconf -fi
	run ./configure CUGEN="$CUGEN" --with-cuda="$CUDA_PATH"
	make -j2 >make.log 2>&1 || { tail -30 make.log; die "make with libtool failed"; }
	grep -q -- '-Wl,--whole-archive ./cugen-build/.libs/libkernels.a' make.log || die "libtool did not put the CUDA objects into libdemowrap"
	nm -D .libs/libdemowrap.so | grep -q ' T demo_increment$' || die "libdemowrap.so lacks demo_increment"
	for p in demo_conv demo_shared; do
		./$p --help | grep -q 'archs 800,900' || die "$p --help"
	done
	./demo_shared >run.log 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 77 ] || { cat run.log; die "demo_shared exited $rc"; }
else
	echo "skipped the libtool part: no libtoolize (Debian: libtool)"
fi
echo ok
