// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: a well-formed file whose one map has a type no kernel knows,
 * so map creation fails with the kernel's EINVAL before any program loads.
 */
#include "bpf_helpers.h"

struct bpf_map_def SEC("maps") unknown = {
	.type		= 0x7fff,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u32),
	.max_entries	= 1,
};

SEC("socket_unused")
int use_unknown(struct __sk_buff *skb)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&unknown, &key) ? skb->len : 0;
}

char _license[] SEC("license") = "GPL";
