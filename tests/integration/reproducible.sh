# Reproducible builds and shards of template-only code: examples/tmpl
# (TUs that define nothing but templates, whole program and rdc, CUB,
# -lineinfo, archs 80 90), whose module ids nvcc ends in its process id.
# Built in two checkouts (one deep, its build directory outside it) every
# output file is byte-identical: objects, libraries, the program, the
# images. Shards of sm_80 and sm_90 built in two more placements combine
# to exactly the single build's files. LTO and host debug info (-g) too;
# __FILE__ (assert) in host code and debug info hold project-relative
# names, no build path. The module ids are the ones
# `nvcc -frandom-seed=PROJECT/TARGET:PATH` gives (with module_id = absolute too,
# no process id), and a user's own -frandom-seed is left alone. A shard made by another cugen is combined where its
# rules are this build's and refused, naming both versions, where not; a
# shard built with --split-compile is refused by a reproducible build; a
# module id that differs is explained, not blamed on the sources.
. "$(dirname "$0")/lib.sh"
need_cuda

# the build's outputs, less its bookkeeping and the files that name the
# build's own paths (build.ninja, depfiles, the host view fe.cpp)
outputs() { # builddir
	(cd "$1" && find . -type f ! -path './.cugen/*' ! -name '.ninja_*' ! -name build.ninja \
		! -name compile_commands.json ! -name '*.d' ! -name hdeps ! -name fe.cpp | LC_ALL=C sort)
}
# every output of builddir a is in b with the same bytes (count them)
same_outputs() { # a b what
	outputs "$1" >"$WORK/list.a"
	n=0
	while read -r f; do
		[ -f "$2/$f" ] || die "$3: $2 lacks $f"
		cmp -s "$1/$f" "$2/$f" || die "$3: $f differs"
		n=$((n + 1))
	done <"$WORK/list.a"
	[ "$n" -ge "$4" ] || die "$3: only $n files compared"
}

for d in a deep/er/b s80 s90/x c; do copy_example tmpl "$WORK/$d"; done

note "the steps run with address space randomisation off (cicc's PTX follows addresses)"
p=$("$CUGEN" exec "$WORK/exec.log" tag -- cat /proc/self/personality) || die "cugen exec failed"
[ $((0x$p & 0x40000)) -ne 0 ] || die "cugen exec ran its step with ASLR on (personality $p)"

note "two checkouts, two build directories: every output identical"
cd "$WORK/a" || exit 1
run "$CUGEN" setup -B build
grep -q 'module ids seeded by project, target and path' "$WORK/run.log" || { cat "$WORK/run.log"; die "setup did not say the module ids are seeded"; }
build build >/dev/null
cd "$WORK/deep/er/b" || exit 1
run "$CUGEN" setup -B "$WORK/out/b"
build "$WORK/out/b" >/dev/null
# (4 TUs: ids, cubins, fatbins, objects; 2 libraries, the program)
same_outputs "$WORK/a/build" "$WORK/out/b" "two places" 30
for id in "$WORK"/a/build/obj/*/*/*.cu.p/id; do
	grep -q '_[0-9a-f]\{8\}_[0-9]\{1,7\}$' "$id" && die "$id ends in a process id: $(cat "$id")"
done

note "LTO and host debug info (-g): the same in both places too"
G='-Dcuda.host_flags=-O2 -g'
cd "$WORK/a" || exit 1
run "$CUGEN" setup -B lbuild -D target.tmpl_rdc.lto=yes "$G" -D "target.tmpl_app.cxxflags=-O2 -g"
build lbuild >/dev/null
cd "$WORK/deep/er/b" || exit 1
run "$CUGEN" setup -B "$WORK/out/l" -D target.tmpl_rdc.lto=yes "$G" -D "target.tmpl_app.cxxflags=-O2 -g"
build "$WORK/out/l" >/dev/null
ls "$WORK"/out/l/obj/tmpl_rdc/rdc/*.cu.p/compute_80.ltoir >/dev/null 2>&1 || die "no LTO-IR was built"
same_outputs "$WORK/a/lbuild" "$WORK/out/l" "two places, LTO, -g" 30
# (debug info names the sources project-relative, and no build path)
strings -a "$WORK/out/l/obj/tmpl/lib/scale.cu.p/host.o" | grep -q "$WORK" && die "a build path is in a -g host object"
strings -a "$WORK/out/l/tmpl_app" | grep -qx 'lib/scale.cu' || die "the program's debug info does not name lib/scale.cu"

note "module_id = absolute: the ids of two builds of one checkout agree"
cd "$WORK/a" || exit 1
for b in abs1 abs2; do
	run "$CUGEN" setup -B $b -D cuda.module_id=absolute
	build $b obj/tmpl/lib/sum.cu.p/fe.cpp obj/tmpl_rdc/rdc/ops.cu.p/fe.cpp >/dev/null
done
for id in obj/tmpl/lib/sum.cu.p/id obj/tmpl_rdc/rdc/ops.cu.p/id; do
	cmp -s "abs1/$id" "abs2/$id" || die "absolute module ids differ: $(cat "abs1/$id") $(cat "abs2/$id")"
	grep -q '_[0-9a-f]\{8\}_[0-9]\{1,7\}$' "abs1/$id" && die "abs1/$id ends in a process id"
done

note "the ids are nvcc -frandom-seed=PROJECT/TARGET:PATH's"
cd "$WORK/a" || exit 1
"$NVCC" -c -std=c++17 -Iinclude -frandom-seed=tmpl/tmpl:lib/scale.cu -arch=sm_80 lib/scale.cu -o "$WORK/scale.o" \
	--keep --keep-dir "$WORK" >/dev/null || die "plain nvcc failed"
ours=$(sed 's/^_[0-9a-f]*_//' build/obj/tmpl/lib/scale.cu.p/id)
theirs=$(sed 's/^_[0-9a-f]*_//' "$WORK/scale.module_id")
[ "$ours" = "$theirs" ] || die "module id '$ours' is not nvcc -frandom-seed's '$theirs' (less the path's crc)"

# the host compile's -frandom-seed names the TU too (it was TARGET: with
# an empty path: its edge lacked the variable)
awk '/^build .*: cuda_host / { h = 1; f = 0; next } h && /^  F = / { f = 1 } h && !/^  / { if (!f) bad = 1; h = 0 }
     END { exit bad }' build/build.ninja || die "a host compile edge has no F (its -frandom-seed has no path)"

note "shards of sm_80 and sm_90, placed anywhere, combine to the same files"
cd "$WORK/s80" || exit 1
run "$CUGEN" setup -B "$WORK/out/s80" --archs 80
build "$WORK/out/s80" shard >/dev/null
cd "$WORK/s90/x" || exit 1
run "$CUGEN" setup -B b/y --archs 90
build b/y shard >/dev/null
cd "$WORK/c" || exit 1
run "$CUGEN" setup -B ../cb
"$CUGEN" combine -B ../cb "$WORK/out/s80/shard" ../s90/x/b/y/shard >out.txt 2>&1 || { cat out.txt; die "combine failed"; }
grep -q '^CUDA \(sm_\|cicc \)' out.txt && die "combine compiled device code"
for f in tmpl_app libtmpl.a libtmpl_rdc.a; do
	cmp -s "$WORK/a/build/$f" "../cb/$f" || die "combined $f differs from the single build's"
done
# every object and image the combining build has is the single build's
(cd ../cb && find . -path ./.cugen -prune -o \( -name '*.o' -o -name '*.cubin' -o -name '*.fatbin' -o -name id \) -print) | while read -r f; do
	cmp -s "$WORK/a/build/$f" "../cb/$f" || die "combined $f differs from the single build's"
done || exit 1

# the combined build keeps the shards' files: with the downloaded shard
# directories gone it is still up to date, and rebuilds from its copies
mv "$WORK/out/s80/shard" "$WORK/s80-shard.away"
"$NINJA" -C ../cb >out.txt 2>&1 || { cat out.txt; die "the combined build needs the shard directories"; }
grep -q "no work to do" out.txt || { cat out.txt; die "the combined build did work with the shards gone"; }
rm ../cb/obj/tmpl/lib/scale.cu.p/sm_80.cubin
"$NINJA" -C ../cb >out.txt 2>&1 || { cat out.txt; die "an image removed was not imported again from the kept copy"; }
cmp -s "$WORK/a/build/tmpl_app" ../cb/tmpl_app || die "the program rebuilt from the kept copies differs"
mv "$WORK/s80-shard.away" "$WORK/out/s80/shard"

note "--trust: only shards whose manifest digest the shard jobs published"
sha256sum "$WORK/out/s80/shard/manifest.ini" ../s90/x/b/y/shard/manifest.ini >"$WORK/digests"
"$CUGEN" combine -B ../cb --trust "$WORK/digests" "$WORK/out/s80/shard" ../s90/x/b/y/shard >out.txt 2>&1 ||
	{ cat out.txt; die "combine refused the shards whose digests it was given"; }
cp -R "$WORK/out/s80/shard" "$WORK/forged"
printf x >>"$WORK/forged/images/obj/tmpl/lib/scale.cu.p/sm_80.cubin"
# (the forger rewrites the image's hash in the manifest too)
h=$(sha256sum "$WORK/forged/images/obj/tmpl/lib/scale.cu.p/sm_80.cubin" | cut -c1-64)
old=$(sha256sum "$WORK/out/s80/shard/images/obj/tmpl/lib/scale.cu.p/sm_80.cubin" | cut -c1-64)
sed -i "s/$old/$h/" "$WORK/forged/manifest.ini"
run "$CUGEN" setup -B ../ct
"$CUGEN" combine -B ../ct --trust "$WORK/digests" "$WORK/forged" ../s90/x/b/y/shard >out.txt 2>&1 &&
	die "a forged shard was combined under --trust"
grep -q "shard '$WORK/forged': its manifest.ini (sha256 [0-9a-f]*) is none of those --trust lists: refused" out.txt ||
	{ cat out.txt; die "wrong message for a forged shard"; }
[ -e ../ct/tmpl_app ] && die "a refused combine built"

note "a shard of another cugen: combined where its rules are this build's, else refused, naming both"
cp -R "$WORK/out/s80/shard" "$WORK/v80"
sed -i 's/^cugen_version=.*/cugen_version=0.0.9 (commit 0123456789abcdef)/' "$WORK/v80/manifest.ini"
run "$CUGEN" setup -B ../cv
"$CUGEN" combine -B ../cv "$WORK/v80" ../s90/x/b/y/shard >out.txt 2>&1 || { cat out.txt; die "combine of an older cugen's shard with the same rules failed"; }
grep -q "shard '$WORK/v80' was made by cugen 0.0.9 (commit 0123456789abcdef), this is cugen $("$CUGEN" --version | sed 's/^cugen //'): its rules are this build's" out.txt ||
	{ cat out.txt; die "combine did not say the shard was made by another cugen"; }
cmp -s "$WORK/a/build/tmpl_app" ../cv/tmpl_app || die "the program combined from another cugen's shard differs"
# (the first rule in the manifest, as another cugen would have written it)
awk '/^rule=/ && !done { sub(/=.*/, "=00ff"); done = 1 } { print }' "$WORK/out/s80/shard/manifest.ini" >"$WORK/v80/manifest.ini"
sed -i 's/^cugen_version=.*/cugen_version=0.0.9 (commit 0123456789abcdef)/' "$WORK/v80/manifest.ini"
run "$CUGEN" setup -B ../cw
"$CUGEN" combine -B ../cw "$WORK/v80" ../s90/x/b/y/shard >out.txt 2>&1 && die "a shard of another cugen with other rules was combined"
grep -q "was made by cugen 0.0.9 (commit 0123456789abcdef), this is cugen .* and its rules differ: .* (sm_80) was built with" out.txt ||
	{ cat out.txt; die "wrong message for another cugen's rules"; }

note "a split shard: refused by a reproducible build, naming the choice"
cp -R "$WORK/out/s80/shard" "$WORK/p80"
awk '/^arch=sm_80$/ && !done { print; print "split_compile=4"; done = 1; next } { print }' \
	"$WORK/out/s80/shard/manifest.ini" >"$WORK/p80/manifest.ini"
run "$CUGEN" setup -B ../cr -D cuda.reproducible=yes
"$CUGEN" combine -B ../cr "$WORK/p80" ../s90/x/b/y/shard >out.txt 2>&1 && die "a split shard was combined into a reproducible build"
grep -q "(sm_80) was built with --split-compile 4 (a planner choice of the shard's machine, which changes the code), and this build has reproducible = yes" out.txt ||
	{ cat out.txt; die "wrong message for a split shard"; }
[ "$(wc -l <out.txt)" -eq 1 ] || { cat out.txt; die "more than one line"; }
"$CUGEN" combine -B ../cr "$WORK/out/s80/shard" ../s90/x/b/y/shard >out.txt 2>&1 || { cat out.txt; die "unsplit shards refused by a reproducible build"; }

note "a module id that differs: the message names why"
cp -R "$WORK/out/s80/shard" "$WORK/i80"
awk '/^module_id=/ && !done { $0 = $0 "_12345"; done = 1 } { print }' "$WORK/out/s80/shard/manifest.ini" >"$WORK/i80/manifest.ini"
run "$CUGEN" setup -B ../ci
"$CUGEN" combine -B ../ci "$WORK/i80" ../s90/x/b/y/shard >out.txt 2>&1 && die "a shard with another module id was combined"
grep -q "in the shard: the shard's ends in a process id: a cugen that did not seed module ids made it" out.txt ||
	{ cat out.txt; die "wrong message for another module id"; }
grep -q 'other sources or paths' out.txt && die "the message blames the sources or paths"

note "a user's own -frandom-seed is kept"
cd "$WORK/a" || exit 1
run "$CUGEN" setup -B own -D cuda.flags="-O3 -lineinfo -frandom-seed=mine"
grep -q 'module ids seeded' "$WORK/run.log" && die "setup seeds ids over the user's -frandom-seed"
grep -q 'random-seed=tmpl:' own/build.ninja && die "cugen's seed is in build.ninja beside the user's"
grep -q 'random-seed=mine' own/build.ninja || die "the user's -frandom-seed is not in build.ninja"
echo ok
