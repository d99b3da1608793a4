// SPDX-License-Identifier: GPL-2.0
/*
 * tc's pinning policy (tc_pinning.h): where a map of iproute2's layout is
 * pinned, whether what is pinned there may stand for it, and the pins and
 * directories a load makes, undone if it fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bpf_syscall.h"
#include "libbpf.h"
#include "sha1.h"
#include "spec_error.h"
#include "tc_pinning.h"

/*
 * The directories and paths of the spec's pinned maps into ps. OBJ is the
 * SHA-1 of the image, as iproute2 names an object's pin dir.
 */
int tc_pin_paths(struct bpf_object_spec *spec, const void *image,
		 size_t size, struct pin_state *ps)
{
	const char *root = getenv(BPF_PIN_ROOT_ENV);
	char obj[SHA1_HEX_LEN] = "", path[BPF_PIN_PATH_LEN];
	unsigned int i, pin;
	int n;

	if (!root || !root[0])
		root = BPF_PIN_ROOT_DEFAULT;
	for (i = 0; i < spec->map_cnt; i++)
		if (spec->maps[i].pinning == PIN_OBJECT_NS && !obj[0])
			sha1_hex(image, size, obj);
	snprintf(ps->dir[0], sizeof(ps->dir[0]), "%s/tc", root);
	snprintf(ps->dir[PIN_OBJECT_NS], sizeof(ps->dir[0]), "%s/tc/%s", root,
		 obj);
	n = snprintf(ps->dir[PIN_GLOBAL_NS], sizeof(ps->dir[0]),
		     "%s/tc/globals", root);
	for (i = 0; i < spec->map_cnt && n < BPF_PIN_PATH_LEN; i++) {
		pin = spec->maps[i].pinning;
		/* the parser let no other value through */
		if (pin == PIN_NONE || pin > PIN_GLOBAL_NS)
			continue;
		/* through path: -Wrestrict cannot tell ps->dir from ps->path */
		n = snprintf(path, sizeof(path), "%s/%s", ps->dir[pin],
			     spec->maps[i].name);
		memcpy(ps->path[i], path, sizeof(path));
	}
	if (n >= BPF_PIN_PATH_LEN) {
		spec_error(spec, "pin paths under '%s' longer than %d bytes",
			   root, BPF_PIN_PATH_LEN - 1);
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* The first field in which a pinned map and a definition differ. */
struct difference {
	const char *field;
	unsigned int had, want;
};

static void differs(struct difference *d, const char *field,
		    unsigned int had, unsigned int want)
{
	if (d->field || had == want)
		return;
	d->field = field;
	d->had = had;
	d->want = want;
}

/* Refuses the pinned map fd unless it is what map i of the spec defines. */
static int same_map(struct bpf_object_spec *spec, unsigned int i,
		    const char *path, int fd)
{
	const struct bpf_map_spec *m = &spec->maps[i];
	struct difference d = { NULL, 0, 0 };
	struct bpf_map_info info;

	if (bpf_obj_kind(fd) != BPF_OBJ_KIND_MAP ||
	    bpf_map_get_info(fd, &info)) {
		spec_error(spec, "map '%s': what is pinned at %s is not a map",
			   m->name, path);
		errno = EINVAL;
		return -1;
	}
	differs(&d, "type", info.type, m->type);
	differs(&d, "key size", info.key_size, m->key_size);
	differs(&d, "value size", info.value_size, m->value_size);
	differs(&d, "max entries", info.max_entries, m->max_entries);
	differs(&d, "flags", info.map_flags, m->map_flags);
	if (!d.field)
		return 0;
	spec_error(spec, "map '%s' pinned at %s has %s %u, the object %u",
		   m->name, path, d.field, d.had, d.want);
	errno = EINVAL;
	return -1;
}

int tc_get_pinned(struct bpf_object_spec *spec, unsigned int i,
		  struct pin_state *ps, int *map_fds)
{
	int fd;

	map_fds[i] = -1;
	ps->new_pin[i] = NO_NEW_PIN;
	if (!ps->path[i][0])
		return 0;
	fd = bpf_obj_get(ps->path[i]);
	if (fd < 0 && errno == ENOENT) {
		ps->new_pin[i] = NEW_PIN_WANTED;
		return 0;
	}
	if (fd < 0) {
		spec_error(spec, "map '%s': cannot get %s: %s",
			   spec->maps[i].name, ps->path[i], strerror(errno));
		return -1;
	}
	map_fds[i] = fd;
	if (same_map(spec, i, ps->path[i], fd))
		return -1;
	return 0;
}

/* Removes what tc_pin_new_maps() made, in reverse, errno kept. */
static void unpin_new_maps(struct pin_state *ps, unsigned int cnt)
{
	int saved = errno;
	unsigned int i;

	for (i = cnt; i-- > 0;)
		if (ps->new_pin[i] == NEW_PIN_MADE)
			unlink(ps->path[i]);
	for (i = TC_PIN_DIRS; i-- > 0;)
		if (ps->made_dir[i])
			rmdir(ps->dir[i]);
	errno = saved;
}

static int make_dir(struct pin_state *ps, unsigned int d)
{
	if (mkdir(ps->dir[d], 0700) == 0) {
		ps->made_dir[d] = 1;
		return 0;
	}
	return errno == EEXIST ? 0 : -1;
}

int tc_pin_new_maps(struct bpf_object_spec *spec, struct pin_state *ps,
		    const int *map_fds)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < spec->map_cnt; i++) {
		if (ps->new_pin[i] != NEW_PIN_WANTED)
			continue;
		/* tc, then tc/globals or tc/OBJ */
		if (make_dir(ps, 0) || make_dir(ps, spec->maps[i].pinning)) {
			err = errno;
			goto fail;
		}
		if (bpf_obj_pin(map_fds[i], ps->path[i])) {
			spec_error(spec, "map '%s': cannot pin it at %s: %s",
				   spec->maps[i].name, ps->path[i],
				   strerror(errno));
			goto fail;
		}
		ps->new_pin[i] = NEW_PIN_MADE;
	}
	return 0;
fail:
	if (err)
		spec_error(spec, "cannot create a directory for %s: %s",
			   ps->path[i], strerror(err));
	unpin_new_maps(ps, i);
	return -1;
}
