// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a pinned map as a file: without BTF the kernel cannot format the
 * values and open() fails; with a BTF blob (4.18) describing key and value,
 * the pin reads as text, one "key: value" line per entry. The blob is built
 * by hand (uint_btf.h) and loaded through BPF_BTF_LOAD.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"
#include "uint_btf.h"

BPFFS_FS_FIXTURE("m");

/* Reads the whole of path into buf; -1 and errno if open or read fails. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, done = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((size_t)done < len - 1) {
		n = read(fd, buf + done, len - 1 - done);
		if (n < 0) {
			int err = errno;

			close(fd);
			errno = err;
			return -1;
		}
		if (n == 0)
			break;
		done += n;
	}
	close(fd);
	buf[done] = '\0';
	return done;
}

TEST_F(fs, a_pinned_map_without_btf_cannot_be_read)
{
	char buf[256];
	ssize_t n;
	int fd;

	fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 4);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));
	close(fd);
	n = read_file(self->pin, buf, sizeof(buf));
	record_result("map-file-read-without-btf", n);
	EXPECT_EQ(-1, n);
	EXPECT_EQ(EIO, errno);
}

TEST_F(fs, a_pinned_map_with_btf_reads_as_key_value_lines)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		    .btf_key_type_id = UINT_BTF_TYPE_ID,
		    .btf_value_type_id = UINT_BTF_TYPE_ID);
	__u32 key = 1, value = 42;
	char buf[1024];
	const char *lines;
	int btf, fd;
	ssize_t n;

	btf = bpf_btf_load(&uint_btf, sizeof(uint_btf), NULL);
	record_result("btf-load-hand-built", btf);
	ASSERT_GE(btf, 0) TH_LOG("BTF load: %s", strerror(errno));
	opts.btf_fd = btf;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "pretty", 4, 4, 3, &opts);
	ASSERT_GE(fd, 0) TH_LOG("map with BTF: %s", strerror(errno));
	close(btf);	/* the map holds its own reference */
	ASSERT_EQ(0, bpf_update_elem(fd, &key, &value, BPF_ANY));
	key = 2;
	value = 4000000000U;	/* shown unsigned, as the BTF says */
	ASSERT_EQ(0, bpf_update_elem(fd, &key, &value, BPF_ANY));
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));
	close(fd);

	n = read_file(self->pin, buf, sizeof(buf));
	record_result("map-file-read-with-btf", n);
	ASSERT_GE(n, 0) TH_LOG("read: %s", strerror(errno));
	/* a debug-only warning comes first on every kernel that has it */
	lines = strstr(buf, "0: 0\n");
	ASSERT_NE(NULL, lines) TH_LOG("got:\n%s", buf);
	EXPECT_STREQ("0: 0\n1: 42\n2: 4000000000\n", lines);
}

TEST_HARNESS_MAIN
