#!/usr/bin/env bash
# Puts the kselftest harness headers (kselftest_harness.h, kselftest.h), the
# kernel's checkpatch.pl with the two files it reads (for make lint), and
# kunit_tool's Python sources (tools/testing/kunit: its KTAP parser, for
# scripts/ktap_check.py) and the kselftest runner (run_kselftest.sh and the
# kselftest/ files it runs, for make kselftest-install) into a cache
# directory, taken from Debian's linux-source package; never committed.
# Usage: fetch-kselftest.sh CACHE_DIR
set -euo pipefail

cache=${1:?usage: fetch-kselftest.sh CACHE_DIR}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
pkg=${KSELFTEST_PKG:-linux-source-6.12}
out=$cache/kselftest

lint=$cache/checkpatch
kunit=$cache/kunit
runner=$cache/kselftest-runner
if [[ -f $out/kselftest_harness.h && -f $out/kselftest.h && -f $lint/checkpatch.pl &&
      -f $kunit/kunit_parser.py && -f $runner/kselftest/runner.sh ]]; then
	exit 0
fi

mkdir -p "$cache/deb"
cd "$cache/deb"
if ! ls "$pkg"_*.deb >/dev/null 2>&1; then
	echo "fetch-kselftest: downloading $pkg (once; cached in $cache/deb)"
	# apt-get download writes into the current directory; as root it runs
	# the fetch as the _apt user, which must be able to write here.
	chmod 0777 . 2>/dev/null || true
	# Lists older than the archive name a version it no longer has, or
	# none at all: refresh them once and try again.
	if ! apt-get download "$pkg" >/dev/null 2>&1; then
		apt-get update -qq
		apt-get download "$pkg" >/dev/null
	fi
fi
deb=$(printf '%s\n' "$pkg"_*.deb | sort -V | tail -n 1)

tmp=$(mktemp -d "$cache/extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The package holds one source tarball; pull only the two headers out of it.
tarball=$(dpkg-deb --fsys-tarfile "$deb" | tar -t |
	  awk '/^\.\/usr\/src\/linux-source-[^\/]*\.tar\.xz$/ && !found { print; found = 1 }')
if [[ -z $tarball ]]; then
	echo "fetch-kselftest: no source tarball in $deb" >&2
	exit 1
fi
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "$tarball"
top=$(basename "$tarball" .tar.xz)
sel=$top/tools/testing/selftests
tar -xJf "$tmp/$tarball" -C "$tmp" "$sel/kselftest_harness.h" "$sel/kselftest.h" \
	"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
	"$top/scripts/const_structs.checkpatch" "$top/tools/testing/kunit" \
	"$sel/run_kselftest.sh" "$sel/kselftest"

mkdir -p "$out.new"
cp "$tmp/$sel/kselftest_harness.h" "$tmp/$sel/kselftest.h" "$out.new/"
echo "$deb" > "$out.new/SOURCE"
rm -rf "$out"
mv "$out.new" "$out"
echo "fetch-kselftest: headers from $deb in $out"

# checkpatch.pl finds spelling.txt and const_structs.checkpatch beside it.
mkdir -p "$lint.new"
cp "$tmp/$top/scripts/checkpatch.pl" "$tmp/$top/scripts/spelling.txt" \
	"$tmp/$top/scripts/const_structs.checkpatch" "$lint.new/"
echo "$deb" > "$lint.new/SOURCE"
rm -rf "$lint"
mv "$lint.new" "$lint"
echo "fetch-kselftest: checkpatch.pl from $deb in $lint"

mkdir -p "$kunit.new"
cp "$tmp/$top"/tools/testing/kunit/*.py "$kunit.new/"
echo "$deb" > "$kunit.new/SOURCE"
rm -rf "$kunit"
mv "$kunit.new" "$kunit"
echo "fetch-kselftest: kunit_tool's parser from $deb in $kunit"

# What an installed kselftest tree runs: run_kselftest.sh sources
# kselftest/runner.sh, which pipes each test through kselftest/prefix.pl.
# The whole kselftest/ directory is kept, unmodified.
mkdir -p "$runner.new"
cp -a "$tmp/$sel/run_kselftest.sh" "$tmp/$sel/kselftest" "$runner.new/"
echo "$deb" > "$runner.new/SOURCE"
rm -rf "$runner"
mv "$runner.new" "$runner"
echo "fetch-kselftest: run_kselftest.sh and kselftest/ from $deb in $runner"
