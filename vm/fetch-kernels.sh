#!/usr/bin/env bash
# Fetches the kernels of data/kernels from Debian's archive with
# apt-get download and prints one "NAME PATH-TO-VMLINUZ" line per kernel:
# NAME is the kernel's label for amd64, ARCH-LABEL for the others (arm64-6.1).
# Each suite and architecture has its own apt state (vm/apt.sh): the
# system's apt configuration is only read, for the archive's address. An
# unpacked vmlinuz is reused; lists are refreshed when a day old
# (FETCH_UPDATE=1: now).
#   ARCH=arm64          the kernels of that architecture (default amd64)
#   KERNELS=5.10,6.12   a subset of that architecture's labels
# Any kernel that cannot be fetched ends the script with a message and exit 1.
# Usage: fetch-kernels.sh CACHE
set -euo pipefail

cache=${1:?usage: fetch-kernels.sh CACHE}
mkdir -p "$cache/kernels" "$cache/apt"
cache=$(cd "$cache" && pwd)
arch=${ARCH:-amd64}

die() { echo "fetch-kernels: $*" >&2; exit 1; }
# shellcheck disable=SC2034 # read by vm/apt.sh
APT_CACHE=$cache/apt
# shellcheck source=vm/apt.sh
. "$(dirname "$0")/apt.sh"

# label, suite, meta-package naming the newest image of the series, for
# this architecture
matrix=() arches=" "
while read -r label suite meta karch _; do
	[[ -z $label || $label == \#* ]] && continue
	[[ $arches == *" $karch "* ]] || arches+="$karch "
	[[ $karch == "$arch" ]] && matrix+=("$label $suite $meta")
done < "$(dirname "$0")/../data/kernels"
((${#matrix[@]})) || die "ARCH=$arch: no kernel of that architecture in data/kernels (known:$arches)"

wanted=()
if [[ -n ${KERNELS:-} ]]; then
	IFS=, read -ra wanted <<< "$KERNELS"
	for w in "${wanted[@]}"; do
		found=0
		for m in "${matrix[@]}"; do
			[[ ${m%% *} == "$w" ]] && found=1
		done
		((found)) || die "KERNELS: no $arch kernel labelled '$w' in data/kernels (known: ${matrix[*]%% *})"
	done
fi

# unpack NAME SUITE PKG: PKG's vmlinuz into CACHE/kernels/PKG; fails when
# the archive lists PKG but cannot give its file (a mirror missing part
# of a pool), and ends the script on any other problem.
# The modules the guest loads for tc (clsact is sch_ingress, the bpf
# classifier cls_bpf) and those they depend on (modinfo's depends), taken
# from an unpacked kernel package X into DIR uncompressed (Debian's are
# .ko, .ko.xz or .ko.zst), with DIR/order naming them in load order. One
# the kernel has built in (modules.builtin) is not there; none is missing.
TC_MODULES="sch_ingress cls_bpf"
tc_module()
{
	local m=$1 x=$2 out=$3 f dep
	[[ -e $out/$m.ko ]] && return 0
	f=$(find "$x" -path '*/modules/*' \( -name "$m.ko*" -o -name "${m//_/-}.ko*" \) \
		-print -quit)
	if [[ -z $f ]]; then
		grep -qE "/(${m}|${m//_/-})\.ko\$" "$x"/{lib,usr/lib}/modules/*/modules.builtin \
			2>/dev/null && return 0
		echo "fetch-kernels: no module $m and not built in" >&2
		return 1
	fi
	case $f in
	*.ko) cat "$f" ;;
	*.ko.xz) xz -dc "$f" ;;
	*.ko.zst) zstd -qdc "$f" ;;
	*.ko.gz) gzip -dc "$f" ;;
	*) echo "fetch-kernels: $f: unknown compression" >&2; return 1 ;;
	esac > "$out/$m.ko" || return 1
	for dep in $(modinfo -F depends "$out/$m.ko" | tr , ' '); do
		tc_module "$dep" "$x" "$out" || return 1
	done
	echo "$m" >> "$out/order"
}

tc_modules()
{
	local m
	mkdir -p "$2"
	: > "$2/order"
	for m in $TC_MODULES; do
		tc_module "$m" "$1" "$2" || return 1
	done
}

unpack()
{
	local name=$1 suite=$2 pkg=$3 bin tmp k part dir=$cache/kernels/$3
	tmp=$(mktemp -d "$cache/kernels/.fetch.XXXXXX")
	echo "fetch-kernels: $name: downloading $pkg from $suite" >&2
	apt_download "$suite" "$arch" "$tmp" "$pkg" || { rm -rf "$tmp"; return 1; }
	# Since 7.x the image package is a stub; the kernel is in linux-binary.
	# Newer images are split: vmlinuz in linux-binary-*, the modules in
	# linux-modules-*, modules.builtin in linux-base-*.
	for part in binary modules base; do
		bin=$(first_dep "$suite" "$arch" "$pkg" "^linux-$part-[0-9]") ||
			{ rm -rf "$tmp"; die "$name: cannot read the dependencies of $pkg"; }
		[[ -n $bin ]] || continue
		echo "fetch-kernels: $name: downloading $bin from $suite" >&2
		apt_download "$suite" "$arch" "$tmp" "$bin" || { rm -rf "$tmp"; return 1; }
	done
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/x" ||
			{ rm -rf "$tmp"; die "$name: cannot unpack $deb"; }
	done
	k=$(find "$tmp/x/boot" "$tmp/x/usr/lib/modules" -maxdepth 2 \
		\( -name 'vmlinuz-*' -o -name vmlinuz \) -type f -print -quit 2>/dev/null) || true
	if [[ -z $k ]]; then
		rm -rf "$tmp"
		die "$name: no vmlinuz in $pkg${bin:+ or $bin}"
	fi
	mkdir -p "$dir.new"
	cp "$k" "$dir.new/vmlinuz"
	tc_modules "$tmp/x" "$dir.new/modules" ||
		{ rm -rf "$tmp" "$dir.new"; die "$name: cannot take tc's modules from $pkg"; }
	rm -rf "$tmp" "$dir"
	mv "$dir.new" "$dir"
}

# fetch LABEL SUITE META: the vmlinuz of META's newest image whose file the
# archive gives, fetched once.
fetch()
{
	local label=$1 suite=$2 meta=$3 pkg='' state name=$1 versions v
	prepare_suite "$suite" "$arch"
	state=$(apt_dir "$suite" "$arch")
	[[ $arch == amd64 ]] || name=$arch-$label
	# apt-cache reads all of a suite's lists (a second each): the answer is
	# kept until the lists are next refreshed.
	local resolved=$state/resolved.$meta
	if [[ -s $resolved && $resolved -nt $state/updated ]]; then
		pkg=$(<"$resolved")
		[[ -f $cache/kernels/$pkg/vmlinuz && -f $cache/kernels/$pkg/modules/order ]] ||
			unpack "$name" "$suite" "$pkg" || pkg=''
	fi
	if [[ -z $pkg ]]; then
		# shellcheck disable=SC2046
		versions=$(apt-cache $(apt_opts "$suite" "$arch") madison "$meta" |
			   awk -F' [|] ' '{ print $2 }') || versions=''
		[[ -n $versions ]] || die "$name: no $meta in $suite ($arch)"
		for v in $versions; do
			pkg=$(first_dep "$suite" "$arch" "$meta=$v" '^linux-image-[0-9]') || pkg=''
			[[ -n $pkg ]] || die "$name: cannot resolve $meta $v in $suite ($arch)"
			[[ -f $cache/kernels/$pkg/vmlinuz && -f $cache/kernels/$pkg/modules/order ]] && break
			unpack "$name" "$suite" "$pkg" && break
			echo "fetch-kernels: $name: $pkg ($meta $v) is listed but could not be downloaded; trying an older one" >&2
			pkg=''
		done
		[[ -n $pkg ]] || die "$name: no image of $meta could be downloaded from $suite ($arch)"
		echo "$pkg" > "$resolved"
	fi
	echo "$name $cache/kernels/$pkg/vmlinuz"
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
