# cugen setup -d explain: a re-setup says which commands it changes and
# why (a -D set or dropped, the planner's choice, an added arch), and
# changes nothing itself: the build directory after `setup -d explain`
# is the one `setup` leaves, and the regeneration edge does not keep it.
. "$(dirname "$0")/lib.sh"
need_cuda
copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
printf '\n[profile two]\njobs = 2\nmemory = 16G\n' >>cugen.ini
state() { (cd "$1" && find . -type f ! -name '.ninja_*' -exec cksum {} + | sort); }

note "nothing changed: no command changes"
run "$CUGEN" setup -B b --profile two
"$CUGEN" setup -B b --profile two -d explain >/dev/null 2>"$WORK/err" || die "setup -d explain failed"
grep -q '^cugen: explain: against b/build.ninja: 0 of [0-9]* commands change, 0 edges new, 0 gone$' "$WORK/err" ||
	{ cat "$WORK/err"; die "an unchanged setup does not say so"; }
grep -q 'regen' b/build.ninja && grep '^  *args\|regen' b/build.ninja | grep -q -- '-d explain' &&
	die "the regeneration edge keeps -d explain"

note "a -D flag: the commands that change, and how"
cp -R b "$WORK/b.orig"
run "$CUGEN" setup -B b --profile two -D cuda.flags=-O2
state b >"$WORK/without"
rm -rf b && cp -R "$WORK/b.orig" b
"$CUGEN" setup -B b --profile two -D cuda.flags=-O2 -d explain >/dev/null 2>"$WORK/err" || die "setup -d explain failed"
state b >"$WORK/with"
cmp -s "$WORK/with" "$WORK/without" || { diff "$WORK/with" "$WORK/without"; die "-d explain changed what setup writes"; }
grep -q '^cugen: explain: -D cuda.flags=-O2, set by this setup$' "$WORK/err" || { cat "$WORK/err"; die "the -D is not named"; }
grep -q 'obj/saxpy/saxpy.cu.p/fe.cpp.*: - -O3; + -O2$' "$WORK/err" || { cat "$WORK/err"; die "the changed words are not said"; }
grep -q 'obj/saxpy/main.cpp.o' "$WORK/err" && die "the C++ TU's command did not change, yet it is listed"

note "-U: the kept -D dropped"
"$CUGEN" setup -B b --profile two -U cuda.flags -d explain >/dev/null 2>"$WORK/err" || die "setup -d explain failed"
grep -q '^cugen: explain: -U cuda.flags, by this setup$' "$WORK/err" || { cat "$WORK/err"; die "-U is not named"; }
grep -q ': - -O2; + -O3$' "$WORK/err" || { cat "$WORK/err"; die "the change back is not said"; }

note "a planner's alternative left out: its choice, the edges new and gone"
"$CUGEN" setup -B b --profile two -D profile.two.ptxas_edges=no -d explain >/dev/null 2>"$WORK/err" ||
	die "setup -d explain failed"
grep -q "^cugen: explain: the planner's ptxas_edges: no, was yes" "$WORK/err" || { cat "$WORK/err"; die "the choice is not named"; }
grep -q '^cugen: explain:   gone: .*compute_80.ptx' "$WORK/err" || { cat "$WORK/err"; die "the cicc edges gone are not listed"; }

note "an arch added: new edges, and the commands that name the arch list"
"$CUGEN" setup -B b --profile two -D 'cuda.archs=80 90 100' -d explain >/dev/null 2>"$WORK/err" ||
	die "setup -d explain failed"
grep -q '^cugen: explain:   new: .*sm_100' "$WORK/err" || { cat "$WORK/err"; die "the new arch's edges are not listed"; }
grep -q -- '- -D__CUDA_ARCH_LIST__=800,900; + -D__CUDA_ARCH_LIST__=800,900,1000' "$WORK/err" ||
	{ cat "$WORK/err"; die "the arch list's change is not said"; }

note "a first setup: nothing to compare"
"$CUGEN" setup -B fresh -d explain >/dev/null 2>"$WORK/err" || die "setup -d explain failed"
grep -q '^cugen: explain: no build file of an earlier setup' "$WORK/err" || { cat "$WORK/err"; die "a first setup is not said"; }

note "the gate: the graph inside is read"
"$CUGEN" setup -B g -D project.gate=yes >/dev/null || die "setup failed"
[ -f g/.cugen/full.ninja ] || die "no gate"
"$CUGEN" setup -B g -D project.gate=yes -D cuda.flags=-O1 -d explain >/dev/null 2>"$WORK/err" || die "setup -d explain failed"
grep -q "against g/.cugen/full.ninja: [1-9][0-9]* of" "$WORK/err" || { cat "$WORK/err"; die "the gate's graph was not read"; }

note "a define that names the gate's file is not a gate"
"$CUGEN" setup -B d -D 'cuda.flags=-O3 -DNAME=.cugen/full.ninja' >/dev/null || die "setup failed"
"$CUGEN" setup -B d -D 'cuda.flags=-O3 -DNAME=.cugen/full.ninja' -d explain >/dev/null 2>"$WORK/err" || die "setup -d explain failed"
grep -q '^cugen: explain: against d/build.ninja: 0 of [0-9]* commands change' "$WORK/err" || { cat "$WORK/err"; die "a define fooled -d explain"; }
echo ok
