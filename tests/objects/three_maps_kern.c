// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: three maps and two socket programs, for the 2015
 * load_bpf_file()'s map_fd[] and prog_fd[]. socket_first uses the first and
 * last maps, socket_second the middle and last ones, so each program's maps
 * say which map_fd[] slots the loader filled for it.
 */
#include "bpf_helpers.h"

struct bpf_map_def SEC("maps") first = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u64),
	.max_entries	= 1,
};

struct bpf_map_def SEC("maps") middle = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u64),
	.max_entries	= 2,
};

struct bpf_map_def SEC("maps") last = {
	.type		= BPF_MAP_TYPE_ARRAY,
	.key_size	= sizeof(__u32),
	.value_size	= sizeof(__u64),
	.max_entries	= 3,
};

static void add(void *map, __u64 n)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(map, &key);

	if (v)
		__sync_fetch_and_add(v, n);
}

SEC("socket_first")
int count_first(struct __sk_buff *skb)
{
	add(&first, 1);
	add(&last, skb->len);
	return 0;
}

SEC("socket_second")
int count_second(struct __sk_buff *skb)
{
	add(&middle, 1);
	add(&last, skb->len);
	return 0;
}

char _license[] SEC("license") = "GPL";
