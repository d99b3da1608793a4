#!/usr/bin/env bash
# Builds the guest's root filesystem as an uncompressed initramfs: Debian's
# busybox-static, the project's binaries, tests and data, and the host
# programs the tests call (bash, coreutils, util-linux, bpftool...) with the
# shared libraries they need. Nothing of the host's root is shared at run
# time. Usage: mkinitramfs.sh OUT.cpio
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: mkinitramfs.sh OUT.cpio}
root=$(mktemp -d "${TMPDIR:-/tmp}/fds-vm-root.XXXXXX")
trap 'rm -rf "$root"' EXIT

# What the scenarios and the runner run, beyond bash builtins.
tools=(bash env echo printf cat cp mv rm ln ls mkdir rmdir chmod chown touch install
       mktemp stat head tail cut wc seq sort tee sleep true false id basename nproc
       dirname readlink grep sed awk diff cmp xargs timeout truncate unshare setpriv
       mount umount flock nsenter bpftool strace)

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,root,project,shared}
cp /bin/busybox "$root/bin/busybox"
for applet in sh ip poweroff sync uname; do
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

# The project, laid out as make check sees it.
p=$root/project
mkdir -p "$p/scripts" "$p/fuzz" "$p/examples"
cp "$top/fds_example" "$top/sockex1_kern.o" "$top/fds_example.8" "$p/"
cp "$top/scripts/transcript.sh" "$p/scripts/"
cp "$top/examples/lo_watch" "$p/examples/"
cp -r "$top/tests" "$top/docs" "$p/"
# deps_listed checks the host's dpkg database against scripts/deps.sh: the
# same for every kernel, and a guest has no dpkg.
rm -f "$p/tests/scenarios/deps_listed.sh"
cp -r "$top/fuzz/regression" "$p/fuzz/"
copy_libs "$top/fds_example"
for b in "$p"/tests/bin/*; do
	if [[ -x $b && ! -d $b ]]; then
		copy_libs "$b"
	fi
done
if [[ -f $top/../shared/CONTRACT.md ]]; then
	cp "$top/../shared/CONTRACT.md" "$root/shared/"
fi

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
