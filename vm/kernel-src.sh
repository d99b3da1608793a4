#!/usr/bin/env bash
# A kernel built from a source tree for check-vm (make check-vm
# KERNEL_SRC=DIR) and for git bisect run (vm/bisect-run.sh): configured
# from tinyconfig, then vm/kernel.config (what the guest needs), then the
# suite's own kselftest fragment tests/kselftest/config, merged with the
# tree's scripts/kconfig/merge_config.sh; built out of tree (O=) and
# incrementally. x86-64 only.
# Usage: kernel-src.sh SRC OUT, or kernel-src.sh --unpack (Debian's tree
# only, its path printed)
#   SRC  a kernel tree; "debian": Debian's linux-source-6.12, its package
#        fetched into $CACHE/deb (as make check does) and unpacked once
#        into $CACHE/kernel-src
#   OUT  the build directory (created; kept between runs)
# Prints "LABEL IMAGE" on stdout: src-VERSION (the tree's make
# kernelversion) and the bzImage, linked as OUT/images/LABEL/bzImage (so
# that check-vm's KERNEL=IMAGE names its column LABEL too). Exit 0: built; 125: the tree does not
# configure or build (git bisect run's "cannot test"); 1: anything else
# (usage, a missing package, no source).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-$top/.cache}
say() { printf 'kernel-src: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
skip() { say "$*"; exit 125; }

# debian_source: Debian's linux-source-6.12 unpacked under the cache.
debian_source()
{
	local deb dir=$cache/kernel-src tree
	tree=$dir/linux-source-6.12
	if [[ ! -f $tree/.fds-unpacked ]]; then
		"$top/scripts/fetch-kselftest.sh" "$cache" > /dev/null ||
			die "cannot fetch linux-source-6.12"
		deb=$(printf '%s\n' "$cache"/deb/linux-source-6.12_*.deb | sort -V | tail -n 1)
		[[ -f $deb ]] || die "no linux-source-6.12 package in $cache/deb"
		say "unpacking $(basename "$deb") into ${tree#"$top"/} (once)"
		rm -rf "$tree" && mkdir -p "$dir"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO ./usr/src/linux-source-6.12.tar.xz |
			tar -xJ -C "$dir" || die "cannot unpack $deb"
		touch "$tree/.fds-unpacked"
	fi
	src=$tree
}

# --unpack: only Debian's tree, its path printed
if [[ ${1:-} == --unpack && $# == 1 ]]; then
	debian_source
	echo "$src"
	exit 0
fi
(($# == 2)) || die "usage: kernel-src.sh SRC|debian OUT, or kernel-src.sh --unpack"
src=$1 out=$2
for t in make gcc flex bison bc pahole; do
	type -P "$t" > /dev/null || die "no $t (make deps DEPS=kernel)"
done

[[ $src == debian ]] && debian_source
[[ -f $src/Makefile && -f $src/scripts/kconfig/merge_config.sh ]] ||
	die "$src: not a kernel tree (no Makefile or scripts/kconfig/merge_config.sh)"
# physical paths: a build is bound to the paths it was made with
src=$(cd "$src" && pwd -P)
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd -P)
kmake=(make -C "$src" O="$out" ARCH=x86_64)
jobs=${KERNEL_JOBS:-$(nproc)}

# configure: again when a fragment changed (make itself follows the tree's
# Kconfig); kept otherwise, so an edit to a .c file rebuilds only what it
# touches.
frags=("$top/vm/kernel.config" "$top/tests/kselftest/config")
stamp=$out/.fds-config
want=$(cat "${frags[@]}" | sha1sum)
if [[ ! -f $out/.config || ! -f $stamp || $(<"$stamp") != "$want" ]]; then
	rm -f "$stamp"
	"${kmake[@]}" -s tinyconfig > "$out/config.log" 2>&1 ||
		skip "tinyconfig failed (see $out/config.log)"
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${frags[@]}") >> "$out/config.log" 2>&1 ||
		skip "merge_config.sh failed (see $out/config.log)"
	"${kmake[@]}" -s olddefconfig >> "$out/config.log" 2>&1 ||
		skip "olddefconfig failed (see $out/config.log)"
	# every option the fragments ask for must have survived the merge
	missing=()
	while IFS= read -r line; do
		[[ $line == CONFIG_* ]] || continue
		grep -qx "$line" "$out/.config" || missing+=("$line")
	done < <(cat "${frags[@]}")
	((${#missing[@]} == 0)) ||
		skip "the configuration lacks ${missing[*]} (a dependency not met: see $out/config.log)"
	echo "$want" > "$stamp"
fi

start=$EPOCHREALTIME
if ! "${kmake[@]}" -j"$jobs" bzImage > "$out/build.log" 2>&1; then
	tail -n 20 "$out/build.log" >&2
	skip "the tree does not build (see $out/build.log)"
fi
say "built in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
version=$("${kmake[@]}" -s kernelversion 2> /dev/null) || version=unknown
# under a directory named for its column: KERNEL=that path gets it too
if ! mkdir -p "$out/images/src-$version" ||
	! ln -f "$out/arch/x86/boot/bzImage" "$out/images/src-$version/bzImage"; then
	die "cannot link the bzImage into $out/images"
fi
echo "src-$version $out/images/src-$version/bzImage"
