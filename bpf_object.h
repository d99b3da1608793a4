/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stages behind load_bpf_file(), added since 2015: bpf_object_parse()
 * checks an object image and describes it (no syscalls, so it can be
 * fuzzed); bpf_object_load_file() reads a file, parses it, creates its maps
 * and loads its programs without printing a word.
 * 2015 code never includes this file.
 */
#ifndef __BPF_OBJECT_H
#define __BPF_OBJECT_H

#include <stddef.h>
#include <linux/bpf.h>

#include "bpf_load.h"

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
 * Where a map of iproute2's layout is pinned, as tc pins it: PIN_NONE not at
 * all, PIN_OBJECT_NS at ROOT/tc/OBJ/NAME (OBJ: the SHA-1 of the object file
 * in hex, from the kernel's AF_ALG "sha1"), PIN_GLOBAL_NS at
 * ROOT/tc/globals/NAME. ROOT is $TC_BPF_MNT, as for tc, else /sys/fs/bpf.
 * A map pinned there already is reused if its type, key size, value size,
 * max entries and flags are the object's, else the load is refused; one
 * absent is created and pinned once every program has loaded. A failed
 * load pins nothing and changes nothing pinned.
 */
#define PIN_NONE 0
#define PIN_OBJECT_NS 1
#define PIN_GLOBAL_NS 2
#define BPF_PIN_ROOT_ENV "TC_BPF_MNT"
#define BPF_PIN_ROOT_DEFAULT "/sys/fs/bpf"
#define BPF_PIN_PATH_LEN 512

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
 * spec->prog_cnt of them. Prints nothing: on failure returns -1 with
 * spec->err saying why and errno set, ENOEXEC when the file is not a loadable
 * object (execve(2)'s errno for a file of the wrong format), otherwise the
 * failed call's. bpf_log_buf ends with this load's verifier log or empty.
 * Call bpf_object_spec_free() in both cases.
 */
int bpf_object_load_file(const char *path, struct bpf_object_spec *spec,
			 int *map_fds, int *prog_fds);

#endif /* __BPF_OBJECT_H */
