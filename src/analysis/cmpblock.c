/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Blocks of a comparison: a lab's devices. A device's own speed is the same for every kernel it runs,
 * so pairing each kernel's run with the other's on the same device takes it out of the difference. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cmpblock.h"
#include "store/store.h"
#include "util/util.h"

char *cmpblock_device(struct store *st, int64_t run)
{
	char **kv;
	size_t n;
	char *device = NULL;
	if (store_get_env(st, run, &kv, &n) < 0)
		return NULL;
	static const char key[] = "lab.device\t";
	for (size_t i = 0; i < n; i++) {
		if (!device && strncmp(kv[i], key, sizeof(key) - 1) == 0 && kv[i][sizeof(key) - 1])
			device = xstrdup(kv[i] + sizeof(key) - 1);
		free(kv[i]);
	}
	free(kv);
	return device;
}

size_t cmpblock_pair(char *const *ba, size_t na, char *const *bb, size_t nb, size_t *ia, size_t *ib)
{
	size_t n = 0;
	char *used = xcalloc(nb + 1, 1);
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (!used[j] && strcmp(ba[i], bb[j]) == 0) {
				used[j] = 1;
				ia[n] = i;
				ib[n++] = j;
				break;
			}
	free(used);
	return n;
}

size_t cmpblock_count(char *const *blocks, size_t n)
{
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && strcmp(blocks[j], blocks[i]) != 0)
			j++;
		distinct += j == i;
	}
	return distinct;
}
