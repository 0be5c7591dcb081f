# placeholder_mark.sh -- byte 0x1d (the mark of edges.c's command
# templates, pipeline.h PH) in a literal is kept as it is.
#
# cugen refuses it where it can (INI lines, -D values, globbed names, the
# build and project directories: tests/cases 103-107), but a tool named by
# the environment ($CXX) reaches the commands as given. A lone mark once
# aborted cugen (render_arg, "failed to allocate ..."); a pair around a
# template name (OUT) became the ninja variable ${out}.
. "$(dirname "$0")/../integration/lib.sh"
need_cuda
mkdir -p "$WORK/p/bin"
cd "$WORK/p" || exit 1
cxx=$(command -v c++) || skip "no c++"
lone=$(printf 'c++\035x')
pair=$(printf 'c\035OUT\035x')
ln -s "$cxx" "bin/$lone"
ln -s "$cxx" "bin/$pair"
printf '[project]\nname = p\n[target app]\ntype = executable\nsources = k.cpp\n' >cugen.ini
echo 'int main(void) { return 0; }' >k.cpp
PATH=$WORK/p/bin:$PATH
export PATH
for tool in "$lone" "$WORK/p/bin/$pair"; do
	rm -rf b
	CXX=$tool run "$CUGEN" setup -B b
	build b >/dev/null
	./b/app || die "the program built with \$CXX='$tool' does not run"
	grep -a -F -q "$(basename "$tool")" b/build.ninja || die "\$CXX is not in build.ninja as given (a mark pair became a ninja variable?)"
done
echo ok
