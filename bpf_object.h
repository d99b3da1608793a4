/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stages behind load_bpf_file(), added since 2015: bpf_object_parse()
 * (bpf_object.c) checks an object image and describes it (no syscalls, so it
 * can be fuzzed); bpf_object_load_file() (bpf_load.c) reads a file, parses
 * it, creates its maps and loads its programs without printing a word, into
 * the caller's arrays and verifier log. It owns the limits the 2015
 * interface (bpf_load.h) is built on.
 */
#ifndef __BPF_OBJECT_H
#define __BPF_OBJECT_H

#include <stddef.h>
#include <linux/bpf.h>

/* The most maps and programs one object may hold. */
#define MAX_MAPS 32
#define MAX_PROGS 32

#define BPF_OBJECT_NAME_LEN 64
#define BPF_OBJECT_ERR_LEN 256

struct bpf_map_spec {
	char name[BPF_OBJECT_NAME_LEN];
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
	/* iproute2's bpf_elf_map (28 or 36 bytes) only; 0 otherwise. */
	unsigned int id;
	unsigned int pinning;
	unsigned int inner_id;
	unsigned int inner_idx;
};

/*
 * A map's pinning field (iproute2's layout): PIN_NONE not pinned,
 * PIN_OBJECT_NS pinned in its object's directory, PIN_GLOBAL_NS in tc's
 * global one. The loader pins as tc does: tc_pinning.h says where and how.
 */
#define PIN_NONE 0
#define PIN_OBJECT_NS 1
#define PIN_GLOBAL_NS 2

/* Instruction insn (an LD_IMM64) is to load the fd of map number map. */
struct bpf_reloc_spec {
	unsigned int insn;
	unsigned int map;
};

struct bpf_prog_spec {
	char name[BPF_OBJECT_NAME_LEN];
	enum bpf_prog_type type;
	struct bpf_insn *insns;
	unsigned int insn_cnt;
	struct bpf_reloc_spec *relocs;
	unsigned int reloc_cnt;
};

/* What an object file holds, as the parser read it. */
struct bpf_object_spec {
	char license[128];
	unsigned int kern_version;
	unsigned int map_def_size;
	struct bpf_map_spec maps[MAX_MAPS];
	unsigned int map_cnt;
	struct bpf_prog_spec progs[MAX_PROGS];
	unsigned int prog_cnt;
	/* Why the last stage failed: one line, for "PATH: REASON". */
	char err[BPF_OBJECT_ERR_LEN];
};

/*
 * Checks an object image and describes what loading it takes. No syscalls.
 * Returns 0, or -1 with spec->err saying what is wrong with the file. Call
 * bpf_object_spec_free() in both cases.
 */
int bpf_object_parse(const void *image, size_t size,
		     struct bpf_object_spec *spec);
/*
 * Frees what the spec points to and leaves it pointing nowhere: a second
 * call frees nothing.
 */
void bpf_object_spec_free(struct bpf_object_spec *spec);

/*
 * Opens path (the object file is the first fd this takes and is closed last),
 * reads, parses and loads it into map_fds[] and prog_fds[], spec->map_cnt and
 * spec->prog_cnt of them, pinning its maps as tc_pinning.h says. Prints
 * nothing: on failure returns -1 with spec->err saying why and errno set,
 * ENOEXEC when the file is not a loadable object (execve(2)'s errno for a
 * file of the wrong format), otherwise the failed call's. log_buf, log_size
 * bytes (at least 128, the kernel's least; or 0 and no log wanted), ends
 * with this load's verifier log or empty. Call bpf_object_spec_free() in
 * both cases.
 */
int bpf_object_load_file(const char *path, struct bpf_object_spec *spec,
			 int *map_fds, int *prog_fds, char *log_buf,
			 unsigned int log_size);

#endif /* __BPF_OBJECT_H */
