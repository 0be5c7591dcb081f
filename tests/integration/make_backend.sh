# --backend make: examples/multi built by GNU make -j2 from cugen's
# Makefile gives the same images as the ninja build, the same steps ran
# for the same outputs (cugen exec logs every step of both), header
# changes are seen, a changed command remakes its outputs (ninja's log of
# commands, as .cugen/cmd records), a second make does nothing, the pools hold (cugen
# slot), and paths make cannot express are refused clearly.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v make >/dev/null || skip "no make"

copy_example multi "$WORK/p"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B bn -D cuda.archs="75 80"
build bn >/dev/null
run "$CUGEN" setup -B bm -D cuda.archs="75 80" --backend make
[ -f bm/Makefile ] || die "no Makefile"
[ -f bm/build.ninja ] && die "the make backend wrote build.ninja"
make -C bm -j2 >make.log 2>&1 || { tail -30 make.log; die "make failed"; }

note "same images"
same_images bn/multi_app bm/multi_app "multi_app (make vs ninja)"
for cu in lib/*.cu; do
	o="obj/multi/$cu.o"
	same_images "bn/$o" "bm/$o" "$o (make vs ninja)"
done

note "same steps for the same outputs"
cut -f1,2 bn/.cugen/edges.log | sort >steps.ninja
cut -f1,2 bm/.cugen/edges.log | sort >steps.make
[ -s steps.ninja ] || die "no steps logged"
diff steps.ninja steps.make || die "make and ninja ran different steps"

note "a second make does nothing; a header edit rebuilds its users"
make -C bm -j2 >make2.log 2>&1 || die "second make failed"
grep -q '^CUDA\|^CXX\|^LINK\|^AR' make2.log && { cat make2.log; die "the second make did work"; }
sleep 1
sed -i 's/MULTI_DEVICE_ONLY_MAGIC 0x5eed0001u/MULTI_DEVICE_ONLY_MAGIC 0x5eed0002u/' include/multi/device_only.cuh
make -C bm -j2 >make3.log 2>&1 || { tail make3.log; die "make after the header edit failed"; }
grep -q '^CUDA sm_80 obj/multi/lib/arch.cu.p/sm_80.cubin' make3.log || { cat make3.log; die "device-only header change not seen"; }
grep -q 'scan.cu.p/sm_80' make3.log && die "scan.cu rebuilt for a header it does not include"
# the stub came out the same (a restat edge: a stamp rule under make), so
# the host side stays, and the make after it has nothing to do
grep -q 'arch.cu.p/host.o' make3.log && { cat make3.log; die "the host compile ran for a device-only header"; }
make -C bm -j2 >make4.log 2>&1 || die "fourth make failed"
grep -q '^CUDA\|^CXX\|^LINK\|^AR' make4.log && { cat make4.log; die "the make after the header edit did work"; }
rm bm/obj/multi/lib/scan.cu.p/stub.c
make -C bm -j2 >make5.log 2>&1 || die "make after removing a stub failed"
grep -q '^CUDA stub obj/multi/lib/scan.cu.p/stub.c$' make5.log || { cat make5.log; die "a removed stub was not made again"; }
[ -f bm/obj/multi/lib/scan.cu.p/stub.c ] || die "the stub is still missing"

note "a changed command remakes its outputs, as ninja does; then nothing more"
# (a define of one target's TUs: only that target's commands change)
run "$CUGEN" setup -B bm -D cuda.archs="75 80" --backend make -D 'target.multi_app.defines=MULTI_APP_FLAG=1'
make -C bm -j2 >make6.log 2>&1 || { tail make6.log; die "make after a changed define failed"; }
grep -q '^CXX .*app/main.cpp' make6.log || { cat make6.log; die "the changed define did not recompile main.cpp"; }
grep -q 'obj/multi/lib/' make6.log && { cat make6.log; die "the library was rebuilt for another target's define"; }
make -C bm -j2 >make7.log 2>&1 || die "make after that failed"
grep -q '^CUDA\|^CXX\|^LINK\|^AR' make7.log && { cat make7.log; die "the make after the changed command did work"; }

note "the pools hold under make -j8 (cugen slot)"
# device compiles run in pool device, or in pool compile with the host
# compiles when memory allows a compile on every core (plan.c)
pool=$(sed -n 's/^CUGEN_POOL_\(device\|compile\) = 2$/\1/p' bm/Makefile)
[ -n "$pool" ] || die "no device (or compile) pool of depth 2"
make -C bm clean >/dev/null
: >bm/.cugen/edges.log
make -C bm -j8 >make4.log 2>&1 || { tail make4.log; die "make -j8 failed"; }
# at no time more than 2 cicc ran: the log lines of cicc with start times
# are not kept, so check the slot lock files exist and were used
[ -f "bm/.cugen/slots/$pool/0" ] && [ -f "bm/.cugen/slots/$pool/1" ] || die "no $pool slots used"
[ -f "bm/.cugen/slots/$pool/2" ] && die "a third $pool slot"

note "paths make cannot express are refused"
printf '__global__ void odd(int *p) { *p = 1; }\n' >"lib/odd name.cu"
rm -rf bm2
if "$CUGEN" setup -B bm2 --backend make >out.txt 2>&1; then die "a path with a space was accepted"; fi
grep -q "path '../lib/odd name.cu' cannot be written in a Makefile" out.txt || { cat out.txt; die "wrong message"; }
[ "$(wc -l <out.txt)" -eq 1 ] || { cat out.txt; die "more than one line"; }
[ -e bm2 ] && die "the refused setup created the build directory"
run "$CUGEN" setup -B bn2
echo ok
