/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of test families; every lookup of a test name goes through here. */
#include "config.h"

#include <string.h>

#include "catalog/catalog.h"

extern const struct test_family test_family_cpu_int;
extern const struct test_family test_family_cpu_float;
extern const struct test_family test_family_memory;
extern const struct test_family test_family_ipc;
extern const struct test_family test_family_net;
extern const struct test_family test_family_process;
extern const struct test_family test_family_fs_meta;
extern const struct test_family test_family_disk;

const struct test_family *const test_families[] = {
	&test_family_cpu_int, &test_family_cpu_float, &test_family_memory,
	&test_family_ipc,     &test_family_net,       &test_family_process,
	&test_family_fs_meta, &test_family_disk,
};
const size_t test_family_count = sizeof(test_families) / sizeof(test_families[0]);

const struct test_def *test_at(size_t i)
{
	for (size_t f = 0; f < test_family_count; f++) {
		if (i < test_families[f]->count)
			return &test_families[f]->tests[i];
		i -= test_families[f]->count;
	}
	return NULL;
}

size_t test_count(void)
{
	size_t n = 0;
	for (size_t f = 0; f < test_family_count; f++)
		n += test_families[f]->count;
	return n;
}

const struct test_def *test_find(const char *name)
{
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

const struct test_family *test_family_struct_of(const struct test_def *t)
{
	for (size_t f = 0; f < test_family_count; f++) {
		const struct test_family *fam = test_families[f];
		if (t >= fam->tests && t < fam->tests + fam->count)
			return fam;
	}
	return NULL;
}

const char *test_family_of(const struct test_def *t)
{
	const struct test_family *fam = test_family_struct_of(t);
	return fam ? fam->name : "?";
}
