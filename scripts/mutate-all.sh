#!/usr/bin/env bash
# make mutate-all: the suite against mechanical mutants. scripts/mutagen.py
# makes them over every line of the product and the harness; make
# coverage's map (build/coverage/lines.tsv, made again when a mutated file
# changed since) gives each the tests that reach its line; the arguments
# in tests/mutants-equivalent.txt mark those no test can tell apart; and
# scripts/mutate.sh runs them, two copies side by side, and scores each
# file and each group.
#   MUTANTS_SAMPLE=N   a seeded random sample of N mutants (default: all)
#   MUTANTS_SEED=S     the sample's seed (default 0)
#   MUTANTS_FILES="F..."  the mutants of these files only
#   MUTANTS_GROUPS="G,..."  of these groups only: product C, test C, harness
#   MUTATE_TARGET=P    the percentage each group must reach (default 90)
# The list run is kept in build/mutants/list, the results in
# build/mutants/report ("RESULT ID FILE LINE").
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
out=build/mutants
cov=build/coverage
mkdir -p "$out" || exit 1

die() {
	echo "mutate-all: $*" >&2
	exit 1
}

# The map must describe the files as they are: make coverage anew when
# any mutated file differs from the one it measured.
read -ra only <<< "${MUTANTS_FILES:-}"
if ! scripts/mutagen.py --coverage-current "$cov" ${only[@]+--only "${only[@]}"}; then
	echo "mutate-all: make coverage first (its map is missing or older than the files)"
	scripts/coverage.sh || echo "mutate-all: the suite failed under coverage; its map is used as it is"
fi
[[ -f $cov/lines.tsv ]] || die "no $cov/lines.tsv: make coverage failed"

scripts/mutagen.py --coverage "$cov" --equivalent tests/mutants-equivalent.txt \
	--sample "${MUTANTS_SAMPLE:-0}" --seed "${MUTANTS_SEED:-0}" \
	--groups "${MUTANTS_GROUPS:-}" \
	${only[@]+--only "${only[@]}"} -o "$out/list" ||
	die "scripts/mutagen.py failed"
MUTANTS=$TOP/$out/list MUTATE_TARGET=${MUTATE_TARGET:-90} \
	MUTATE_REPORT=$TOP/$out/report exec scripts/mutate.sh
