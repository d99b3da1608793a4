# fds_example: the Linux 4.4 persistent-BPF-objects sample, standalone.
# `make help` lists the targets.

CC       ?= cc
CLANG    ?= clang
CFLAGS   ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror
CPPFLAGS += -I.
LDLIBS   := -lelf
HOSTCC   ?= cc
CACHE    ?= .cache

# CROSS=ARCH, set by the ARCH= targets below in their copy of the tree:
# build for that architecture of data/arches, statically, against the libelf
# and zlib of its Debian packages (vm/fetch-debs.sh CACHE ARCH sysroot).
ifneq ($(CROSS),)
CROSS_GNU := $(shell awk '$$1 == "$(CROSS)" { print $$3 }' data/arches)
ifeq ($(CROSS_GNU),)
$(error CROSS=$(CROSS) is not an architecture of data/arches)
endif
SYSROOT := $(CACHE)/foreign/$(CROSS)/sysroot
ifeq ($(CROSS),i386)
# Debian's gcc with -m32; asm/ of this host's uapi headers serves both sizes.
CC := gcc -m32 -idirafter /usr/include/$(shell $(HOSTCC) -print-multiarch)
# hints.c compares statfs's f_type, a signed int here, with BPF_FS_MAGIC:
# the bits compare as they should; a cast in hints.c would quiet gcc.
hints.o: WARNINGS += -Wno-sign-compare
else
CC := $(CROSS_GNU)-gcc
endif
CPPFLAGS += -isystem $(SYSROOT)/usr/include
LDFLAGS += -L$(SYSROOT)/usr/lib/$(CROSS_GNU)
STATIC := 1
endif

# BPF objects see this host's uapi headers, whatever the target.
MULTIARCH = $(shell $(HOSTCC) -print-multiarch 2>/dev/null)
# BPF objects are built in the byte order of the programs that load them
# (bpfel or bpfeb), and in the other order too, for the loader to refuse.
BYTE_ORDER := $(shell printf '__BYTE_ORDER__\n' | $(CC) -E -P -x c - 2>/dev/null)
BPF_ORDER := $(if $(filter 4321,$(BYTE_ORDER)),eb,el)
OTHER_ORDER := $(if $(filter eb,$(BPF_ORDER)),el,eb)
BPF_CFLAGS = -O2 -target bpf$(BPF_ORDER) -Wall -Werror -I. -idirafter /usr/include/$(MULTIARCH)

# SANITIZE=1: ASan and UBSan everywhere; VALGRIND=1: CLI scenarios under memcheck.
ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif

# Static by default: an exec then skips the dynamic loader, 4x faster under
# QEMU's TCG (and faster natively). ASan needs dynamic linking, and memcheck
# finds leaks only where it can replace malloc in a shared libc.
ifeq ($(SANITIZE)$(VALGRIND)$(STATIC),)
STATIC := 1
endif
ifeq ($(STATIC),1)
LDFLAGS += -static
LDLIBS += -lz
endif

KSELFTEST_DIR ?= $(CACHE)/kselftest
KSELFTEST_RUNNER := $(CACHE)/kselftest-runner/kselftest/runner.sh
PREFIX       ?= /usr/local
BPFFS        ?=

# The kernel matrix's labels, from its table (data/kernels).
KERNEL_LABELS := $(shell awk 'NF && substr($$1, 1, 1) != "\043" && $$4 == "amd64" { print $$1 }' data/kernels)

LIB_OBJS := libbpf.o bpf_object.o sha1.o tc_pinning.o bpf_load.o
# tests/*.c are the kselftest tests; the helpers are programs the tests (or
# docs) run. tests/run.sh runs the binaries tests/bin/tests.list names and
# no other, so a helper never becomes a test.
# (tests/bpffs_fixture.c is their helpers, compiled once, not a test.)
TEST_SRCS := $(filter-out tests/bpffs_fixture.c,$(wildcard tests/*.c))
FIXTURE_OBJS := tests/bin/bpffs_fixture.o lo_net.o
KSELFTESTS := $(patsubst tests/%.c,tests/bin/%,$(TEST_SRCS))
TEST_HELPERS := tests/bin/compat_2015 tests/bin/bpffs_dump tests/bin/mkcorrupt \
		tests/bin/helpers/pinctl tests/bin/helpers/map_ids \
		tests/bin/helpers/repin_loop tests/bin/helpers/load_refusals
TEST_BINS := $(KSELFTESTS) $(TEST_HELPERS) tests/bin/tests.list
TEST_OBJS := tests/bin/two_progs_kern.o tests/bin/three_maps_kern.o \
	     tests/bin/map_flags_kern.o \
	     tests/bin/static_maps_kern.o tests/bin/rejected_kern.o \
	     tests/bin/bad_map_kern.o tests/bin/long_names_kern.o \
	     tests/bin/long_license_kern.o \
	     tests/bin/many_maps_kern.o tests/bin/many_progs_kern.o
FLAGS_STAMP := .build-flags

.PHONY: all deps walkthrough-tools tutorial kernel-mutate check-bisect check lint test-build arch-tree mutate mutate-all coverage check-vm matrix-update demo docs fuzz bench install kselftest-install kselftest-gen_tar check-kselftest check-lava clean help FORCE

all: fds_example sockex1_kern.o examples/lo_watch

# Installs the Debian packages of the groups DEPS names (data/packages), as
# root. Builds never install: every other target only checks its groups.
DEPS ?= build check
deps:
	@scripts/deps.sh --install $(DEPS)

# Objects are rebuilt when the flags change (SANITIZE=1, VALGRIND=1 and back).
$(FLAGS_STAMP): FORCE
	@echo '$(CC) $(CFLAGS) $(LDFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS) $(LDFLAGS)' > $@

# Header dependencies are generated: each compile writes its .d file.
DEPFLAGS = -MMD -MP
-include $(wildcard *.d examples/*.d tests/bin/*.d tests/bin/helpers/*.d tests/bin/other-order/*.d)

%.o: %.c $(FLAGS_STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) -c -o $@ $<

fds_example: fds_example.o hints.o $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

examples/lo_watch: examples/lo_watch.c lo_net.o libbpf.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^)

sockex1_kern.o: sockex1_kern.c
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The objects again in the other byte order (tests/scenarios/byte_order.sh).
OTHER_ORDER_OBJS = tests/bin/other-order/sockex1_kern.o \
		   $(patsubst tests/bin/%,tests/bin/other-order/%,$(TEST_OBJS))
tests/bin/other-order/%: BPF_ORDER = $(OTHER_ORDER)
tests/bin/other-order/sockex1_kern.o: sockex1_kern.c
	@mkdir -p tests/bin/other-order
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(KSELFTEST_DIR)/kselftest_harness.h:
	@scripts/deps.sh check $(if $(filter 1,$(VALGRIND)),valgrind)
	scripts/fetch-kselftest.sh $(CACHE)

# The harness's own macros trip these -Wextra warnings, and on 32-bit its
# EXPECT_*() cast pointers to uintmax_t; all else stays on.
HARNESS_WARNINGS := $(WARNINGS) -Wno-unused-parameter -Wno-sign-compare -Wno-clobbered \
		    -Wno-pointer-to-int-cast

# Rewritten only when the list changes; a test built alone gets it too.
tests/bin/tests.list: FORCE
	@mkdir -p tests/bin
	@printf '%s\n' $(notdir $(KSELFTESTS)) | cmp -s - $@ || \
		printf '%s\n' $(notdir $(KSELFTESTS)) > $@

# Compiled and linked apart: a change to libbpf.c or the loader's files (each
# mutant of make mutate is one) relinks the tests, never recompiles them.
$(KSELFTESTS:=.t.o): tests/bin/%.t.o: tests/%.c $(FLAGS_STAMP) $(KSELFTEST_DIR)/kselftest_harness.h
	@mkdir -p tests/bin
	$(CC) $(CPPFLAGS) -I$(KSELFTEST_DIR) $(CFLAGS) $(HARNESS_WARNINGS) $(DEPFLAGS) -c -o $@ $<

$(KSELFTESTS): tests/bin/%: tests/bin/%.t.o $(FIXTURE_OBJS) $(LIB_OBJS) | tests/bin/tests.list
	$(CC) $(LDFLAGS) -o $@ $< $(FIXTURE_OBJS) $(LIB_OBJS) $(LDLIBS)

tests/bin/bpffs_fixture.o: tests/bpffs_fixture.c $(FLAGS_STAMP)
	@mkdir -p tests/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) -c -o $@ $<

# Written the way 2015-era samples were, against the unchanged interface.
tests/bin/compat_2015: tests/compat/sample_2015.c $(LIB_OBJS)
	@mkdir -p tests/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

tests/bin/bpffs_dump: tests/helpers/bpffs_dump.c libbpf.o
	@mkdir -p tests/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^)

# docs/after-2015.md runs it.
tests/bin/helpers/pinctl: tests/helpers/pinctl.c lo_net.o libbpf.o
	@mkdir -p tests/bin/helpers
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^)

# The beyond_* scenarios run them: map ids, and a pin replaced in a loop.
# map_ids waits for an id to go as the kselftest tests do (bpffs_fixture.o).
tests/bin/helpers/map_ids: tests/bin/bpffs_fixture.o
tests/bin/helpers/map_ids tests/bin/helpers/repin_loop: tests/bin/helpers/%: tests/helpers/%.c libbpf.o
	@mkdir -p tests/bin/helpers
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^)

# malformed_objects.sh runs the loader on every malformed file in one process.
tests/bin/helpers/load_refusals: tests/helpers/load_refusals.c $(LIB_OBJS)
	@mkdir -p tests/bin/helpers
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

tests/bin/mkcorrupt: tests/helpers/mkcorrupt.c
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^)

# One recipe for the test objects, in either byte order; BPF_DEFS picks
# the variant of a source that makes two objects.
BPF_BUILD = @mkdir -p $(@D)
BPF_DEFS :=
tests/bin/%_kern.o: tests/objects/%_kern.c
	$(BPF_BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) $(BPF_DEFS) -c -o $@ $<
tests/bin/other-order/%_kern.o: tests/objects/%_kern.c
	$(BPF_BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) $(BPF_DEFS) -c -o $@ $<

# An iterator needs BTF, and its loader (bpftool) the BTF of its types.
TEST_OBJS += tests/bin/after2015_iter_kern.o
tests/bin/after2015_iter_kern.o tests/bin/other-order/after2015_iter_kern.o: BPF_CFLAGS += -g

# tests/scenarios/beyond_tc.sh: tc's object (BTF, so -g) and the legacy
# bpf_elf_map ones, one source in several variants.
TC_VARIANTS := tc_legacy36 tc_diff_type tc_diff_key tc_diff_value tc_diff_max \
	       tc_diff_flags tc_objns tc_badprog
TEST_OBJS += tests/bin/tc_count_kern.o tests/bin/tc_legacy_kern.o \
	     $(patsubst %,tests/bin/%_kern.o,$(TC_VARIANTS))
tests/bin/tc_count_kern.o tests/bin/other-order/tc_count_kern.o: BPF_CFLAGS += -g
TC_VARIANT_OBJS := $(foreach v,$(TC_VARIANTS),tests/bin/$(v)_kern.o tests/bin/other-order/$(v)_kern.o)
$(filter %/tc_legacy36_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DINNER_FIELDS
$(filter %/tc_diff_type_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DDEF_TYPE=BPF_MAP_TYPE_HASH
$(filter %/tc_diff_key_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DDEF_KEY=8
$(filter %/tc_diff_value_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DDEF_VALUE=8
$(filter %/tc_diff_max_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DDEF_MAX=4
$(filter %/tc_diff_flags_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DDEF_FLAGS=BPF_F_RDONLY_PROG
$(filter %/tc_objns_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DDEF_PINNING=1
$(filter %/tc_badprog_kern.o,$(TC_VARIANT_OBJS)): BPF_DEFS := -DBAD_PROG
$(TC_VARIANT_OBJS): tests/objects/tc_legacy_kern.c
	$(BPF_BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) $(BPF_DEFS) -c -o $@ $<

tests/bin/many_maps_kern.o tests/bin/other-order/many_maps_kern.o: BPF_DEFS := -DMANY_MAPS
tests/bin/many_progs_kern.o tests/bin/other-order/many_progs_kern.o: BPF_DEFS := -DMANY_PROGS
tests/bin/long_license_kern.o tests/bin/other-order/long_license_kern.o: BPF_DEFS := -DLICENSE_128
tests/bin/many_maps_kern.o tests/bin/many_progs_kern.o \
tests/bin/other-order/many_maps_kern.o tests/bin/other-order/many_progs_kern.o: tests/objects/too_many_kern.c
	$(BPF_BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) $(BPF_DEFS) -c -o $@ $<
tests/bin/long_license_kern.o tests/bin/other-order/long_license_kern.o: tests/objects/long_names_kern.c
	$(BPF_BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) $(BPF_DEFS) -c -o $@ $<

# What the course's chapters (docs/walkthrough.md, docs/beyond-one-shell.md,
# docs/after-2015.md) run, and the Debian
# packages they call (bpftool, strace, ip, tc); no kselftest header, no download
# beyond those packages.
WALKTHROUGH_TOOLS := fds_example sockex1_kern.o examples/lo_watch \
		     tests/bin/helpers/pinctl tests/bin/helpers/map_ids \
		     tests/bin/after2015_iter_kern.o \
		     tests/bin/tc_count_kern.o tests/bin/tc_diff_max_kern.o
walkthrough-tools: $(WALKTHROUGH_TOOLS)
	@scripts/deps.sh docs

# The course's sandbox: a shell in private mount and network namespaces
# with its own bpffs at $$FS and the tools on PATH (docs/walkthrough.md).
tutorial: walkthrough-tools
	@scripts/tutorial.sh

# Everything the suite runs, built, nothing run (make mutate rebuilds with it).
test-build: all $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS)

# ARCH=arm64, s390x or i386 (data/arches): the suite built for that
# architecture, statically, in a copy of the tree made of every file git
# knows (build/tree-ARCH): make check-vm ARCH=... boots it on that
# architecture's kernels, make check ARCH=i386 runs it here.
ifneq ($(filter-out amd64,$(ARCH)),)
ARCH_TREE := build/tree-$(ARCH)
endif
arch-tree:
	@awk -v a='$(ARCH)' '$$1 == a { found = 1 } END { exit !found }' data/arches || \
		{ echo "ARCH=$(ARCH) is not an architecture of data/arches"; exit 2; }
	@scripts/deps.sh check build $(ARCH)
	@vm/fetch-debs.sh $(CACHE) $(ARCH) sysroot > /dev/null
	@mkdir -p $(ARCH_TREE)
	@git ls-files -z -c -o --exclude-standard | tar --null -T - -cf - | tar -xf - -C $(ARCH_TREE)
	@ln -sfn $(abspath $(CACHE)) $(ARCH_TREE)/.cache
	@$(MAKE) --no-print-directory -C $(ARCH_TREE) CROSS=$(ARCH) ARCH= test-build

# Each mutant of tests/mutants.txt in a scratch copy: is it caught?
mutate: test-build
	@scripts/deps.sh check
	@scripts/mutate.sh $(MUTANTS_ONLY)

# The suite once more, in a copy of the tree built with gcov, traced
# (bash's xtrace, coverage.py): each file's lines and branches, and which
# tests reach each line (build/coverage: summary.txt, html/, lines.tsv).
coverage: test-build $(CACHE)/kunit/kunit_parser.py $(KSELFTEST_RUNNER)
	@scripts/deps.sh check coverage
	@scripts/coverage.sh

# Mechanical mutants over every line of the product and the harness, each
# run against the tests that reach its line (make coverage's map):
# MUTANTS_SAMPLE=N MUTANTS_SEED=S for a sample, MUTANTS_FILES="F..." for
# some files (scripts/mutate-all.sh).
mutate-all: test-build
	@scripts/deps.sh check coverage
	@scripts/mutate-all.sh

# make check runs make lint first: shellcheck, checkpatch and the
# function-length check (no C function over 60 lines, in .c or .h: pmccabe).
# The runner's verdict is judged by scripts/judge.sh, its closing line as
# well as its exit status: no runner judges only itself.
ifeq ($(ARCH_TREE),)
check: all $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS) $(CACHE)/checkpatch/checkpatch.pl $(CACHE)/kunit/kunit_parser.py $(KSELFTEST_RUNNER)
	@scripts/deps.sh check $(if $(filter 1,$(VALGRIND)),valgrind)
	@scripts/lint.sh
	@VALGRIND=$(VALGRIND) scripts/judge.sh tests/run.sh
else
# The copy's suite, its results in its own build/results/host.
check: arch-tree $(CACHE)/kunit/kunit_parser.py
	@scripts/deps.sh check
	@$(ARCH_TREE)/fds_example -h > /dev/null 2>&1 || \
		{ echo "make check ARCH=$(ARCH): this kernel does not run $(ARCH) programs:"; \
		  $(ARCH_TREE)/fds_example -h 2>&1 >/dev/null | head -n 3; \
		  echo "make check-vm ARCH=$(ARCH) runs them in QEMU"; exit 1; }
	@scripts/judge.sh $(ARCH_TREE)/tests/run.sh
endif

lint: $(CACHE)/checkpatch/checkpatch.pl
	@scripts/deps.sh check
	@scripts/lint.sh

$(CACHE)/checkpatch/checkpatch.pl $(CACHE)/kunit/kunit_parser.py $(KSELFTEST_RUNNER):
	@scripts/deps.sh check
	scripts/fetch-kselftest.sh $(CACHE)

# The suite as an installed kselftest tree (run_kselftest.sh, kselftest-list.txt,
# fds_example/), and its tarball, named as the kernel's own targets
# (make kselftest-install, make kselftest-gen_tar) name them.
INSTALL_PATH ?= build/kselftest_install
FORMAT       ?= .gz
KSELFTEST_TAR = $(INSTALL_PATH)/kselftest-packages/kselftest.tar$(FORMAT)
kselftest-install: test-build $(KSELFTEST_RUNNER)
	@scripts/kselftest-install.sh $(INSTALL_PATH) $(CACHE)

# The whole suite natively, installed, as the engines run it:
# run_kselftest.sh -c fds_example, its output read by tests/run.sh, whose
# plan (tests/runner/plan.sh) says so.
check-kselftest: kselftest-install $(CACHE)/kunit/kunit_parser.py
	@scripts/deps.sh check
	@mkdir -p build && echo 'kselftest=$(INSTALL_PATH)' > build/check-kselftest.plan
	@scripts/judge.sh tests/run.sh --plan build/check-kselftest.plan

kselftest-gen_tar: kselftest-install
	@mkdir -p $(INSTALL_PATH)/kselftest-packages
	@tar caf $(KSELFTEST_TAR) --exclude=kselftest-packages -C $(INSTALL_PATH) .
	@echo "Created $(KSELFTEST_TAR)"

demo: all
	@scripts/demo.sh $(BPFFS)

check-vm: $(if $(ARCH_TREE),arch-tree,all $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS)) $(KSELFTEST_RUNNER)
	@scripts/deps.sh check vm $(ARCH) $(if $(KERNEL_SRC),kernel)
	@ARCH=$(ARCH) FDS_TREE=$(ARCH_TREE) vm/check-vm.sh

# Mutants of the kernel's pinning code (scripts/kernel_mutate.py): each
# applied to a scratch copy of Debian's linux-source-6.12, built
# incrementally and judged by check-vm.
kernel-mutate: all $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS) $(KSELFTEST_RUNNER)
	@scripts/deps.sh check vm kernel
	@scripts/kernel_mutate.py $(KERNEL_MUTANTS_ONLY)

# vm/bisect-run.sh under a real git bisect run, on a scratch history of
# the same source with one mutant committed in it (minutes: opt-in).
check-bisect: all $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS) $(KSELFTEST_RUNNER)
	@scripts/deps.sh check vm kernel
	@scripts/check-bisect.sh

# A real LAVA job, offline: lava-run boots LAVA_KERNEL (default 6.1) with
# the project's initramfs on vm/lava's QEMU device and runs the installed
# kselftest tree; every case must be a LAVA test case with check-vm's verdict.
check-lava: all $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS) $(KSELFTEST_RUNNER)
	@scripts/deps.sh check vm lava
	@vm/check-lava.sh

# The last runs' observations (build/results/*/matrix.tsv, but the partial
# runs of tests/run.sh PATTERN, and 32-bit user space, which must agree with
# amd64's columns) become the committed matrix.
MATRIX_RUNS = $(foreach d,$(filter-out build/results/partial/ build/results/i386-%,$(dir $(wildcard build/results/*/matrix.tsv))),$(notdir $(d:/=))=$(d:/=))
matrix-update:
	@$(if $(MATRIX_RUNS),scripts/matrix.py update $(MATRIX_RUNS),echo 'no build/results/*/matrix.tsv: run make check or make check-vm first'; false)

# The lifetimes picture of docs/walkthrough.md, from its Graphviz source;
# both are committed (the walkthrough test checks that they agree).
# The lifetimes pictures of the documents, from their Graphviz sources; the
# .dot, .svg and .png are all committed (the walkthrough test checks they agree).
LIFETIMES = $(basename $(wildcard docs/lifetimes*.dot))
docs: $(LIFETIMES:=.svg) $(LIFETIMES:=.png)

$(LIFETIMES:=.svg): %.svg: %.dot
	@scripts/deps.sh docs
	dot -Tsvg -o $@ $<

$(LIFETIMES:=.png): %.png: %.dot
	@scripts/deps.sh docs
	dot -Tpng -o $@ $<

fuzz:
	@$(MAKE) -C fuzz run

bench/bench_ops: bench/bench_ops.c libbpf.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(LDFLAGS) -o $@ $^

bench: all bench/bench_ops $(TEST_BINS) $(TEST_OBJS) $(OTHER_ORDER_OBJS)
	@scripts/deps.sh check vm bench $(if $(filter 0,$(BENCH_KERNEL)),,kernel)
	@bench/run.sh

install: all
	install -D -m 0755 fds_example $(DESTDIR)$(PREFIX)/bin/fds_example
	install -D -m 0644 fds_example.8 $(DESTDIR)$(PREFIX)/share/man/man8/fds_example.8
	install -D -m 0644 sockex1_kern.o $(DESTDIR)$(PREFIX)/share/fds_example/sockex1_kern.o

clean:
	rm -rf *.o *.d examples/*.d fds_example examples/lo_watch bench/bench_ops tests/bin $(FLAGS_STAMP) build
	@$(MAKE) -s -C fuzz clean

help:
	@echo 'make deps         install the Debian packages (root; DEPS="build check vm fuzz bench docs valgrind lava", default: build check)'
	@echo 'make              build fds_example, sockex1_kern.o and examples/lo_watch'
	@echo 'make walkthrough-tools  build all the course (docs/walkthrough.md, beyond-one-shell.md, after-2015.md) runs (packages: make deps DEPS=docs)'
	@echo 'make tutorial     open the course'"'"'s sandbox shell: private namespaces, a bpffs at $$FS, the tools on PATH'
	@echo 'make docs         redraw docs/lifetimes*.svg and .png from docs/lifetimes*.dot (Graphviz); commit all'
	@echo 'make demo         replay the 2015 transcript on a private bpffs (BPFFS=dir to use another)'
	@echo 'make check        run the test suite natively (as root); SANITIZE=1 or VALGRIND=1 for checked runs'
	@echo 'make lint         shellcheck, checkpatch.pl and function length (make check runs it first)'
	@echo 'make mutate       apply each mutant of tests/mutants.txt to a scratch copy and rerun the suite (MUTANTS_ONLY=id...)'
	@echo 'make coverage     the suite under gcov, bash xtrace and coverage.py: per file, and which tests reach each line'
	@echo 'make mutate-all   mechanical mutants of every line, each against the tests that reach it'
	@echo '                  (MUTANTS_SAMPLE=N MUTANTS_SEED=S, MUTANTS_FILES="file...", MUTATE_TARGET=90)'
	@echo 'make check-vm     run the suite in QEMU on the Debian kernels of data/kernels ($(KERNEL_LABELS)),'
	@echo '                  compare the kernel matrix (KERNELS=$(firstword $(KERNEL_LABELS)),... for a subset,'
	@echo '                  KERNEL=bzImage... for your own, MATRIX_UPDATE=1 to rewrite it,'
	@echo '                  KERNEL_SRC=DIR or debian: a kernel built from a tree joins; KERNELS=none: alone)'
	@echo 'make kernel-mutate  mutants of the kernel'"'"'s pinning code (tests/kernel-mutants.txt), each built'
	@echo '                  from Debian'"'"'s linux-source-6.12 and judged by check-vm (KERNEL_MUTANTS_ONLY=id...)'
	@echo 'make check-bisect  git bisect run with vm/bisect-run.sh finds a mutant committed in a scratch'
	@echo '                  history of linux-source-6.12 (BISECT_MUTANT=id, BISECT_TEST=name)'
	@echo 'make check-lava   a LAVA job (lava-run, offline) on one matrix kernel (LAVA_KERNEL=6.1): the'
	@echo '                  installed kselftest tree, each case a LAVA test case with check-vm'"'"'s verdict'
	@echo 'make matrix-update  write the last runs into docs/kernel-matrix.md'
	@echo 'make fuzz         fuzz the ELF loader for FUZZ_SECONDS (default 60)'
	@echo 'make bench        print the benchmark table; the guests and a kernel from source gated as ratios'
	@echo '                  to references of the same run (BENCH_VM=0, BENCH_KERNEL=0 leave them out)'
	@echo 'make install      install binary, man page and sockex1_kern.o (PREFIX, DESTDIR)'
	@echo 'make kselftest-install  the suite as an installed kselftest tree in INSTALL_PATH'
	@echo '                  (default build/kselftest_install): run_kselftest.sh -c fds_example'
	@echo 'make check-kselftest  the suite natively through that tree: run_kselftest.sh -c fds_example'
	@echo 'make kselftest-gen_tar  that tree as INSTALL_PATH/kselftest-packages/kselftest.tar.gz (FORMAT=.xz...)'
	@echo 'make clean        remove build outputs (the download cache stays)'
