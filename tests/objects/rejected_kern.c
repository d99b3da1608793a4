// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: a map and two socket programs, the second of which the
 * verifier refuses (it reads past the end of its context, struct
 * __sk_buff). Loading it fails after the map and the first program exist,
 * so the loader must close both and say what the verifier said.
 */
#include "bpf_helpers.h"

struct bpf_map_def SEC("maps") hits = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u64),
	.max_entries	= 1,
};

SEC("socket_good")
int count_hits(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&hits, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return skb->len;
}

SEC("socket_bad")
int read_past_context(struct __sk_buff *skb)
{
	return ((__u32 *)skb)[250];
}

char _license[] SEC("license") = "GPL";
