// SPDX-License-Identifier: GPL-2.0
/*
 * The loader: bpf_object_load_file() reads an object file, has the parser
 * (bpf_object.c) describe it, creates its maps or reuses what tc pinned
 * (tc_pinning.c), loads its programs and pins its new maps, printing
 * nothing. And the 2015 interface on top of it: load_bpf_file() into
 * map_fd[] and prog_fd[], its reasons on stderr, its log in bpf_log_buf.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bpf_load.h"
#include "bpf_syscall.h"
#include "libbpf.h"
#include "spec_error.h"
#include "tc_pinning.h"

/* Objects are a few KiB; refuse to slurp anything absurd. */
#define MAX_OBJECT_SIZE (64 << 20)

int map_fd[MAX_MAPS];
int prog_fd[MAX_PROGS];

static void close_fds(int *fds, unsigned int cnt)
{
	unsigned int i;

	for (i = 0; i < cnt; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/* fds[0] to fds[cnt - 1] become -1, the caller's fds there left open. */
static void no_fds(int *fds, unsigned int cnt)
{
	unsigned int i;

	for (i = 0; i < cnt; i++)
		fds[i] = -1;
}

static int load_prog(struct bpf_object_spec *spec, unsigned int i,
		     const int *map_fds, char *log_buf, unsigned int log_size)
{
	struct bpf_prog_spec *p = &spec->progs[i];
	char verdict[128];
	unsigned int j;
	int fd;

	for (j = 0; j < p->reloc_cnt; j++) {
		struct bpf_insn *insn = &p->insns[p->relocs[j].insn];

		insn->src_reg = BPF_PSEUDO_MAP_FD;
		insn->imm = map_fds[p->relocs[j].map];
	}
	fd = bpf_prog_load_log(p->type, p->insns,
			       p->insn_cnt * sizeof(struct bpf_insn),
			       spec->license, spec->kern_version, log_buf,
			       log_size);
	if (fd >= 0)
		return fd;
	verdict[0] = '\0';
	if (log_size)
		bpf_verifier_verdict(log_buf, verdict, sizeof(verdict));
	spec_error(spec, "program '%s' was not loaded: %s%s%s", p->name,
		   strerror(errno), verdict[0] ? "; the verifier: " : "",
		   verdict);
	return -1;
}

/*
 * Creates the spec's maps into map_fds[], patches the map loads and loads the
 * programs into prog_fds[]. On failure closes what it created, says why in
 * spec->err (with the verifier's last word if it refused a program: its whole
 * log is then in log_buf), leaves errno from the failed call and returns -1.
 */
static int load_spec(struct bpf_object_spec *spec, int *map_fds,
		     int *prog_fds, struct pin_state *ps, char *log_buf,
		     unsigned int log_size)
{
	unsigned int i;
	int saved;

	no_fds(map_fds, spec->map_cnt);
	no_fds(prog_fds, spec->prog_cnt);

	for (i = 0; i < spec->map_cnt; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, opts,
			    .map_flags = spec->maps[i].map_flags);
		const struct bpf_map_spec *m = &spec->maps[i];

		if (tc_get_pinned(spec, i, ps, map_fds))
			goto fail;
		if (map_fds[i] >= 0)
			continue;
		map_fds[i] = bpf_map_create(m->type, NULL, m->key_size,
					    m->value_size, m->max_entries,
					    &opts);
		if (map_fds[i] < 0) {
			spec_error(spec, "cannot create map %u '%s': %s", i,
				   m->name, strerror(errno));
			goto fail;
		}
	}

	for (i = 0; i < spec->prog_cnt; i++) {
		prog_fds[i] = load_prog(spec, i, map_fds, log_buf,
					 log_size);
		if (prog_fds[i] < 0)
			goto fail;
	}
	if (tc_pin_new_maps(spec, ps, map_fds))
		goto fail;
	return 0;

fail:
	saved = errno;
	close_fds(prog_fds, spec->prog_cnt);
	close_fds(map_fds, spec->map_cnt);
	errno = saved;
	return -1;
}

/* The whole file into *image; -1 with errno and spec->err on failure. */
static int read_object(int fd, struct bpf_object_spec *spec, char **image,
		       size_t *size)
{
	struct stat st;
	size_t done = 0;
	char *buf;

	if (fstat(fd, &st) < 0) {
		spec_error(spec, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		spec_error(spec, "not a regular file");
		errno = S_ISDIR(st.st_mode) ? EISDIR : ENOEXEC;
		return -1;
	}
	if (st.st_size == 0 || st.st_size > MAX_OBJECT_SIZE) {
		spec_error(spec, "%s", st.st_size ?
			   "larger than 64 MiB, not a BPF object" : "empty file");
		errno = st.st_size ? EFBIG : ENOEXEC;
		return -1;
	}
	buf = malloc(st.st_size);
	if (!buf) {
		spec_error(spec, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			spec_error(spec, "%s",
				   n ? strerror(errno) : "file shrank while read");
			if (n == 0)
				errno = EIO;
			free(buf);
			return -1;
		}
		done += n;
	}
	*image = buf;
	*size = done;
	return 0;
}

int bpf_object_load_file(const char *path, struct bpf_object_spec *spec,
			 int *map_fds, int *prog_fds, char *log_buf,
			 unsigned int log_size)
{
	struct pin_state *ps = NULL;
	char *image = NULL;
	size_t size = 0;
	int fd, ret = -1, saved;

	memset(spec, 0, sizeof(*spec));
	/* this load's verifier log, or none: never an earlier load's */
	if (log_size)
		log_buf[0] = '\0';
	/* Opened first and closed last: the sample's fd numbers depend on it. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		spec_error(spec, "%s", strerror(errno));
		return -1;
	}
	if (read_object(fd, spec, &image, &size))
		goto out;
	if (bpf_object_parse(image, size, spec)) {
		errno = ENOEXEC;
		goto out;
	}
	ps = calloc(1, sizeof(*ps));
	if (!ps) {
		spec_error(spec, "out of memory");
		errno = ENOMEM;
		goto out;
	}
	if (tc_pin_paths(spec, image, size, ps) == 0)
		ret = load_spec(spec, map_fds, prog_fds, ps, log_buf, log_size);
out:
	saved = errno;
	free(ps);
	free(image);
	close(fd);
	errno = saved;
	return ret;
}

/*
 * The 2015 interface: says why it failed on stderr, with the verifier's whole
 * log, as the samples' loader always did. Its state is global (map_fd,
 * prog_fd, bpf_log_buf), and so is its spec: too large for a stack, and
 * never in use twice at once.
 */
int load_bpf_file(char *path)
{
	static struct bpf_object_spec the_spec;
	struct bpf_object_spec *spec = &the_spec;
	int ret, saved;

	ret = bpf_object_load_file(path, spec, map_fd, prog_fd, bpf_log_buf,
				   LOG_BUF_SIZE);
	saved = errno;
	if (ret) {
		fprintf(stderr, "bpf_load: %s: %s\n", path, spec->err);
		if (bpf_log_buf[0])
			fprintf(stderr, "bpf_load: verifier log:\n%s%s", bpf_log_buf,
				bpf_log_buf[strlen(bpf_log_buf) - 1] == '\n' ? "" : "\n");
	}
	bpf_object_spec_free(spec);
	errno = saved;
	return ret;
}
