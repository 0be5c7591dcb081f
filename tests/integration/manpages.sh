# Every example of cugen(1) and cugen.ini(5) runs as written: the
# example blocks (.EX ... .EE) are read out of the pages, and each is
# checked to be one this test runs (so a new example without a run here
# fails), then run: cugen(1)'s command lines in a scratch checkout with
# examples/saxpy (the saxpy program may SKIP without a GPU), cugen.ini(5)'s
# project files set up against examples/multi's and examples/rdc's sources.
. "$(dirname "$0")/lib.sh"
need_cuda
unset CI GITHUB_ACTIONS GITLAB_CI TF_BUILD
export PATH="$(dirname "$CUGEN"):$PATH"
[ "$(command -v cugen)" = "$CUGEN" ] || { mkdir -p "$WORK/bin" && ln -s "$CUGEN" "$WORK/bin/cugen" && PATH=$WORK/bin:$PATH; }
case $NINJA in */*) mkdir -p "$WORK/nbin" && ln -sf "$NINJA" "$WORK/nbin/ninja" && PATH=$WORK/nbin:$PATH ;; esac

examples() { # page: each example block, blocks separated by a line "@@"
	awk '/^\.EX$/ { on = 1; next } /^\.EE$/ { on = 0; print "@@"; next } on' "$1" |
		sed 's/\\-/-/g; s/\\(em/-/g; s/\\&//g'
}
examples "$SRC/doc/cugen.1" >"$WORK/c1"
examples "$SRC/doc/cugen.ini.5" >"$WORK/c5"

note "the examples this test knows are the pages' examples"
cat >"$WORK/known1" <<'EOF'
cugen setup -S examples/saxpy -B build/saxpy
ninja -C build/saxpy
build/saxpy/saxpy
@@
ninja -C build arch-sm_90
cugen setup -B build-all -D cuda.archs="80 90 100"
@@
cugen plan --profile ci
@@
cugen setup -B build --archs 80 && ninja -C build shard     # machine 1
cugen setup -B build --archs 90 && ninja -C build shard     # machine 2
cugen setup -B build && cugen combine -B build shard-80 shard-90
@@
cugen ci --provider github --shards 3 -o .github/workflows/cuda.yml
@@
cugen inspect build/saxpy/saxpy
cugen report -B build && xdg-open build/report/report.html
@@
EOF
cmp -s "$WORK/known1" "$WORK/c1" || { diff "$WORK/known1" "$WORK/c1"; die "cugen(1)'s examples changed: run the new ones here"; }
[ "$(grep -c '^@@$' "$WORK/c5")" = 3 ] || { cat "$WORK/c5"; die "cugen.ini(5)'s examples changed: run the new ones here"; }

line() { # file block line: that line of that example block
	awk -v b="$2" -v l="$3" '/^@@$/ { n++; k = 0; next } n + 1 == b { k++; if (k == l) print }' "$1"
}
sh_line() { # block line [strip]: run that line of cugen(1)'s examples in $T
	cmd=$(line "$WORK/c1" "$1" "$2" | sed 's/ *# .*$//')
	[ -n "$cmd" ] || die "no line $2 in example $1"
	(cd "$T" && sh -c "$cmd") >"$WORK/ex.log" 2>&1 || { cat "$WORK/ex.log"; die "example $1, line $2 failed: $cmd"; }
}

note "cugen(1)"
T=$WORK/tree
mkdir -p "$T/examples"
copy_example saxpy "$T/examples/saxpy"
copy_example saxpy "$T"
printf '\n[profile ci]\narchs = 80\njobs = 2\n' >>"$T/cugen.ini"
# example 1: set up, build and run saxpy
sh_line 1 1
sh_line 1 2
(cd "$T" && build/saxpy/saxpy) >"$WORK/run.log" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || { cat "$WORK/run.log"; die "build/saxpy/saxpy: exit $rc"; }
# example 2 on a set-up build directory (its first line needs one)
(cd "$T" && cugen setup -B build) >/dev/null 2>&1 || die "setup of build failed"
sh_line 2 1
ls "$T"/build/obj/saxpy/*.cu.p/sm_90.cubin >/dev/null 2>&1 || die "ninja arch-sm_90 made no sm_90 image"
sh_line 2 2
# example 3
sh_line 3 1
grep -q '^archs built: sm_80$' "$WORK/ex.log" || { cat "$WORK/ex.log"; die "cugen plan --profile ci does not plan the profile's sm_80"; }
# example 4: the shards leave build/shard, downloaded as shard-80 and shard-90
sh_line 4 1
mv "$T/build/shard" "$T/shard-80"
sh_line 4 2
mv "$T/build/shard" "$T/shard-90"
sh_line 4 3
[ -x "$T/build/saxpy" ] || die "combine built no saxpy"
# example 5: the workflow's folder need not exist; three shards need
# three archs
sed -i 's/^archs = 80 90 .*/archs = 80 90 100/' "$T/cugen.ini"
# (the jobs build the cugen this one was configured from; a cugen that
# was not configured from a git checkout with an origin the runners can
# clone (a local path) says so, and is
# given one)
if (cd "$T" && cugen ci --provider github -o "$WORK/probe.yml") 2>&1 | grep -q 'give --cugen-repo'; then
	cmd=$(line "$WORK/c1" 5 1)
	(cd "$T" && sh -c "$cmd --cugen-repo https://example.org/cugen.git --cugen-ref 0123abcd") >"$WORK/ex.log" 2>&1 ||
		{ cat "$WORK/ex.log"; die "example 5 failed with a repository given"; }
else
	sh_line 5 1
fi
[ -s "$T/.github/workflows/cuda.yml" ] || die "no workflow written"
# example 6: inspect; report (without opening a browser)
sh_line 6 1
grep -q 'sm_90' "$WORK/ex.log" || { cat "$WORK/ex.log"; die "inspect shows no sm_90 image"; }
cmd=$(line "$WORK/c1" 6 2 | sed 's/ &&.*//')
(cd "$T" && sh -c "$cmd") >"$WORK/ex.log" 2>&1 || { cat "$WORK/ex.log"; die "example 6, line 2 failed: $cmd"; }
[ -s "$T/build/report/report.html" ] || die "no report.html"

block5() { awk -v b="$1" '/^@@$/ { n++; next } n + 1 == b' "$WORK/c5"; }
note "cugen.ini(5)"
P=$WORK/ini0
copy_example saxpy "$P"
block5 1 >"$P/cugen.ini"
(cd "$P" && cugen setup -B b && ninja -C b) >"$WORK/ex.log" 2>&1 || { cat "$WORK/ex.log"; die "cugen.ini(5)'s first example does not build"; }
P=$WORK/ini1
copy_example multi "$P"
block5 2 >"$P/cugen.ini"
command -v ccache >/dev/null 2>&1 || sed -i 's/^launcher = ccache$//' "$P/cugen.ini"
(cd "$P" && cugen setup -B b && cugen setup -B b --profile ci) >"$WORK/ex.log" 2>&1 || { cat "$WORK/ex.log"; die "cugen.ini(5)'s second example does not set up"; }
grep -q 'profile ci, .*archs sm_80,' "$WORK/ex.log" || { cat "$WORK/ex.log"; die "the example's [profile ci] does not build sm_80 only"; }
P=$WORK/ini2
copy_example rdc "$P"
# its [cuda] in place of the rdc example's
awk 'f == 0 && /^\[cuda\]/ { skip = 1; next } skip && /^\[/ { skip = 0 } !skip' "$P/cugen.ini" >"$P/rest.ini"
{ block5 3; echo; cat "$P/rest.ini"; } >"$P/cugen.ini"
(cd "$P" && cugen setup -B b) >"$WORK/ex.log" 2>&1 || { cat "$WORK/ex.log"; die "cugen.ini(5)'s rdc + lto example does not set up"; }
grep -q 'compute_80.ltoir' "$P/b/build.ninja" && grep -q -- '-dlto' "$P/b/build.ninja" || die "the rdc + lto example makes no LTO IR for 80, or no nvlink -dlto"
exit 0
