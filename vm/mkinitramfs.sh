#!/usr/bin/env bash
# Builds the guest's root filesystem as an uncompressed initramfs: Debian's
# busybox-static, the suite as an installed kselftest tree (make
# kselftest-install; its binaries, tests and data), and the host
# programs the tests call (bash, coreutils, util-linux, bpftool...) with the
# shared libraries they need. Nothing of the host's root is shared at run
# time.
#   ARCH=arm64|s390x|i386  a guest of that architecture (data/arches): the
#                   programs and busybox come from its Debian packages
#                   (vm/fetch-debs.sh ARCH guest) unless its kernel runs
#                   this host's programs (i386 on amd64)
#   FDS_TREE=DIR    the built tree the project is taken from (default: the
#                   source tree; make check-vm ARCH=... builds build/tree-ARCH)
# Usage: mkinitramfs.sh OUT.cpio
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: mkinitramfs.sh OUT.cpio}
tree=$(cd "${FDS_TREE:-$top}" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/fds-vm-root.XXXXXX")
trap 'rm -rf "$root"' EXIT

# What the scenarios and the runner run, beyond bash builtins.
tools=()
while read -r t; do
	[[ -z $t || $t == \#* ]] || tools+=("$t")
done < "$top/data/guest-tools"

# --- a guest of another architecture: its own Debian packages ------------
# foreign is where they are unpacked; empty when the guest runs this host's
# programs. gnu is the architecture's triplet (library directories, and
# the cross binutils' readelf).
foreign='' gnu=''
guest_arch=${ARCH:-amd64}
foreign_setup()
{
	local arch kernel triplet _
	while read -r arch kernel triplet _; do
		[[ $arch == "$guest_arch" ]] || continue
		gnu=$triplet
		[[ $kernel == "$(dpkg --print-architecture)" ]] && return 0
		foreign=$("$top/vm/fetch-debs.sh" "${CACHE:-$top/.cache}" "$arch" guest) ||
			{ echo "mkinitramfs: cannot fetch the $arch guest's packages" >&2; exit 1; }
		return 0
	done < <(grep -v '^#' "$top/data/arches")
	echo "mkinitramfs: ARCH=$guest_arch is not an architecture of data/arches" >&2
	exit 1
}

# in_foreign PATH: PATH as the guest sees it once the unpacked packages are
# its root, its symlinks followed there (never on this host); fails when
# nothing is there.
in_foreign()
{
	local p=$1 t n
	for ((n = 0; n < 40; n++)); do
		if [[ -L $foreign$p ]]; then
			t=$(readlink "$foreign$p")
			[[ $t == /* ]] || t=$(dirname "$p")/$t
			p=$t
		elif [[ -e $foreign$p ]]; then
			realpath -m -s "$p"
			return 0
		else
			return 1
		fi
	done
	return 1
}

# foreign_tool T: the guest path of program T among the packages: in a
# bin directory, or under the name the host's T resolves to. awk is an
# alternative that no package sets up, and the host's may be gawk (which
# lava-dispatcher pulls in) where data/arch-packages names mawk: for awk
# every implementation is tried.
foreign_tool()
{
	local d name names
	name=$(basename "$(readlink -f "$(type -P "$1" || echo "$1")")")
	names=("$1" "$name")
	[[ $1 == awk ]] && names+=(mawk gawk original-awk busybox)
	for name in "${names[@]}"; do
		for d in /usr/bin /bin /usr/sbin /sbin; do
			in_foreign "$d/$name" && return 0
		done
	done
	return 1
}

# foreign_file PATH: the guest file at PATH (a path in_foreign printed)
# into the root, then the libraries it loads, found as its dynamic loader
# will find them.
foreign_file()
{
	local p=$1 lib d want found
	[[ -e $root$p ]] && return 0
	mkdir -p "$root$(dirname "$p")"
	cp "$foreign$p" "$root$p"
	while read -r lib; do
		found=''
		if [[ $lib == /* ]]; then
			want=$lib
			found=$(in_foreign "$lib") || found=''
		else
			for d in "/lib/$gnu" "/usr/lib/$gnu" /lib /usr/lib; do
				want=$d/$lib
				found=$(in_foreign "$want") && break
			done
		fi
		[[ -n $found ]] ||
			{ echo "mkinitramfs: $p needs $lib, which no $guest_arch package gives" >&2; exit 1; }
		mkdir -p "$root$(dirname "$want")"
		if [[ $want != "$found" && ! -e $root$want && ! -L $root$want ]]; then
			ln -s "$found" "$root$want"
		fi
		foreign_file "$found"
	done < <("$gnu-readelf" -l -d "$root$p" 2>/dev/null |
		 sed -n -e 's/.*Requesting program interpreter: \(.*\)]$/\1/p' \
			-e 's/.*(NEEDED).*Shared library: \[\(.*\)\]$/\1/p')
}

foreign_setup
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,root}
if [[ -n $foreign ]]; then
	cp "$foreign/bin/busybox" "$root/bin/busybox"
else
	cp /bin/busybox "$root/bin/busybox"
fi
for applet in sh ip poweroff sync uname stty tar; do
	ln -sf busybox "$root/bin/$applet"
done

# copy_libs PROGRAM...: the host's libraries these programs load, each
# copied once (one ldd for all: a guest of this host's architecture; a
# foreign guest's came with foreign_file).
copy_libs()
{
	local line re='(^[[:space:]]*|=> )(/[^ ]+) [(]0x'
	local -A seen=()
	[[ -z $foreign ]] || return 0
	while IFS= read -r line; do
		[[ $line =~ $re ]] && seen[${BASH_REMATCH[2]}]=1
	done < <(ldd "$@" 2> /dev/null || true)
	((${#seen[@]} == 0)) || cp -L --parents "${!seen[@]}" "$root/"
}

# Each tool where the host (or the foreign packages) has it, then under
# the usual names, wherever Debian put it: a link in every bin directory
# that has no such name yet.
paths=() aliases=()
for t in "${tools[@]}"; do
	if [[ -n $foreign ]]; then
		path=$(foreign_tool "$t") || path=''
	else
		path=$(type -P "$t" || true)
	fi
	if [[ -z $path ]]; then
		echo "mkinitramfs: no $t ${foreign:+for $guest_arch}${foreign:-on the host}; tests needing it will skip in the VM" >&2
		continue
	fi
	if [[ -n $foreign ]]; then
		foreign_file "$path"
		# Found under another name (awk as mawk): the tool's own
		# name points at it too.
		[[ ${path##*/} == "$t" ]] || aliases+=("$t" "$path")
	fi
	paths+=("$path")
done
for ((i = 0; i < ${#aliases[@]}; i += 2)); do
	[[ -e $root/usr/bin/${aliases[i]} ]] || ln -s "${aliases[i + 1]}" "$root/usr/bin/${aliases[i]}"
done
if [[ -z $foreign ]]; then
	cp -L --parents "${paths[@]}" "$root/"
	copy_libs "${paths[@]}"
fi
for d in /bin /usr/bin /sbin /usr/sbin; do
	links=()
	for path in "${paths[@]}"; do
		[[ -e $root$d/${path##*/} || -L $root$d/${path##*/} ]] || links+=("$path")
	done
	((${#links[@]} == 0)) || ln -s -t "$root$d" "${links[@]}"
done

# The shell every scenario, helper script and the kernel's kselftest runner
# start is bash-static, the same bash linked statically, under bash's own
# path: a guest under TCG starts Debian's dynamically linked bash in ~85 ms,
# bash-static in ~17 ms (6.1 guest, 20 starts of bash -c :), and the suite
# starts bash some 200 times.
if [[ -n $foreign ]]; then
	static_bash=$(in_foreign /bin/bash-static) ||
		{ echo "mkinitramfs: no bash-static among the $guest_arch packages" >&2; exit 1; }
	static_bash=$foreign$static_bash
	bash_path=$(foreign_tool bash)
else
	static_bash=$(type -P bash-static) ||
		{ echo "mkinitramfs: no bash-static on the host (make deps: package bash-static)" >&2; exit 1; }
	bash_path=$(type -P bash)
fi
cp "$static_bash" "$root$bash_path"

# install_kselftest: the suite as make kselftest-install lays it out, in
# /kselftest: the guest runs it through the kernel's run_kselftest.sh, as
# the engines do (the tests that check the source tree are not in it).
# The runner's tools that the tests do not call are busybox applets.
install_kselftest()
{
	local b applet
	"$tree/scripts/kselftest-install.sh" "$root/kselftest" > /dev/null
	for applet in realpath tr uniq; do
		[[ -e $root/usr/bin/$applet || -e $root/bin/$applet ]] ||
			ln -s busybox "$root/bin/$applet"
	done
	bins=()
	for b in "$root"/kselftest/fds_example/fds_example "$root"/kselftest/fds_example/tests/bin/*; do
		if [[ -x $b && ! -d $b ]]; then
			bins+=("$b")
		fi
	done
	copy_libs "${bins[@]}"
}
install_kselftest

cat > "$root/etc/passwd" <<'PW'
root:x:0:0:root:/root:/bin/bash
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PW
cat > "$root/etc/group" <<'GR'
root:x:0:
nogroup:x:65534:
GR
install -m 0755 "$top/vm/init" "$root/init"
# mktemp made the root 0700; nobody (the permissions scenario) must get in.
chmod 0755 "$root"
chmod 1777 "$root/tmp"

(cd "$root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
