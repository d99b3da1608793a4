/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small loader for BPF objects in the legacy "maps" section layout, with the
 * 2015 samples' interface: load_bpf_file() fills map_fd[] and prog_fd[].
 * Parsing (pure, no syscalls) is separate from loading, so it can be fuzzed.
 */
#ifndef __BPF_LOAD_H
#define __BPF_LOAD_H

#include <stddef.h>
#include <linux/bpf.h>

#define MAX_MAPS 32
#define MAX_PROGS 32

extern int map_fd[MAX_MAPS];
extern int prog_fd[MAX_PROGS];
/* How many entries of map_fd[] and prog_fd[] the last load filled. */
extern int map_cnt;
extern int prog_cnt;

/*
 * Loads every map and program of the object at path, in file order. Returns 0
 * on success; on any failure prints why on stderr (with the verifier's log if
 * it rejected a program), closes whatever it created, sets errno and returns
 * -1.
 */
int load_bpf_file(char *path);

/* The stages behind load_bpf_file(). */

#define BPF_LOAD_NAME_LEN 64
#define BPF_LOAD_ERR_LEN 256

struct bpf_map_spec {
	char name[BPF_LOAD_NAME_LEN];
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

/* Instruction insn (an LD_IMM64) is to load the fd of map number map. */
struct bpf_reloc_spec {
	unsigned int insn;
	unsigned int map;
};

struct bpf_prog_spec {
	char name[BPF_LOAD_NAME_LEN];
	enum bpf_prog_type type;
	struct bpf_insn *insns;
	unsigned int insn_cnt;
	struct bpf_reloc_spec *relocs;
	unsigned int reloc_cnt;
};

struct bpf_object_plan {
	char license[128];
	unsigned int kern_version;
	unsigned int map_def_size;
	struct bpf_map_spec maps[MAX_MAPS];
	unsigned int map_cnt;
	struct bpf_prog_spec progs[MAX_PROGS];
	unsigned int prog_cnt;
	char err[BPF_LOAD_ERR_LEN];
};

/*
 * Checks an object image and describes what loading it takes. No syscalls.
 * Returns 0, or -1 with plan->err saying what is wrong with the file. Call
 * bpf_object_plan_free() in both cases.
 */
int bpf_object_parse(const void *image, size_t size,
		     struct bpf_object_plan *plan);
void bpf_object_plan_free(struct bpf_object_plan *plan);

/*
 * Creates the plan's maps into map_fds[], patches the map loads and loads the
 * programs into prog_fds[]. On failure closes what it created, says why in
 * plan->err, leaves errno from the failed call and returns -1.
 */
int bpf_object_load(struct bpf_object_plan *plan, int *map_fds, int *prog_fds);

#endif /* __BPF_LOAD_H */
