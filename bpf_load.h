/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 2015 samples' ELF loader interface, and nothing else, so code written
 * against samples/bpf of that era builds unchanged: load_bpf_file() fills
 * map_fd[] and prog_fd[]. Its stages (a pure parser that can be fuzzed, a
 * loader, a quiet whole-file load) are declared in bpf_object.h.
 */
#ifndef __BPF_LOAD_H
#define __BPF_LOAD_H

#define MAX_MAPS 32
#define MAX_PROGS 32

extern int map_fd[MAX_MAPS];
extern int prog_fd[MAX_PROGS];

/*
 * Loads every map and program of the object at path, in file order, into
 * map_fd[] and prog_fd[]. Returns 0 on success; on any failure prints why on
 * stderr (with the verifier's log if it rejected a program), closes whatever
 * it created, sets errno and returns -1.
 */
int load_bpf_file(char *path);

#endif /* __BPF_LOAD_H */
