#!/usr/bin/env bash
# vm/pvh-kernel.sh BZIMAGE OUT: the kernel inside an x86 bzImage, as the
# ELF file its decompressor would have unpacked, into OUT, when that ELF
# has a PVH entry point (a "Xen" note of type 18, XEN_ELFNOTE_PHYS32_ENTRY).
# QEMU's -kernel starts such an ELF at that entry point directly: no
# firmware real-mode setup and no decompression inside the guest, which
# under TCG takes 0.5 to 1.5 s of every boot (make check-vm boots Debian's
# x86 kernels this way; VM_PVH=0 boots the bzImage).
#
# Every field read is checked: the boot protocol's "HdrS" and version
# (2.08 or later, which gives the payload's place), the payload inside the
# file, a compression this host can undo (zstd, xz, lz4, gzip), and the
# size the kernel's build appended to the payload against what came out.
# Exit 0 and OUT written, or exit 1 with the reason on stderr and OUT not
# created (an earlier OUT is removed).
set -u

die() { echo "pvh-kernel: $*" >&2; rm -f "${out:-}" "${out:-}.new"; exit 1; }
(($# == 2)) || { echo "usage: vm/pvh-kernel.sh BZIMAGE OUT" >&2; exit 2; }
in=$1 out=$2
rm -f "$out"
[[ -f $in && -r $in ]] || die "$in: not a readable file"
size=$(stat -c %s "$in") || die "$in: cannot stat it"

# le N OFFSET: the N-byte little-endian number at OFFSET of the input (a
# failure has said why; the caller exits).
le()
{
	local v
	v=$(od -An -tu"$1" -j "$2" -N "$1" "$in" 2> /dev/null) && v=${v//[[:space:]]/}
	[[ $v =~ ^[0-9]+$ ]] || die "$in: cannot read $1 bytes at $2"
	echo "$v"
}

((size >= 0x250)) || die "$in: $size bytes, too short for a bzImage's header"
magic=$(le 4 $((0x202))) || exit 1
((magic == 0x53726448)) || die "$in: no \"HdrS\" at 0x202: not an x86 bzImage"
version=$(le 2 $((0x206))) || exit 1
((version >= 0x208)) ||
	die "$in: boot protocol $((version >> 8)).$((version & 255)), before 2.08: no payload fields"
setup_sects=$(le 1 $((0x1f1))) || exit 1
((setup_sects)) || setup_sects=4
offset=$(le 4 $((0x248))) || exit 1
start=$(((setup_sects + 1) * 512 + offset))
length=$(le 4 $((0x24c))) || exit 1
((length > 4 && start + length <= size)) ||
	die "$in: payload of $length bytes at $start does not fit in its $size bytes"

# The build appended the unpacked size, 4 bytes little-endian, to the
# payload; the decompressors want the compressed stream alone.
want=$(le 4 $((start + length - 4))) || exit 1
lead=$(od -An -tx1 -j "$start" -N 6 "$in") && lead=${lead//[[:space:]]/}
case $lead in
28b52ffd*) tool=(zstd -q -d -c) ;;
fd377a585a00) tool=(xz -q -d -c) ;;
02214c18*) tool=(lz4 -q -d -c) ;;
1f8b*) tool=(gzip -q -d -c) ;;
*) die "$in: payload starts $lead: not a compression this script undoes (zstd, xz, lz4, gzip)" ;;
esac
command -v "${tool[0]}" > /dev/null || die "$in: its payload is ${tool[0]}, and ${tool[0]} is not installed"
tail -c +$((start + 1)) "$in" | head -c $((length - 4)) | "${tool[@]}" > "$out.new" 2> /dev/null ||
	die "$in: ${tool[0]} could not unpack its payload"
got=$(stat -c %s "$out.new") || die "$out.new: cannot stat it"
((got == want)) || die "$in: unpacked $got bytes, where its build recorded $want"

# An ELF file with the PVH note. readelf names the note's type or not,
# depending on its version: either way, the owner Xen and type 0x12.
[[ $(od -An -c -N 4 "$out.new") == *177*E*L*F* ]] || die "$in: its payload is not an ELF file"
notes=$(readelf -W -n "$out.new" 2> /dev/null) || die "$in: readelf cannot read its notes"
grep -Eq '^[[:space:]]*Xen[[:space:]]+0x[0-9a-f]+[[:space:]]+(.*\(0x0*12\)|.*PHYS32)' <<< "$notes" ||
	die "$in: its kernel has no PVH entry point (CONFIG_PVH)"
mv "$out.new" "$out" || die "cannot write $out"
