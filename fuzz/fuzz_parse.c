// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the loader's parsing stage (no syscalls). Beyond not
 * crashing, a spec must hold together: every relocation inside its program,
 * on an LD_IMM64, naming a map that exists; a pinned map's name a file
 * name, its pinning one tc knows; every refusal says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_object.h"

static void check_spec(const struct bpf_object_spec *spec)
{
	unsigned int i, j;

	if (spec->map_cnt > MAX_MAPS || spec->prog_cnt > MAX_PROGS ||
	    spec->prog_cnt == 0)
		abort();
	if (spec->map_cnt && spec->map_def_size != 16 && spec->map_def_size != 20 &&
	    spec->map_def_size != 28 && spec->map_def_size != 36)
		abort();
	for (i = 0; i < spec->map_cnt; i++)
		if (spec->maps[i].pinning > PIN_GLOBAL_NS ||
		    spec->maps[i].inner_id || spec->maps[i].inner_idx ||
		    (spec->maps[i].pinning &&
		     (!spec->maps[i].name[0] || strchr(spec->maps[i].name, '/'))))
			abort();
	for (i = 0; i < spec->prog_cnt; i++) {
		const struct bpf_prog_spec *p = &spec->progs[i];

		if (!p->insns || p->insn_cnt == 0)
			abort();
		for (j = 0; j < p->reloc_cnt; j++) {
			const struct bpf_reloc_spec *r = &p->relocs[j];

			if (r->insn + 1 >= p->insn_cnt || r->map >= spec->map_cnt ||
			    p->insns[r->insn].code != (BPF_LD | BPF_IMM | BPF_DW))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bpf_object_spec spec;

	if (bpf_object_parse(data, size, &spec) == 0)
		check_spec(&spec);
	else if (!spec.err[0])
		abort();
	bpf_object_spec_free(&spec);
	return 0;
}
