# The files setup writes (through temporaries renamed into place) get the
# mode a plain create would under the user's umask, not a fixed 0644.
. "$(dirname "$0")/lib.sh"
need_cuda
copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
for m in 022:644 027:640 077:600; do
	mask=${m%:*} want=${m#*:}
	rm -rf b
	(umask "$mask" && "$CUGEN" setup -B b >"$WORK/run.log" 2>&1) || { cat "$WORK/run.log"; die "setup failed"; }
	for f in b/build.ninja b/compile_commands.json b/.cugen/probe.ini; do
		got=$(stat -c %a "$f")
		[ "$got" = "$want" ] || die "umask $mask: $f has mode $got, want $want"
	done
done
echo ok
