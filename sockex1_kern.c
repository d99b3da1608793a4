// SPDX-License-Identifier: GPL-2.0
/*
 * Socket filter: adds the length of every outgoing packet to an array slot
 * indexed by its IP protocol number, and passes nothing on to the socket.
 * Legacy "maps" section layout, built with clang -O2 -target bpf.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/ip.h>

#include "bpf_helpers.h"


struct bpf_map_def SEC("maps") proto_bytes = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(long),
	.max_entries	= 256,
};

SEC("socket1")
int count_proto_bytes(struct __sk_buff *skb)
{
	__u32 proto = load_byte(skb, ETH_HLEN + offsetof(struct iphdr, protocol));
	long *bytes;

	/* On lo each packet passes twice; count it once, on its way out. */
	if (skb->pkt_type != PACKET_OUTGOING)
		return 0;

	bytes = bpf_map_lookup_elem(&proto_bytes, &proto);
	if (bytes)
		__sync_fetch_and_add(bytes, skb->len);
	return 0;
}

char _license[] SEC("license") = "GPL";
