// SPDX-License-Identifier: GPL-2.0
/*
 * In-process costs: ns per map update and lookup through libbpf.c against a
 * bare syscall(__NR_bpf) (the floor), and per-op cost of pin, get and unpin
 * for 1,000 and 10,000 maps in a bpffs tree. Prints "name value unit" lines.
 * Usage: bench_ops BPFFS_DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "bpf_syscall.h"
#include "libbpf.h"

#define OPS 200000
#define REPEATS 9

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int raw_elem(int cmd, int fd, void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)key;
	attr.value = (unsigned long)value;
	return syscall(__NR_bpf, cmd, &attr, sizeof(attr));
}

enum op { LIB_UPDATE, LIB_LOOKUP, RAW_UPDATE, RAW_LOOKUP };

static double run_ops(int fd, enum op op)
{
	__u32 key, value = 7;
	double t0 = now_ns();
	int i, ret = 0;

	for (i = 0; i < OPS; i++) {
		key = i & 1023;
		switch (op) {
		case LIB_UPDATE:
			ret |= bpf_update_elem(fd, &key, &value, BPF_ANY);
			break;
		case LIB_LOOKUP:
			ret |= bpf_lookup_elem(fd, &key, &value);
			break;
		case RAW_UPDATE:
			ret |= raw_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &value);
			break;
		case RAW_LOOKUP:
			ret |= raw_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &value);
			break;
		}
	}
	if (ret) {
		fprintf(stderr, "bench_ops: a map call failed: %s\n", strerror(errno));
		exit(1);
	}
	return (now_ns() - t0) / OPS;
}

/*
 * ns per call through libbpf.c and through the bare syscall: runs of OPS
 * calls alternate between the two, so drift in the machine hits both alike;
 * each figure is the median of REPEATS runs.
 */
static void compare(int fd, enum op lib, enum op raw, const char *name)
{
	double a[REPEATS], b[REPEATS];
	int r;

	for (r = 0; r < REPEATS; r++) {
		a[r] = run_ops(fd, lib);
		b[r] = run_ops(fd, raw);
	}
	qsort(a, REPEATS, sizeof(a[0]), cmp_double);
	qsort(b, REPEATS, sizeof(b[0]), cmp_double);
	printf("%s_libbpf %.1f ns/op\n", name, a[REPEATS / 2]);
	printf("%s_raw %.1f ns/op\n", name, b[REPEATS / 2]);
}

/* Pins n maps in n/100 directories, gets each, removes each: ns per op. */
static int tree(const char *root, int n)
{
	char path[512];
	double t, pin = 0, get = 0, unpin = 0;
	int i, fd;

	for (i = 0; i < n / 100; i++) {
		snprintf(path, sizeof(path), "%s/t%d/d%d", root, n, i);
		if (mkdir(path, 0700) < 0 && errno == ENOENT) {
			snprintf(path, sizeof(path), "%s/t%d", root, n);
			mkdir(path, 0700);
			i--;
		}
	}
	for (i = 0; i < n; i++) {
		fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 1);
		if (fd < 0)
			goto fail;
		snprintf(path, sizeof(path), "%s/t%d/d%d/m%d", root, n, i / 100, i);
		t = now_ns();
		if (bpf_obj_pin(fd, path))
			goto fail;
		pin += now_ns() - t;
		close(fd);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/t%d/d%d/m%d", root, n, i / 100, i);
		t = now_ns();
		fd = bpf_obj_get(path);
		get += now_ns() - t;
		if (fd < 0)
			goto fail;
		close(fd);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/t%d/d%d/m%d", root, n, i / 100, i);
		t = now_ns();
		if (unlink(path))
			goto fail;
		unpin += now_ns() - t;
	}
	printf("pin_%d %.0f ns/op\n", n, pin / n);
	printf("get_%d %.0f ns/op\n", n, get / n);
	printf("unpin_%d %.0f ns/op\n", n, unpin / n);
	return 0;
fail:
	fprintf(stderr, "bench_ops: %s: %s\n", path, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: bench_ops BPFFS_DIR\n");
		return 2;
	}
	fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 1024);
	if (fd < 0) {
		fprintf(stderr, "bench_ops: map: %s\n", strerror(errno));
		return 1;
	}
	compare(fd, LIB_UPDATE, RAW_UPDATE, "update");
	compare(fd, LIB_LOOKUP, RAW_LOOKUP, "lookup");
	close(fd);
	return tree(argv[1], 1000) || tree(argv[1], 10000);
}
