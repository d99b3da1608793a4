#!/usr/bin/env bash
# A fresh Debian 12 (minbase, plus git and make) gets every package the
# tests and the demo need from `make deps`: each external command they call
# comes from a package data/packages lists, or from one of Debian's
# "required" packages that every installation has. The commands are the
# guest's tool list, data/guest-tools (what the scenarios and the runner
# run), and the native-only ones below.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# Which package installs a command is the host's dpkg database: the same in
# every kernel, and about the source tree's data/packages, so it is not
# installed by make kselftest-install (nor run in the guests):
# kselftest: source tree only

# Native-only commands: the walkthrough's `ip` (busybox's applet in a guest),
# man page lint and rendering, make install, the compat build, make lint
# (pmccabe for function length), the lifetimes picture's Graphviz source,
# the matrix tool and the KTAP check (Debian's python3, whatever else is
# first in PATH), and what vm/pvh-kernel.sh and its test run (ld, readelf,
# the decompressors).
native_only=(ip mandoc man make cc shellcheck perl pmccabe dot /usr/bin/python3
	     ld readelf zstd xz lz4 gzip od)

# read_lists: listed (the packages data/packages names, and what they
# depend on, " "-separated) and tools (the commands to account for).
read_lists()
{
	listed=" "
	while IFS=: read -r group pkgs; do
		[[ -z $group || $group == \#* ]] || listed+="$pkgs "
	done < data/packages

	# A listed package's direct dependencies and pre-dependencies count as
	# listed (gcc brings gcc-12, whose binary cc is; python3 python3-minimal).
	for pkg in $listed; do
		deps=$(dpkg-query -W -f='${Depends}, ${Pre-Depends}' "$pkg" 2> /dev/null) || continue
		for d in ${deps//,/ }; do
			[[ $d =~ ^[a-z0-9][a-z0-9.+-]+ ]] && listed+="${BASH_REMATCH[0]} "
		done
	done

	tools=()
	while read -r tool; do
		[[ -z $tool || $tool == \#* ]] || tools+=("$tool")
	done < data/guest-tools
	tools+=("${native_only[@]}")
}

# find_owners: path_of (each command's candidate paths) and owner (the
# package of each path).
find_owners()
{
	declare -gA path_of=() owner=()
	cands=()
	for cmd in "${tools[@]}"; do
		path=$(type -P "$cmd") || continue
		real=$(readlink -f "$path")
		path_of[$cmd]="$path $real /usr$path ${path#/usr} /usr$real ${real#/usr}"
		# shellcheck disable=SC2206 # word splitting is the point
		cands+=(${path_of[$cmd]})
	done
	while IFS= read -r line; do
		[[ $line == *": /"* ]] || continue
		pkg=${line%%: /*}
		# shellcheck disable=SC2034 # owner is read in a step body
		owner[/${line#*: /}]=${pkg%%[,:]*}
	done < <(dpkg -S "${cands[@]}" 2> /dev/null)
}

# provided_by_required CMD: some alternative for CMD comes from a required
# package.
provided_by_required()
{
	local alt owner
	while IFS= read -r alt; do
		owner=$(dpkg -S "$alt" 2> /dev/null) || continue
		owner=${owner%%:*}
		[[ $(dpkg-query -W -f="\${Priority}" "$owner" 2> /dev/null) == required ]] &&
			return 0
	done < <(update-alternatives --list "$1" 2> /dev/null)
	return 1
}

step "the command lists are read" '
	read_lists
	((${#tools[@]} > 40)) || fail "only ${#tools[@]} commands: ${tools[*]}"
	[[ $listed == *" bpftool "* ]] || fail "data/packages lists: $listed"
'

step "every command the tests call comes from a listed or required package" '
	read_lists
	find_owners
	bad=()
	for cmd in "${tools[@]}"; do
		[[ -n ${path_of[$cmd]:-} ]] || { bad+=("$cmd: not installed"); continue; }
		pkg=
		for p in ${path_of[$cmd]}; do
			pkg=${owner[$p]:-} && [[ -n $pkg ]] && break
		done
		if [[ -z $pkg ]]; then
			bad+=("$cmd (${path_of[$cmd]%% *}): no package owns it")
			continue
		fi
		[[ $listed == *" $pkg "* ]] && continue
		prio=$(dpkg-query -W -f="\${Priority}" "$pkg" 2> /dev/null)
		[[ $prio == required ]] && continue
		# An alternative (awk): another package installed here may have
		# taken the name over; a required package providing it will do.
		provided_by_required "$cmd" && continue
		bad+=("$cmd: from $pkg ($prio), which data/packages does not list")
	done
	((${#bad[@]} == 0)) || fail "$(printf "%s\n" "${bad[@]}")"
'
scenario_end
