#!/usr/bin/env bash
# make tutorial: the shell every chapter of the course starts from
# (docs/walkthrough.md, docs/beyond-one-shell.md, docs/after-2015.md).
#   scripts/tutorial.sh              an interactive shell, the course's
#   scripts/tutorial.sh -c 'CMDS'    CMDS in a fresh one, then gone (tests)
#   scripts/tutorial.sh < FILE       the commands of FILE, the same way
# The shell runs in a mount and a network namespace of its own (unshare):
# a tmpfs of its own on /tmp, a bpffs at /tmp/bpffs exported as $FS, an
# empty bpffs of its own on /sys/fs/bpf (a pin there reaches nothing of the
# machine's), the namespace's own lo, up; the tree's programs on PATH;
# "(fds-tutorial) " in front of the prompt. Leaving it (exit) ends the
# namespaces, and with them every mount, pin and attachment made inside.
# Inside, three commands:
#   reset        empties $FS and the namespace's lo, as make tutorial left them
#   check NAME   whether the sandbox holds what chapter step NAME expects
#   state        what the sandbox holds, as check compares it
# and scripts/sandbox CMD runs CMD only inside (the chapters' writing
# commands start with it).
# Sourced (as the shell's rc file, by scripts/sandbox, by the tests), this
# file only defines those functions.

# tutorial_ns: this process's mount and network namespaces, as the
# sandbox records them in $FDS_TUTORIAL ("mnt:[N] net:[N]").
tutorial_ns()
{
	echo "$(readlink /proc/self/ns/mnt 2> /dev/null) $(readlink /proc/self/ns/net 2> /dev/null)"
}

# tutorial_inside [WHO]: status 0 in the sandbox; otherwise says why not,
# and what to do, on stderr, as WHO. The sandbox is where $FDS_TUTORIAL
# names this process's namespaces, and (where PID 1's can be read: not in
# every container) neither is the machine's.
tutorial_inside()
{
	local who=${1:-sandbox} why='' ns init
	ns=$(tutorial_ns)
	init=$(readlink /proc/1/ns/mnt /proc/1/ns/net 2> /dev/null | tr '\n' ' ')
	if [[ -z ${FS:-} ]]; then
		why='$FS is not set: this is not the tutorial'"'"'s shell'
	elif [[ -z ${FDS_TUTORIAL:-} ]]; then
		why='this is not the tutorial'"'"'s shell (no $FDS_TUTORIAL)'
	elif [[ $ns != "$FDS_TUTORIAL" ]]; then
		why='these are not the tutorial'"'"'s namespaces'
	elif [[ -n $init && $init == "${ns%% *} "* ]]; then
		why='the mount namespace is the machine'"'"'s own'
	elif [[ -n $init && $init == *" ${ns##* } " ]]; then
		why='the network namespace is the machine'"'"'s own: lo is the machine'"'"'s'
	elif [[ $(stat -f -c %T "$FS" 2> /dev/null) != bpf_fs ]]; then
		why="$FS is not a bpffs any more (reset mounts one)"
	fi
	[[ -z $why ]] && return 0
	echo "$who: refused: $why; run make tutorial first, and this command in the shell it opens" >&2
	return 1
}

# tutorial_mounts: the mounts under /tmp other than $FS, the last made
# first (what the chapters mount on /tmp/second, bpftool's own). The tests,
# whose /tmp is the machine's, name their own directory in
# FDS_TUTORIAL_SCRATCH instead (a prefix of the mount points).
tutorial_mounts()
{
	local _ mnt list=()
	while read -r _ mnt _; do
		[[ $mnt == "${FDS_TUTORIAL_SCRATCH:-/tmp/}"* ]] || continue
		[[ $mnt != "$FS" && $mnt != "$FS"/* ]] || continue
		[[ -n ${FDS_TUTORIAL_TOP:-} && $mnt == "$FDS_TUTORIAL_TOP" ]] && continue
		list=("$mnt" "${list[@]}")
	done < /proc/self/mounts
	((${#list[@]})) && printf '%s\n' "${list[@]}"
	return 0
}

# lo_has_xdp: status 0 when the namespace's lo has an XDP program.
lo_has_xdp()
{
	[[ $(ip link show dev lo 2> /dev/null) == *xdp* ]]
}

# reset: $FS emptied (the kernel's dotted files stay), what the chapters
# mounted under /tmp unmounted, lo without qdisc or XDP program and up.
reset()
{
	local mnt i path
	tutorial_inside reset || return 1
	while read -r mnt; do
		umount -l "$mnt"
	done < <(tutorial_mounts)
	if [[ $(stat -f -c %T "$FS") != bpf_fs ]]; then
		mount -t bpf bpf "$FS" || return 1
	fi
	for path in "$FS"/*; do
		[[ ${path##*/} == *.* ]] || rm -rf -- "$path"
	done
	tc qdisc del dev lo clsact 2> /dev/null
	ip link set dev lo xdp off 2> /dev/null
	# A link-attached XDP program goes with the link's last pin, from a
	# work queue: a moment after its pin is removed.
	for ((i = 0; i < 50; i++)); do
		lo_has_xdp || break
		sleep 0.1
	done
	ip link set dev lo up
	if lo_has_xdp; then
		echo "reset: lo still has an XDP program: a process holds its link (jobs, or ps)" >&2
		return 1
	fi
	echo "reset: $FS is empty, nothing is attached to lo"
}

# u32_of BYTE...: the bytes bpftool prints, hex, as one unsigned number in
# this machine's order (byte 5 of the shell's ELF header: 2 for big-endian).
u32_of()
{
	local b n=0 ident=''
	LC_ALL=C read -r -N 6 ident < /proc/self/exe 2> /dev/null
	if [[ ${ident:5:1} == $'\x02' ]]; then
		for b in "$@"; do n=$((n * 256 + 16#$b)); done
	else
		for ((b = $#; b >= 1; b--)); do n=$((n * 256 + 16#${!b})); done
	fi
	echo "$n"
}

# pin_line PATH NAME: one line for the pin: its kind, and for a map with
# keys and values of at most 8 bytes, its entries that are not 0.
pin_line()
{
	local path=$1 name=$2 line entries=() k v value
	if bpftool map show pinned "$path" > /dev/null 2>&1; then
		while read -r line; do
			[[ $line =~ ^key:\ ([0-9a-f\ ]+)\ +value:\ ([0-9a-f\ ]+)$ ]] || continue
			read -ra k <<< "${BASH_REMATCH[1]}"
			read -ra v <<< "${BASH_REMATCH[2]}"
			((${#k[@]} <= 8 && ${#v[@]} <= 8)) || continue
			value=$(u32_of "${v[@]}")
			((value)) && entries+=("$(u32_of "${k[@]}")=$value")
		done < <(bpftool map dump pinned "$path" 2> /dev/null)
		echo "$name: map${entries[*]:+, }${entries[*]}"
	elif bpftool prog show pinned "$path" > /dev/null 2>&1; then
		echo "$name: program"
	elif bpftool link show pinned "$path" > /dev/null 2>&1; then
		echo "$name: link"
	else
		echo "$name: pin"
	fi
}

# state: what the sandbox holds, a line each: each name under $FS (the
# kernel's dotted ones left out), the mounts under /tmp, lo's qdisc and
# XDP program.
state()
{
	local path name paths
	tutorial_inside state || return 1
	# (builtins: every name under $FS, in C order, the dotted ones too)
	paths=$(shopt -s globstar dotglob nullglob; LC_ALL=C; printf '%s\n' "$FS"/**)
	while IFS= read -r path; do
		name=${path#"$FS"/}
		[[ -z $name || $name == "$path" ]] && continue
		[[ $name == *.* && $name != */* ]] && continue
		if [[ -L $path ]]; then
			echo "$name -> $(readlink "$path")"
		elif [[ -d $path ]]; then
			echo "$name/"
		else
			pin_line "$path" "$name"
		fi
	done <<< "$paths"
	tutorial_mounts | sed 's/^/mount: /'
	[[ $(tc qdisc show dev lo) == *clsact* ]] && echo "lo: qdisc clsact"
	lo_has_xdp && echo "lo: XDP program"
	[[ $(ip link show dev lo) == *'state DOWN'* ]] && echo "lo: down"
	return 0
}

# The states the chapters check for: start, as make tutorial and reset
# leave the sandbox; answers, what docs/walkthrough.md's answers start from.
TUTORIAL_CHECKS=(start answers)
declare -A TUTORIAL_EXPECTED=(
	[start]=''
	[answers]='m: map, 1=24'
)

# check NAME: whether the sandbox holds what NAME expects; if not, the
# difference, and how to get there.
check()
{
	local name=${1:-} want got line
	if [[ -z $name || -z ${TUTORIAL_EXPECTED[$name]+set} ]]; then
		echo "usage: check ${TUTORIAL_CHECKS[*]}" >&2
		return 2
	fi
	got=$(state) || return 1
	want=${TUTORIAL_EXPECTED[$name]}
	if [[ $got == "$want" ]]; then
		echo "check $name: as expected"
		return 0
	fi
	echo "check $name: the sandbox differs from what it expects"
	local -A in_want=() in_got=()
	mapfile -t want <<< "$want"
	mapfile -t got <<< "$got"
	for line in "${want[@]}"; do [[ -n $line ]] && in_want[$line]=1; done
	for line in "${got[@]}"; do [[ -n $line ]] && in_got[$line]=1; done
	for line in "${want[@]}"; do
		[[ -n $line && -z ${in_got[$line]:-} ]] && echo "  missing: $line"
	done
	for line in "${got[@]}"; do
		[[ -n $line && -z ${in_want[$line]:-} ]] && echo "  not expected: $line"
	done
	echo "(reset empties the sandbox; the chapter says what to run then)"
	return 1
}

# --- sourced: the functions above, and for an interactive shell its
# usual start-up files and the prompt.
if [[ ${BASH_SOURCE[0]} != "$0" ]]; then
	unset BASH_ENV
	if [[ $- == *i* ]]; then
		# --rcfile replaces these: read them as bash would.
		# shellcheck disable=SC1090,SC1091
		[[ -r /etc/bash.bashrc ]] && . /etc/bash.bashrc
		# shellcheck disable=SC1090
		[[ -r ~/.bashrc ]] && . ~/.bashrc
		PS1="(fds-tutorial) ${PS1:-# }"
		echo "The tutorial's sandbox: \$FS=$FS (a bpffs of its own), lo its own; reset starts over, exit leaves."
	fi
	return 0
fi

set -u
TOP=$(cd "${BASH_SOURCE[0]%/*}/.." && pwd) || exit 1
me=${0##*/}

# --- in the namespaces: the mounts, lo, the environment, then the shell.
if [[ ${1:-} == --inner ]]; then
	shift
	cd "$TOP" || exit 1
	# The machine's mounts under /tmp, copied into the namespace, go
	# (from it only): the sandbox's /tmp is its own.
	while read -r _ mnt _; do
		[[ $mnt == /tmp/* ]] && umount -l "$mnt" 2> /dev/null
	done < <(tac /proc/self/mounts)
	mount -t tmpfs -o mode=1777 fds-tutorial /tmp || exit 1
	if [[ $TOP == /tmp/* ]]; then
		# The tree was under the /tmp just covered: shown again at its
		# path (the working directory still reaches it).
		mkdir -p "$TOP" && mount --no-canonicalize --bind /proc/self/cwd "$TOP" &&
			cd "$TOP" || exit 1
		export FDS_TUTORIAL_TOP=$TOP
	fi
	mkdir /tmp/bpffs && mount -t bpf bpf /tmp/bpffs || exit 1
	if [[ -d /sys/fs/bpf ]]; then
		mount -t bpf bpf /sys/fs/bpf || exit 1
	fi
	ip link set dev lo up || exit 1
	FDS_TUTORIAL=$(tutorial_ns)
	export FS=/tmp/bpffs FDS_TUTORIAL
	export PATH=$TOP:$TOP/tests/bin/helpers:$TOP/examples:$TOP/scripts:$PATH
	if (($#)); then
		[[ $1 == -c ]] || exit 2
		BASH_ENV=$TOP/scripts/tutorial.sh exec bash -c "$2"
	fi
	if [[ -t 0 ]]; then
		exec bash --rcfile "$TOP/scripts/tutorial.sh" -i
	fi
	BASH_ENV=$TOP/scripts/tutorial.sh exec bash -s
fi

if (($# != 0)) && [[ $# != 2 || $1 != -c ]]; then
	echo "usage: $me [-c COMMANDS]" >&2
	exit 2
fi
if ((EUID != 0)); then
	echo "$me: the tutorial needs root (unshare, mount, bpf(2))" >&2
	exit 1
fi
if [[ -n ${FDS_TUTORIAL:-} ]] && tutorial_inside 2> /dev/null; then
	echo "$me: this is the tutorial's shell already: reset starts over, exit leaves it" >&2
	exit 1
fi
for tool in fds_example sockex1_kern.o examples/lo_watch tests/bin/helpers/pinctl \
	    tests/bin/helpers/map_ids; do
	if [[ ! -e $TOP/$tool ]]; then
		echo "$me: $tool is not built: make tutorial builds it (make walkthrough-tools)" >&2
		exit 1
	fi
done
exec unshare --mount --propagation private --net -- bash "$TOP/scripts/tutorial.sh" --inner "$@"
