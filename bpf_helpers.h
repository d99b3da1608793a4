/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of a legacy object, one header as samples/bpf had in 2015:
 * the section macro, a map definition in the "maps" section, and the
 * helpers the objects call. A definition is 16 bytes (type, key and value
 * sizes, entries); define BPF_MAP_DEF_FLAGS before including this for the
 * later 20-byte form with map_flags. Built with clang -O2 -target bpf.
 */
#ifndef BPF_HELPERS_H
#define BPF_HELPERS_H

#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
#ifdef BPF_MAP_DEF_FLAGS
	unsigned int map_flags;
#endif
};

/* Helpers are called by number: the kernel patches in the function. */
static __attribute__((unused)) void *(*bpf_map_lookup_elem)(void *map,
							     const void *key) =
	(void *)BPF_FUNC_map_lookup_elem;

/* LD_ABS: a byte of the packet, by offset from the link-layer header. */
unsigned long long load_byte(void *skb, unsigned long long off)
	asm("llvm.bpf.load.byte");

#endif /* BPF_HELPERS_H */
