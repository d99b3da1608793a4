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
/* A BTF-defined map's attributes are array sizes of pointed-to types. */
#define ATTR_INT(name, val) int (*name)[val]
#define ATTR_TYPE(name, type) type *name

struct {
	ATTR_INT(type, BPF_MAP_TYPE_ARRAY);
	ATTR_TYPE(key, __u32);
	ATTR_TYPE(value, __u32);
	ATTR_INT(max_entries, 2);
	ATTR_INT(pinning, 1);	/* LIBBPF_PIN_BY_NAME */
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
