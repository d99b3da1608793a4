#!/usr/bin/env bash
# make tutorial (scripts/tutorial.sh) and the course it opens: the sandbox
# is what the chapters say (own namespaces, $FS a bpffs, lo up, tools on
# PATH, the prompt), reset and check do what the chapters use them for,
# leaving it leaves nothing behind, and scripts/sandbox refuses anywhere
# else. The chapters, docs/walkthrough.md, docs/beyond-one-shell.md and
# docs/after-2015.md, run outside the sandbox with $FS unset, change nothing
# outside; read in their order, they explain each word of their glossaries
# before using it, open and close as one course, and run only what make
# walkthrough-tools builds from a clean tree. (walkthrough.sh and
# walkthrough_beyond.sh replay them inside.) Every step needs the source
# tree, and none the kernel of a guest: host only.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

COURSE=(docs/walkthrough.md docs/beyond-one-shell.md docs/after-2015.md)
REFUSAL='run make tutorial first, and this command in the shell it opens'

# course_commands: every "# command" line of the chapters' console blocks,
# in the course's order, one a line.
course_commands()
{
	awk '/^```console$/ { c = 1; next } /^```$/ { c = 0; next }
	     c && /^# / { print substr($0, 3) }' "${COURSE[@]}"
}

# in_tutorial COMMANDS: COMMANDS in a fresh sandbox; their output in
# $T/tut, their status in $tut_status.
in_tutorial()
{
	tut_status=0
	scripts/tutorial.sh -c "$1" > "$T/tut" 2>&1 < /dev/null || tut_status=$?
	{ echo "\$ scripts/tutorial.sh -c ... -> exit $tut_status"; show_file "  " "$T/tut"; } >&2
}

step "make tutorial's shell: namespaces of its own, \$FS a bpffs, lo up, the tools on PATH" --host-only '
	outer_mnt=$(readlink /proc/self/ns/mnt) outer_net=$(readlink /proc/self/ns/net)
	in_tutorial "
		readlink /proc/self/ns/mnt /proc/self/ns/net
		echo \"FS=\$FS FDS_TUTORIAL=\$FDS_TUTORIAL\"
		stat -f -c %T \$FS /sys/fs/bpf /tmp
		ls -A /sys/fs/bpf | grep -v \"[.]debug\$\" || echo /sys/fs/bpf empty
		ip -o link show dev lo | grep -o \"<[^>]*>\"
		command -v fds_example pinctl map_ids lo_watch sandbox
		scripts/sandbox
		pwd"
	((tut_status == 0)) || fail "exit $tut_status"
	mapfile -t got < "$T/tut"
	[[ ${got[0]} == mnt:* && ${got[0]} != "$outer_mnt" ]] || fail "mount namespace: ${got[0]}"
	[[ ${got[1]} == net:* && ${got[1]} != "$outer_net" ]] || fail "network namespace: ${got[1]}"
	[[ ${got[2]} == "FS=/tmp/bpffs FDS_TUTORIAL=${got[0]} ${got[1]}" ]] || fail "environment: ${got[2]}"
	[[ ${got[*]:3:3} == "bpf_fs bpf_fs tmpfs" ]] || fail "filesystems: ${got[*]:3:3}"
	[[ ${got[6]} == "/sys/fs/bpf empty" ]] || fail "/sys/fs/bpf holds ${got[6]}"
	[[ ${got[7]} == *,UP,* ]] || fail "lo: ${got[7]}"
	want=("$TOP/fds_example" "$TOP/tests/bin/helpers/pinctl" "$TOP/tests/bin/helpers/map_ids"
	      "$TOP/examples/lo_watch" "$TOP/scripts/sandbox")
	[[ ${got[*]:8:5} == "${want[*]}" ]] || fail "on PATH: ${got[*]:8:5}"
	[[ ${got[13]} == "sandbox: this is the tutorial'"'"'s shell: \$FS is /tmp/bpffs, lo is this shell'"'"'s own" ]] ||
		fail "scripts/sandbox says: ${got[13]}"
	[[ ${got[14]} == "$TOP" ]] || fail "starts in ${got[14]}"
'

step "an interactive sandbox's prompt starts with (fds-tutorial)" --host-only --needs script '
	printf "%s\n" "echo \"prompt=[\$PS1]\"" exit > "$T/typed"
	script -qec scripts/tutorial.sh /dev/null < "$T/typed" > "$T/tty" 2>&1 ||
		fail "$(<"$T/tty")"
	grep -q "prompt=\[(fds-tutorial) " "$T/tty" || fail "no prompt line: $(<"$T/tty")"
'

step "commands read from stdin run in a sandbox too" --host-only '
	echo "scripts/sandbox; check start" | scripts/tutorial.sh > "$T/out" 2>&1 || fail "$(<"$T/out")"
	expect_out "sandbox: this is the tutorial'"'"'s shell: \$FS is /tmp/bpffs, lo is this shell'"'"'s own" \
		"check start: as expected"
'

step "leaving the sandbox leaves nothing: its pins, mounts and lo's programs are gone" --host-only --needs bpftool '
	mounts_before=$(< /proc/self/mounts)
	in_tutorial "
		set -e
		pinctl xdp \$FS/link \$FS/count > /dev/null
		tc qdisc add dev lo clsact
		mkdir /tmp/second && mount -t bpf bpf /tmp/second
		fds_example -F /tmp/second/m -P -m > /dev/null
		bpftool link show pinned \$FS/link | cut -d: -f1 | head -n 1
		bpftool map show pinned \$FS/count | cut -d: -f1 | head -n 1
		bpftool map show pinned /tmp/second/m | cut -d: -f1 | head -n 1"
	((tut_status == 0)) || fail "exit $tut_status"
	mapfile -t ids < "$T/tut"
	((${#ids[@]} == 3)) || fail "ids: ${ids[*]}"
	wait_gone link "${ids[0]}"
	wait_gone map "${ids[1]}"
	wait_gone map "${ids[2]}"
	[[ $(< /proc/self/mounts) == "$mounts_before" ]] || fail "the mounts changed"
'

step "reset empties \$FS, unmounts what the chapters mount under /tmp, clears lo; check start agrees" --host-only '
	in_tutorial "
		mkdir -p \$FS/dir/sub && ln -s dir \$FS/link
		fds_example -F \$FS/dir/m -P -m -k 3 -v 5 > /dev/null
		mkdir -p /tmp/second /tmp/third && mount -t bpf bpf /tmp/second
		bpftool map pin pinned \$FS/dir/m /tmp/third/again
		tc qdisc add dev lo clsact
		env TC_BPF_MNT=\$FS tc filter add dev lo ingress bpf da obj tests/bin/tc_count_kern.o sec classifier
		pinctl xdp \$FS/xlink \$FS/xcount > /dev/null
		check start; echo \"check: \$?\"
		reset; echo \"reset: \$?\"
		check start; echo \"check: \$?\"
		state; ls -A \$FS | grep -v \"[.]debug\$\"; findmnt -n /tmp/third"
	((tut_status == 1)) || fail "exit $tut_status, expected 1 (findmnt finds nothing)"
	expect_lines_of "$T/tut" "the sandbox" "check start: the sandbox differs from what it expects" \
		"  not expected: dir/" "  not expected: dir/m: map, 3=5" "  not expected: dir/sub/" \
		"  not expected: ip -> /tmp/bpffs/tc/" "  not expected: link -> dir" \
		"  not expected: tc/" "  not expected: tc/globals/" "  not expected: tc/globals/tc_count: map" \
		"  not expected: xcount: map" "  not expected: xdp -> /tmp/bpffs/tc/" "  not expected: xlink: link" \
		"  not expected: mount: /tmp/third" "  not expected: mount: /tmp/third" \
		"  not expected: mount: /tmp/second" \
		"  not expected: lo: qdisc clsact" "  not expected: lo: XDP program" \
		"(reset empties the sandbox; the chapter says what to run then)" "check: 1" \
		"reset: /tmp/bpffs is empty, nothing is attached to lo" "reset: 0" \
		"check start: as expected" "check: 0"
'

step "check answers: the state the walkthrough's answers start from, and not another" --host-only '
	in_tutorial "
		fds_example -F \$FS/m -P -m -k 1 -v 24 > /dev/null
		check answers
		fds_example -F \$FS/m -G -m -k 2 -v 7 > /dev/null
		check answers
		check nonesuch"
	((tut_status == 2)) || fail "exit $tut_status, expected 2 (usage)"
	expect_lines_of "$T/tut" "the sandbox" "check answers: as expected" \
		"check answers: the sandbox differs from what it expects" \
		"  missing: m: map, 1=24" "  not expected: m: map, 1=24 2=7" \
		"(reset empties the sandbox; the chapter says what to run then)" \
		"usage: check start answers"
'

# refused EXPECTED-WHY ENV... -- CMD...: scripts/sandbox, run with ENV
# (env's arguments), refuses CMD: the one line naming make tutorial, and
# CMD not run. ($status: for lib.sh's expect_status.)
# shellcheck disable=SC2034
refused()
{
	local why=$1 envs=()
	shift
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	status=0
	env "${envs[@]}" scripts/sandbox "$@" > "$T/out" 2> "$T/err" || status=$?
	expect_status 1 || { show_file "err: " "$T/err"; return 1; }
	[[ ! -s $T/out ]] || fail "it ran: $(<"$T/out")"
	expect_lines_of "$T/err" stderr "sandbox: refused: $why; $REFUSAL"
}

# here NS...: prints the namespaces scripts/sandbox finds in a process
# started by unshare NS... (none: this scenario's own).
here()
{
	unshare "$@" bash -c ". scripts/tutorial.sh; tutorial_ns"
}

step "scripts/sandbox refuses outside the sandbox, says why and names make tutorial" --host-only '
	refused "\$FS is not set: this is not the tutorial'"'"'s shell" -u FS -- echo ran
	refused "this is not the tutorial'"'"'s shell (no \$FDS_TUTORIAL)" -u FDS_TUTORIAL FS="$FS" -- echo ran
	# This scenario has a mount namespace of its own, the network is the
	# machine'"'"'s: a sandbox of another network namespace is not this one.
	refused "these are not the tutorial'"'"'s namespaces" FS="$FS" FDS_TUTORIAL="$(here --net)" -- echo ran
	ns=$(here --net)
	unshare --net env FS="$T" FDS_TUTORIAL="$ns" scripts/sandbox echo ran > "$T/out" 2> "$T/err" || true
	# (each unshare makes another network namespace: the ids differ)
	expect_lines_of "$T/err" stderr "sandbox: refused: these are not the tutorial'"'"'s namespaces; $REFUSAL"
	unshare --net bash -c ". scripts/tutorial.sh; FS=\$1 FDS_TUTORIAL=\$(tutorial_ns) scripts/sandbox echo ran" \
		- "$T" > "$T/out" 2> "$T/err" || true
	expect_lines_of "$T/err" stderr "sandbox: refused: $T is not a bpffs any more (reset mounts one); $REFUSAL"
	unshare --net bash -c ". scripts/tutorial.sh; FS=\$1 FDS_TUTORIAL=\$(tutorial_ns) scripts/sandbox echo ran" \
		- "$FS" > "$T/out" 2> "$T/err"
	expect_out ran
	# This scenario'"'"'s network namespace is the machine'"'"'s, which the
	# sandbox can tell where it can read PID 1'"'"'s (not in every container).
	if readlink /proc/1/ns/mnt /proc/1/ns/net > /dev/null 2>&1; then
		refused "the network namespace is the machine'"'"'s own: lo is the machine'"'"'s" \
			FS="$FS" FDS_TUTORIAL="$(here)" -- echo ran
	fi
'

# The chapters' commands, outside: in a mount and network namespace of the
# step's own, where / is read-only (a write the guard let through fails
# with EROFS, and says so), $T writable, /sys/fs/bpf a bpffs of the step's
# own, lo the namespace's.
cat > "$T/outside.sh" << 'EOF'
set -u
out=$1
shift
mount --bind "$T" "$T" && mount -o remount,bind,ro / && mount -t bpf bpf /sys/fs/bpf || exit 1
snapshot()
{
	ls -A /
	ls -A /sys/fs/bpf | grep -v '[.]debug$'
	tc qdisc show dev lo
	ip -o link show dev lo | grep -o ' xdp[a-z]*' || true
}
snapshot > "$T/outside.before"
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	[[ $cmd == exit ]] && continue
	{
		printf '# %s\n' "$cmd"
		TERM=dumb timeout 20 env -u FS -u FDS_TUTORIAL -u FDS_TUTORIAL_SCRATCH \
			bash -c "$cmd" < /dev/null 2>&1
		printf '#> exit %s\n' "$?"
	} >> "$out"
done
snapshot > "$T/outside.after"
EOF

step "the chapters, run outside the sandbox with \$FS unset, change nothing outside" --host-only '
	course_commands > "$T/commands"
	(($(line_count "$T/commands") > 100)) || fail "only $(line_count "$T/commands") commands"
	# No BASH_ENV inside: make coverage traces every bash through it, and
	# a trace file open for writing keeps / from being remounted read-only.
	T=$T env -u BASH_ENV unshare --mount --net --propagation private \
		bash "$T/outside.sh" "$T/outside.log" < "$T/commands" ||
		fail "the step'"'"'s namespace could not be set up"
	if ! cmp -s "$T/outside.before" "$T/outside.after"; then
		diff -u "$T/outside.before" "$T/outside.after" || true
		fail "something outside changed"
	fi
	! grep -n -B 3 "Read-only file system" "$T/outside.log" ||
		fail "a command tried to write outside (above): it needs scripts/sandbox"
	# Each guarded command says why it refused (but where a pipe takes its stderr).
	cmd=
	while IFS= read -r line; do
		if [[ $line == "# "* ]]; then
			cmd=${line#"# "} said=0
		elif [[ $line == "#> exit "* ]]; then
			if [[ $cmd == "scripts/sandbox "* && $cmd != *"|"* ]] && ((!said)); then
				fail "not refused: $cmd"
			fi
		elif [[ $line == *"$REFUSAL" ]]; then
			said=1
		fi
	done < "$T/outside.log"
'

step "every command that changes something starts with scripts/sandbox" --host-only '
	writers="mkdir|rmdir|rm|mv|ln|mount|umount|tc|ip|env|unshare|bpftool (map|iter) pin|tests/bin/helpers/pinctl (map|get|xdp|tailcall|upgrade|send|pin-at|hold)"
	course_commands | while IFS= read -r cmd; do
		body=${cmd#"("} body=${body#umask * }
		if [[ $body =~ ^(\./fds_example.* -(P|v)|$writers)( |$) ]]; then
			echo "unguarded: $cmd"
		fi
	done > "$T/unguarded"
	[[ ! -s $T/unguarded ]] || fail "$(<"$T/unguarded")"
'

# The course's text, in order, for the glossary check: the chapters one
# after the other, fenced blocks left in (a word in a command is used too).
step "each glossary word is explained at or before its first use, in the course's order" --host-only '
	cat "${COURSE[@]}" > "$T/course"
	mapfile -t defs < <(grep -n -E "^- (An? )?\*\*[^*]+\*\*" "$T/course")
	((${#defs[@]} >= 20)) || fail "only ${#defs[@]} glossary entries"
	for def in "${defs[@]}"; do
		at=${def%%:*}
		[[ $def =~ \*\*([^*]+)\*\* ]]
		IFS=, read -ra terms <<< "${BASH_REMATCH[1]//\`/}"
		for term in "${terms[@]}"; do
			term=${term# } term=${term#The } term=${term#the }
			re="(^|[^[:alnum:]_])${term//./[.]}([^[:alnum:]_.]|[.]([^[:alnum:]]|\$)|\$)"
			first=$(grep -n -i -m 1 -E "$re" "$T/course" | cut -d: -f1)
			[[ -n $first ]] || { echo "$term: defined (line $at), never found" >&2; continue; }
			((first >= at)) || echo "$term: used at line $first of the course, explained at line $at: $(sed -n "${first}p" "$T/course")"
		done
	done > "$T/early"
	[[ ! -s $T/early ]] || fail "$(<"$T/early")"
'

step "the chapters read as one course: opening, Next, summary and command table" --host-only '
	next=(beyond-one-shell.md after-2015.md "")
	before=("" walkthrough.md beyond-one-shell.md)
	for i in 0 1 2; do
		doc=${COURSE[i]}
		head -n 12 "$doc" | grep -q "Chapter $((i + 1)) of 3" || fail "$doc: no \"Chapter $((i + 1)) of 3\" at the top"
		head -n 30 "$doc" | grep -q "^make tutorial\$" || fail "$doc: does not open with make tutorial"
		if [[ -n ${before[i]} ]]; then
			head -n 12 "$doc" | grep -q "(${before[i]})" || fail "$doc: its opening does not name ${before[i]}"
		fi
		last_next=$(grep "^Next" "$doc" | tail -n 1)
		if [[ -n ${next[i]} ]]; then
			[[ $last_next == *"(${next[i]})"* ]] || fail "$doc: Next [$last_next], not ${next[i]}"
		fi
		grep -q "^##* Summary\$" "$doc" || fail "$doc: no Summary"
		sed -n "/^##* Summary\$/,\$p" "$doc" | grep -q "^| command | what it taught |\$" ||
			fail "$doc: no table of its commands after the summary"
	done
	# The answers start from a reset sandbox that check answers agrees with.
	course_commands | grep -n -x -E "reset|check answers|scripts/sandbox ./fds_example -F \\\$FS/m -P -m -k 1 -v 24" > "$T/order"
	grep -q "reset" "$T/order" && grep -q "check answers" "$T/order" || fail "no reset and check answers"
'

# order_in FILE: the course's chapters in the order FILE first names them.
order_in()
{
	sed 's/\\-/-/g' "$1" | grep -o -E '(walkthrough|beyond-one-shell|after-2015)\.md' |
		awk '!seen[$0]++' | paste -s -d ' '
}

step "the README and the man page give the course in the same order as the chapters" --host-only '
	want="walkthrough.md beyond-one-shell.md after-2015.md"
	[[ $(order_in README.md) == "$want" ]] || fail "README.md: $(order_in README.md)"
	sed -n "/^\.SH SEE ALSO/,\$p" fds_example.8 > "$T/see-also"
	[[ $(order_in "$T/see-also") == "$want" ]] || fail "fds_example.8 SEE ALSO: $(order_in "$T/see-also")"
	grep -q "make tutorial" README.md || fail "README.md does not name make tutorial"
	grep -q "^\.B make tutorial" "$T/see-also" || fail "the SEE ALSO does not name make tutorial"
'

step "make walkthrough-tools, in a clean copy of the tree, builds every program the chapters run" \
	--host-only --needs make '
	mkdir "$T/tree"
	# the tree without what make builds or fetches: a copy, then make
	# clean (make mutate and make coverage run the suite in copies that
	# are no git work trees)
	tar -C "$TOP" --exclude=./.git --exclude=./.cache --exclude=./build \
		--exclude=./fuzz/work -cf - . | tar -xf - -C "$T/tree"
	make -C "$T/tree" -s clean > "$T/make.log" 2>&1 || fail "make clean failed: $(<"$T/make.log")"
	[[ ! -e $T/tree/fds_example && ! -e $T/tree/tests/bin ]] || fail "make clean left build outputs"
	make -C "$T/tree" -j2 walkthrough-tools CACHE="$T/nocache" > "$T/make.log" 2>&1 ||
		fail "make walkthrough-tools failed: $(tail -n 20 "$T/make.log")"
	course_commands | grep -o -E "(\./)?(fds_example|sockex1_kern\.o|examples/[a-z_]+|tests/bin/[A-Za-z0-9_./-]+|scripts/[a-z_.]+)" |
		sed "s|^\./||" | sort -u > "$T/tools"
	(($(line_count "$T/tools") >= 8)) || fail "only these: $(<"$T/tools")"
	while read -r tool; do
		[[ -e $T/tree/$tool ]] || echo "not built: $tool"
	done < "$T/tools" > "$T/missing"
	[[ ! -s $T/missing ]] || fail "$(<"$T/missing")"
	# A tree under /tmp, which the sandbox covers with its own: shown again.
	"$T/tree/scripts/tutorial.sh" -c "check start && pwd && fds_example -F \$FS/m -P -m -k 1 -v 24 && check answers" \
		> "$T/out" 2>&1 || fail "$(<"$T/out")"
	expect_out "check start: as expected" "$T/tree" "bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: fd:3 u->(1:24) ret:(0,Success)" "check answers: as expected"
'
scenario_end
