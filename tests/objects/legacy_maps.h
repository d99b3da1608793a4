/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test objects share: the section macro, the 2015 layout of a map
 * definition in the "maps" section, and the map lookup helper.
 */
#ifndef LEGACY_MAPS_H
#define LEGACY_MAPS_H

#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
};

static __attribute__((unused)) void *(*bpf_map_lookup_elem)(void *map,
						      const void *key) =
	(void *)BPF_FUNC_map_lookup_elem;

#endif
