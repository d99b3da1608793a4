// SPDX-License-Identifier: GPL-2.0
/*
 * Prints everything pinned under a directory: each pin's kind and id, and for
 * maps every entry that is not all zero. Two dumps that compare equal mean
 * nothing pinned was changed or lost in between.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bpf_syscall.h"
#include "libbpf.h"

static int dump_map(int fd, const char *rel)
{
	struct bpf_map_info info;
	unsigned int len = sizeof(info), i;
	unsigned char *key, *next, *value;
	int ret = 0, first = 1, nonzero;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0) {
		fprintf(stderr, "bpffs_dump: %s: info: %s\n", rel, strerror(errno));
		return -1;
	}
	printf("%s map type=%u key=%u value=%u max=%u flags=%u id=%u\n", rel,
	       info.type, info.key_size, info.value_size, info.max_entries,
	       info.map_flags, info.id);
	if (info.value_size == 0 || info.key_size == 0)
		return 0;

	key = calloc(1, info.key_size);
	next = calloc(1, info.key_size);
	value = calloc(1, info.value_size);
	if (!key || !next || !value) {
		ret = -1;
		goto out;
	}
	while (bpf_get_next_key(fd, first ? NULL : key, next) == 0) {
		first = 0;
		memcpy(key, next, info.key_size);
		if (bpf_lookup_elem(fd, key, value) < 0)
			continue;	/* per-cpu and the like: no plain value */
		nonzero = 0;
		for (i = 0; i < info.value_size; i++)
			nonzero |= value[i];
		if (!nonzero)
			continue;
		printf("  ");
		for (i = 0; i < info.key_size; i++)
			printf("%02x", key[i]);
		printf(" =");
		for (i = 0; i < info.value_size; i++)
			printf(" %02x", value[i]);
		printf("\n");
	}
out:
	free(key);
	free(next);
	free(value);
	return ret;
}

static int dump(const char *root, const char *rel)
{
	char path[4096];
	struct stat st;
	int fd, kind, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (lstat(path, &st) < 0) {
		fprintf(stderr, "bpffs_dump: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		target[n < 0 ? 0 : n] = '\0';
		printf("%s symlink -> %s\n", rel, target);
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **list;
		int n, i;

		printf("%s/ dir mode=%04o\n", rel, st.st_mode & 07777);
		n = scandir(path, &list, NULL, alphasort);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++) {
			char sub[4096];

			if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, "..")) {
				snprintf(sub, sizeof(sub), "%s/%s", rel, list[i]->d_name);
				if (dump(root, sub))
					ret = -1;
			}
			free(list[i]);
		}
		free(list);
		return ret;
	}

	/* bpf_preload's maps.debug and progs.debug are files, not pins. */
	fd = bpf_obj_get(path);
	if (fd < 0) {
		printf("%s not a pin (%s)\n", rel, strerror(errno));
		return 0;
	}
	kind = bpf_obj_kind(fd);
	if (kind == BPF_OBJ_KIND_MAP) {
		ret = dump_map(fd, rel);
	} else if (kind == BPF_OBJ_KIND_PROG) {
		struct bpf_prog_info info;
		unsigned int len = sizeof(info);

		memset(&info, 0, sizeof(info));
		ret = bpf_obj_get_info_by_fd(fd, &info, &len);
		printf("%s prog type=%u id=%u\n", rel, info.type, info.id);
	} else {
		printf("%s other\n", rel);
	}
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: bpffs_dump DIR\n");
		return 2;
	}
	return dump(argv[1], ".") ? 1 : 0;
}
