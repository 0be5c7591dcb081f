# unprivileged.sh -- sourced by the cases whose point is a permission
# (a read-only build directory, an unreadable cugen.ini). Root writes and
# reads anyway, so as root cugen runs as nobody through setpriv; where
# that cannot work the case is skipped.

# The command to put before cugen (empty when not root).
unprivileged_wrap() {
	[ "$(id -u)" = 0 ] || return 0
	echo "setpriv --reuid=65534 --regid=65534 --clear-groups"
}

# In prepare: exit 77 (skip) unless cugen can run without privileges here.
need_unprivileged() {
	[ "$(id -u)" = 0 ] || return 0
	command -v setpriv >/dev/null 2>&1 || { echo "running as root and no setpriv to drop to nobody"; exit 77; }
	$(unprivileged_wrap) sh -c 'test -r cugen.ini && test -x "$CUGEN" && test -w "${TMPDIR:-/tmp}"' ||
		{ echo "nobody cannot read this case, run $CUGEN or write ${TMPDIR:-/tmp}"; exit 77; }
}
