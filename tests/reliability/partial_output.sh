# partial_output.sh -- is a half-written output trusted by the next build?
#
# Tools write their output in place (objcopy, ar, the linker, the
# compilers; strace shows O_TRUNC on the name they are given) and leave a
# partial file when they die mid-write. ninja rebuilds an output it has no
# log entry for, and one whose log entry is older than its inputs, so a
# killed first build or a killed rebuild after an edit is safe with ninja
# (interrupt.sh). But an output that is missing while ninja's log still has
# its entry (deleted by hand, by `ninja -t clean`, by a cache restore) is
# rebuilt for that reason alone: were it killed mid-write under its own
# name, it would then be trusted as it stands, with the same mtime rules as
# any finished output. make trusts any output newer than its
# prerequisites. So every edge has its tools write each declared output
# under NAME.tmp and renames it into place as its last step (edges.c).
#
# Here the tools are wrappers ([toolchain] objcopy, ar, cxx) that, when
# armed, run the real tool, cut the file it wrote to half and wait, as a
# tool killed mid-write leaves it; the build is killed (every process of
# it) in that window, and the next build must rebuild the output, byte for
# byte as before. Done with ninja (the deleted-output case) and with the
# make backend (the same, and a C++ object).
#
# Exit: 0 when every such output is rebuilt; 1 (the list) when some were
# trusted.
. "$(dirname "$0")/../integration/lib.sh"
need_cuda
command -v setsid >/dev/null 2>&1 || skip "no setsid"

W=$WORK/wrap
mkdir -p "$W"
# wrap NAME REAL WHERE: WHERE is how to find the output (last, second, dash-o)
wrap() {
	cat >"$W/$1" <<SH
#!/bin/sh
"$2" "\$@" || exit \$?
[ -f "$W/armed-$1" ] || exit 0
case $3 in
last) for a do out=\$a; done ;;
second) out=\$2 ;;
dash-o) while [ \$# -gt 1 ]; do [ "\$1" = -o ] && out=\$2; shift; done ;;
esac
size=\$(wc -c <"\$out")
head -c \$((size / 2)) "\$out" >"\$out.half" && cat "\$out.half" >"\$out" && rm -f "\$out.half"
: >"$W/window-$1"
sleep 60
SH
	chmod +x "$W/$1"
}
wrap objcopy "$(command -v objcopy)" last
wrap ar "$(command -v ar)" second
wrap cxx "$(command -v c++)" dash-o

small_project "$WORK/p" "80"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B b -D toolchain.objcopy="$W/objcopy" -D toolchain.ar="$W/ar" -D toolchain.cxx="$W/cxx"
build b >/dev/null
mkdir -p good/ninja good/make
cp b/obj/k/src/a.cu.o b/libk.a b/app good/ninja/

trusted=
# check TOOL DRIVER OUTPUT: delete OUTPUT, arm TOOL, kill the build (DRIVER
# ninja or make) in TOOL's window, then build again: OUTPUT must be whole
check() {
	case $2 in
	ninja) set -- "$1" "$2" "$3" b "$NINJA" -C b ;;
	make) set -- "$1" "$2" "$3" m make -C m ;;
	esac
	tool=$1 drv=$2 out=$3 dir=$4
	shift 4
	rm -f "$dir/$out" "$W/window-$tool"
	: >"$W/armed-$tool"
	setsid "$@" >"$WORK/killed.log" 2>&1 &
	pid=$!
	wait_for 1200 "$WORK/killed.log" "$tool never reached its window ($drv, $out)" test -f "$W/window-$tool"
	kill -KILL $(session_pids "$pid") 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$W/armed-$tool"
	good=good/$drv/$(basename "$out")
	# what the killed build left under the output's own name
	if [ ! -e "$dir/$out" ]; then
		left="nothing"
	elif cmp -s "$dir/$out" "$good"; then
		left="the whole output"
	else
		left="a partial file ($(wc -c <"$dir/$out") of $(wc -c <"$good") bytes)"
	fi
	if "$@" >"$WORK/next.log" 2>&1 && cmp -s "$dir/$out" "$good"; then
		note "$drv, $tool: $out rebuilt (the killed build left $left under its name)"
	else
		note "$drv, $tool: the killed build left $left under the name $out; the next build:"
		grep -E 'FAILED|rror' "$WORK/next.log" | head -3
		cmp "$dir/$out" "$good" 2>&1
		trusted="$trusted $drv:$out"
		rm -f "$dir/$out"
		"$@" >/dev/null 2>&1 || die "$drv cannot rebuild $out"
	fi
}
check objcopy ninja obj/k/src/a.cu.o
check ar ninja libk.a
check cxx ninja app

# the make backend: the same tools, and a C++ compile (whose depfile ninja
# would have in its deps log, but make has only mtimes)
if command -v make >/dev/null 2>&1; then
	run "$CUGEN" setup -B m --backend make -D toolchain.objcopy="$W/objcopy" -D toolchain.ar="$W/ar" -D toolchain.cxx="$W/cxx"
	make -C m >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; die "make failed"; }
	cp m/obj/k/src/a.cu.o m/libk.a m/app m/obj/app/src/main.cpp.o good/make/
	check objcopy make obj/k/src/a.cu.o
	check ar make libk.a
	check cxx make obj/app/src/main.cpp.o
	check cxx make app
else
	note "no make: the make backend is not tested"
fi
"$NINJA" -C b -n | grep -q 'no work to do' || die "ninja has work left after the rebuilds"
[ -z "$trusted" ] || die "half-written outputs trusted by the next build:$trusted"
echo ok
