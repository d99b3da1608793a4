// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: two maps declared static, so clang relocates their loads
 * against the "maps" section symbol, each map's offset in the instruction's
 * immediate. small holds one 8-byte value, big two 16-byte ones; the program
 * writes SMALL_MARK into small[0] and BIG_MARK into the second half of
 * big[1], so a loader that gave either load the other map fails the verifier
 * or leaves the marks where the test does not find them.
 */
#include "bpf_helpers.h"

#define SMALL_MARK 0x5e11ULL
#define BIG_MARK 0xb16ULL

static struct bpf_map_def SEC("maps") small = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	.max_entries = 1,
};

static struct bpf_map_def SEC("maps") big = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 16,
	.max_entries = 2,
};

SEC("socket_static")
int mark_both(struct __sk_buff *skb)
{
	__u32 zero = 0, one = 1;
	__u64 *s = bpf_map_lookup_elem(&small, &zero);
	__u64 *b = bpf_map_lookup_elem(&big, &one);

	if (s)
		*s = SMALL_MARK;
	if (b)
		b[1] = BIG_MARK;
	return 0;
}

char _license[] SEC("license") = "GPL";
