// SPDX-License-Identifier: GPL-2.0
/*
 * Pins a BPF map or program in a BPF filesystem, or gets one pinned there by
 * an earlier process, then uses it: a map value is updated or looked up, a
 * program is attached to a raw socket on lo.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bpf_load.h"
#include "hints.h"
#include "libbpf.h"

enum mode {
	MODE_NONE,
	MODE_MAP,
	MODE_PROG,
};

struct options {
	const char *file;
	const char *object;
	int pin;
	int get;
	enum mode mode;
	int mode_count;
	int has_key;
	int has_value;
	uint32_t key;
	uint32_t value;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: fds_example -F <file> -P|-G -m [-k <key> [-v <value>]]\n"
		"       fds_example -F <file> -P|-G -p [-o <object>]\n"
		"       fds_example -h\n"
		"  -F <file>    path in a BPF filesystem to pin to or get from\n"
		"  -P           create the object and pin it at <file>\n"
		"  -G           get the object pinned at <file>\n"
		"  -m           map mode: array map, 4-byte keys and values, 1024 entries\n"
		"  -k <key>     look up this key (0..4294967295; -P makes slots 0..1023)\n"
		"  -v <value>   with -k: store this value under the key instead\n"
		"  -p           program mode: attach the program to a raw socket on lo\n"
		"  -o <object>  with -P -p: load the program from this ELF object\n"
		"  -h           show this help\n");
}

/* One line on stderr: "fds_example: " and the message. */
static void vsay(const char *fmt, va_list ap)
{
	fputs("fds_example: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Bad usage: the message and the usage on stderr; exit status 2. */
static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	usage(stderr);
	return 2;
}

/* A failed operation: the message on stderr; exit status 1. */
static int failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int failure(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return 1;
}

/* Each report line leaves before the next step, so a pipe never loses it. */
static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* The result of a call and its errno, 0 when it succeeded. */
static int err_of(int ret)
{
	return ret < 0 ? errno : 0;
}

/* A whole number in 0..UINT32_MAX, decimal, 0x-hex or 0-octal as strtoul. */
static int parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

/* A failed command leaves the bpffs as it found it. */
static int undo_pin(const char *file, int status)
{
	if (unlink(file) == 0)
		failure("removed the new pin at %s", file);
	else
		failure("cannot remove the new pin at %s: %s", file,
			strerror(errno));
	return status;
}

static int get_object(const char *file, int want_kind)
{
	int fd, err, kind;

	errno = 0;
	fd = bpf_obj_get(file);
	err = err_of(fd);
	report("bpf: get fd:%d (%s)\n", fd, strerror(err));
	if (fd < 0) {
		failure("cannot get %s: %s", file, strerror(err));
		hint_get(err, file);
		return -1;
	}

	kind = bpf_obj_kind(fd);
	if (kind < 0) {
		failure("cannot tell what %s holds: %s", file, strerror(errno));
		goto fail;
	}
	if (kind != want_kind) {
		failure("%s holds %s, not %s", file, bpf_obj_kind_name(kind),
			bpf_obj_kind_name(want_kind));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

static int pin_object(int fd, const char *file, const char *what)
{
	int ret, err;

	errno = 0;
	ret = bpf_obj_pin(fd, file);
	err = err_of(ret);
	report("bpf: pin ret:(%d,%s)\n", ret, strerror(err));
	if (ret < 0) {
		failure("cannot pin the %s at %s: %s", what, file,
			strerror(err));
		hint_pin(err, file);
		return 1;
	}
	return 0;
}

static int is_percpu(unsigned int type)
{
	return type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

/*
 * Only a map with 4-byte keys and values fits the buffers used here. A
 * per-CPU map's lookup writes a value per possible CPU, whatever its
 * value_size says, so it does not fit either.
 */
static int check_map_sizes(int fd, const char *file)
{
	struct bpf_map_info info;
	unsigned int len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return failure("cannot read what map %s is: %s", file,
			       strerror(errno));
	if (len < offsetof(struct bpf_map_info, max_entries) ||
	    info.key_size != sizeof(uint32_t) ||
	    info.value_size != sizeof(uint32_t))
		return failure("%s has %u-byte keys and %u-byte values; -k and -v need 4 and 4",
			       file, info.key_size, info.value_size);
	if (is_percpu(info.type))
		return failure("%s is a per-CPU map (type %u): a lookup returns one value per CPU, -k and -v need a single 4-byte value",
			       file, info.type);
	return 0;
}

static int map_create_failure(int err)
{
	failure("cannot create the map: %s", strerror(err));
	hint_map_create(err);
	return 1;
}

static int do_map(const struct options *o)
{
	uint32_t key = o->key, value = o->value;
	int fd, ret, err;

	if (o->pin) {
		errno = 0;
		fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t),
				    sizeof(uint32_t), 1024);
		err = err_of(fd);
		report("bpf: map fd:%d (%s)\n", fd, strerror(err));
		if (fd < 0)
			return map_create_failure(err);
		if (pin_object(fd, o->file, "map"))
			return 1;
	} else {
		fd = get_object(o->file, BPF_OBJ_KIND_MAP);
		if (fd < 0)
			return 1;
		if (o->has_key && check_map_sizes(fd, o->file))
			return 1;
	}

	if (o->has_value) {
		errno = 0;
		ret = bpf_update_elem(fd, &key, &value, BPF_ANY);
		err = err_of(ret);
		report("bpf: fd:%d u->(%u:%u) ret:(%d,%s)\n", fd, key, value,
		       ret, strerror(err));
		if (ret < 0)
			goto fail;
	} else if (o->has_key) {
		value = 0;
		errno = 0;
		ret = bpf_lookup_elem(fd, &key, &value);
		err = err_of(ret);
		report("bpf: fd:%d l->(%u):%u ret:(%d,%s)\n", fd, key, value,
		       ret, strerror(err));
		if (ret < 0)
			goto fail;
	}
	return 0;

fail:
	failure("cannot %s key %u in %s: %s",
		o->has_value ? "update" : "look up", key, o->file,
		strerror(err));
	hint_key(err, fd, key);
	return o->pin ? undo_pin(o->file, 1) : 1;
}

/* The default program keeps the first byte of each packet: r0 = 1; exit. */
static int create_prog(const char *object)
{
	static const struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};
	int fd, err;

	if (object) {
		if (load_bpf_file((char *)object) < 0)
			return -1;
		return prog_fd[0];
	}

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			   "GPL", 0);
	if (fd < 0 && bpf_log_buf[0]) {
		err = errno;
		fprintf(stderr, "fds_example: verifier log:\n%s", bpf_log_buf);
		errno = err;
	}
	return fd;
}

static int do_prog(const struct options *o)
{
	int fd, sock, ret, err;

	if (o->pin) {
		errno = 0;
		fd = create_prog(o->object);
		err = err_of(fd);
		report("bpf: prog fd:%d (%s)\n", fd, strerror(err));
		if (fd < 0)
			return failure("cannot load the program%s%s: %s",
				       o->object ? " from " : "",
				       o->object ? o->object : "",
				       strerror(err));
		if (pin_object(fd, o->file, "program"))
			return 1;
	} else {
		fd = get_object(o->file, BPF_OBJ_KIND_PROG);
		if (fd < 0)
			return 1;
	}

	sock = open_raw_sock("lo");
	if (sock < 0) {
		failure("cannot open a raw socket on lo: %s", strerror(errno));
		return o->pin ? undo_pin(o->file, 1) : 1;
	}

	errno = 0;
	ret = setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd));
	err = err_of(ret);
	report("bpf: sock:%d <- fd:%d attached ret:(%d,%s)\n", sock, fd, ret,
	       strerror(err));
	if (ret < 0) {
		failure("cannot attach the program to the socket: %s",
			strerror(err));
		return o->pin ? undo_pin(o->file, 1) : 1;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	int opt;

	while ((opt = getopt(argc, argv, "F:PGmk:v:po:h")) != -1) {
		switch (opt) {
		case 'F':
			o->file = optarg;
			break;
		case 'P':
			o->pin = 1;
			break;
		case 'G':
			o->get = 1;
			break;
		case 'm':
		case 'p':
			o->mode = opt == 'm' ? MODE_MAP : MODE_PROG;
			o->mode_count |= 1 << o->mode;
			break;
		case 'k':
			if (parse_u32(optarg, &o->key))
				return usage_error("-k %s: not a whole number in 0..4294967295",
						   optarg);
			o->has_key = 1;
			break;
		case 'v':
			if (parse_u32(optarg, &o->value))
				return usage_error("-v %s: not a whole number in 0..4294967295",
						   optarg);
			o->has_value = 1;
			break;
		case 'o':
			o->object = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			/* getopt has said which option is wrong */
			usage(stderr);
			return 2;
		}
	}

	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->file)
		return usage_error("-F <file> is needed");
	if (o->pin && o->get)
		return usage_error("-P and -G exclude each other");
	if (!o->pin && !o->get)
		return usage_error("one of -P (pin) or -G (get) is needed");
	if (o->mode == MODE_NONE)
		return usage_error("one of -m (map) or -p (program) is needed");
	if (o->mode_count == ((1 << MODE_MAP) | (1 << MODE_PROG)))
		return usage_error("-m and -p exclude each other");
	if (o->has_value && !o->has_key)
		return usage_error("-v needs -k");
	if (o->mode == MODE_PROG && o->has_key)
		return usage_error("-k and -v are for map mode (-m)");
	if (o->object && (o->mode != MODE_PROG || !o->pin))
		return usage_error("-o is for pinning a program (-P -p)");
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int ret;

	ret = parse_options(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;

	return o.mode == MODE_MAP ? do_map(&o) : do_prog(&o);
}
