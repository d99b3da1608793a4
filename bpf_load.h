/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 2015 samples' ELF loader interface, and nothing else, so code written
 * against samples/bpf of that era builds unchanged: load_bpf_file() fills
 * map_fd[] and prog_fd[], MAX_MAPS and MAX_PROGS of them. Its stages (a pure
 * parser that can be fuzzed, a quiet whole-file load into the caller's arrays
 * and log) are declared in bpf_object.h, which owns those limits.
 */
#ifndef __BPF_LOAD_H
#define __BPF_LOAD_H

#include "bpf_object.h"

extern int map_fd[MAX_MAPS];
extern int prog_fd[MAX_PROGS];

/*
 * Loads every map and program of the object at path, in file order, into
 * map_fd[] and prog_fd[]. Returns 0 on success; on any failure prints why on
 * stderr (with the verifier's log, left in bpf_log_buf, if it rejected a
 * program), closes whatever it created, sets errno and returns -1.
 */
int load_bpf_file(char *path);

#endif /* __BPF_LOAD_H */
