# Static libraries link in dependency order: each library before the
# libraries it uses, however deep the chain or the diamond (app -> top ->
# left, right -> base), so that GNU ld finds every symbol. Before, the
# libraries came dependencies first and any chain of two failed to link.
. "$(dirname "$0")/lib.sh"
need_cuda

P="$WORK/p"
mkdir -p "$P"
cd "$P" || exit 1
echo 'int base(void) { return 1; }' >base.cpp
echo 'int base(void); int left(void) { return base() + 1; }' >left.cpp
echo 'int base(void); int right(void) { return base() + 2; }' >right.cpp
echo 'int left(void); int right(void); int top(void) { return left() + right(); }' >top.cpp
echo 'int top(void); int main(void) { return top() == 5 ? 0 : 1; }' >main.cpp
cat >cugen.ini <<'INI'
[project]
name = order
[target base]
type = static
sources = base.cpp
[target left]
type = static
sources = left.cpp
deps = base
[target right]
type = static
sources = right.cpp
deps = base
[target top]
type = static
sources = top.cpp
deps = left, right
[target app]
type = executable
sources = main.cpp
deps = top
INI
for be in ninja make; do
	run "$CUGEN" setup -B "b-$be" --backend $be
	if [ $be = ninja ]; then
		build "b-$be" >/dev/null
	else
		make -C "b-$be" >"$WORK/make.log" 2>&1 || { tail "$WORK/make.log"; die "make failed"; }
	fi
	"./b-$be/app" || die "the program linked by $be failed"
done
libs=$(grep '^  libs = ' b-ninja/build.ninja)
[ "$libs" = "  libs = libtop.a libleft.a libright.a libbase.a" ] || die "link order: $libs"
echo "link order: ok"
