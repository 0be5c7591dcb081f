# The machine's speed (speed.h): before anything is measured the plan's
# guesses are the reference machine's seconds times this machine's
# speed. Without CUGEN_SPEED or a profile's speed, a probe measures it
# at the first setup and .cugen/plan.ini keeps it for the next plans; a
# given speed scales every guess by exactly that much, a profile's wins
# over CUGEN_SPEED, a runner's plan (cugen ci) takes 1; measured costs
# are never scaled; a bad value is one line and exit 1, the build
# directory as it was. Asserts no figure of the probe but its bounds:
# they depend on the machine and its load.
. "$(dirname "$0")/lib.sh"
need_cuda
multi_project
add_profile two 2
add_profile fast 2 speed=0.5
add_profile big 16
plan_value() { # builddir key [profile] -> the plan's JSON value of key (speed: speed.value, "%.2f", or none)
	"$CUGEN" plan -B "$1" --json ${3:+--profile "$3"} >"$WORK/plan.json" || die "cugen plan -B $1 failed"
	python3 - "$WORK/plan.json" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
v = (j["speed"] or {}).get("value", "none") if sys.argv[2] == "speed" else j[sys.argv[2]]
print(v if isinstance(v, str) else "%.2f" % v if sys.argv[2] == "speed" else v)
PY
}
# a / b is r within 3% (the plan's seconds are rounded to tenths, and
# a copy's or a stamp's milliseconds are not scaled)
ratio_is() { python3 -c 'import sys; a, b, r = map(float, sys.argv[1:]); sys.exit(abs(a / b / r - 1) > 0.03)' "$1" "$2" "$3"; }

note "no speed given: a probe at the first setup, kept in plan.ini, shown by cugen plan"
unset CUGEN_SPEED
run "$CUGEN" setup -B probed --profile two
kept=$(sed -n 's/^speed=//p' probed/.cugen/plan.ini)
[ -n "$kept" ] || { cat probed/.cugen/plan.ini; die "no speed in plan.ini after a first setup"; }
python3 -c 'import sys; v = float(sys.argv[1]); sys.exit(not (0.25 <= v <= 8 and abs(v * 20 - round(v * 20)) < 1e-6))' "$kept" ||
	die "probed speed $kept: not a multiple of 0.05 from 0.25 to 8"
grep -q '^speed_jobs=2$' probed/.cugen/plan.ini || { cat probed/.cugen/plan.ini; die "the probe did not run 2 jobs"; }
"$CUGEN" plan -B probed --profile two >out.txt || die "cugen plan failed"
grep -q "^  speed: guesses at .*x the reference machine's seconds, from this machine's probe at this build directory's first setup" out.txt ||
	{ cat out.txt; die "cugen plan does not say the kept probe's speed"; }
[ "$(plan_value probed speed two)" = "$kept" ] || die "cugen plan's speed is not plan.ini's $kept"
run "$CUGEN" setup -B probed --profile two
[ "$(sed -n 's/^speed=//p' probed/.cugen/plan.ini)" = "$kept" ] || die "a re-setup probed again"

note "CUGEN_SPEED scales every guess: the work and the chain at 3 are 3x those at 1"
CUGEN_SPEED=1 run "$CUGEN" setup -B one --profile two
w1=$(CUGEN_SPEED=1 plan_value one work_seconds two)
c1=$(CUGEN_SPEED=1 plan_value one critical_path_seconds two)
CUGEN_SPEED=3 run "$CUGEN" setup -B three --profile two
w3=$(CUGEN_SPEED=3 plan_value three work_seconds two)
c3=$(CUGEN_SPEED=3 plan_value three critical_path_seconds two)
ratio_is "$w3" "$w1" 3 || die "work: $w3 at speed 3 against $w1 at 1"
ratio_is "$c3" "$c1" 3 || die "critical path: $c3 at speed 3 against $c1 at 1"
grep -q '^speed=' one/.cugen/plan.ini && die "a given speed was kept in plan.ini"
[ "$(CUGEN_SPEED=3 plan_value three speed two)" = 3.00 ] || die "cugen plan --json: not speed 3"

note "the same choices at any speed: the tail split (other code) is not a probe's reading"
# 16 jobs: at 10x, the multi example's guessed tail split would save 2 s,
# the bar it must clear, were the bars weighed in this machine's seconds
for v in 1 10; do
	CUGEN_SPEED=$v run "$CUGEN" setup -B big$v --profile big
done
cmp -s big1/.cugen/plan.ini big10/.cugen/plan.ini || { diff big1/.cugen/plan.ini big10/.cugen/plan.ini; die "choices differ at speed 1 and 10"; }
[ "$(grep -c -- '--split-compile' big10/build.ninja)" = "$(grep -c -- '--split-compile' big1/build.ninja)" ] ||
	die "the tail split differs at speed 1 and 10"

note "a profile's speed wins over CUGEN_SPEED"
CUGEN_SPEED=3 run "$CUGEN" setup -B half --profile fast
wh=$(CUGEN_SPEED=3 plan_value half work_seconds fast)
ratio_is "$wh" "$w1" 0.5 || die "profile speed 0.5: work $wh against $w1 at 1"
CUGEN_SPEED=3 "$CUGEN" plan -B half --profile fast | grep -q "speed: guesses at 0.50x .* from the profile's speed" ||
	die "cugen plan does not name the profile's speed"

note "a runner's plan (cugen ci) is the reference machine's, whatever this machine is"
ci_at() { # speed -> ci.$1.txt: the workflow and what cugen ci said of the shards
	CUGEN_SPEED=$1 "$CUGEN" ci --provider github --shards 2 --runner 2:7G --cugen-repo https://example.com/cugen \
		--cugen-ref 0123456789abcdef0123456789abcdef01234567 >"ci.$1.txt" 2>&1 || { cat "ci.$1.txt"; die "cugen ci failed"; }
}
ci_at 4
ci_at 1
grep -q 'shard 1: archs .* (cost [0-9.]* s, guessed' ci.1.txt || { cat ci.1.txt; die "cugen ci shows no guessed costs"; }
cmp -s ci.4.txt ci.1.txt || { diff ci.4.txt ci.1.txt; die "cugen ci's figures depend on CUGEN_SPEED"; }

note "measured costs are this machine's: a speed changes nothing once the build measured its edges"
build one
CUGEN_SPEED=1 run "$CUGEN" setup -B one --profile two
m1=$(CUGEN_SPEED=1 plan_value one work_seconds two)
m4=$(CUGEN_SPEED=4 plan_value one work_seconds two)
[ "$m1" = "$m4" ] || die "measured work $m1 at speed 1, $m4 at speed 4"
[ "$(CUGEN_SPEED=4 plan_value one speed two)" = none ] || die "a speed shown for a measured build"

note "bad speeds: one line, exit 1, the build directory as it was"
snapshot() { find "$1" -exec stat -c '%n %s %Y' {} + | sort; }
snapshot one >before.txt
for v in 0 abc 11 -1 nan 1e400; do
	CUGEN_SPEED=$v "$CUGEN" setup -B one --profile two >err.txt 2>&1
	rc=$?
	[ "$rc" = 1 ] || { cat err.txt; die "CUGEN_SPEED=$v: exit $rc"; }
	[ "$(wc -l <err.txt)" = 1 ] && grep -q "^cugen: error: CUGEN_SPEED '$v': expected a number from 0.1 to 10" err.txt ||
		{ cat err.txt; die "CUGEN_SPEED=$v: not one clear line"; }
done
add_profile bad 2 speed=fast
"$CUGEN" setup -B one --profile bad >err.txt 2>&1 && die "speed = fast accepted"
grep -q "cugen.ini:[0-9]*: error: invalid speed 'fast'" err.txt || { cat err.txt; die "speed = fast: no file and line"; }
snapshot one >after.txt
cmp -s before.txt after.txt || { diff before.txt after.txt; die "a refused setup changed the build directory"; }
exit 0
