#!/usr/bin/env bash
# Rebuilds the fuzzer's seed corpus (committed under fuzz/seeds): the valid
# objects the build makes plus a sample of targeted corruptions of them.
# Usage: make-fuzz-seeds.sh OUTDIR   (run from fuzz/ by make seeds)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
make -s -C "$top" sockex1_kern.o tests/bin/two_progs_kern.o \
	tests/bin/map_flags_kern.o tests/bin/tc_legacy_kern.o \
	tests/bin/tc_legacy36_kern.o tests/bin/mkcorrupt
rm -rf "$out" && mkdir -p "$out"
cp "$top/sockex1_kern.o" "$out/valid-sockex1"
cp "$top/tests/bin/two_progs_kern.o" "$out/valid-two-progs"
cp "$top/tests/bin/map_flags_kern.o" "$out/valid-map-flags"
cp "$top/tests/bin/tc_legacy_kern.o" "$out/valid-tc-legacy"
cp "$top/tests/bin/tc_legacy36_kern.o" "$out/valid-tc-legacy36"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/bin/mkcorrupt" "$top/tests/bin/two_progs_kern.o" "$tmp" > /dev/null
# One of each kind; truncations only at a few lengths.
for f in "$tmp"/*; do
	case $(basename "$f") in
	trunc-*) [[ $(basename "$f") =~ trunc-0(000|064|256|500) ]] || continue ;;
	sec*-offset-huge | sec*-size-huge) continue ;;
	esac
	cp "$f" "$out/bad-$(basename "$f")"
done
find "$out" -maxdepth 1 -type f | wc -l
