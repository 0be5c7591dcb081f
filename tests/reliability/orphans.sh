# orphans.sh -- when ninja dies, the steps it started stop.
#
# ninja runs each command in a process group of its own, so `kill -9` of
# ninja leaves its jobs running, and their late outputs race the next
# build's (tests/FUZZING.md). cugen exec, which runs every compile step,
# watches the ninja above it and stops its step when ninja dies. Here a
# compiler launcher ([toolchain] launcher, run by cugen exec) stands for
# a long compile: it sleeps 30 s before each host compile. The build is
# stopped while a step sleeps:
#   kill  SIGKILL to ninja alone: within 5 s no process of the build may
#         be left (before cugen exec watched ninja, the sleep ran on);
#   int   SIGINT to ninja's process group, as ^C in a terminal: ninja
#         signals its jobs' groups, and cugen exec passes the signal on
#         to its step, which runs in a group of its own.
# Each time, a build without the slow launcher must then finish, and a
# further ninja have nothing to do.
. "$(dirname "$0")/../integration/lib.sh"
need_cuda
command -v setsid >/dev/null 2>&1 || skip "no setsid"
[ -d /proc/self ] || skip "no /proc"

small_project "$WORK/p" "80"
cd "$WORK/p" || exit 1
cat >"$WORK/slow" <<EOF
#!/bin/sh
if [ -f "$WORK/slow.on" ]; then
	: >"$WORK/slow.started"
	sleep 30
fi
exec "\$@"
EOF
chmod +x "$WORK/slow"

for how in kill int; do
	note "a build stopped by $how while a step runs"
	rm -rf b "$WORK/slow.started"
	: >"$WORK/slow.on"
	run "$CUGEN" setup -B b -D toolchain.launcher="$WORK/slow"
	setsid "$NINJA" -C b >"$WORK/stopped.log" 2>&1 &
	pid=$!
	wait_for 600 "$WORK/stopped.log" "no step reached the launcher" test -f "$WORK/slow.started"
	if [ $how = kill ]; then
		kill -KILL "$pid"
	else
		kill -INT -"$pid"
	fi
	wait "$pid" 2>/dev/null
	n=0
	until session_ended "$pid"; do
		n=$((n + 1))
		if [ $n -gt 50 ]; then
			ps -o pid,pgid,args -s "$pid"
			die "$how: processes of the stopped build still run 5 s after ninja ended"
		fi
		sleep 0.1
	done
	rm -f "$WORK/slow.on"
	run "$CUGEN" setup -B b
	build b >/dev/null
	[ -x b/app ] || die "$how: no app after the build that followed"
	NINJA_STATUS='@@ ' "$NINJA" -C b -n >"$WORK/noop.log" 2>&1
	grep -q 'no work to do' "$WORK/noop.log" || { cat "$WORK/noop.log"; die "$how: work left after a complete build"; }
done
echo ok
