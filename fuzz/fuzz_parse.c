// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the loader's parsing stage (no syscalls). Beyond not
 * crashing, a plan must hold together: every relocation inside its program,
 * on an LD_IMM64, naming a map that exists; every refusal says why.
 */
#include <stdint.h>
#include <stdlib.h>

#include "bpf_load.h"
#include "libbpf.h"

static void check_plan(const struct bpf_object_plan *plan)
{
	unsigned int i, j;

	if (plan->map_cnt > MAX_MAPS || plan->prog_cnt > MAX_PROGS ||
	    plan->prog_cnt == 0)
		abort();
	if (plan->map_cnt && plan->map_def_size != 16 && plan->map_def_size != 20)
		abort();
	for (i = 0; i < plan->prog_cnt; i++) {
		const struct bpf_prog_spec *p = &plan->progs[i];

		if (!p->insns || p->insn_cnt == 0)
			abort();
		for (j = 0; j < p->reloc_cnt; j++) {
			const struct bpf_reloc_spec *r = &p->relocs[j];

			if (r->insn + 1 >= p->insn_cnt || r->map >= plan->map_cnt ||
			    p->insns[r->insn].code != (BPF_LD | BPF_IMM | BPF_DW))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bpf_object_plan plan;

	if (bpf_object_parse(data, size, &plan) == 0)
		check_plan(&plan);
	else if (!plan.err[0])
		abort();
	bpf_object_plan_free(&plan);
	return 0;
}
