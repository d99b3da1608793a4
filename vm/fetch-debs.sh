#!/usr/bin/env bash
# Fetches a group of data/arch-packages for one architecture from Debian's
# archive, through the project's own apt state (vm/apt.sh), and unpacks it
# with dpkg-deb -x into CACHE/foreign/ARCH/GROUP, whose path it prints.
# The "guest" group comes with its whole dependency closure (one choice per
# alternative: the first that names a real package), the others alone.
# The .deb files are kept in CACHE/foreign/ARCH/debs; an unpacked tree is
# reused while the archive lists the same files.
# Usage: fetch-debs.sh CACHE ARCH GROUP
set -euo pipefail

cache=${1:?usage: fetch-debs.sh CACHE ARCH GROUP}
arch=${2:?usage: fetch-debs.sh CACHE ARCH GROUP}
group=${3:?usage: fetch-debs.sh CACHE ARCH GROUP}
mkdir -p "$cache/apt"
cache=$(cd "$cache" && pwd)

die() { echo "fetch-debs: $*" >&2; exit 1; }
# shellcheck disable=SC2034 # read by vm/apt.sh
APT_CACHE=$cache/apt
# shellcheck source=vm/apt.sh
. "$(dirname "$0")/apt.sh"

suite='' pkgs=()
while IFS=: read -r name list; do
	[[ -z $name || $name == \#* ]] && continue
	[[ $name == suite ]] && read -r suite <<< "$list"
	[[ $name == "$group" ]] && read -ra pkgs <<< "$list"
done < "$(dirname "$0")/../data/arch-packages"
[[ -n $suite ]] || die "no suite: line in data/arch-packages"
((${#pkgs[@]})) || die "no group '$group' in data/arch-packages"

# direct_deps PKG...: the packages PKG... depend on (Depends, Pre-Depends),
# one per line: of each group of alternatives the first real package, or
# the first provider of the first virtual one that has one.
direct_deps()
{
	# shellcheck disable=SC2046
	apt-cache $(apt_opts "$suite" "$arch") depends --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$@" |
	awk '
		/^[^ ]/ { cont = 0; waiting = 0; next }
		/^ [ |](Pre)?Depends: / {
			if (!cont)
				done = 0
			cont = substr($0, 2, 1) == "|"
			waiting = 0
			if (done)
				next
			if ($2 ~ /^</)
				waiting = 1
			else {
				print $2
				done = 1
			}
			next
		}
		/^    [^ ]/ && waiting && !done { print $1; done = 1; waiting = 0 }
	'
}

# closure PKG...: PKG... and everything they depend on, one per line.
closure()
{
	local -A seen=()
	local next=("$@") new p
	while ((${#next[@]})); do
		new=()
		for p in "${next[@]}"; do
			[[ -n ${seen[$p]:-} ]] && continue
			seen[$p]=1
			new+=("$p")
		done
		((${#new[@]})) || break
		mapfile -t next < <(direct_deps "${new[@]}" | sort -u)
	done
	printf '%s\n' "${!seen[@]}" | sort
}

prepare_suite "$suite" "$arch"
if [[ $group == guest ]]; then
	mapfile -t pkgs < <(closure "${pkgs[@]}")
fi

# The files the archive gives for them now: "NAME URI" per package.
# shellcheck disable=SC2046
uris=$(apt-get $(apt_opts "$suite" "$arch") -q --print-uris download "${pkgs[@]}" 2>&1) ||
	die "$arch $group: apt-get download --print-uris: $uris"
debs=$cache/foreign/$arch/debs
out=$cache/foreign/$arch/$group
mkdir -p "$debs"
files=() missing=()
while read -r uri file _; do
	[[ $uri == \'*\' ]] || continue
	files+=("$file")
	# the file is NAME_VERSION_ARCH.deb
	[[ -f $debs/$file ]] || missing+=("${file%%_*}")
done <<< "$uris"
if ((${#missing[@]})); then
	echo "fetch-debs: $arch: downloading ${#missing[@]} packages from $suite" >&2
	tmp=$(mktemp -d "$debs/.fetch.XXXXXX")
	apt_download "$suite" "$arch" "$tmp" "${missing[@]}" ||
		{ rm -rf "$tmp"; die "$arch: apt-get download ${missing[*]} failed"; }
	mv "$tmp"/*.deb "$debs/"
	rm -rf "$tmp"
fi
for f in "${files[@]}"; do
	[[ -f $debs/$f ]] || die "$arch $group: $f was not downloaded"
done
((${#files[@]} == ${#pkgs[@]})) ||
	die "$arch $group: ${#pkgs[@]} packages but ${#files[@]} files to fetch: $uris"

stamp=$(printf '%s\n' "${files[@]}")
if [[ ! -f $out/.files || $(<"$out/.files") != "$stamp" ]]; then
	rm -rf "$out.new"
	mkdir -p "$out.new"
	for f in "${files[@]}"; do
		dpkg-deb -x "$debs/$f" "$out.new" || die "cannot unpack $f"
	done
	echo "$stamp" > "$out.new/.files"
	rm -rf "$out"
	mv "$out.new" "$out"
fi
echo "$out"
