// SPDX-License-Identifier: GPL-2.0
/*
 * Test object for the real tc (iproute2 through libbpf, which refuses the
 * legacy "maps" section): a classifier counting the packets it sees in
 * key 0 of a BTF-defined array, pinned by name, which tc pins at
 * $TC_BPF_MNT/tc/globals/tc_count. The definition is tc_legacy_kern.c's.
 * Built with -g: libbpf reads the map's definition from its BTF.
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
/*
 * A BTF-defined map: each attribute is a pointer, the number in the size
 * of the array it points to, the key and value types in its target type.
 */
struct {
	int (*type)[BPF_MAP_TYPE_ARRAY];
	__u32 *key;
	__u32 *value;
	int (*max_entries)[2];
	int (*pinning)[1];	/* LIBBPF_PIN_BY_NAME */
} tc_count SEC(".maps");

static void *(*map_lookup)(void *map, const void *key) =
	(void *)BPF_FUNC_map_lookup_elem;

SEC("classifier")
int count(struct __sk_buff *skb)
{
	__u32 key = 0, *n = map_lookup(&tc_count, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;	/* TC_ACT_OK */
}

char _license[] SEC("license") = "GPL";
