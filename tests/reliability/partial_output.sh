# partial_output.sh -- is a half-written output trusted by the next build?
#
# Tools that write their output in place (objcopy, ar, the linker, the
# compilers; strace shows O_TRUNC on the final name) leave a partial file
# when they die mid-write. ninja rebuilds an output it has no log entry
# for, and one whose log entry is older than its inputs, so a killed first
# build or a killed rebuild after an edit is safe (interrupt.sh). But an
# output that is missing while ninja's log still has its entry (deleted by
# hand, by `ninja -t clean`, by a cache restore) is rebuilt for that reason
# alone: killed mid-write, it is then trusted as it stands, with the same
# mtime rules as any finished output.
#
# Here the tools are wrappers ([toolchain] objcopy, ar, cxx) that, when
# armed, write the real output, cut it to half and wait, as a tool killed
# mid-write leaves it; the build is killed (every process of it) in that
# window, and the next ninja must rebuild the output.
#
# Exit: 0 when every such output is rebuilt; 77 (skip, with the list) when
# some are trusted: a known hazard, reported (the cure is in edges.c: write
# to a temporary name and rename, as `cugen setup` itself does).
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
mkdir -p good
cp b/obj/k/src/a.cu.o b/libk.a b/app good/

trusted=
# check NAME OUTPUT: delete OUTPUT, arm NAME, kill the build in its window
check() {
	rm -f "b/$2" "$W/window-$1"
	: >"$W/armed-$1"
	setsid "$NINJA" -C b >"$WORK/killed.log" 2>&1 &
	pid=$!
	n=0
	while [ ! -f "$W/window-$1" ]; do
		n=$((n + 1))
		[ $n -gt 1200 ] && { cat "$WORK/killed.log"; die "$1 never reached its window"; }
		sleep 0.1
	done
	kill -KILL $(ps -o pid= -s "$pid") 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$W/armed-$1"
	[ "$(wc -c <"b/$2")" -lt "$(wc -c <"good/$(basename "$2")")" ] || die "$2 is not partial: the wrapper failed"
	part=$(wc -c <"b/$2")
	if "$NINJA" -C b >"$WORK/next.log" 2>&1 && cmp -s "b/$2" "good/$(basename "$2")"; then
		note "$1: $2 rebuilt"
	else
		note "$1: the half-written $2 ($part of $(wc -c <"good/$(basename "$2")") bytes) was trusted:"
		grep -E 'FAILED|error' "$WORK/next.log" | head -3
		trusted="$trusted $2"
		rm -f "b/$2"
		build b >/dev/null
	fi
}
check objcopy obj/k/src/a.cu.o
check ar libk.a
check cxx app
[ -z "$trusted" ] && { echo ok; exit 0; }
skip "known hazard: half-written outputs trusted by the next build:$trusted"
