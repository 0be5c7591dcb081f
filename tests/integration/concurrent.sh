# Concurrent setups: several `cugen setup` runs at once on one new build
# directory (and its new parents), on new sibling directories, and on an
# existing build directory, round after round: none fails (creating a
# directory another run just made is not an error; a temporary another
# live run is writing is not stale), no temporary is left behind, and
# every build directory ends as one setup alone would leave it; two
# fresh setups write the same probe.ini (nvcc's temporaries named
# without its pid). The
# probe directories a killed setup left in TMPDIR are swept once their
# process is gone and they are an hour old, and no others.
. "$(dirname "$0")/lib.sh"
need_cuda
copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
errors() { # logs...: the runs that failed
	for _l in "$@"; do
		[ -s "$_l" ] && grep -v '^cugen: saxpy: ' "$_l" | grep -q . && cat "$_l"
	done
	return 0
}
consistent() { # builddir
	[ -f "$1/build.ninja" ] || die "$1 has no build.ninja"
	find "$1" -name '*.tmp.*' | grep -q . && { find "$1" -name '*.tmp.*'; die "temporaries left in $1"; }
	"$NINJA" -C "$1" -n >/dev/null 2>&1 || die "ninja cannot read $1"
	# one more setup alone finds nothing to change
	(cd "$1" && find . -type f ! -name '.ninja_*' -exec cksum {} + | sort) >"$WORK/before"
	run "$CUGEN" setup -B "$1"
	(cd "$1" && find . -type f ! -name '.ninja_*' -exec cksum {} + | sort) >"$WORK/after"
	cmp -s "$WORK/before" "$WORK/after" || { diff "$WORK/before" "$WORK/after"; die "$1 is not what one setup writes"; }
}

note "six setups at once on one new directory and its new parents, 8 rounds"
r=0
while [ $r -lt 8 ]; do
	rm -rf new
	for i in 1 2 3 4 5 6; do "$CUGEN" setup -B new/a/b >"$WORK/log.$i" 2>&1 & done
	wait
	out=$(errors "$WORK"/log.*)
	[ -z "$out" ] || { echo "$out"; die "round $r: a concurrent setup of one new directory failed"; }
	consistent new/a/b
	r=$((r + 1))
done

note "an existing directory and new siblings at once, 5 rounds"
run "$CUGEN" setup -B old
r=0
while [ $r -lt 5 ]; do
	rm -rf sib
	for i in 1 2 3 4; do
		"$CUGEN" setup -B old >"$WORK/log.$i" 2>&1 &
		"$CUGEN" setup -B sib/s$i >"$WORK/log.s$i" 2>&1 &
	done
	wait
	out=$(errors "$WORK"/log.*)
	[ -z "$out" ] || { echo "$out"; die "round $r: a concurrent setup failed"; }
	consistent old
	for i in 1 2 3 4; do consistent sib/s$i; done
	r=$((r + 1))
done

note "two setups of one directory with different options: one's files, not a mix, 10 rounds"
# (each run reads the kept options and writes build.ninja, args.ini,
# install.ini and the .pc: without a lock on the build directory, rounds
# ended with install.ini from one run and args.ini from the other)
r=0
while [ $r -lt 10 ]; do
	rm -rf torn
	"$CUGEN" setup -B torn --prefix /opt/one -D cuda.flags=-DONE >"$WORK/log.1" 2>&1 &
	"$CUGEN" setup -B torn --prefix /opt/two -D cuda.flags=-DTWO >"$WORK/log.2" 2>&1 &
	wait
	out=$(errors "$WORK"/log.1 "$WORK"/log.2)
	[ -z "$out" ] || { echo "$out"; die "round $r: a concurrent setup failed"; }
	for w in one two; do
		W=$(echo "$w" | tr a-z A-Z)
		if grep -q "/opt/$w" torn/.cugen/args.ini; then
			for f in build.ninja .cugen/install.ini; do
				grep -q "/opt/$w" "torn/$f" || die "round $r: args.ini is --prefix /opt/$w's, torn/$f is not"
			done
			grep -q -- "-D$W" torn/build.ninja || die "round $r: args.ini is -D$W's, build.ninja is not"
		fi
	done
	r=$((r + 1))
done

note "a setup waits while another process holds the build directory"
# (flock(1) holds it as a setup does; the setup must not end before the
# holder lets go, however long it is given)
if command -v flock >/dev/null 2>&1; then
	rm -f held go
	flock torn sh -c 'touch held; while [ ! -e go ]; do sleep 0.1; done' &
	holder=$!
	while [ ! -e held ]; do sleep 0.1; done
	"$CUGEN" setup -B torn --prefix /opt/three >"$WORK/log.3" 2>&1 &
	setup=$!
	t=0
	while [ $t -lt 30 ] && kill -0 $setup 2>/dev/null; do sleep 0.1; t=$((t + 1)); done
	kill -0 $setup 2>/dev/null || { cat "$WORK/log.3"; die "setup ran while another process held the build directory"; }
	touch go
	wait $holder
	wait $setup || { cat "$WORK/log.3"; die "the waiting setup failed"; }
	grep -q /opt/three torn/.cugen/install.ini || die "the waiting setup did not write"
else
	note "(no flock(1): not checked)"
fi

note "a temporary of a killed setup is still swept"
: >old/build.ninja.tmp.AbC123
run "$CUGEN" setup -B old -D cuda.flags=-O2
[ -e old/build.ninja.tmp.AbC123 ] && die "a stale temporary was left"
note "two fresh setups write the same state (no process id of nvcc's in it)"
run "$CUGEN" setup -B fresh1
run "$CUGEN" setup -B fresh2
# (the dry runs' text is one line each: its \n's split for the diff)
cmp -s fresh1/.cugen/probe.ini fresh2/.cugen/probe.ini || {
	sed 's/\\n/\n/g' fresh1/.cugen/probe.ini >"$WORK/probe1"
	sed 's/\\n/\n/g' fresh2/.cugen/probe.ini >"$WORK/probe2"
	diff "$WORK/probe1" "$WORK/probe2" | head -20
	die "two fresh setups' probe.ini differ"
}

note "probe directories of killed setups: swept when their process is gone and they are old"
T=$WORK/tmp
mkdir -p "$T/cugen-probe-999999-aaaaaa" "$T/cugen-probe-$$-bbbbbb" "$T/cugen-probe-999998-cccccc"
touch -d '2 hours ago' "$T/cugen-probe-999999-aaaaaa" "$T/cugen-probe-$$-bbbbbb"
TMPDIR=$T run "$CUGEN" setup -B sweep
[ -e "$T/cugen-probe-999999-aaaaaa" ] && die "an old probe directory of a gone process was left"
[ -d "$T/cugen-probe-$$-bbbbbb" ] || die "a live process's probe directory was removed"
[ -d "$T/cugen-probe-999998-cccccc" ] || die "a fresh probe directory was removed"
[ -z "$(find "$T" -maxdepth 1 -name "cugen-probe-*" ! -name '*-bbbbbb' ! -name '*-cccccc')" ] ||
	die "setup left a probe directory of its own"
echo ok
