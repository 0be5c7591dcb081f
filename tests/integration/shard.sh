# Sharding by architecture: examples/multi (and examples/rdc) built on one
# machine, and as two shards in two other checkouts (different paths)
# combined in a third: the combined binaries' images are byte-identical to
# the single build's. A shard of altered sources, a missing arch, an arch
# in two shards and a corrupt image are all refused; combining twice does
# nothing the second time. cugen ci writes valid workflows.
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
refuse "lib/arch.cu (sm_80) was built from another '../lib/arch.cu' than this checkout's" ../c1/build/shard ../c2/build/shard
sed -i '$d' ../c2/lib/arch.cu
(cd ../c2 && "$NINJA" -C build shard >/dev/null) || die "shard rebuild failed"
printf x >>../c1/build/shard/images/obj/multi/lib/scan.cu.p/sm_75.cubin
refuse "image 'obj/multi/lib/scan.cu.p/sm_75.cubin' is corrupt" ../c1/build/shard ../c2/build/shard
refuse "no readable manifest.ini" ../c1/build ../c2/build/shard

note "rdc: device links on the combine machine"
shard_round rdc rdc_app

note "cugen ci: one job per shard, the archs balanced, a combine job"
cd "$WORK/multi/single" || exit 1
command -v python3 >/dev/null || skip "no python3 to parse YAML"
python3 -c 'import yaml' 2>/dev/null || skip "no python3-yaml"
run "$CUGEN" ci --provider github --shards 2 -B build -D cuda.archs="75 80 90" -o gh.yml
run "$CUGEN" ci --provider gitlab --shards 3 -D cuda.archs="75 80 90" -o gl.yml
python3 - gh.yml gl.yml <<'PY' || die "the workflows are wrong"
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
jobs = gh["jobs"]
assert set(jobs) == {"shard-1", "shard-2", "combine"}, jobs
archs = []
for j in ("shard-1", "shard-2"):
    run = [s["run"] for s in jobs[j]["steps"] if "run" in s]
    setup = [r for r in run if r.startswith("cugen setup")][0]
    archs += setup.split('--archs "')[1].rstrip('"').split()
    assert "ninja -C build shard" in run
assert sorted(archs) == ["75", "80", "90"], archs
assert jobs["combine"]["needs"] == ["shard-1", "shard-2"]
assert any("cugen combine" in s.get("run", "") for s in jobs["combine"]["steps"])
gl = yaml.safe_load(open(sys.argv[2]))
shards = [k for k in gl if k.startswith("shard-")]
assert len(shards) == 3, shards
got = sorted(a for k in shards for a in gl[k]["script"][0].split('--archs "')[1].rstrip('"').split())
assert got == ["75", "80", "90"], got
assert gl["combine"]["stage"] == "combine"
PY
echo ok
