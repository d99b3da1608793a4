#!/usr/bin/env bash
# vm/pvh-kernel.sh, which make check-vm runs on each x86 kernel so that
# QEMU starts it at its PVH entry point: on scratch bzImages built here
# (a boot header and a compressed payload around a small ELF file), the
# ELF comes out byte for byte from each compression Debian's kernels use,
# and a file that is not such a kernel is refused with its reason and
# leaves nothing behind. A host tool on the source tree, the same on every
# kernel: not installed by make kselftest-install, so not in the guests.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

PVH=$TOP/vm/pvh-kernel.sh

# le32 N: N as 4 bytes, little-endian, in printf's \x escapes.
le32()
{
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}

# bzimage PAYLOAD SIZE OUT [VERSION [LENGTH]]: a bzImage-shaped file: one
# setup sector (the payload's base at 1024), "HdrS" and the boot protocol
# VERSION (default 0x20f), then PAYLOAD 16 bytes past the base with SIZE,
# the unpacked size, appended as the kernel's build does; LENGTH in the
# header instead of the payload's own.
bzimage()
{
	local len
	len=$(($(stat -c %s "$1") + 4))
	{
		head -c $((0x1f1)) /dev/zero
		printf '\x01'
		head -c $((0x202 - 0x1f2)) /dev/zero
		printf 'HdrS'
		# shellcheck disable=SC2059 # the escapes are printf's to expand
		printf "$(le32 "${4:-0x20f}")" | head -c 2
		head -c $((0x248 - 0x208)) /dev/zero
		# shellcheck disable=SC2059
		printf "$(le32 16)$(le32 "${5:-$len}")"
		head -c $((1024 + 16 - 0x250)) /dev/zero
		cat "$1"
		# shellcheck disable=SC2059
		printf "$(le32 "$2")"
	} > "$3"
}

# refused WHY ARGS...: pvh-kernel.sh ARGS fails with exit 1, saying WHY,
# and leaves no $T/out (the one there before is removed too).
refused()
{
	local why=$1 rc=0
	shift
	echo stale > "$T/out"
	"$PVH" "$@" "$T/out" > "$T/refused.out" 2>&1 || rc=$?
	((rc == 1)) || fail "$* exited $rc, not 1: $(<"$T/refused.out")"
	grep -qF -- "$why" "$T/refused.out" || fail "$*: no [$why] in: $(<"$T/refused.out")"
	[[ ! -e $T/out && ! -e $T/out.new ]] || fail "$*: left $(ls -d "$T/out" "$T/out.new" 2> /dev/null)"
}

step "setup: an ELF file with a PVH entry note, one with other Xen notes only, and their payloads" '
	printf "%s\n" ".section .note.Xen, \"a\", @note" ".balign 4" ".long 4, 4, 18" \
		".asciz \"Xen\"" ".long 0x1000000" ".text" ".globl _start" "_start: hlt" > "$T/pvh.s"
	# Xen notes of other types, as every kernel with Xen support has
	printf "%s\n" ".section .note.Xen, \"a\", @note" ".balign 4" ".long 4, 6, 6" \
		".asciz \"Xen\"" ".asciz \"linux\"" ".balign 4" ".long 4, 4, 19" ".asciz \"Xen\"" \
		".long 0" ".text" ".globl _start" "_start: hlt" > "$T/plain.s"
	for f in pvh plain; do
		cc -c -o "$T/$f.o" "$T/$f.s" && ld -o "$T/$f.elf" "$T/$f.o" || fail "cannot link $f.elf"
	done
	for f in pvh plain; do
		readelf -n "$T/$f.elf" | grep -q "Xen" || fail "$f.elf has no Xen note: $(readelf -n "$T/$f.elf")"
	done
	zstd -q -c "$T/pvh.elf" > "$T/pvh.zst" && zstd -q -c "$T/plain.elf" > "$T/plain.zst" &&
		xz -q -c "$T/pvh.elf" > "$T/pvh.xz" && lz4 -q -l -c "$T/pvh.elf" > "$T/pvh.lz4" &&
		gzip -q -c "$T/pvh.elf" > "$T/pvh.gz" || fail "cannot compress the ELF files"
'

step "the ELF comes out byte for byte from a zstd, xz, lz4 (legacy) and gzip payload" '
	size=$(stat -c %s "$T/pvh.elf")
	for c in zst xz lz4 gz; do
		bzimage "$T/pvh.$c" "$size" "$T/bz.$c"
		"$PVH" "$T/bz.$c" "$T/out.$c" || fail "$c: refused"
		cmp "$T/pvh.elf" "$T/out.$c" || fail "$c: not the ELF file"
	done
'

step "a kernel with Xen notes but no PVH entry is refused, and nothing is left" '
	bzimage "$T/plain.zst" "$(stat -c %s "$T/plain.elf")" "$T/bz.plain"
	refused "no PVH entry point" "$T/bz.plain"
'

step "not a bzImage, too old, a payload past the end: each refused, nothing left" '
	printf "MZ" > "$T/tiny"
	refused "too short" "$T/tiny"
	head -c 4096 /dev/zero > "$T/zeros"
	refused "no \"HdrS\"" "$T/zeros"
	size=$(stat -c %s "$T/pvh.elf")
	bzimage "$T/pvh.zst" "$size" "$T/old" 0x207
	refused "before 2.08" "$T/old"
	bzimage "$T/pvh.zst" "$size" "$T/long" 0x20f 99999999
	refused "does not fit" "$T/long"
	refused "not a readable file" "$T/nonexistent"
'

step "a payload that does not unpack, or unpacks to another size, or is no ELF: refused" '
	size=$(stat -c %s "$T/pvh.elf")
	bzimage "$T/pvh.zst" $((size + 1)) "$T/short"
	refused "where its build recorded $((size + 1))" "$T/short"
	head -c 200 "$T/pvh.zst" > "$T/cut.zst"
	bzimage "$T/cut.zst" "$size" "$T/cut"
	refused "could not unpack" "$T/cut"
	printf "plain text" | zstd -q -c > "$T/text.zst"
	bzimage "$T/text.zst" 10 "$T/text"
	refused "not an ELF file" "$T/text"
	head -c 64 /dev/urandom > "$T/noise"
	bzimage "$T/noise" 64 "$T/bz.noise"
	refused "not a compression" "$T/bz.noise"
'

scenario_end
