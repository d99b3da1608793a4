// SPDX-License-Identifier: GPL-2.0
/*
 * Test object in iproute2's legacy layout (bpf_elf_map): the 28-byte map
 * definition with id and pinning, or with -DINNER_FIELDS the 36-byte one
 * with inner_id and inner_idx. Its map is tc_count_kern.c's, pinned
 * PIN_GLOBAL_NS; -DDEF_TYPE=..., -DDEF_KEY=... and the others below make
 * the definitions that differ in one field, -DDEF_PINNING=1 the
 * PIN_OBJECT_NS one, and -DBAD_PROG a program the verifier refuses.
 * The program is a socket filter (the project's loader loads socket*
 * programs) counting like tc's classifier.
 */
#include "bpf_helpers.h"

#ifndef DEF_TYPE
#define DEF_TYPE BPF_MAP_TYPE_ARRAY
#endif
#ifndef DEF_KEY
#define DEF_KEY 4
#endif
#ifndef DEF_VALUE
#define DEF_VALUE 4
#endif
#ifndef DEF_MAX
#define DEF_MAX 2
#endif
#ifndef DEF_FLAGS
#define DEF_FLAGS 0
#endif
#ifndef DEF_PINNING
#define DEF_PINNING 2	/* PIN_GLOBAL_NS */
#endif

struct bpf_elf_map {
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_elem;
	__u32 flags;
	__u32 id;
	__u32 pinning;
#ifdef INNER_FIELDS
	__u32 inner_id;
	__u32 inner_idx;
#endif
};

struct bpf_elf_map SEC("maps") tc_count = {
	.type = DEF_TYPE, .size_key = DEF_KEY, .size_value = DEF_VALUE,
	.max_elem = DEF_MAX, .flags = DEF_FLAGS, .pinning = DEF_PINNING,
};

SEC("socket_count")
int count(struct __sk_buff *skb)
{
	__u32 key = 0, *n = bpf_map_lookup_elem(&tc_count, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
#ifdef BAD_PROG
	/* a read above the stack frame: refused on every kernel */
	asm volatile("r0 = *(u64 *)(r10 + 8)\n\texit");
#endif
	return 0;
}

char _license[] SEC("license") = "GPL";
