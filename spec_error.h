/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the loader's stages alone (bpf_object.c, tc_pinning.c, bpf_load.c),
 * never for their callers: how a stage says why it failed, one line in
 * spec->err, which the caller prints after "PATH: ".
 */
#ifndef __SPEC_ERROR_H
#define __SPEC_ERROR_H

#include "bpf_object.h"

void spec_error(struct bpf_object_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* __SPEC_ERROR_H */
