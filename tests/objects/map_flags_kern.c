// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: the later 20-byte map definition, with map_flags, for three
 * maps (60 bytes: too big for the 16-byte form to explain with 3 symbols).
 */
#define BPF_MAP_DEF_FLAGS	/* the 20-byte definition */
#include "bpf_helpers.h"

struct bpf_map_def SEC("maps") plain = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 4,
	.max_entries = 2,
};

struct bpf_map_def SEC("maps") sparse = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8,
	.max_entries = 16, .map_flags = BPF_F_NO_PREALLOC,
};

struct bpf_map_def SEC("maps") last = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	.max_entries = 3,
};

SEC("socket_last")
int use_last(struct __sk_buff *skb)
{
	__u32 key = 2;
	__u64 *v = bpf_map_lookup_elem(&last, &key);

	if (v)
		*v = skb->len;
	return 0;
}

char _license[] SEC("license") = "GPL";
