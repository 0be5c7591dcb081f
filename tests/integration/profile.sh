# CI profiles (cugen profile): for every runner in the table the section
# reads back through the INI reader and plans pools within the runner's
# cores and memory; --append keeps the rest of the file byte for byte
# (several at once each keep their section), and
# is idempotent (with shards too); CORES:MEMORY and -o FILE; on CI,
# --profile auto (or [project] profile = auto) picks [profile ci]
# (GITHUB_ACTIONS [profile github] first) and says so, CI=true alone and
# --profile none pick none, and say so; --profile wins; the time-limit check warns for a synthetic .ninja_log
# that needs more than 6 hours on 2 cores and names a shard count whose
# jobs fit; bad runners and time limits are clear errors.
. "$(dirname "$0")/lib.sh"
need_cuda
multi_project
cp cugen.ini orig.ini

note "every runner: parses back, pools within cores and memory"
runners=$("$CUGEN" profile --list-runners | awk 'NR > 1 && $2 ~ /^[0-9]+$/ { print $1 }')
[ "$(echo "$runners" | wc -l)" -ge 11 ] || die "the runner table is short: $runners"
for r in $runners; do
	name=r_$(echo "$r" | tr -c 'a-zA-Z0-9\n' '_')
	run "$CUGEN" profile "$name" --runner "$r" --append
	"$CUGEN" plan -B "$WORK/b_$name" --profile "$name" --json >"$WORK/plan.json" 2>"$WORK/plan.err" ||
		{ cat "$WORK/plan.err"; die "$r: cugen plan --profile $name failed"; }
	cores=$("$CUGEN" profile --list-runners | awk -v r="$r" '$1 == r { print $2 }')
	python3 - "$WORK/plan.json" "$r" "$cores" cugen.ini "$name" <<'EOF' || die "$r: the plan does not respect the runner"
import json, re, sys
plan = json.load(open(sys.argv[1]))
runner, cores, ini, name = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
text = open(ini).read()
sec = re.search(r'^\[profile %s\]\n(.*?)(?=^\[|\Z)' % re.escape(name), text, re.S | re.M).group(1)
kv = dict(re.findall(r'^(\w+) = (.*)$', sec, re.M))
assert kv['runner'] == runner and int(kv['jobs']) == cores, kv
units = {'G': 2**30, 'M': 2**20}
limit = float(kv['memory'][:-1]) * units[kv['memory'][-1]]
m = plan['machine']
assert m['cores'] == cores and abs(m['memory'] - limit) < 2**20, (m, kv)
pools = plan['pools']
threads = max(plan['threads'], plan['split_compile'], 1)
if 'compile' in pools:
    # device and host compiles share one pool of the cores
    assert 'device' not in pools and 'host' not in pools and threads == 1, pools
    assert 1 <= pools['compile'] <= cores and 1 <= pools['link'] <= cores, pools
else:
    for p in ('device', 'host', 'link'):
        assert 1 <= pools[p] <= cores, (p, pools)
    assert pools['device'] * threads <= cores, pools
    assert pools['device'] * threads + pools['host'] <= max(cores, threads + 1), pools
assert plan['expected_peak_memory'] <= limit, (plan['expected_peak_memory'], limit)
EOF
done
head -c "$(wc -c <orig.ini)" cugen.ini | cmp -s - orig.ini || die "--append changed the lines before the profiles"

note "--append twice is idempotent, shards included; an older section is replaced in place"
run "$CUGEN" profile ci --runner azure --append --shards 2
cp cugen.ini once.ini
run "$CUGEN" profile ci --runner azure --append --shards 2
cmp -s cugen.ini once.ini || { diff once.ini cugen.ini; die "a second --append changed the file"; }
grep -q '^\[profile ci-shard2\]' cugen.ini || die "no [profile ci-shard2]"
a1=$(sed -n '/^\[profile ci-shard1\]/,/^\[/p' cugen.ini | sed -n 's/^archs = //p')
a2=$(sed -n '/^\[profile ci-shard2\]/,$p' cugen.ini | sed -n 's/^archs = //p')
[ "$(echo $a1 $a2 | tr ' ' '\n' | sort | tr '\n' ' ')" = "75 80 90 " ] || die "shard archs '$a1' + '$a2' are not 75 80 90 once each"
run "$CUGEN" profile ci --runner 3:5G --append
grep -q '^\[profile ci-shard1\]' cugen.ini && die "the shard sections of an older profile ci stayed"
sed -n '/^\[profile ci\]/,/^\[/p' cugen.ini >ci.txt
grep -q '^jobs = 3$' ci.txt && grep -q '^memory = 3.5G$' ci.txt && grep -q '^runner = 3:5G$' ci.txt &&
	grep -q '^time_limit = none$' ci.txt || { cat ci.txt; die "3:5G: wrong section"; }
# a comment the user added after the profile stays
printf '; my own note\n[profile mine]\njobs = 1\n' >>cugen.ini
cp cugen.ini before.ini
run "$CUGEN" profile ci --runner github --append
grep -q '^; my own note$' cugen.ini || die "--append dropped a comment"
python3 - before.ini cugen.ini <<'EOF' || die "--append changed lines outside [profile ci]"
import re, sys
def rest(path):
    return re.sub(r'^\[profile ci\]\n.*?(?=^\[|^; my own note|\Z)', '', open(path).read(), flags=re.S | re.M)
assert rest(sys.argv[1]) == rest(sys.argv[2]), (rest(sys.argv[1]), rest(sys.argv[2]))
EOF

note "-o FILE and stdout give the same section"
run "$CUGEN" profile x --runner gitlab-small -o x.ini
"$CUGEN" profile x --runner gitlab-small >x2.ini 2>/dev/null || die "profile to stdout failed"
cmp -s x.ini x2.ini || die "-o FILE and stdout differ"
grep -q '^time_limit = 3h$' x.ini && grep -q '^jobs = 2$' x.ini || die "gitlab-small: wrong section"

note "on CI a profile applies only when asked: --profile auto or [project] profile = auto"
run "$CUGEN" profile github --runner github --append
CI=true GITHUB_ACTIONS=true "$CUGEN" setup -B "$WORK/auto" >out.txt 2>&1 || { cat out.txt; die "setup with CI=true failed"; }
grep -q ': no profile, ' out.txt || { cat out.txt; die "CI=true alone chose a profile, or the summary did not say none"; }
CI=true "$CUGEN" setup -B "$WORK/auto" --profile auto >out.txt 2>&1 || { cat out.txt; die "setup --profile auto failed"; }
grep -q 'profile ci (CI=true)' out.txt || { cat out.txt; die "CI=true --profile auto did not pick and name [profile ci]"; }
grep -Eq 'pools (compile|device)=4 ' out.txt || { cat out.txt; die "CI=true: not the ci profile's 4 jobs"; }
CI=true GITHUB_ACTIONS=true "$CUGEN" setup -B "$WORK/auto" --profile auto >out.txt 2>&1 || { cat out.txt; die "setup on GitHub failed"; }
grep -q 'profile github (GITHUB_ACTIONS=true)' out.txt || { cat out.txt; die "GITHUB_ACTIONS did not pick [profile github]"; }
cp cugen.ini auto.ini
sed -i 's/^\[project\]$/[project]\nprofile = auto/' cugen.ini
CI=true GITHUB_ACTIONS=true "$CUGEN" setup -B "$WORK/auto" >out.txt 2>&1 || { cat out.txt; die "setup with profile = auto failed"; }
grep -q 'profile github (GITHUB_ACTIONS=true)' out.txt || { cat out.txt; die "[project] profile = auto did not pick [profile github]"; }
CI=true GITHUB_ACTIONS=true "$CUGEN" setup -B "$WORK/auto" --profile none >out.txt 2>&1 || { cat out.txt; die "--profile none failed"; }
grep -q ': no profile, ' out.txt || { cat out.txt; die "--profile none applied a profile"; }
"$CUGEN" setup -B "$WORK/auto" >out.txt 2>&1 || { cat out.txt; die "setup off CI with profile = auto failed"; }
grep -q ': no profile, ' out.txt || { cat out.txt; die "profile = auto chose a profile off CI"; }
mv auto.ini cugen.ini
CI=true "$CUGEN" setup -B "$WORK/auto" --profile x_none 2>/dev/null && die "--profile of a missing profile passed"
run "$CUGEN" profile two --runner 2:7G --append
CI=true "$CUGEN" setup -B "$WORK/auto" --profile two >out.txt 2>&1 || { cat out.txt; die "CI=true --profile two failed"; }
grep -q 'profile two, ' out.txt && grep -Eq 'pools (compile|device)=2 ' out.txt || { cat out.txt; die "--profile did not win over CI=true"; }
"$CUGEN" setup -B "$WORK/auto" >out.txt 2>&1 || { cat out.txt; die "setup off CI failed"; }
grep -q ': profile ' out.txt && { cat out.txt; die "a profile was picked off CI"; }

note "time limit: a synthetic .ninja_log needing more than 6 hours on 2 cores"
run "$CUGEN" profile slow --runner azure --append
run "$CUGEN" setup -B "$WORK/t" --profile slow
# every device compile (its cicc edge with ptxas edges) 1 hour, everything
# else 10 s: 3 archs x 4 TUs x 1 h
# = 12 h of device work, 6 h+ on 2 cores. One shard: 6 h+ (over 90% of
# 6 h); two: the larger takes 2 archs, 8 h / 2 cores = 4 h + front ends.
log() { # device-ms
	echo "# ninja log v5"
	"$NINJA" -C "$WORK/t" -t targets all | awk -F': ' -v dev="$1" '$2 != "phony" && $2 != "regen" {
		d = ($2 ~ /^cuda_(dev|cicc)_/) ? dev : 10000; printf "%d\t%d\t0\t%s\t%x\n", 0, d, $1, NR }'
}
log 3600000 >"$WORK/t/.ninja_log"
"$CUGEN" plan -B "$WORK/t" --profile slow >plan.txt 2>plan.err || { cat plan.err; die "plan failed"; }
grep -q 'warning: the build would take about 6h' plan.err || { cat plan.err; die "no time-limit warning"; }
grep -q 'over the 6h job time limit (runner azure, profile slow)' plan.err || { cat plan.err; die "the warning does not name the limit"; }
grep -q 'split it into 2 shards by arch (cugen ci --shards 2' plan.err || { cat plan.err; die "the warning does not suggest 2 shards"; }
"$CUGEN" plan -B "$WORK/t" --profile slow --json 2>/dev/null >plan.json || die "plan --json failed"
python3 - plan.json <<'EOF' || die "the time check's JSON is wrong"
import json, sys
t = json.load(open(sys.argv[1]))['time_limit']
assert t['limit_seconds'] == 21600 and t['cores'] == 2 and not t['fits'], t
assert t['timed_edges'] == t['edges'] > 0, t
assert t['estimate_seconds'] > 21600 and t['shards'] == 2, t
assert t['shard_estimate_seconds'] <= 0.9 * 21600 and t['combine_estimate_seconds'] <= 0.9 * 21600, t
EOF
# the shards it names do fit: cugen profile -B writes them and does not warn
"$CUGEN" profile slow --runner azure -B "$WORK/t" --shards 2 -o slow2.ini 2>err.txt || { cat err.txt; die "profile --shards 2 failed"; }
[ -s err.txt ] && { cat err.txt; die "profile --shards 2 still warned"; }
"$CUGEN" profile slow --runner azure -B "$WORK/t" -o slow1.ini 2>err.txt || die "profile -B failed"
grep -q 'split it into 2 shards' err.txt || { cat err.txt; die "profile -B did not warn"; }
# 10 minutes per device compile: 2 h of work, 1 h on 2 cores, fits
log 600000 >"$WORK/t/.ninja_log"
"$CUGEN" plan -B "$WORK/t" --profile slow >plan.txt 2>plan.err || die "plan failed"
[ -s plan.err ] && { cat plan.err; die "a warning for a build that fits"; }
grep -q '^time limit: about 1h.* within the 6h job limit' plan.txt || { cat plan.txt; die "no time-limit line"; }

note "errors"
"$CUGEN" profile ci --runner githbu >/dev/null 2>err.txt
[ $? -eq 2 ] || die "an unknown runner is not a usage error"
grep -q "^cugen: error: unknown runner 'githbu'; did you mean 'github'?" err.txt || { cat err.txt; die "unknown runner message"; }
"$CUGEN" profile ci --runner 2:lots >/dev/null 2>err.txt && die "2:lots accepted"
grep -q "expected CORES:MEMORY" err.txt || { cat err.txt; die "bad CORES:MEMORY message"; }
"$CUGEN" profile 'a b' --runner github >/dev/null 2>err.txt && die "a profile name with a space accepted"
cp cugen.ini bad.ini
printf '[profile late]\ntime_limit = soon\n' >>bad.ini
line=$(wc -l <bad.ini)
"$CUGEN" setup -f bad.ini -B "$WORK/bad" >/dev/null 2>err.txt && die "time_limit = soon accepted"
grep -q "^cugen: bad.ini:$line: error: invalid time_limit 'soon'" err.txt || { cat err.txt; die "bad time_limit message"; }
[ -e "$WORK/bad" ] && die "a failed setup created its build directory"
cp once.ini cugen.ini
chmod a-w .
if ! touch probe.tmp 2>/dev/null; then
	cp cugen.ini ro.ini
	"$CUGEN" profile ci --runner github --append >/dev/null 2>err.txt && die "--append into a read-only directory passed"
	cmp -s cugen.ini ro.ini || die "a failed --append changed cugen.ini"
fi
rm -f probe.tmp
chmod u+w .

note "six --append at once, each its own section: none is lost"
cp once.ini cugen.ini
r=0
while [ $r -lt 3 ]; do
	cp once.ini cugen.ini
	for i in 1 2 3 4 5 6; do "$CUGEN" profile "c$r$i" --runner github --append >"$WORK/app.$i" 2>&1 & done
	wait
	for i in 1 2 3 4 5 6; do
		grep -q "^\[profile c$r$i\]\$" cugen.ini || { cat "$WORK/app.$i"; die "round $r: [profile c$r$i] was lost"; }
	done
	r=$((r + 1))
done
cp once.ini cugen.ini

exit 0
