/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The order of boots (balanced blocks, or random rounds) and the retry of a failed boot. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "vm/vm.h"

/* splitmix64: a small, seedable generator for the random order (reproducible from the seed). */
static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void vm_schedule(size_t nkernels, size_t nboots, enum vm_order order, uint64_t seed, size_t *out)
{
	uint64_t state = seed;
	size_t *perm = xcalloc(nkernels ? nkernels : 1, sizeof(*perm));
	for (size_t r = 0; r * nkernels < nboots; r++) {
		size_t *round = out + r * nkernels;
		size_t n = nboots - r * nkernels < nkernels ? nboots - r * nkernels : nkernels;
		if (order == VM_ORDER_RANDOM) {
			for (size_t i = 0; i < nkernels; i++)
				perm[i] = i;
			for (size_t i = nkernels; i > 1; i--) {
				size_t j = (size_t)(next_random(&state) % i);
				size_t t = perm[i - 1];
				perm[i - 1] = perm[j];
				perm[j] = t;
			}
			for (size_t i = 0; i < n; i++)
				round[i] = perm[i];
		} else {
			/* Thue-Morse: round r is backward when r has an odd number of bits set */
			int backward = __builtin_popcountll((unsigned long long)r) & 1;
			for (size_t i = 0; i < n; i++)
				round[i] = backward ? nkernels - 1 - i : i;
		}
	}
	free(perm);
}

size_t vm_sequence(const size_t *order, size_t nboots, vm_boot_fn boot, void *arg, struct vm_attempt *log)
{
	size_t made = 0;
	for (size_t slot = 0; slot < nboots; slot++)
		for (int attempt = 1; attempt <= 2; attempt++) {
			struct vm_attempt *a = &log[made++];
			*a = (struct vm_attempt){.slot = slot, .kernel = order[slot], .attempt = attempt};
			a->result = boot(arg, a);
			if (a->result == VM_BOOT_STOP)
				return made;
			if (a->result == VM_BOOT_OK)
				break;
		}
	return made;
}
