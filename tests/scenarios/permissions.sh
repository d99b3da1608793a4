#!/usr/bin/env bash
# Permissions: an unprivileged user (nobody, no capabilities) can neither get
# nor pin, is told so clearly, and changes nothing that root pinned.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# nobody must reach the binary and the bpffs, so both live under a 0755 $T.
chmod 0755 "$T"
install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
as_nobody()
{
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"
}
nobody_fds()
{
	status=0
	as_nobody "$T/fds_example" "$@" > "$T/out" 2> "$T/err" || status=$?
	{ echo "\$ (nobody) fds_example $* -> exit $status"; sed 's/^/  /' "$T/out" "$T/err"; } >&2
}
# shellcheck disable=SC2034 # read in step bodies, which step() evals
denied="(Permission denied|Operation not permitted)"

step "setup: root pins a map holding 1:42 and a program" --needs setpriv '
	fds -F "$FS/m" -P -m -k 1 -v 42
	expect_status 0
	fds -F "$FS/p" -P -p
	expect_status 0
	snapshot base
	as_nobody true || fail "cannot run as nobody at all"
'

step "nobody cannot get the map" --needs setpriv '
	nobody_fds -F "$FS/m" -G -m -k 1
	expect_status 1
	grep -Eqx "bpf: get fd:-1 \\($denied\\)" "$T/out" || fail "no refusal on stdout"
	expect_err "^fds_example: cannot get .*: $denied"
	same_as base
'

step "nobody cannot overwrite a value" --needs setpriv '
	nobody_fds -F "$FS/m" -G -m -k 1 -v 7
	expect_status 1
	expect_err "$denied"
	same_as base
	expect_value "$FS/m" 1 42
'

step "nobody cannot get the program" --needs setpriv '
	nobody_fds -F "$FS/p" -G -p
	expect_status 1
	expect_err "$denied"
	same_as base
'

step "nobody cannot pin a new map" --needs setpriv '
	nobody_fds -F "$FS/mine" -P -m -k 1 -v 1
	expect_status 1
	grep -Eqx "bpf: map fd:-1 \\($denied\\)" "$T/out" || fail "no refusal on stdout"
	expect_err "cannot create the map"
	[[ ! -e $FS/mine ]] || fail "a pin appeared"
	same_as base
'

step "nobody cannot pin a new program" --needs setpriv '
	nobody_fds -F "$FS/mine" -P -p
	expect_status 1
	expect_err "^fds_example: cannot load the program: $denied\$"
	same_as base
'

step "nobody cannot remove root's pins (the bpffs root is sticky)" --needs setpriv '
	[[ $(stat -c %a "$FS") == 1777 ]] || fail "root mode $(stat -c %a "$FS")"
	if as_nobody rm -f "$FS/m" 2>/dev/null; then fail "rm worked"; fi
	same_as base
'
scenario_end
