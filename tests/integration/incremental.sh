# Incremental builds: adding an arch of the pinned project set reruns only
# that arch's device edges plus fatbin/embed/archive/link; removing it
# again reruns no device edge; the other archs' images never change.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "75 80"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B build --archs 75
build build >/dev/null
sha75=$(images build/obj/k/src/a.cu.o | grep 'elf sm_75')
[ -n "$sha75" ] || die "no sm_75 image"
images build/obj/k/src/a.cu.o | grep -q 'sm_80' && die "sm_80 built although not selected"

note "add sm_80 (in the pinned set): only its device edges and the combine steps run"
run "$CUGEN" setup -B build --archs "75 80"
ran=$(build build)
echo "$ran"
echo "$ran" | grep -q '^CUDA sm_80 obj/k/src/a.cu.p/sm_80.cubin$' || die "a.cu sm_80 did not run"
echo "$ran" | grep -q '^CUDA sm_80 obj/k/src/b.cu.p/sm_80.cubin$' || die "b.cu sm_80 did not run"
# (with pp edges and ptxas edges, the planner's choices here, sm_80's
# device views and cicc runs too)
other=$(echo "$ran" | grep -v -e '^CUDA sm_80 ' -e '^CUDA pp 80 ' -e '^CUDA cicc 80 ' -e '^CUDA fatbin ' -e '^CUDA embed ' -e '^AR ' -e '^LINK ')
[ -z "$other" ] || die "unexpected edges reran: $other"
[ "$(images build/obj/k/src/a.cu.o | grep 'elf sm_75')" = "$sha75" ] || die "sm_75 image changed"

note "a profile selects the subset the same way"
cat >>cugen.ini <<'INI'
[profile only80]
archs = 80
INI
run "$CUGEN" setup -B build --profile only80
ran=$(build build)
echo "$ran" | grep -q '^CUDA sm_' && die "switching to a subset recompiled device code: $ran"
images build/obj/k/src/a.cu.o | grep -q 'sm_75' && die "sm_75 image still embedded"
images build/obj/k/src/a.cu.o | grep -q 'elf sm_80' || die "sm_80 image missing"

note "changing the project arch set rebuilds everything (documented)"
run "$CUGEN" setup -B build -D cuda.archs="75 80 90" --archs "75 80"
ran=$(build build)
echo "$ran" | grep -q '^CUDA sm_75 obj/k/src/a.cu.p/sm_75.cubin$' || die "pinned list change did not rebuild sm_75"
echo ok
