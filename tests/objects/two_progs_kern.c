// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: two maps and two socket programs in the 16-byte legacy layout.
 * socket_count adds 1 to counts[0] per packet; socket_sum adds each packet's
 * length to sums[0] and reads counts, so it is relocated against both maps.
 */
#include "bpf_helpers.h"

struct bpf_map_def SEC("maps") counts = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u64),
	.max_entries	= 4,
};

struct bpf_map_def SEC("maps") sums = {
	.type		= BPF_MAP_TYPE_HASH,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u64),
	.max_entries	= 8,
};

SEC("socket_count")
int count_packets(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&counts, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return skb->len;
}

SEC("socket_sum")
int sum_bytes(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *total = bpf_map_lookup_elem(&sums, &key);
	__u64 *n = bpf_map_lookup_elem(&counts, &key);

	if (total && n)
		__sync_fetch_and_add(total, skb->len);
	return 0;
}

char _license[] SEC("license") = "GPL";
__u32 _version SEC("version") = 0x040400;
