#!/usr/bin/env bash
# Fetches the kernels of data/kernels from Debian's archive with
# apt-get download and prints one "LABEL PATH-TO-VMLINUZ" line per kernel.
# Each suite has its own sources list, lists and cache under CACHE/apt/SUITE,
# handed to apt through -o options: the system's apt configuration is only
# read (for the archive's address), never changed. An unpacked vmlinuz is
# reused; lists are refreshed when a day old (FETCH_UPDATE=1: now).
#   KERNELS=5.10,6.12   a subset of the labels of data/kernels
# Any kernel that cannot be fetched ends the script with a message and exit 1.
# Usage: fetch-kernels.sh CACHE
set -euo pipefail

cache=${1:?usage: fetch-kernels.sh CACHE}
mkdir -p "$cache/kernels" "$cache/apt"
cache=$(cd "$cache" && pwd)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

die() { echo "fetch-kernels: $*" >&2; exit 1; }

# label, suite, meta-package naming the newest image of the series
matrix=()
while read -r label suite meta _; do
	[[ -z $label || $label == \#* ]] || matrix+=("$label $suite $meta")
done < "$(dirname "$0")/../data/kernels"
((${#matrix[@]})) || die "no kernel in data/kernels"

wanted=()
if [[ -n ${KERNELS:-} ]]; then
	IFS=, read -ra wanted <<< "$KERNELS"
	for w in "${wanted[@]}"; do
		found=0
		for m in "${matrix[@]}"; do
			[[ ${m%% *} == "$w" ]] && found=1
		done
		((found)) || die "KERNELS: no kernel labelled '$w' in data/kernels (known: ${matrix[*]%% *})"
	done
fi

# The archive and security archive URIs of the host's own apt sources
# (deb822 .sources files or the one-line format).
archive='' security=''
read_sources()
{
	local f line uris suites u
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		# one stanza per paragraph: print "URIS|SUITES" for deb stanzas
		while IFS='|' read -r uris suites; do
			for u in $uris; do
				if [[ " $suites" == *-security* ]]; then
					security=${security:-$u}
				else
					archive=${archive:-$u}
				fi
			done
		done < <(awk -v RS= -F '\n' '{
				t = u = s = ""
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^Types:/) t = $i
					if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u) }
					if ($i ~ /^Suites:/) { s = $i; sub(/^Suites:[ \t]*/, "", s) }
				}
				if (t ~ /(^|[ \t])deb([ \t]|$)/ && u != "") print u "|" s
			}' "$f")
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		while read -r line; do
			# deb [options] URI SUITE COMPONENT...
			[[ $line =~ ^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+([^[:space:]]+) ]] ||
				continue
			u=${BASH_REMATCH[2]} suites=${BASH_REMATCH[3]}
			if [[ $suites == *-security* ]]; then
				security=${security:-$u}
			else
				archive=${archive:-$u}
			fi
		done < "$f"
	done
}
read_sources
[[ -n $archive ]] || die "no Debian archive URI in /etc/apt/sources.list{,.d} to fetch from"

apt_opts()
{
	local d=$cache/apt/$1
	echo "-o Dir::Etc::sourcelist=$d/sources.list -o Dir::Etc::sourceparts=-" \
	     "-o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache" \
	     "-o Dir::State::status=$d/status" \
	     "$( ((EUID == 0)) && echo "-o APT::Sandbox::User=root")"
}

# Writes SUITE's sources list and refreshes its lists when missing or old.
prepare_suite()
{
	local suite=$1 d=$cache/apt/$1 list
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	: > "$d/status.new"
	mv "$d/status.new" "$d/status"
	list="deb [signed-by=$keyring] $archive $suite main"
	if [[ $suite != sid ]]; then
		list+=$'\n'"deb [signed-by=$keyring] $archive $suite-updates main"
		[[ -z $security ]] ||
			list+=$'\n'"deb [signed-by=$keyring] $security $suite-security main"
	fi
	if [[ ! -f $d/sources.list || $(<"$d/sources.list") != "$list" ]]; then
		echo "$list" > "$d/sources.list"
		rm -f "$d/updated"
	fi
	if [[ ${FETCH_UPDATE:-0} == 1 ]] ||
	   [[ ! -f $d/updated || -n $(find "$d/updated" -mmin +1440) ]]; then
		echo "fetch-kernels: apt-get update for $suite" >&2
		# shellcheck disable=SC2046
		apt-get $(apt_opts "$suite") -q update > "$d/update.log" 2>&1 ||
			{ cat "$d/update.log" >&2; die "apt-get update for $suite failed"; }
		# apt-get update exits 0 on some fetch errors; a missing index is one
		if grep -qE '^(W|E): (Failed|Some index files failed)' "$d/update.log"; then
			cat "$d/update.log" >&2
			die "apt-get update for $suite could not fetch every index"
		fi
		touch "$d/updated"	# (apt dates the lists by the archive's clock)
	fi
}

# first_dep SUITE PKG PATTERN: PKG's first dependency whose name matches.
first_dep()
{
	local out
	# shellcheck disable=SC2046
	out=$(apt-cache $(apt_opts "$1") depends "$2" 2>&1) ||
		{ echo "fetch-kernels: apt-cache depends $2 ($1): $out" >&2; return 1; }
	awk -v re="$3" '$1 == "Depends:" && $2 ~ re && !found { print $2; found = 1 }' <<< "$out"
}

# fetch LABEL SUITE META: the vmlinuz of META's current image, fetched once.
fetch()
{
	local label=$1 suite=$2 meta=$3 pkg bin dir tmp k
	prepare_suite "$suite"
	# apt-cache reads all of a suite's lists (a second each): the answer is
	# kept until the lists are next refreshed.
	local resolved=$cache/apt/$suite/resolved.$meta
	if [[ -s $resolved && $resolved -nt $cache/apt/$suite/updated ]]; then
		pkg=$(<"$resolved")
	else
		pkg=$(first_dep "$suite" "$meta" '^linux-image-[0-9]') || pkg=''
		[[ -n $pkg ]] || die "$label: cannot resolve $meta in $suite"
		echo "$pkg" > "$resolved"
	fi
	dir=$cache/kernels/$pkg
	if [[ ! -f $dir/vmlinuz ]]; then
		tmp=$(mktemp -d "$cache/kernels/.fetch.XXXXXX")
		echo "fetch-kernels: $label: downloading $pkg from $suite" >&2
		# shellcheck disable=SC2046
		(cd "$tmp" && apt-get $(apt_opts "$suite") -q download "$pkg" > /dev/null) ||
			{ rm -rf "$tmp"; die "$label: apt-get download $pkg failed"; }
		# Since 7.x the image package is a stub; the kernel is in linux-binary.
		bin=$(first_dep "$suite" "$pkg" '^linux-binary-[0-9]') ||
			{ rm -rf "$tmp"; die "$label: cannot read the dependencies of $pkg"; }
		if [[ -n $bin ]]; then
			echo "fetch-kernels: $label: downloading $bin from $suite" >&2
			# shellcheck disable=SC2046
			(cd "$tmp" && apt-get $(apt_opts "$suite") -q download "$bin" > /dev/null) ||
				{ rm -rf "$tmp"; die "$label: apt-get download $bin failed"; }
		fi
		for deb in "$tmp"/*.deb; do
			dpkg-deb -x "$deb" "$tmp/x" ||
				{ rm -rf "$tmp"; die "$label: cannot unpack $deb"; }
		done
		k=$(find "$tmp/x/boot" "$tmp/x/usr/lib/modules" -maxdepth 2 \
			\( -name 'vmlinuz-*' -o -name vmlinuz \) -type f -print -quit 2>/dev/null) || true
		if [[ -z $k ]]; then
			rm -rf "$tmp"
			die "$label: no vmlinuz in $pkg${bin:+ or $bin}"
		fi
		mkdir -p "$dir.new"
		cp "$k" "$dir.new/vmlinuz"
		rm -rf "$tmp" "$dir"
		mv "$dir.new" "$dir"
	fi
	echo "$label $dir/vmlinuz"
}

for m in "${matrix[@]}"; do
	read -r label suite meta <<< "$m"
	if ((${#wanted[@]})); then
		skip=1
		for w in "${wanted[@]}"; do
			[[ $w == "$label" ]] && skip=0
		done
		((skip)) && continue
	fi
	fetch "$label" "$suite" "$meta"
done
