# interrupt.sh -- builds killed at random moments resume to the result of
# a clean build.
#
# A small project (two CUDA TUs, a C++ TU, a static library and an
# executable, archs 75 and 80) is built once for reference. Then, for each
# round, a build is started and killed with SIGKILL at a random moment
# (once or twice), then ninja runs to completion; the library and the
# executable must equal the reference byte for byte (and list the same GPU
# images: cugen inspect), and a further `ninja -n` must have no work to do.
#
# Rounds differ in where the build starts and in what dies:
#   start: clean  (an empty build directory, fresh from `cugen setup`)
#          header (a complete build, then a header every TU includes is
#                  touched: every compile reruns over finished outputs)
#          clean-outputs (a complete build, then its objects, library and
#                  executable deleted, as `ninja -t clean` does: ninja's
#                  log still holds their entries)
#   kill:  group  (ninja's process group, as `kill -9 -PGID`: ninja puts
#                  each command in a process group of its own, so the
#                  commands it started run on as orphans; the next ninja
#                  starts only when they have finished; with
#                  INTERRUPT_NO_WAIT=1 it starts at once and races them
#                  over each TU's fixed intermediate names, a known
#                  problem: see tests/FUZZING.md)
#          session (every process of the build, as when a CI job or the
#                  machine dies)
#
# INTERRUPT_ROUNDS (default 10) and INTERRUPT_SEED (default: the time)
# repeat a run; the seed is printed.
. "$(dirname "$0")/../integration/lib.sh"
need_cuda
command -v setsid >/dev/null 2>&1 || skip "no setsid"

rounds=${INTERRUPT_ROUNDS:-10}
seed=${INTERRUPT_SEED:-$(date +%s)}
note "seed $seed, $rounds rounds"

small_project "$WORK/p" "75 80"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B ref
t0=$(date +%s)
build ref >/dev/null
clean_secs=$(( $(date +%s) - t0 ))
[ "$clean_secs" -ge 1 ] || clean_secs=1
note "clean build: ${clean_secs}s"

# a random number in [0, 1) for round $1, draw $2
awk -v s="$seed" 'BEGIN { srand(s % 2147483647); for (i = 0; i < 1000; i++) printf "%.4f\n", rand() }' >"$WORK/random"
rnd() { sed -n "$(( $1 * 3 + $2 + 1 ))p" "$WORK/random"; }

# the processes of session $1 (pid of its leader), by id

# start ninja in a session of its own, kill it after $1 seconds ($2: group
# or session); returns when everything of that build has exited
killed_build() {
	setsid "$NINJA" -C b >"$WORK/killed.log" 2>&1 &
	pid=$!
	sleep "$1"
	if [ "$2" = session ]; then
		kill -KILL $(session_pids "$pid") 2>/dev/null
	else
		kill -KILL -"$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	[ -n "${INTERRUPT_NO_WAIT:-}" ] && return
	# orphans of a group kill finish their commands
	wait_for 600 /dev/null "processes of the killed build still running after 60s" session_ended "$pid"
}

i=1
while [ $i -le "$rounds" ]; do
	case $((i % 3)) in
	1) start=clean ;;
	2) start=header ;;
	0) start=clean-outputs ;;
	esac
	how=group
	[ $((i % 2)) = 0 ] && how=session
	kills=1
	[ "$(rnd $i 0 | cut -c3)" -lt 3 ] && kills=2
	note "round $i: start $start, kill $how x$kills"
	case $start in
	clean)
		rm -rf b
		run "$CUGEN" setup -B b
		;;
	header)
		[ -f b/build.ninja ] || run "$CUGEN" setup -B b
		build b >/dev/null
		sleep 1
		touch inc/common.h
		;;
	clean-outputs)
		[ -f b/build.ninja ] || run "$CUGEN" setup -B b
		build b >/dev/null
		rm -f b/app b/libk.a b/obj/app/src/*.o b/obj/k/src/*.o b/obj/k/src/*.p/*.cubin \
			b/obj/k/src/*.p/*.ptx b/obj/k/src/*.p/host.o b/obj/k/src/*.p/fe.cpp
		;;
	esac
	k=1
	while [ $k -le $kills ]; do
		at=$(awk -v r="$(rnd $i $k)" -v t="$clean_secs" 'BEGIN { printf "%.2f", 0.05 + r * t }')
		note "  kill after ${at}s"
		killed_build "$at" $how
		k=$((k + 1))
	done
	build b >/dev/null
	cmp -s ref/libk.a b/libk.a || { same_images ref/libk.a b/libk.a "round $i"; die "round $i: libk.a differs from the clean build (same images)"; }
	cmp -s ref/app b/app || { same_images ref/app b/app "round $i"; die "round $i: app differs from the clean build (same images)"; }
	same_images ref/libk.a b/libk.a "round $i"
	NINJA_STATUS='@@ ' "$NINJA" -C b -n >"$WORK/noop.log" 2>&1
	grep -q 'no work to do' "$WORK/noop.log" || { cat "$WORK/noop.log"; die "round $i: work left after a complete build"; }
	i=$((i + 1))
done
echo ok
