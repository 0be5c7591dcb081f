# Sharding by architecture: examples/multi (and examples/rdc) built on one
# machine, and as two shards in two other checkouts (different paths)
# combined in a third: the combined binaries' images are byte-identical to
# the single build's. examples/saxpy the same with -lineinfo and with -G,
# its checkouts and build directories placed anywhere (inside, outside, at
# other depths), also with an include directory beside the project. A shard of altered sources, of other flags (the message
# names the first difference), of another arch set or holding an image
# this build does not make, a missing arch, an arch in two shards, a
# combining build of part of the set and a corrupt image are all refused;
# combining twice does nothing the second time; with module_id =
# absolute, a shard of another build directory is refused. (cugen ci's workflows:
# ci.sh.)
. "$(dirname "$0")/lib.sh"
need_cuda

shard_round() { # example program
	ex=$1 prog=$2
	for d in single c1 c2 c3; do copy_example "$ex" "$WORK/$ex/$d"; done
	cd "$WORK/$ex/single" || exit 1
	run "$CUGEN" setup -B build -D cuda.archs="75 80"
	build build >/dev/null
	cd "$WORK/$ex/c1" || exit 1
	run "$CUGEN" setup -B build -D cuda.archs="75 80" --archs 75
	build build shard >/dev/null
	[ -f build/shard/manifest.ini ] || die "no shard manifest"
	[ -e "build/$prog" ] && die "a shard build linked $prog"
	cd "$WORK/$ex/c2" || exit 1
	run "$CUGEN" setup -B build -D cuda.archs="75 80" --archs 80
	build build shard >/dev/null
	if grep -q '^rule cuda_ptxas_80$' build/build.ninja; then
		# ptxas edges: the PTX of 80 (embedded too) is the cicc edge's
		# output, and the manifest lists it with its image all the same
		awk '/^\[.*sm_80\.cubin\]$/ { img = substr($0, 2, length($0) - 2); n++ }
		     /^files=/ && img { ptx = img; sub(/sm_80\.cubin$/, "compute_80.ptx", ptx)
			if (index($0, ptx ";") == 0) { print "no PTX in " img ": " $0; bad = 1 }; img = "" }
		     END { exit bad || !n }' build/shard/manifest.ini || die "$ex: the shard manifest lacks the PTX of ptxas edges"
		[ -f "build/shard/images/$(sed -n 's/^\[\(.*compute_80\.ptx\)\]$/\1/p;s/^files=.*;\([^;]*compute_80\.ptx\);.*/\1/p' build/shard/manifest.ini | head -1)" ] ||
			die "$ex: the shard holds no PTX image"
	fi
	cd "$WORK/$ex/c3" || exit 1
	run "$CUGEN" setup -B build -D cuda.archs="75 80"
	"$CUGEN" combine -B build ../c1/build/shard ../c2/build/shard >out.txt 2>&1 || { cat out.txt; die "combine failed"; }
	grep -q '^CUDA \(sm_\|cicc \)' out.txt && die "combine compiled device code"
	same_images "$WORK/$ex/single/build/$prog" "build/$prog" "$ex: combined vs single-machine"
	"$CUGEN" combine -B build ../c1/build/shard ../c2/build/shard >out2.txt 2>&1 || { cat out2.txt; die "second combine failed"; }
	grep -q "no work to do" out2.txt || { cat out2.txt; die "the second combine did work"; }
}

note "multi: single machine vs two shards combined"
shard_round multi multi_app
cd "$WORK/multi/c3" || exit 1

note "refusals leave the build directory alone"
cp build/build.ninja before.ninja
refuse() { # expected-message args...
	want=$1
	shift
	if "$CUGEN" combine -B build "$@" >err.txt 2>&1; then die "combine accepted: $*"; fi
	grep -q "$want" err.txt || { cat err.txt; die "wrong message for: $*"; }
	[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; die "more than one line"; }
	cmp -s before.ninja build/build.ninja || die "a refused combine changed build.ninja"
}
refuse "no shard has image 'obj/multi/lib/arch.cu.p/sm_80.cubin' (sm_80)" ../c1/build/shard
refuse "is in two shards" ../c1/build/shard ../c1/build/shard ../c2/build/shard
echo '// altered' >>../c2/lib/arch.cu
(cd ../c2 && "$NINJA" -C build shard >/dev/null) || die "shard rebuild failed"
refuse "lib/arch.cu (sm_80) was built from another 'lib/arch.cu' than this checkout's" ../c1/build/shard ../c2/build/shard
sed -i '$d' ../c2/lib/arch.cu
(cd ../c2 && "$NINJA" -C build shard >/dev/null) || die "shard rebuild failed"
printf x >>../c1/build/shard/images/obj/multi/lib/scan.cu.p/sm_75.cubin
refuse "image 'obj/multi/lib/scan.cu.p/sm_75.cubin' is corrupt" ../c1/build/shard ../c2/build/shard
rm -rf ../c1/build/shard
(cd ../c1 && "$NINJA" -C build shard >/dev/null) || die "shard rebuild failed"

note "host stubs: host code, hashed in the manifest; a changed one refused, also under --trust"
stub=../c1/build/shard/images/obj/multi/lib/scan.cu.p/75.stub.c
[ -f "$stub" ] || die "the shard holds no host stub"
grep -q '^stub_hash=[0-9a-f]\{64\}$' ../c1/build/shard/manifest.ini || die "the manifest does not hash the host stubs"
sha256sum ../c1/build/shard/manifest.ini ../c2/build/shard/manifest.ini >digests
cp "$stub" stub.keep
echo '__attribute__((constructor)) static void injected(void) { }' >>"$stub"
refuse "host stub 'obj/multi/lib/scan.cu.p/75.stub.c' is corrupt" --trust digests ../c1/build/shard ../c2/build/shard
rm "$stub"
ln -s "$PWD/stub.keep" "$stub"
refuse "host stub 'obj/multi/lib/scan.cu.p/75.stub.c' is missing or not a regular file" ../c1/build/shard ../c2/build/shard
rm "$stub"
cp stub.keep "$stub"
m=../c1/build/shard/manifest.ini
cp "$m" manifest.keep
sed -i '/^stub_hash=/d' "$m"
refuse "names a host stub without its hash" ../c1/build/shard ../c2/build/shard
sed -i '/^stub=/d' "$m"
refuse "has no host stub, which this build compiles" ../c1/build/shard ../c2/build/shard
cp manifest.keep "$m"
refuse "no readable manifest.ini" ../c1/build ../c2/build/shard

note "placement: checkouts and build directories anywhere, device line info"
# a refused combine into BUILDDIR: one line naming the problem, and
# BUILDDIR's build file as it was
refuse_in() { # builddir expected-message shards...
	d=$1 want=$2
	shift 2
	cp "$d/build.ninja" "$WORK/before.ninja"
	if "$CUGEN" combine -B "$d" "$@" >"$WORK/err.txt" 2>&1; then die "combine into $d accepted: $*"; fi
	grep -qF -- "$want" "$WORK/err.txt" || { cat "$WORK/err.txt"; die "wrong message for: $*"; }
	[ "$(wc -l <"$WORK/err.txt")" -eq 1 ] || { cat "$WORK/err.txt"; die "more than one line"; }
	cmp -s "$WORK/before.ninja" "$d/build.ninja" || die "a refused combine changed $d/build.ninja"
}
place_round() { # tag cuda.flags
	P=$WORK/place-$1 fl=$2
	for d in single deep/er/s1 s2 c; do copy_example saxpy "$P/$d"; done
	cd "$P/single" || exit 1
	run "$CUGEN" setup -B build -D cuda.archs="75 80" -D cuda.flags="$fl"
	grep -q ' srcnames \.\. ' build/build.ninja || die "$1: the device preprocess's names are not made project-relative"
	build build >/dev/null
	# shard 1: the build directory outside the checkout, by absolute path
	cd "$P/deep/er/s1" || exit 1
	run "$CUGEN" setup -B "$P/out/a" -D cuda.archs="75 80" -D cuda.flags="$fl" --archs 75
	build "$P/out/a" shard >/dev/null
	# shard 2: two levels down in its checkout
	cd "$P/s2" || exit 1
	run "$CUGEN" setup -B b/x -D cuda.archs="75 80" -D cuda.flags="$fl" --archs 80
	build b/x shard >/dev/null
	# the combining build beside its checkout, by relative path
	cd "$P/c" || exit 1
	run "$CUGEN" setup -B ../cb -D cuda.archs="75 80" -D cuda.flags="$fl"
	"$CUGEN" combine -B ../cb "$P/out/a/shard" ../s2/b/x/shard >out.txt 2>&1 || { cat out.txt; die "$1: combine failed"; }
	grep -q "combine: 2 images (sm_75 sm_80) from 2 shards checked" out.txt || { cat out.txt; die "$1: wrong summary"; }
	same_images "$P/single/build/saxpy" ../cb/saxpy "$1: combined from shards placed anywhere vs single-machine"
	# the GPUs each shard's images and the program run on (cuda-arch for a conda package)
	grep -qx 'cuda_arch=cuda-arch >=7.5,<8.0' "$P/out/a/shard/manifest.ini" || die "$1: shard 75's cuda_arch"
	grep -qx 'compute_capability=8.0+' ../s2/b/x/shard/manifest.ini || die "$1: shard 80's compute_capability"
	"$CUGEN" inspect --cuda-arch ../cb/saxpy | grep -qx '../cb/saxpy: runs on 7.5+ (cuda-arch >=7.5)' ||
		{ "$CUGEN" inspect --cuda-arch ../cb/saxpy; die "$1: inspect --cuda-arch"; }
}
place_round lineinfo "-O3 -lineinfo"
place_round debug "-G"
"$CUGEN" inspect ../cb/saxpy | grep -q 'elf sm_80 .*\[debug\]' || die "-G: no debug sm_80 image"

note "an include directory beside the project (a repository's shared one)"
# the commands name it from the build directory, so checkouts in other
# places combine (it was an absolute -I, different in each)
for d in r1 r2 r3; do
	copy_example saxpy "$WORK/$d/repo/proj"
	mkdir -p "$WORK/$d/repo/common"
	echo '#define SAXPY_SCALE 2.0f' >"$WORK/$d/repo/common/extra.h"
	sed -i '1i #include "extra.h"' "$WORK/$d/repo/proj/saxpy.cu"
	printf 'private_include = ../common\n' >>"$WORK/$d/repo/proj/cugen.ini"
done
cd "$WORK/r1/repo/proj" && run "$CUGEN" setup -B build -D cuda.archs="75 80" --archs 75 && build build shard >/dev/null
cd "$WORK/r2/repo/proj" && run "$CUGEN" setup -B build -D cuda.archs="75 80" --archs 80 && build build shard >/dev/null
grep -q -- '-I\.\./\.\./common' build/build.ninja || die "the directory beside the project is not named from the build directory"
cd "$WORK/r3/repo/proj" || exit 1
run "$CUGEN" setup -B single -D cuda.archs="75 80"
build single >/dev/null
run "$CUGEN" setup -B build -D cuda.archs="75 80"
"$CUGEN" combine -B build "$WORK/r1/repo/proj/build/shard" "$WORK/r2/repo/proj/build/shard" >out.txt 2>&1 ||
	{ cat out.txt; die "shards with an include directory beside the project did not combine"; }
cmp -s single/saxpy build/saxpy || die "combined with a directory beside the project: saxpy differs from the single build's"

note "a shard built otherwise: the first difference, both sides"
P=$WORK/place-lineinfo
cd "$P/c" || exit 1
run "$CUGEN" setup -B ../cd -D cuda.archs="75 80" -D cuda.flags="-O3 -lineinfo -DEXTRA=1"
refuse_in ../cd "saxpy.cu (sm_75) was built with no '-D EXTRA=1', which this build has" "$P/out/a/shard" ../s2/b/x/shard
run "$CUGEN" setup -B ../cd -D cuda.archs="75 80" -D cuda.flags="-O2 -lineinfo"
refuse_in ../cd "was built with '-O3' where this build has '-O2'" "$P/out/a/shard" ../s2/b/x/shard

note "the arch set, both ways"
# this build's set smaller than the shards' (a [profile ci] archs = 80 on one side only)
run "$CUGEN" setup -B ../c80 -D cuda.archs=80 -D cuda.flags="-O3 -lineinfo"
refuse_in ../c80 "was built with the arch set '75 80', this build has '80'" "$P/out/a/shard" ../s2/b/x/shard
# a combining build of a part of the set
run "$CUGEN" setup -B ../csub -D cuda.archs="75 80" -D cuda.flags="-O3 -lineinfo" --archs 80
refuse_in ../csub "was set up with --archs 80, a part of its arch set" ../s2/b/x/shard
# a shard holding an image this build does not make
cp -R ../s2/b/x/shard "$WORK/extra"
printf '\n[obj/saxpy/saxpy.cu.p/sm_90.cubin]\narch=sm_90\nrule=x\n' >>"$WORK/extra/manifest.ini"
refuse_in ../cb "holds image 'obj/saxpy/saxpy.cu.p/sm_90.cubin' (sm_90), which this build does not make" \
	"$P/out/a/shard" "$WORK/extra"
# and a missing arch, as before
refuse_in ../cb "no shard has image 'obj/saxpy/saxpy.cu.p/sm_75.cubin' (sm_75)" ../s2/b/x/shard

note "module_id = absolute: shards combine only into the build they were made in"
# (the images hold the checkout's and the build directory's paths: at
# another depth a header's __FILE__ differs, and the images with it)
copy_example saxpy "$WORK/abs"
cd "$WORK/abs" || exit 1
run "$CUGEN" setup -B b1 -D cuda.archs="75 80" -D cuda.module_id=absolute --archs 75
build b1 shard >/dev/null
run "$CUGEN" setup -B b2 -D cuda.archs="75 80" -D cuda.module_id=absolute --archs 80
build b2 shard >/dev/null
run "$CUGEN" setup -B x/y/c -D cuda.archs="75 80" -D cuda.module_id=absolute
refuse_in x/y/c "shard '$WORK/abs/b1/shard' was built from '$WORK/abs' in '$WORK/abs/b1', this build is '$WORK/abs' in '$WORK/abs/x/y/c': with module_id = absolute" \
	b1/shard b2/shard
# the build they were made in takes them back
run "$CUGEN" setup -B b1 -D cuda.archs="75 80" -D cuda.module_id=absolute
"$CUGEN" combine -B b1 b1/shard b2/shard >out.txt 2>&1 && { cat out.txt; die "b2's shard was taken by b1"; }
grep -q "shard '$WORK/abs/b2/shard' was built from '$WORK/abs' in '$WORK/abs/b2'" out.txt || { cat out.txt; die "wrong message"; }

note "rdc: device links on the combine machine"
shard_round rdc rdc_app

echo ok
