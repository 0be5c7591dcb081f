# [toolchain] device_launcher: every cicc and ptxas step of examples/multi
# goes through the launcher (here one that records each step and checks
# what it reads, as sccache would take them), its inputs on disk and
# declared in the graph (the device view .ii, the module id file the
# front end writes, the PTX); the images are those of a build without
# it; a shard built through it combines with one built without; a
# launcher that is not there is an error at setup.
. "$(dirname "$0")/lib.sh"
need_cuda

copy_example multi "$WORK/p"
cd "$WORK/p" || exit 1
LOG=$WORK/launched.log
cat >"$WORK/rec" <<EOF
#!/bin/sh
# the step's tool, then each input it names; MISSING where one is absent
tool=\$(basename "\$1")
ins= prev=
for a in "\$@"; do
	case \$prev in
	--module_id_file_name) ins="\$ins \$a" ;;
	-o) ;;
	*) case \$a in *.ii | *.ptx | *.ptx.tmp) ins="\$ins \$a" ;; esac ;;
	esac
	prev=\$a
done
for f in \$ins; do [ -s "\$f" ] || echo "MISSING \$tool \$f" >>"$LOG"; done
echo "\$tool\$ins" >>"$LOG"
exec "\$@"
EOF
chmod +x "$WORK/rec"

note "every cicc and ptxas step through the launcher, with its inputs"
run "$CUGEN" setup -B b -D cuda.archs="75 80" -D toolchain.device_launcher="$WORK/rec"
build b >/dev/null
[ -s "$LOG" ] || die "the launcher ran nothing"
grep MISSING "$LOG" && die "a step's input was not there when the launcher ran"
# 4 CUDA TUs x 2 archs, each one cicc and one ptxas, nothing else
[ "$(grep -c '^cicc ' "$LOG")" = 8 ] || { cat "$LOG"; die "expected 8 cicc steps"; }
[ "$(grep -c '^ptxas ' "$LOG")" = 8 ] || { cat "$LOG"; die "expected 8 ptxas steps"; }
[ "$(grep -vc '^cicc \|^ptxas ' "$LOG")" = 0 ] || { cat "$LOG"; die "the launcher ran other steps"; }
awk '/^cicc / && !(/\.ii( |$)/ && /\/id( |$)/) { print; bad = 1 } END { exit bad }' "$LOG" ||
	die "a cicc step without its .ii and module id file"
# declared: each edge that runs cicc names the module id file among its
# inputs, and the front end's edge makes it
awk '/^build .*: cuda_(cicc|dev)_/ { n++; if ($0 !~ /\/id( |:|$)/) { print; bad = 1 } }
     /^build .*: cuda_fe / { f++; if ($0 !~ /\/id( |:|$)/) { print; bad = 1 } }
     END { exit bad || n != 8 || f != 4 }' b/build.ninja || die "the module id file is not declared"
# without a launcher the graph is as it was
run "$CUGEN" setup -B ref -D cuda.archs="75 80"
grep -q '^build .*/id\( \|:\|$\)' ref/build.ninja && die "the module id file is declared without a launcher"
build ref >/dev/null
same_images ref/multi_app b/multi_app "multi: through the launcher vs without"

note "shards: through the launcher and without combine"
copy_example saxpy "$WORK/s"
cd "$WORK/s" || exit 1
run "$CUGEN" setup -B s75 -D cuda.archs="75 80" --archs 75 -D toolchain.device_launcher="$WORK/rec"
build s75 shard >/dev/null
run "$CUGEN" setup -B s80 -D cuda.archs="75 80" --archs 80
build s80 shard >/dev/null
run "$CUGEN" setup -B c -D cuda.archs="75 80"
"$CUGEN" combine -B c s75/shard s80/shard >out.txt 2>&1 || { cat out.txt; die "combine refused a launcher's shard"; }

note "a launcher that is not there"
if "$CUGEN" setup -B bad -D cuda.archs=80 -D toolchain.device_launcher=/nonexistent/sccache >err.txt 2>&1; then
	die "setup accepted a missing device launcher"
fi
grep -q "device launcher" err.txt || { cat err.txt; die "wrong message"; }
[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; die "more than one line"; }
[ -e bad/build.ninja ] && die "a refused setup wrote bad/build.ninja"
echo ok
