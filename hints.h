/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hints: after fds_example's "cannot ..." line, at most one more stderr line
 * ("fds_example: hint: ...") naming the likely cause of a learner's first
 * mistakes and what to do about it. Each looks at the path, the errno and
 * the process (and an object file's ELF header); none changes anything.
 */
#ifndef HINTS_H
#define HINTS_H

#include <stdint.h>

void hint_pin(int err, const char *file);
void hint_get(int err, const char *file);
void hint_create(int err);
void hint_object(int err, const char *object);
void hint_kind(const char *file, int kind);
void hint_key(int err, int map_fd, uint32_t key);

#endif /* HINTS_H */
