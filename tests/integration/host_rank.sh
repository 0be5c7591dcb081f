# Stamp edges after the host compiles (the planner's host_rank): ninja
# 1.12 and later start the ready edge with the most edges after it
# first, so without them every ready cicc edge starts before a host
# compile. With a ninja of 1.12 or later on PATH (a wrapper that says
# 1.13.0 and runs the real one), 4 jobs and a last build whose host
# compiles were long (an edges.log the test writes: 30 s host compiles,
# 12 s cicc runs; the example's own TUs are guessed light, and stamps
# would not pay), the planner adds two stamp edges after each host
# compile, the last an order-only input of the TU's fatbin edge, and
# says why; cugen plan --json and .cugen/plan.ini
# say so. With the real ninja (1.11 on Debian 12: file order),
# host_rank = no, the make backend, 2 jobs, or split_compile = 0
# before anything is measured (no tail split to take): none. The build
# with them gives the same objects and program, byte for byte, as the
# build without; a no-op does nothing; a re-setup with the measurements
# keeps the plan's choice or drops it without rebuilding anything but
# stamps.
. "$(dirname "$0")/lib.sh"
need_cuda
multi_project
add_profile four 4
add_profile two 2
add_profile nosplit 4 split_compile=0
ninja13=$(ninja_saying 1.13.0)
new_ninja() { PATH="$ninja13:$PATH" "$@"; }
real_version=$("$NINJA" --version)
rank_lines() { grep -c '^build [^:]*: cugen_rank ' "$1" || true; }
# the last build's measurements in build directory $1: long host compiles
long_hosts() {
	mkdir -p "$1/.cugen"
	for tu in arch scan symbols transform; do
		printf 'obj/multi/lib/%s.cu.p/host.o\tgcc\t500000\t30\t30\n' $tu
		for a in 75 80 90; do
			printf 'obj/multi/lib/%s.cu.p/compute_%s.ptx\tcicc\t900000\t12\t12\n' $tu $a
		done
	done >"$1/.cugen/edges.log"
}
for d in r plain off two mk; do long_hosts $d; done

note "ninja 1.13 on PATH, 4 jobs: two stamp edges after each of the 4 host compiles"
new_ninja run "$CUGEN" setup -B r --profile four
[ "$(rank_lines r/build.ninja)" = 8 ] || { grep -n rank r/build.ninja; die "not 8 stamp edges"; }
grep -q '^build obj/multi/lib/scan.cu.p/host.rank1: cugen_rank obj/multi/lib/scan.cu.p/host.o$' r/build.ninja ||
	die "no first stamp after scan.cu's host compile"
grep -q '^build obj/multi/lib/scan.cu.p/host.rank2: cugen_rank obj/multi/lib/scan.cu.p/host.rank1$' r/build.ninja ||
	die "no second stamp after the first"
grep '^build obj/multi/lib/scan.cu.o: cuda_fatbin ' r/build.ninja | grep -q ' || obj/multi/lib/scan.cu.p/host.rank2$' ||
	die "the fatbin edge does not wait for the stamps (order-only)"
sed -n '/^rule cugen_rank$/,/^$/p' r/build.ninja | grep -q '^  command = touch \${out}$' || die "the stamp rule is not a touch"
new_ninja "$CUGEN" plan -B r --profile four | grep -q "^  host compiles ranked ahead in ninja's order (two stamp edges after each)" ||
	die "cugen plan does not say why"
new_ninja "$CUGEN" plan -B r --profile four --json | python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["host_rank"] is True else 1)' || die "cugen plan --json: host_rank not true"
grep -q '^host_rank=true$' r/.cugen/plan.ini || die ".cugen/plan.ini does not keep the choice"

note "the real ninja ($real_version), host_rank = no, 2 jobs, split_compile = 0, the make backend"
case $real_version in
1.[0-9].* | 1.1[01].*)
	run "$CUGEN" setup -B plain --profile four
	[ "$(rank_lines plain/build.ninja)" = 0 ] || die "stamp edges for ninja $real_version (file order)"
	grep -q '^host_rank=' plain/.cugen/plan.ini && die "plan.ini weighs host_rank for ninja $real_version"
	;;
*)
	# a ninja that ranks by depth: the real one gets the stamps as the wrapper did
	run "$CUGEN" setup -B plain --profile four
	[ "$(rank_lines plain/build.ninja)" = 8 ] || die "ninja $real_version (depth first): not 8 stamp edges"
	grep -q '^host_rank=true$' plain/.cugen/plan.ini || die "ninja $real_version: plan.ini does not keep host_rank"
	;;
esac
new_ninja run "$CUGEN" setup -B off --profile four -D profile.four.host_rank=no
[ "$(rank_lines off/build.ninja)" = 0 ] || die "host_rank = no: stamp edges"
grep -q 'host_rank=no' off/.cugen/args.ini || die "host_rank = no: the kept -D's forget it"
new_ninja run "$CUGEN" setup -B two --profile two
[ "$(rank_lines two/build.ninja)" = 0 ] || die "2 jobs: stamp edges"
new_ninja run "$CUGEN" setup -B nosplit --profile nosplit
[ "$(rank_lines nosplit/build.ninja)" = 0 ] || die "split_compile = 0, nothing measured: stamp edges"
new_ninja run "$CUGEN" setup -B mk --profile four --backend make
grep -q -e "cugen_rank" -e "host\.rank[12]" mk/Makefile && die "the make backend has stamp edges"

note "the same objects and program with and without the stamps"
build r >/dev/null
build off >/dev/null
for f in $(cd off && find obj -name '*.o' | sort) multi_app; do
	cmp -s "r/$f" "off/$f" || die "$f differs with the stamp edges"
done
[ -f r/obj/multi/lib/scan.cu.p/host.rank2 ] || die "no stamp file"
out=$(build r)
[ -z "$out" ] || die "a no-op ran: $out"

note "a re-setup with the build's measurements rebuilds nothing but stamps"
# Every edge of the build measured, at fixed figures (the host compiles
# and cicc runs long as above, every other step 1 s): what the build's
# own seconds would say depends on the machine's load, and a choice
# weighed anew on them (the stub's source) could change with it.
python3 - r/.cugen/edges.log <<'PY' || die "cannot rewrite the measurements"
import sys
lines = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    cpu = 30 if f[0].endswith("/host.o") else 12 if f[1] == "cicc" and f[0].endswith(".ptx") else 1
    f[3] = f[4] = str(cpu)
    lines.append("\t".join(f) + "\n")
open(sys.argv[1], "w").writelines(lines)
PY
new_ninja run "$CUGEN" setup -B r --profile four
out=$(build r | grep -v '^stamp ' || true)
[ -z "$out" ] || die "after the re-setup: $out"
exit 0
