// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: names longer than the loader keeps (a 70-byte map name, a
 * 77-byte section name: kept as their first 63 bytes) and a license of the
 * loader's longest, 127 bytes; built with -DLICENSE_128 its license is one
 * byte longer, which the loader refuses.
 */
#include "bpf_helpers.h"

#define TEN "abcdefghij"
#define G16 "GGGGGGGGGGGGGGGG"

struct bpf_map_def SEC("maps") m012345678901234567890123456789012345678901234567890123456789012345678 = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u32),
	.max_entries	= 1,
};

SEC("socket_" TEN TEN TEN TEN TEN TEN TEN)
int long_named(struct __sk_buff *skb)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&m012345678901234567890123456789012345678901234567890123456789012345678,
				   &key) ? skb->len : 0;
}

#ifdef LICENSE_128
char _license[] SEC("license") = G16 G16 G16 G16 G16 G16 G16 G16;
#else
char _license[] SEC("license") = G16 G16 G16 G16 G16 G16 G16 "GGGGGGGGGGGGGGG";
#endif
