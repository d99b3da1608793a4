#!/usr/bin/env bash
# Builds the guest's root filesystem as an uncompressed initramfs: Debian's
# busybox-static, the suite as an installed kselftest tree (make
# kselftest-install; its binaries, tests and data), and the host
# programs the tests call (bash, coreutils, util-linux, bpftool...) with the
# shared libraries they need. Nothing of the host's root is shared at run
# time. Usage: mkinitramfs.sh OUT.cpio
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: mkinitramfs.sh OUT.cpio}
root=$(mktemp -d "${TMPDIR:-/tmp}/fds-vm-root.XXXXXX")
trap 'rm -rf "$root"' EXIT

# What the scenarios and the runner run, beyond bash builtins.
tools=()
while read -r t; do
	[[ -z $t || $t == \#* ]] || tools+=("$t")
done < "$top/data/guest-tools"

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,root}
cp /bin/busybox "$root/bin/busybox"
for applet in sh ip poweroff sync uname stty tar; do
	ln -sf busybox "$root/bin/$applet"
done

copy_libs()
{
	local lib
	{ ldd "$1" 2>/dev/null || true; } | { grep -oE '/[^ ]+' || true; } | while read -r lib; do
		if [[ ! -e $root$lib ]]; then
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		fi
	done
}

for t in "${tools[@]}"; do
	path=$(type -P "$t" || true)
	if [[ -z $path ]]; then
		echo "mkinitramfs: no $t on the host; tests needing it will skip in the VM" >&2
		continue
	fi
	mkdir -p "$root$(dirname "$path")"
	cp -L "$path" "$root$path"
	copy_libs "$path"
	# reachable under the usual names, wherever Debian put it
	for d in /bin /usr/bin /sbin /usr/sbin; do
		[[ -e $root$d/$t ]] || ln -s "$path" "$root$d/$t"
	done
done

# install_kselftest: the suite as make kselftest-install lays it out, in
# /kselftest: the guest runs it through the kernel's run_kselftest.sh, as
# the engines do (the tests that check the source tree are not in it).
# The runner's tools that the tests do not call are busybox applets.
install_kselftest()
{
	local b applet
	"$top/scripts/kselftest-install.sh" "$root/kselftest" > /dev/null
	for applet in realpath tr uniq; do
		[[ -e $root/usr/bin/$applet || -e $root/bin/$applet ]] ||
			ln -s busybox "$root/bin/$applet"
	done
	for b in "$root"/kselftest/fds_example/fds_example "$root"/kselftest/fds_example/tests/bin/*; do
		if [[ -x $b && ! -d $b ]]; then
			copy_libs "$b"
		fi
	done
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
