#!/usr/bin/env bash
# The course's chapters, docs/walkthrough.md, docs/beyond-one-shell.md and
# docs/after-2015.md, cannot drift from the program: every "# command" line
# of their console blocks is run, in order, in a shell with its own mount
# and network namespaces set up as make tutorial's sandbox
# (scripts/tutorial.sh: its functions, $FS, $FDS_TUTORIAL), and what it
# prints must match the lines shown under it
# ({N} stands for a number, {...} for anything). Each chapter starts from a
# fresh sandbox: the replay runs reset first. Also: the man page lints
# clean and make install puts the three files where they belong.
# Each command is one step; WALKTHROUGH_PRINT=1 also prints what each
# command really printed, for authors.
# net.core.bpf_jit_enable is seen only from the first network namespace.
if [[ -z ${FDS_NETNS:-} ]]; then
	FDS_JIT_ENABLE=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null) \
		FDS_NETNS=1 exec unshare --net bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
scenario_begin

# docs/beyond-one-shell.md is replayed by tests/scenarios/walkthrough_beyond.sh
# (REPLAY_PART=beyond; it sources this file): a test of its own, which make
# check-vm's guests can run beside this one.
part=${REPLAY_PART:-walkthrough}
if [[ $part == beyond ]]; then
	docs=("$TOP/docs/beyond-one-shell.md")
else
	docs=("$TOP/docs/walkthrough.md" "$TOP/docs/after-2015.md")
fi
# The sandbox, as scripts/tutorial.sh makes it, in the test's own
# namespaces and directories: the documents' /tmp/bpffs is $T/bpffs, their
# /tmp/second $T/second (where reset looks for mounts to undo).
if [[ ! -f $TOP/scripts/tutorial.sh || ! -x $TOP/scripts/sandbox ]]; then
	ktap_line "Bail out! no scripts/tutorial.sh and scripts/sandbox here: the chapters run them"
	exit 1
fi
mkdir -p "$T/bpffs"
mount -t bpf bpf "$T/bpffs" || exit 1
ip link set dev lo up || exit 1
FS=$T/bpffs
FDS_TUTORIAL_SCRATCH=$T/second
# shellcheck source=scripts/tutorial.sh
. "$TOP/scripts/tutorial.sh"
FDS_TUTORIAL=$(tutorial_ns)
export FS FDS_TUTORIAL FDS_TUTORIAL_SCRATCH
# subst TEXT: sets SUBST to TEXT with the document's directories made the
# test's (no subshell: it runs twice a step).
subst() { SUBST=${1//\/tmp\/bpffs/$T/bpffs}; SUBST=${SUBST//\/tmp\/second/$T/second}; }

# glob LINE: sets GLOB to the expected line as a [[ == ]] pattern: each
# character a pattern gives meaning to quoted, then {N} as +([0-9]) and
# {...} as * (builtins, a few replacements per line: a loop over each
# character costs ~10 ms a line in a guest under TCG).
glob()
{
	local c
	GLOB=$1
	for c in "\\" '*' '?' '[' ']' '(' ')' '|' '@' '!' '+'; do
		GLOB=${GLOB//"$c"/\\$c}
	done
	GLOB=${GLOB//'{N}'/+([0-9])}
	GLOB=${GLOB//'{...}'/*}
}

cmds=() outs=()
in_block=0 cur=-1
# doc_commands: the documents' console blocks, from stdin, appended to
# cmds (each "# command" line) and outs (the lines shown under it).
doc_commands()
{
	local line
	while IFS= read -r line; do
		if [[ $line == '```console' ]]; then
			in_block=1
			continue
		fi
		if [[ $line == '```' ]]; then
			in_block=0
			continue
		fi
		((in_block)) || continue
		if [[ $line == '# '* ]]; then
			cur=${#cmds[@]}
			cmds+=("${line#'# '}")
			outs+=("")
		elif ((cur >= 0)); then
			outs[cur]+="$line"$'\n'
		fi
	done
}
# Each chapter starts from make tutorial: reset stands for it.
for doc in "${docs[@]}"; do
	cmds+=(reset)
	outs+=("reset: /tmp/bpffs is empty, nothing is attached to lo"$'\n')
	in_block=0 cur=-1
	doc_commands < "$doc"
done

# The document's shell variables (a command that starts NAME=...) carry from
# one command's step to the next through $T/doc.vars: doc_load and doc_save
# run in the step's own shell, where the command runs too.
doc_load()
{
	if [[ -f $T/doc.vars ]]; then
		. "$T/doc.vars"
	fi
}

doc_save()
{
	local name
	if [[ $1 =~ ^([A-Za-z_][A-Za-z0-9_]*)= ]]; then
		echo "${BASH_REMATCH[1]}" >> "$T/doc.names"
	fi
	[[ -f $T/doc.names ]] || return 0
	while read -r name; do
		printf '%s=%q\n' "$name" "${!name}"
	done < "$T/doc.names" > "$T/doc.vars"
}

# expect_printed SHOWN: what the command printed ($T/wo) matches the lines
# the document shows under it, line for line.
expect_printed()
{
	local got want j
	mapfile -t got < "$T/wo"
	want=()
	if [[ -n $1 ]]; then
		subst "${1%$'\n'}"
		mapfile -t want <<< "$SUBST"
	fi
	if ((${#got[@]} != ${#want[@]})); then
		printf 'got: %s\n' "${got[@]}"
		fail "printed ${#got[@]} lines, the document shows ${#want[@]}"
		return
	fi
	for j in "${!want[@]}"; do
		glob "${want[j]}"
		# shellcheck disable=SC2053 # a pattern, on purpose
		[[ ${got[j]} == $GLOB ]] && continue
		printf 'got: %s\n' "${got[@]}"
		fail "line $((j + 1)): got [${got[j]}], the document shows [${want[j]}]"
		return
	done
}

# The documents show an x86_64 machine. Where this machine differs from it
# in one of three known ways, the replay rewrites a command or what the
# document shows under it, and says so in the step's name:
# - big-endian (s390x): bpftool's keys and values are bytes in memory
#   order, so each list of them (after "key" or "value" in a command,
#   after "key:" or "value:" in its output) is reversed: every key and
#   value in the documents is one integer;
# - net.core.bpf_jit_enable 0, programs run in the interpreter: bpftool
#   shows "not jited" where the document shows "jited {N}B";
# - no kernel BTF (Debian's s390x 6.1): bpftool iter pin is refused, and
#   the iterator's pin is then missing.
# - bpffs drops a pin's reference after an RCU grace period (Debian's
#   5.10): for a moment after the last pin goes, the map's id still
#   resolves, so before "bpftool map show id $id", which the documents
#   show failing, the replay waits (up to 5 s) for the id to go.
# Each also has a kernel-matrix row: prog-jited, iter-pin-bpftool,
# unlink-last-pin-map-id (tests/helpers/map_ids unlink, probed here on a
# bpffs of the test's own).
# (BIG_ENDIAN: lib.sh's)
JIT_OFF=$([[ ${FDS_JIT_ENABLE:-} == [12] ]] && echo 0 || echo 1)
NO_BTF=$([[ -r /sys/kernel/btf/vmlinux ]] && echo 0 || echo 1)
PUT_DEFERRED=0
step "setup: when this kernel frees a map whose only pin goes" '
	mkdir "$T/probe"
	mount -t bpf bpf "$T/probe"
	when_finished umount "$T/probe"
	when=$(tests/bin/helpers/map_ids unlink "$T/probe/m") || fail "map_ids unlink failed"
	if [[ $when == after-rcu-grace-period ]]; then
		echo 1 > "$T/put_deferred"
	fi
'
[[ -f $T/put_deferred ]] && PUT_DEFERRED=1
# until_map_gone ID: waits up to 5 s until map ID no longer resolves; says
# so when it still does.
until_map_gone()
{
	wait_while 50 0.1 bpftool map show id "$1" ||
		echo "map id $1 still exists after 5 s"
}

# has_xdp DEV: status 0 when DEV has an XDP program attached.
has_xdp()
{
	[[ $(ip link show dev "$1") == *xdp* ]]
}

# until_xdp_gone DEV: waits up to 5 s until DEV has no XDP program; says
# so when it still has one.
until_xdp_gone()
{
	wait_while 50 0.1 has_xdp "$1" ||
		echo "$1 still has an XDP program after 5 s"
}

# reverse_lists LINE KEYWORDS...: LINE with the list of hex or decimal
# bytes after each keyword reversed; the spaces between words stay as they
# were.
reverse_lists()
{
	local rest=$1 k in=0 i j t a b
	local -a seps=() words=() list=()
	while [[ $rest =~ ^([[:space:]]*)([^[:space:]]+)(.*)$ ]]; do
		seps+=("${BASH_REMATCH[1]}") words+=("${BASH_REMATCH[2]}")
		rest=${BASH_REMATCH[3]}
	done
	for i in "${!words[@]}" end; do
		if [[ $i != end ]] && ((in)) &&
		   [[ ${words[i]} =~ ^(0x)?[0-9a-fA-F]{1,2}$ ]]; then
			list+=("$i")
			continue
		fi
		for ((j = 0; j < ${#list[@]} / 2; j++)); do
			a=${list[j]} b=${list[-1 - j]}
			t=${words[a]}
			words[a]=${words[b]} words[b]=$t
		done
		list=() in=0
		[[ $i == end ]] && break
		for k in "${@:2}"; do
			[[ ${words[i]} == "$k" ]] && in=1
		done
	done
	for i in "${!words[@]}"; do
		printf '%s%s' "${seps[i]}" "${words[i]}"
	done
	printf '%s' "$rest"
}

# variant CMD SHOWN: sets vcmd, vshown and vnote for this machine.
variant()
{
	local line acc=''
	vcmd=$1 vshown=$2 vnote=
	if ((BIG_ENDIAN)) && [[ $1 == "bpftool map "* ]]; then
		vcmd=$(reverse_lists "$1" key value)
		while IFS= read -r line; do
			[[ $line == "key: "* ]] && line=$(reverse_lists "$line" key: value:)
			acc+=$line$'\n'
		done <<< "${2%$'\n'}"
		[[ -n $2 ]] && vshown=$acc
		[[ $vcmd != "$1" || $vshown != "$2" ]] &&
			vnote=" (big-endian: bytes reversed)"
	fi
	if ((JIT_OFF)) && [[ $vshown == *"jited {N}B"* ]]; then
		vshown=${vshown//jited \{N\}B/not jited} vnote=" (no JIT: not jited)"
	fi
	if ((PUT_DEFERRED)) && [[ $1 == 'bpftool map show id $id'* ]]; then
		vcmd="until_map_gone \$id; $1"
		vnote=" (a pin's reference goes after an RCU grace period: waited for the id)"
	fi
	# The reader sleeps a second for the link to go (from a work queue);
	# the replay waits for lo to lose the program, as long as it takes.
	if [[ $1 == *"rm "*"; sleep 1" ]]; then
		vcmd="${1%; sleep 1}; until_xdp_gone lo"
		vnote=" (waited until lo had no XDP program)"
	fi
	if ((NO_BTF)) && [[ $1 == *"bpftool iter pin "* ]]; then
		vshown=$'libbpf: failed to find valid kernel BTF\nlibbpf: Error loading vmlinux BTF: {...}\nlibbpf: failed to load object {...}\nError: can\'t load objfile {...}\n'
		vnote=" (no kernel BTF: refused)"
	elif ((NO_BTF)) && [[ $2 == "map {N}"$'\n' && $1 == "grep "* ]]; then
		vshown=$'grep: {...}: No such file or directory\n'
		vnote=" (no kernel BTF: no iterator)"
	fi
}

step "the walkthrough has commands to check" '((${#cmds[@]} > 20))'

# WALKTHROUGH_PRINT=1: each command and what it printed, on the scenario's
# stderr (fd 9, which the commands do not get: fds_example prints its fds),
# for authors.
exec 9>&2
for i in "${!cmds[@]}"; do
	# The reader leaves the sandbox with this; the test stays.
	[[ ${cmds[i]} == exit ]] && continue
	variant "${cmds[i]}" "${outs[i]}"
	step "walkthrough: ${cmds[i]}$vnote" '
		doc_load
		set +e
		subst "$1"
		eval "$SUBST" > "$T/wo" 2>&1 < /dev/null 9>&-
		set -e
		doc_save "$1"
		if [[ -n ${WALKTHROUGH_PRINT:-} ]]; then
			{ printf "# %s\n" "$1"; cat "$T/wo"; } >&9
		fi
		expect_printed "$2"
	' "$vcmd" "$vshown"
done
# The rest checks the tree once: walkthrough_beyond.sh has replayed its
# chapter.
[[ $part == beyond ]] && scenario_end

# excerpts_match DOC SOURCE: each ```c block of DOC is in SOURCE, line for
# line; prints how many blocks there were.
excerpts_match()
{
	local src line block='' in_c=0 n=0
	src=$(< "$2")
	while IFS= read -r line; do
		if [[ $line == '```c' ]]; then
			in_c=1 block=''
		elif ((in_c)) && [[ $line == '```' ]]; then
			in_c=0 n=$((n + 1))
			if [[ $src != *"${block%$'\n'}"* ]]; then
				echo "excerpt $n is not in $2: ${block%%$'\n'*}" >&2
				return 1
			fi
		elif ((in_c)); then
			block+=$line$'\n'
		fi
	done < "$1"
	echo "$n"
}

# Sources are the same on every kernel, and QEMU guests have none.
step "the walkthrough's C excerpts are libbpf.c as it is" --host-only '
	n=$(excerpts_match docs/walkthrough.md libbpf.c) || fail "see above"
	((n >= 3)) || fail "only $n excerpts"
'

# The man page, make install and the picture's source are the same on every
# kernel: QEMU guests (no mandoc, no make, no dot) leave them to the native
# run.
# The pictures are committed drawn (SVG and PNG), so that they can be seen
# without building; each drawing must be what Graphviz makes of its source
# now.
step "each docs/lifetimes*.svg and .png is its .dot as Graphviz draws it (make docs)" \
	--host-only --needs dot '
	here=$(dot -V 2>&1)
	for f in docs/lifetimes*.dot; do
		b=${f%.dot}
		drawn_by=$(grep -o -m 1 "graphviz version [^ ]*" "$b.svg") ||
			fail "$b.svg does not say which Graphviz drew it"
		[[ $here == *"$drawn_by"* ]] ||
			fail "$b.svg was drawn by $drawn_by, this is [$here]: compare with the Graphviz scripts/deps.sh installs"
		dot -Tsvg -o "$T/part.svg" "$f"
		dot -Tpng -o "$T/part.png" "$f"
		if ! cmp -s "$b.svg" "$T/part.svg"; then
			diff -u "$b.svg" "$T/part.svg" | head -n 40
			fail "$b.svg is not $f drawn: run make docs and commit all"
		fi
		cmp -s "$b.png" "$T/part.png" ||
			fail "$b.png is not $f drawn: run make docs and commit all"
	done
'

step "the man page lints clean (mandoc -Tlint)" --host-only --needs mandoc '
	mandoc -Tlint -W warning fds_example.8
	out=$(mandoc -Tascii fds_example.8 2>&1 | sed "s/.\x08//g")
	[[ $out == *"EXIT STATUS"* && $out == *"bpf: sock:"* ]] || fail "does not render"
'

# A pin that -P made is taken back when a later step fails; the line that
# says so is part of the output the man page describes.
step "the man page's OUTPUT names the line of a pin taken back" --host-only --needs mandoc '
	./fds_example -F "$FS/taken" -P -m -k 2000 -v 1 > /dev/null 2> "$T/undo.err" &&
		fail "a key past the end was stored"
	line=$(tail -n 1 "$T/undo.err")
	[[ $line == "fds_example: removed the new pin at $FS/taken" ]] ||
		fail "the last line is [$line]"
	[[ ! -e $FS/taken ]] || fail "the pin is still there"
	mandoc -Tascii fds_example.8 | sed "s/.\x08//g" | tr -s " \n" " " |
		sed -n "s/.*OUTPUT\(.*\)EXIT STATUS.*/\1/p" > "$T/output"
	grep -qF "\"${line% $FS/taken} file\"" "$T/output" ||
		fail "OUTPUT does not show [${line% $FS/taken} file]"
'

# make demo shows the 2015 session the way the documents show commands:
# root's "# " prompt, ./fds_example and $FS, FS set first.
step "make demo prints the documents' root prompts" --host-only '
	scripts/demo.sh > "$T/demo" 2>&1 || fail "$(<"$T/demo")"
	mapfile -t lines < "$T/demo"
	cmds=0 fs_set=0
	for line in "${lines[@]}"; do
		[[ $line != "\$ "* ]] || fail "a \$ prompt: [$line]"
		if [[ $line == "# FS=/"* ]]; then
			fs_set=1
		elif [[ $line == "# "* ]]; then
			((fs_set)) || fail "a command before FS is set: [$line]"
			[[ $line == "# ./fds_example -F \$FS/"* ]] || fail "not as the documents type it: [$line]"
			cmds=$((cmds + 1))
		fi
	done
	((cmds == 11)) || fail "$cmds commands, the 2015 session has 11"
'

prereq MAKEFILE "no Makefile here" '[[ -f Makefile ]]'

# The programs and objects of this tree the documents run, by the paths they
# run them under (./fds_example, tests/bin/helpers/pinctl...).
doc_tools()
{
	local cmd word
	for cmd in "${cmds[@]}"; do
		for word in $cmd; do
			[[ $word =~ ^(\./)?(fds_example|sockex1_kern\.o|examples/[a-z_]+|tests/bin/[A-Za-z0-9_./-]+)$ ]] &&
				echo "${BASH_REMATCH[2]}"
		done
	done | sort -u
}

# What the chapters say to run first: it must build all they run, without
# the kselftest header make check fetches (CACHE names an empty directory).
step "make walkthrough-tools builds every program the documents run, fetching no kselftest" \
	--host-only --needs make,MAKEFILE '
	make -n -B walkthrough-tools CACHE="$T/nocache" > "$T/plan" 2>&1 ||
		fail "$(<"$T/plan")"
	! grep -q fetch-kselftest "$T/plan" || fail "it fetches the kselftest header"
	mapfile -t tools < <(doc_tools)
	((${#tools[@]} >= 5)) || fail "only ${#tools[@]} programs found in the documents: ${tools[*]}"
	for tool in "${tools[@]}"; do
		grep -qF -- "-o $tool " "$T/plan" || fail "make walkthrough-tools does not build $tool"
	done
'
step "make install DESTDIR=... puts the binary, man page and object in place" \
	--host-only --needs make,MAKEFILE '
	make -s install DESTDIR="$T/dest" PREFIX=/usr > "$T/install.log" 2>&1 ||
		fail "$(<"$T/install.log")"
	[[ -x $T/dest/usr/bin/fds_example ]] || fail "no binary"
	cmp fds_example.8 "$T/dest/usr/share/man/man8/fds_example.8"
	cmp sockex1_kern.o "$T/dest/usr/share/fds_example/sockex1_kern.o"
	[[ $(cd "$T/dest" && find . -type f | wc -l) == 3 ]] || fail "not exactly 3 files"
	"$T/dest/usr/bin/fds_example" -h | grep -q "^Usage"
'
scenario_end
