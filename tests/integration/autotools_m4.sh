# cugen.m4 beside a project's own CUDA checks: a configure.ac that
# declares its own --with-cuda (default guess) and hands the value to
# CUGEN_INIT([$with_cuda], ..., ...) with CUDA optional. configure --help
# lists --with-cuda once; guess and yes search and find the toolkit; a
# directory is taken; no turns CUDA off without an error; a missing cugen
# or toolkit runs the project's action (CUDA off), and the automake
# conditional CUGEN_ENABLED says which. Without an action, a missing
# toolkit is an error saying so.
. "$(dirname "$0")/lib.sh"
need_cuda
for t in autoreconf automake make; do
	command -v $t >/dev/null || skip "no $t (Debian: autoconf automake)"
done

mkdir -p "$WORK/p/m4"
cd "$WORK/p" || exit 1
cp "$SRC/templates/cugen.m4" m4/
cat >configure.ac <<'AC'
AC_INIT([coexist], [1.0])
AC_CONFIG_MACRO_DIRS([m4])
AM_INIT_AUTOMAKE([foreign -Wall])
AC_ARG_WITH([cuda], [AS_HELP_STRING([--with-cuda=DIR], [the project's own CUDA option])],
  [], [with_cuda=guess])
CUGEN_INIT([$with_cuda], [cuda=on], [cuda=off; AC_MSG_NOTICE([building without CUDA])])
AC_SUBST([cuda])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
AC
cat >Makefile.am <<'AM'
if CUGEN_ENABLED
state = enabled
else
state = disabled
endif
show:
	@echo "$(state) $(cuda) [$(CUDA_PATH)]"
AM
run autoreconf -fi
[ "$(./configure --help | grep -c -- '--with-cuda=')" = 1 ] || { ./configure --help | grep -- --with-cuda; die "--with-cuda listed other than once"; }
show() { # configure arguments...: make show's line
	./configure CUGEN="$CUGEN" "$@" >conf.log 2>&1 || { tail conf.log; die "configure $* failed"; }
	make -s show
}
# (the toolkit given or searched for, not taken from the environment)
TK=$CUDA_PATH
unset CUDA_PATH
out=$(PATH="$TK/bin:$PATH" show) && [ "$out" = "enabled on [$TK/bin/..]" ] || die "guess: $out"
out=$(PATH="$TK/bin:$PATH" show --with-cuda=yes) && [ "$out" = "enabled on [$TK/bin/..]" ] || die "yes: $out"
out=$(show --with-cuda="$TK") && [ "$out" = "enabled on [$TK]" ] || die "a directory: $out"
out=$(show --with-cuda=no) && [ "$out" = "disabled off []" ] || die "no: $out"
grep -q 'building without CUDA' conf.log || die "no: the project's action did not run"
out=$(show --with-cuda=/nonexistent) && [ "$out" = "disabled off []" ] || die "a directory without nvcc: $out"
# a missing cugen: the project's action, and configure says why it looked
./configure CUGEN=/nonexistent/cugen --with-cuda="$TK" >conf.log 2>&1 || die "configure failed without cugen"
make -s show | grep -qx 'disabled off \[\]' || die "no cugen: CUDA not off"

note "CUGEN_INIT without arguments: its own --with-cuda, and an error for a missing toolkit"
sed -i 's/^AC_ARG_WITH.*//; s/^  \[\], \[with_cuda=guess\])$//; s/^CUGEN_INIT(.*/CUGEN_INIT/' configure.ac
run autoreconf -fi
[ "$(./configure --help | grep -c -- '--with-cuda=DIR')" = 1 ] || die "CUGEN_INIT declared no --with-cuda"
if ./configure CUGEN="$CUGEN" --with-cuda=/nonexistent >conf.log 2>&1; then die "configure accepted a missing toolkit"; fi
grep -q "no CUDA toolkit (no bin/nvcc): use --with-cuda=DIR or set CUDA_PATH" conf.log || { tail conf.log; die "no clear message"; }
out=$(show --with-cuda="$TK") && [ "$out" = "enabled  [$TK]" ] || die "CUGEN_INIT with a directory: $out"
echo ok
