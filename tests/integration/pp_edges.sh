# Device preprocesses as their own edges (the planner's pp edges), and
# cicc and ptxas as edges of their own (ptxas edges): on a
# machine with more cores than front ends (a profile of 6 jobs, 4 CUDA
# TUs) the planner runs each device view's gcc -E beside the front ends,
# and cicc apart from ptxas; on one core it does neither. Both builds give the same images; a no-op
# does nothing; a device-only header edit reruns that TU's preprocesses
# and device compiles only; a re-setup with the measurements of the
# build keeps the choice (.cugen/plan.ini) and rebuilds nothing; the
# shard manifest hashes the same rule either way. With 16 jobs the host
# stub comes from a syntax-only cicc, which reads the stub arch's pp
# output instead of preprocessing again; its stubs are the device
# edges' stubs (the one-job build's), byte for byte, and a device-only
# header edit that leaves a stub as it was does not recompile the host
# side.
. "$(dirname "$0")/lib.sh"
need_cuda
multi_project
add_profile wide 6
add_profile one 1
add_profile big 16
edges() { # builddir profile kind -> count
	"$CUGEN" plan -B "$1" --profile "$2" --json >"$WORK/plan.json" || die "cugen plan failed"
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["edges"].get(sys.argv[2], 0))' \
		"$WORK/plan.json" "$3"
}

note "6 jobs: pp edges, one per TU per arch; one job: none"
run "$CUGEN" setup -B pp --profile wide
[ "$(edges pp wide dev-pp)" = 12 ] || { cat "$WORK/plan.json"; die "6 jobs: not 12 pp edges (4 TUs x 3 archs)"; }
"$CUGEN" plan -B pp --profile wide | grep -q 'device preprocesses as their own edges' ||
	die "cugen plan does not say why"
grep -q '^build obj/multi/lib/arch.cu.p/80.ii: cuda_pp_80 ' pp/build.ninja || die "no pp edge for arch.cu sm_80"
run "$CUGEN" setup -B one --profile one
[ "$(edges one one dev-pp)" = 0 ] || die "one job: pp edges"
grep -q 'cuda_pp_' one/build.ninja && die "one job: a pp rule in build.ninja"

note "pp_edges = no and syntax_stub = no leave those out, and the regeneration keeps them"
run "$CUGEN" setup -B nopp --profile big -D profile.big.pp_edges=no -D profile.big.syntax_stub=no
[ "$(edges nopp big dev-pp)" = 0 ] || die "pp_edges = no: pp edges"
grep -q 'cuda_stub_syntax' nopp/build.ninja && die "syntax_stub = no: a syntax-only stub"
"$CUGEN" plan -B nopp --profile big | grep -q 'device preprocesses as their own edges\|syntax-only' &&
	die "cugen plan weighs what the profile left out"
grep -q 'pp_edges=no' nopp/.cugen/args.ini && grep -q 'syntax_stub=no' nopp/.cugen/args.ini ||
	die "the kept -D's forget pp_edges and syntax_stub"
"$CUGEN" setup -d no-pp-edges -B nopp >out.txt 2>&1 && die "-d no-pp-edges (a mode that changed the graph) accepted"
grep -q 'it is the profile key pp_edges = no now' out.txt || { cat out.txt; die "-d no-pp-edges: no pointer to pp_edges"; }

note "6 jobs: ptxas edges, after a cicc edge each; one job: none"
[ "$(edges pp wide dev-cicc)" = 12 ] || { cat "$WORK/plan.json"; die "6 jobs: not 12 cicc edges"; }
"$CUGEN" plan -B pp --profile wide | grep -q '^  cicc and ptxas as edges of their own' || die "cugen plan does not say why"
grep -q '^build obj/multi/lib/arch.cu.p/sm_80.cubin: cuda_ptxas_80 obj/multi/lib/arch.cu.p/compute_80.ptx$' pp/build.ninja ||
	die "no ptxas edge reading arch.cu's sm_80 PTX"
grep -q '^build obj/multi/lib/arch.cu.p/compute_80.ptx: cuda_cicc_80 ../lib/arch.cu | obj/multi/lib/arch.cu.p/80.ii obj/multi/lib/arch.cu.p/fe.cpp$' pp/build.ninja ||
	die "no cicc edge for arch.cu's sm_80"
sed -n '/^rule cuda_ptxas_80$/,/^$/p' pp/build.ninja | grep -q -e 'cicc' -e ' -E ' && die "the ptxas rule runs more than ptxas"
sed -n '/^rule cuda_cicc_80$/,/^$/p' pp/build.ninja | grep -q '/ptxas ' && die "the cicc rule runs ptxas"
[ "$(edges one one dev-cicc)" = 0 ] || die "one job: cicc edges"

note "the same images either way"
build pp >/dev/null
build one >/dev/null
for tu in arch scan symbols transform; do
	same_images "pp/obj/multi/lib/$tu.cu.o" "one/obj/multi/lib/$tu.cu.o" "$tu.cu"
done
same_images pp/multi_app one/multi_app multi_app

note "16 jobs: the syntax-only stub reads the pp edge's device view"
run "$CUGEN" setup -B big --profile big
grep -q '^build obj/multi/lib/arch.cu.p/stub.c: cuda_stub_syntax ../lib/arch.cu | obj/multi/lib/arch.cu.p/fe.cpp obj/multi/lib/arch.cu.p/75.ii$' big/build.ninja ||
	{ grep -n 'stub.c:' big/build.ninja; die "16 jobs: the stub edge does not read the sm_75 pp output"; }
sed -n '/^rule cuda_stub_syntax/,/^$/p' big/build.ninja | grep -q ' -E ' && die "the stub rule preprocesses again"
stubs=$(sed -n 's/^build \([^:]*stub\.c\): .*/\1/p' big/build.ninja)
[ "$(echo "$stubs" | wc -l)" = 4 ] || die "not 4 stub edges: $stubs"
build big $stubs >/dev/null
for st in $stubs; do
	cmp "big/$st" "one/$st" || die "$st: the syntax-only stub differs from the device edge's"
done
build big >/dev/null

note "no-op"
ran=$(build pp)
[ -z "$ran" ] || die "no-op build ran: $ran"

note "a device-only header: that TU's preprocesses and device compiles"
sleep 1
sed -i 's/MULTI_DEVICE_ONLY_MAGIC 0x5eed0001u/MULTI_DEVICE_ONLY_MAGIC 0x5eed0002u/' include/multi/device_only.cuh
ran=$(build pp)
echo "$ran" | grep -q '^CUDA pp 80 obj/multi/lib/arch.cu.p/80.ii$' || { echo "$ran"; die "arch.cu's sm_80 view not preprocessed again"; }
echo "$ran" | grep -q '^CUDA cicc 80 obj/multi/lib/arch.cu.p/compute_80.ptx$' || { echo "$ran"; die "arch.cu's sm_80 cicc edge did not run"; }
echo "$ran" | grep -q '^CUDA sm_80 obj/multi/lib/arch.cu.p/sm_80.cubin$' || { echo "$ran"; die "arch.cu's sm_80 image not rebuilt"; }
echo "$ran" | grep -q 'scan.cu.p/' && { echo "$ran"; die "scan.cu rebuilt for a header it does not include"; }
echo "$ran" | grep -q 'arch.cu.p/host.o' && { echo "$ran"; die "the host compile ran for a device-only header"; }
"$NINJA" -C pp -t deps obj/multi/lib/arch.cu.p/80.ii | grep -q 'multi/device_only.cuh' ||
	die "the pp edge does not record device_only.cuh"
build one >/dev/null
same_images pp/obj/multi/lib/arch.cu.o one/obj/multi/lib/arch.cu.o "arch.cu after the edit"
# the syntax-only stub comes out the same (restat): no host compile
ran=$(build big)
echo "$ran" | grep -q '^CUDA stub obj/multi/lib/arch.cu.p/stub.c$' || { echo "$ran"; die "16 jobs: arch.cu's stub not made again"; }
echo "$ran" | grep -q 'arch.cu.p/host.o' && { echo "$ran"; die "16 jobs: the host compile ran for a device-only header"; }
ran=$(build big)
[ -z "$ran" ] || die "16 jobs: the build after the edit ran: $ran"

note "a re-setup with the build's measurements keeps the choice and rebuilds nothing"
grep -q '^pp_edges=true$' pp/.cugen/plan.ini || die "plan.ini does not record the pp edges"
run "$CUGEN" setup -B pp --profile wide
[ "$(edges pp wide dev-pp)" = 12 ] || die "the re-setup dropped the pp edges"
ran=$(build pp)
[ -z "$ran" ] || die "re-setup made ninja rebuild: $ran"

note "the shard manifest's rule hash does not depend on the split"
build pp shard/manifest.ini >/dev/null
build one shard/manifest.ini >/dev/null
h1=$(sed -n '/^\[obj\/multi\/lib\/arch.cu.p\/sm_80.cubin\]/,/^\[/s/^rule=//p' pp/shard/manifest.ini)
h2=$(sed -n '/^\[obj\/multi\/lib\/arch.cu.p\/sm_80.cubin\]/,/^\[/s/^rule=//p' one/shard/manifest.ini)
[ -n "$h1" ] && [ "$h1" = "$h2" ] || die "rule hashes differ: '$h1' '$h2'"
echo ok
