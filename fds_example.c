// SPDX-License-Identifier: GPL-2.0
/*
 * Pins a BPF map or program in a BPF filesystem, or gets one pinned there by
 * an earlier process, then uses it: a map value is updated or looked up, a
 * program is attached to a raw socket on lo.
 *
 * Conventions: every helper here returns -1 on failure, having said why on
 * stderr (like libbpf.c's calls, which return -1 with errno set and print
 * nothing); only main() turns results into exit statuses (0 success,
 * 1 a failed operation, 2 bad usage).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bpf_object.h"
#include "bpf_syscall.h"
#include "hints.h"
#include "libbpf.h"

/* The map that -P -m makes: the 2015 sample's. */
#define MAP_ENTRIES 1024

struct options {
	const char *file;
	const char *object;
	int pin;		/* -P */
	int get;		/* -G */
	int map;		/* -m */
	int prog;		/* -p */
	int has_key;
	int has_value;
	uint32_t key;
	uint32_t value;
};

/* What the command line asks for. */
enum parse_result {
	PARSE_RUN,		/* valid: do what the options say */
	PARSE_HELP,		/* -h: usage on stdout, exit 0 */
	PARSE_BAD_USAGE,	/* said why on stderr: exit 2 */
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
		"  -k <key>     look up this key (0..4294967295; -P makes keys 0..1023)\n"
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

/* Bad usage: the message and the usage on stderr. */
static enum parse_result bad_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static enum parse_result bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	usage(stderr);
	return PARSE_BAD_USAGE;
}

/* A failed operation: the message on stderr; returns -1. */
static int failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int failure(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return -1;
}

/* How a contract line ends: the call's result and its error text. */
#define NEW_FD	"fd:%d (%s)\n"		/* a call that returns a new fd */
#define RET	" ret:(%d,%s)\n"	/* a call that returns 0 or -1 */

/*
 * The contract line of a call that returned ret: "bpf: ", fmt with its
 * arguments, then the end (NEW_FD or RET) with ret and the error text. A
 * success prints (Success), strerror(0), whatever errno held; after a
 * failure errno is left as the call set it, for the caller's message. The
 * line leaves at once, so a pipe never loses it. Returns ret.
 */
static int report(int ret, const char *end, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int report(int ret, const char *end, const char *fmt, ...)
{
	int err = ret < 0 ? errno : 0;
	va_list ap;

	fputs("bpf: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(end, ret, strerror(err));
	fflush(stdout);
	errno = err;
	return ret;
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

/* The flags as given, nothing checked yet but the numbers. */
static enum parse_result read_flags(int argc, char **argv, struct options *o)
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
			o->map = 1;
			break;
		case 'p':
			o->prog = 1;
			break;
		case 'k':
			if (parse_u32(optarg, &o->key))
				return bad_usage("-k %s: not a whole number in 0..4294967295",
						 optarg);
			o->has_key = 1;
			break;
		case 'v':
			if (parse_u32(optarg, &o->value))
				return bad_usage("-v %s: not a whole number in 0..4294967295",
						 optarg);
			o->has_value = 1;
			break;
		case 'o':
			o->object = optarg;
			break;
		case 'h':
			return PARSE_HELP;
		default:
			/* getopt has said which option is wrong */
			usage(stderr);
			return PARSE_BAD_USAGE;
		}
	}
	return PARSE_RUN;
}

/* The flags together: each rule that combinations break, in this order. */
static enum parse_result check_flags(const struct options *o)
{
	if (!o->file)
		return bad_usage("-F <file> is needed");
	if (o->pin && o->get)
		return bad_usage("-P and -G exclude each other");
	if (!o->pin && !o->get)
		return bad_usage("one of -P (pin) or -G (get) is needed");
	if (!o->map && !o->prog)
		return bad_usage("one of -m (map) or -p (program) is needed");
	if (o->map && o->prog)
		return bad_usage("-m and -p exclude each other");
	if (o->has_value && !o->has_key)
		return bad_usage("-v needs -k");
	if (o->prog && o->has_key)
		return bad_usage("-k and -v are for map mode (-m)");
	if (o->object && (!o->prog || !o->pin))
		return bad_usage("-o is for pinning a program (-P -p)");
	return PARSE_RUN;
}

static enum parse_result parse_options(int argc, char **argv,
				       struct options *o)
{
	enum parse_result res = read_flags(argc, argv, o);

	if (res != PARSE_RUN)
		return res;
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	return check_flags(o);
}

/* A failed command leaves the bpffs as it found it. */
static int undo_pin(const char *file)
{
	if (unlink(file) == 0)
		return failure("removed the new pin at %s", file);
	return failure("cannot remove the new pin at %s: %s", file,
		       strerror(errno));
}

/* BPF_OBJ_GET, reported; then the object must be of the kind wanted. */
static int get_object(const char *file, int want_kind)
{
	int fd, kind, err;

	fd = report(bpf_obj_get(file), NEW_FD, "get ");
	if (fd < 0) {
		err = errno;
		failure("cannot get %s: %s", file, strerror(err));
		hint_get(err, file);
		return -1;
	}

	kind = bpf_obj_kind(fd);
	if (kind < 0) {
		failure("cannot tell what %s holds: %s", file, strerror(errno));
	} else if (kind != want_kind) {
		failure("%s holds %s, not %s", file, bpf_obj_kind_name(kind),
			bpf_obj_kind_name(want_kind));
		hint_kind(file, kind);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

/* BPF_OBJ_PIN, reported. */
static int pin_object(int fd, const char *file, const char *what)
{
	int err;

	if (report(bpf_obj_pin(fd, file), RET, "pin") == 0)
		return 0;
	err = errno;
	failure("cannot pin the %s at %s: %s", what, file, strerror(err));
	hint_pin(err, file);
	return -1;
}

/* -k and -v read and write one 4-byte key and one 4-byte value. */
static int check_u32_map(int fd, const char *file)
{
	struct bpf_map_info info;

	if (bpf_map_get_info(fd, &info) < 0)
		return failure("cannot read what map %s is: %s", file,
			       strerror(errno));
	if (info.key_size != sizeof(uint32_t) ||
	    info.value_size != sizeof(uint32_t))
		return failure("%s has %u-byte keys and %u-byte values; -k and -v need 4 and 4",
			       file, info.key_size, info.value_size);
	if (bpf_map_type_percpu(info.type))
		return failure("%s is a per-CPU map (type %u): a lookup returns one value per CPU, -k and -v need a single 4-byte value",
			       file, info.type);
	return 0;
}

/* -P -m: a new array map, reported and pinned. */
static int pin_new_map(const char *file)
{
	int fd, err;

	fd = report(bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t),
				   sizeof(uint32_t), MAP_ENTRIES), NEW_FD, "map ");
	if (fd < 0) {
		err = errno;
		failure("cannot create the map: %s", strerror(err));
		hint_create(err);
		return -1;
	}
	return pin_object(fd, file, "map") ? -1 : fd;
}

/* -G -m: the pinned map, which -k needs to hold 4-byte keys and values. */
static int get_map(const struct options *o)
{
	int fd = get_object(o->file, BPF_OBJ_KIND_MAP);

	if (fd >= 0 && o->has_key && check_u32_map(fd, o->file)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* -k [-v]: one update or lookup, reported. */
static int use_key(int fd, const struct options *o)
{
	uint32_t key = o->key, value = o->value;
	int ret, err;

	if (o->has_value) {
		ret = report(bpf_update_elem(fd, &key, &value, BPF_ANY), RET,
			     "fd:%d u->(%u:%u)", fd, key, value);
	} else {
		value = 0;
		/* the line shows the value the lookup wrote: call first */
		ret = bpf_lookup_elem(fd, &key, &value);
		report(ret, RET, "fd:%d l->(%u):%u", fd, key, value);
	}
	if (ret == 0)
		return 0;
	err = errno;
	failure("cannot %s key %u in %s: %s",
		o->has_value ? "update" : "look up", key, o->file,
		strerror(err));
	hint_key(err, fd, key);
	return -1;
}

static int run_map(const struct options *o)
{
	int fd = o->pin ? pin_new_map(o->file) : get_map(o);

	if (fd < 0)
		return -1;
	if (o->has_key && use_key(fd, o))
		return o->pin ? undo_pin(o->file) : -1;
	return 0;
}

/* The default program keeps the first byte of each packet: r0 = 1; exit. */
static int load_default_prog(char *why, size_t len)
{
	static const struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};
	char verdict[128];
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			   "GPL", 0);
	if (fd < 0) {
		err = errno;
		bpf_verifier_verdict(bpf_log_buf, verdict, sizeof(verdict));
		snprintf(why, len, "%s%s%s", strerror(err),
			 verdict[0] ? "; the verifier: " : "", verdict);
		errno = err;
	}
	return fd;
}

/*
 * The first program of object, after its maps: the loader opens the file
 * first and closes it last, as the 2015 sample's did, so its fd numbers match.
 */
static int load_object_prog(const char *object, char *why, size_t len)
{
	int map_fds[MAX_MAPS], prog_fds[MAX_PROGS], fd, err;
	/* the verifier's log, whose last word a refusal quotes */
	static char vlog[LOG_BUF_SIZE];
	struct bpf_object_spec *spec;

	spec = malloc(sizeof(*spec));
	if (!spec) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return -1;
	}
	fd = bpf_object_load_file(object, spec, map_fds, prog_fds, vlog,
				  sizeof(vlog));
	err = errno;
	if (fd == 0)
		fd = prog_fds[0];
	else
		snprintf(why, len, "%s", spec->err);
	bpf_object_spec_free(spec);
	free(spec);
	errno = err;
	return fd;
}

/* -P -p: the program, reported and pinned. */
static int pin_new_prog(const char *file, const char *object)
{
	char why[BPF_OBJECT_ERR_LEN];
	int fd, err;

	if (object)
		fd = load_object_prog(object, why, sizeof(why));
	else
		fd = load_default_prog(why, sizeof(why));
	if (report(fd, NEW_FD, "prog ") < 0) {
		err = errno;
		failure("cannot load the program%s%s: %s", object ? " from " : "",
			object ? object : "", why);
		if (object)
			hint_object(err, object);
		else
			hint_create(err);
		return -1;
	}
	return pin_object(fd, file, "program") ? -1 : fd;
}

/* SO_ATTACH_BPF on a new raw socket on lo, reported. */
static int attach_to_lo(int fd)
{
	int sock, ret;

	sock = open_raw_sock("lo");
	if (sock < 0)
		return failure("cannot open a raw socket on lo: %s",
			       strerror(errno));

	ret = setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd));
	if (report(ret, RET, "sock:%d <- fd:%d attached", sock, fd) < 0)
		return failure("cannot attach the program to the socket: %s",
			       strerror(errno));
	return 0;
}

static int run_prog(const struct options *o)
{
	int fd;

	if (o->pin)
		fd = pin_new_prog(o->file, o->object);
	else
		fd = get_object(o->file, BPF_OBJ_KIND_PROG);
	if (fd < 0)
		return -1;
	if (attach_to_lo(fd))
		return o->pin ? undo_pin(o->file) : -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };

	switch (parse_options(argc, argv, &o)) {
	case PARSE_HELP:
		usage(stdout);
		return 0;
	case PARSE_BAD_USAGE:
		return 2;
	case PARSE_RUN:
		break;
	}
	if (o.map ? run_map(&o) : run_prog(&o))
		return 1;
	return 0;
}
