# Setup's options as CMake, Meson and gcc users type them: attached
# forms (-Dcuda.archs=80, -Bdir, -Sdir) give what the separate ones give;
# -D values are kept for the next setup (--list-options shows them, -U
# drops one, --reset all); --buildtype (or [project] buildtype) puts
# CMake's flags for the type in front (debug: -G -g; relwithdebinfo: -O2
# -g -lineinfo; release: -O3 -DNDEBUG) and builds; a bad one is an error.
. "$(dirname "$0")/lib.sh"
need_cuda
P=$WORK/p
mkdir -p "$P"
cat >"$P/cugen.ini" <<'INI'
[project]
name = opts

[target app]
type = executable
sources = k.cu x.cpp
INI
printf '__global__ void k(int *p) { *p = 1; }\nint cu(void) { return 0; }\n' >"$P/k.cu"
printf 'int cu(void);\nint main() { return cu(); }\n' >"$P/x.cpp"
cd "$WORK" || exit 1

note "attached forms"
run "$CUGEN" setup -S "$P" -B "$WORK/sep" -D cuda.archs=80 -D project.name=opts
run "$CUGEN" setup "-S$P" "-B$WORK/att" -Dcuda.archs=80 -Dproject.name=opts
sed "s#$WORK/att#@B@#g" att/build.ninja >att.n
sed "s#$WORK/sep#@B@#g" sep/build.ninja >sep.n
cmp -s att.n sep.n || { diff sep.n att.n | head; die "attached and separate forms differ"; }

note "kept: -D stays for the next setup; -U and --reset drop"
"$CUGEN" setup -B "$WORK/att" -S "$P" >out 2>&1 || { cat out; die "setup without -D failed"; }
grep -q 'archs sm_80,' out || { cat out; die "the kept -D cuda.archs=80 was forgotten"; }
"$CUGEN" setup -B "$WORK/att" --list-options >list 2>&1 || { cat list; die "--list-options failed"; }
grep -qx '  -D cuda.archs=80' list && grep -qx '  -D project.name=opts' list || { cat list; die "--list-options lacks the kept -D"; }
"$CUGEN" setup -B "$WORK/att" -S "$P" -U cuda.archs >out 2>&1 || { cat out; die "setup -U failed"; }
grep -q 'archs sm_75,' out || { cat out; die "-U cuda.archs did not drop it"; }
"$CUGEN" setup -B "$WORK/att" --list-options | grep -q 'cuda.archs' && die "-U left cuda.archs kept"
"$CUGEN" setup -B "$WORK/att" --list-options | grep -q 'project.name=opts' || die "-U dropped another option"
run "$CUGEN" setup -B "$WORK/att" -S "$P" --reset
"$CUGEN" setup -B "$WORK/att" --list-options | grep -qx '  (no -D)' || die "--reset kept options"
"$CUGEN" setup -B "$WORK/att" -S "$P" -U cuda >out 2>&1 && die "-U without SECTION.KEY passed"
[ "$(wc -l <out)" -eq 1 ] || { cat out; die "not one line for a bad -U"; }

note "build types"
B=$WORK/bt
run "$CUGEN" setup -S "$P" -B "$B" -Dcuda.archs=80 --buildtype debug
rule_of "$B" cuda_fe | grep -q -- ' -g ' || die "debug: no -g on the host side: $(rule_of "$B" cuda_fe)"
grep -q -- '--debug_mode' "$B/build.ninja" || die "debug: nvcc's -G did not reach cicc"
rule_of "$B" cxx | grep -q -- ' -g ' || die "debug: cxx: $(rule_of "$B" cxx)"
build "$B" >/dev/null
"$B/app" || die "the debug build does not run"
run "$CUGEN" setup -S "$P" -B "$B" --buildtype relwithdebinfo
grep -q -- '-generate-line-info' "$B/build.ninja" || die "relwithdebinfo: no -lineinfo"
grep -q -- '--debug_mode' "$B/build.ninja" && die "relwithdebinfo: still -G"
rule_of "$B" cxx | grep -q -- '-O2 -g -DNDEBUG' || die "relwithdebinfo: cxx: $(rule_of "$B" cxx)"
run "$CUGEN" setup -S "$P" -B "$B" --buildtype Release
rule_of "$B" cxx | grep -q -- '-O3 -DNDEBUG' || die "release: cxx: $(rule_of "$B" cxx)"
"$CUGEN" setup -B "$B" --list-options | grep -qx '  -D project.buildtype=Release' || die "the build type is not kept"
build "$B" >/dev/null
cp -R "$B" "$WORK/before"
"$CUGEN" setup -S "$P" -B "$B" --buildtype fast >out 2>&1 && die "buildtype fast passed"
grep -q "invalid buildtype 'fast' (expected none, debug, release, relwithdebinfo or minsizerel)" out || { cat out; die "no clear error for a bad build type"; }
diff -r "$WORK/before" "$B" >/dev/null || die "a failed setup changed the build directory"

note "a kept -D for a target that is gone says where it came from"
K=$WORK/kept
mkdir -p "$K"
: >"$K/k.cu"
printf '[project]\nname = p\n[target x]\ntype = static\nsources = k.cu\n' >"$K/cugen.ini"
run "$CUGEN" setup -S "$K" -B "$K/b" -D target.x.defines=A
printf '[project]\nname = p\n[target y]\ntype = static\nsources = k.cu\n' >"$K/cugen.ini"
"$CUGEN" setup -S "$K" -B "$K/b" >out 2>&1 && die "a kept -D for a gone target passed"
grep -qF -- "-D target.x.defines=A: no target 'x' in the project; did you mean 'y'? (kept from an earlier setup of $K/b: drop it with -U target.x.defines, or all of them with --reset)" out ||
	{ cat out; die "the kept -D's error does not say where it came from"; }
run "$CUGEN" setup -S "$K" -B "$K/b" -U target.x.defines
exit 0
