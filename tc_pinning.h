/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc's pinning of maps, for the loader (bpf_load.c) alone. A map of
 * iproute2's layout is pinned as tc pins it: PIN_NONE not at all,
 * PIN_OBJECT_NS at ROOT/tc/OBJ/NAME (OBJ: the SHA-1 of the object file in
 * hex, sha1.h), PIN_GLOBAL_NS at ROOT/tc/globals/NAME. ROOT is $TC_BPF_MNT,
 * as for tc, else /sys/fs/bpf. A map pinned there already is reused if its
 * type, key size, value size, max entries and flags are the object's, else
 * the load is refused; one absent is created and pinned once every program
 * has loaded. A failed load pins nothing and changes nothing pinned.
 * Each function says why it failed in spec->err and leaves errno set.
 */
#ifndef __TC_PINNING_H
#define __TC_PINNING_H

#include <stddef.h>

#include "bpf_object.h"

#define BPF_PIN_ROOT_ENV "TC_BPF_MNT"
#define BPF_PIN_ROOT_DEFAULT "/sys/fs/bpf"
#define BPF_PIN_PATH_LEN 512

/* What this load does at a map's pin path. */
enum new_pin {
	/* nothing: the map is not pinned, or its pin is reused as it is */
	NO_NEW_PIN,
	/* nothing is pinned there: the map this load creates will be */
	NEW_PIN_WANTED,
	/* this load pinned it there: a later failure unpins it */
	NEW_PIN_MADE,
};

/* tc, tc/globals, tc/OBJ: the directories a load may make */
#define TC_PIN_DIRS 3

/* Pin paths of one load: the maps' (empty if not pinned), what was made. */
struct pin_state {
	/* dir[pinning] holds a map's pin */
	char dir[TC_PIN_DIRS][BPF_PIN_PATH_LEN];
	char path[MAX_MAPS][BPF_PIN_PATH_LEN];
	enum new_pin new_pin[MAX_MAPS];
	int made_dir[TC_PIN_DIRS];
};

/* The directories and paths of the spec's pinned maps into ps. */
int tc_pin_paths(struct bpf_object_spec *spec, const void *image,
		 size_t size, struct pin_state *ps);
/*
 * map_fds[i]: the map pinned at map i's path, checked against its
 * definition, or -1 if it has no path or nothing is pinned there.
 */
int tc_get_pinned(struct bpf_object_spec *spec, unsigned int i,
		  struct pin_state *ps, int *map_fds);
/*
 * Pins the maps this load created, creating tc/ and its subdirectory; on
 * failure removes again what it made.
 */
int tc_pin_new_maps(struct bpf_object_spec *spec, struct pin_state *ps,
		    const int *map_fds);

#endif /* __TC_PINNING_H */
