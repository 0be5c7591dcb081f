# The shard step of every generated workflow (GitHub, GitLab, Azure),
# run as written on a restored CI cache an attacker or a broken run left:
# an edges.log that links out of the workspace is neither read nor
# written through (the file it points to is unchanged, the cache gets a
# plain file), a .cugen-cache that is itself a link is dropped, and
# measurements no step can take (15-digit KiB and seconds) are ignored
# with a warning instead of serialising the plan.
. "$(dirname "$0")/lib.sh"
need_cuda

copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
mkdir -p "$WORK/bin"
ln -s "$CUGEN" "$WORK/bin/cugen"
ln -s "$(command -v "$NINJA")" "$WORK/bin/ninja"
# the shard step's script of a workflow, its CI expressions given values
step() { # provider
	"$CUGEN" ci --provider "$1" -D cuda.archs="80 90" --cugen-repo https://example.org/c.git \
		--cugen-ref 0123abc -o "$WORK/$1.yml" 2>/dev/null || die "$1: cugen ci failed"
	python3 - "$WORK/$1.yml" <<'PY' || die "$1: no shard step with edges.log"
import sys, yaml
def walk(v):
    if isinstance(v, dict):
        for x in v.values(): yield from walk(x)
    elif isinstance(v, list):
        if v and all(isinstance(x, str) for x in v) and any("edges.log" in x for x in v):
            yield "\n".join(v)
        else:
            for x in v: yield from walk(x)
    elif isinstance(v, str) and "edges.log" in v and "cugen setup" in v:
        yield v
found = list(walk(yaml.safe_load(open(sys.argv[1]))))
if len(found) != 1: sys.exit(1)
s = found[0]
for a, b in (("${{ matrix.archs }}", "80"), ("$(ARCHS)", "80"), ('"$ARCHS"', '"80"')):
    s = s.replace(a, b)
print(s)
PY
}
for pv in github gitlab azure; do
	note "$pv: a restored edges.log that links out of the workspace"
	step "$pv" >"$WORK/step.sh"
	# a first run makes the cache; the next restores it, with a link
	rm -rf build .cugen-cache "$WORK/outside"
	PATH="$WORK/bin:$PATH" sh -e "$WORK/step.sh" >out.txt 2>&1 || { cat out.txt; die "$pv: the shard step failed"; }
	rm -rf build .cugen-cache/edges.log
	mkdir -p "$WORK/outside"
	echo 'ssh-ed25519 AAAA victim' >"$WORK/outside/authorized_keys"
	ln -s "$WORK/outside/authorized_keys" .cugen-cache/edges.log
	PATH="$WORK/bin:$PATH" sh -e "$WORK/step.sh" >out.txt 2>&1 || { cat out.txt; die "$pv: the shard step failed"; }
	[ "$(cat "$WORK/outside/authorized_keys")" = 'ssh-ed25519 AAAA victim' ] ||
		die "$pv: the step wrote through the cache's link"
	[ -L .cugen-cache/edges.log ] && die "$pv: the cache still holds the link"
	[ -f .cugen-cache/edges.log ] || die "$pv: the cache got no measurements"
	grep -q victim build/.cugen/edges.log && die "$pv: the step read the file the link points to"

	note "$pv: the cache directory itself a link"
	rm -rf build .cugen-cache
	mkdir -p "$WORK/outside/cache"
	ln -s "$WORK/outside/cache" .cugen-cache
	PATH="$WORK/bin:$PATH" sh -e "$WORK/step.sh" >out.txt 2>&1 || { cat out.txt; die "$pv: the shard step failed"; }
	[ -z "$(ls -A "$WORK/outside/cache")" ] || die "$pv: the step wrote into the directory the link points to"
done

note "absurd measurements are ignored, with a warning"
rm -rf build
"$CUGEN" setup -B build --archs 80 >plain.txt 2>&1 || { cat plain.txt; die "setup failed"; }
pools=$(sed -n 's/.*\(pools [^-]*\)->.*/\1/p' plain.txt)
sed 's/\t[0-9.]*\t[0-9.]*\t[0-9.]*$/\t999999999999999\t999999999999999\t999999999999999/' .cugen-cache/edges.log >absurd.log
[ -s absurd.log ] || die "no measurements to make absurd"
rm -rf build && mkdir -p build/.cugen && cp absurd.log build/.cugen/edges.log
"$CUGEN" setup -B build --archs 80 >out.txt 2>&1 || { cat out.txt; die "setup with absurd measurements failed"; }
grep -q "warning: .*edges.log: [0-9]* damaged lines\? ignored" out.txt || { cat out.txt; die "no warning for absurd measurements"; }
grep -qF "$pools" out.txt || { cat plain.txt out.txt; die "absurd measurements changed the pools"; }
echo ok
