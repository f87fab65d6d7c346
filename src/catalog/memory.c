/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "memory" test family: memcpy, allocator, mem* and program-break jobs from the AIM catalog. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"

#define COPY_CALLS 100
#define COPY_MAX (64 * 1024)
#define ALIGNS 8                /* offsets 0..7, sizeof(double) as classic */
#define ALLOC_ROUNDS 100
#define ALLOC_STRINGS 100
#define ALLOC_BLOCKS (3 * ALLOC_STRINGS)
#define MEMFN_ROUNDS 100
#define MEMFN_MAX 8192
#define BREAK_ARENA (1024 * 1024)
#define BREAK_SHRINK (64 * 1024)
#define BREAK_STEP 4096
#define BREAK_STEPS (BREAK_SHRINK / BREAK_STEP)
#define TOUCH_STRIDE 128
#define PAGE_ROUNDS 100
#define BRK_ROUNDS 1000

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Classic ram_copy's copy sizes: mostly a few bytes, a few large blocks up to 64 KiB. */
static const unsigned copy_sizes[] = {
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 8, 9, 11, 17, 33, 63, 7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 127, 256, 1001, 1200, 1492, 1500,
	1024, 2048, 3172, 4096, 8192, 16384, 32768, 65536, 512,
	7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 8, 9, 11, 17, 33, 63,
	7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7,
};

/* Classic's table of block sizes for the allocator and mem* tests (mean about 1 KiB). */
static const unsigned short block_sizes[] = {
	1, 3, 5, 7, 9, 11, 33, 65, 129, 1024, 1025, 1023, 8192, 4096, 4095, 11, 33, 65, 129, 1024,
	1, 3, 5, 7, 9, 11, 33, 65, 129, 1024, 1025, 1023, 8192, 4096, 4095, 11, 33, 65, 129, 1024,
};

/* Classic's buffers were static, zero pages copied without ever being filled; so are these,
 * as scratch whose contents nobody reads. */
static unsigned char copy_src[COPY_MAX + ALIGNS], copy_dst[COPY_MAX + ALIGNS];
/*
 * mem_rtns_2's two buffers lay 8,208 bytes apart in classic's stack frame (8 KiB and 8, to 16 bytes), 16 more than a
 * multiple of 4 KiB: the CPU then mistakes loads of one for stores to the other (4K aliasing),
 * which made classic's calls about twice as slow as other placements. Ours keep that distance.
 */
#define MEMFN_STRIDE ((MEMFN_MAX + ALIGNS + 15) / 16 * 16)
static unsigned char memfn_buf[2 * MEMFN_STRIDE] __attribute__((aligned(64)));

/* 100 memcpy of classic's sizes (1 B..64 KiB, most under 64 B), source and destination offsets
 * cycling through 8 alignments each. */
static enum test_status ram_copy(struct test_ctx *ctx, const struct test_def *self)
{
	(void)ctx, (void)self;
	for (unsigned n = 0; n < COPY_CALLS; n++) {
		size_t size = copy_sizes[n % ARRAY_LEN(copy_sizes)];
		memcpy(copy_dst + n % ALIGNS, copy_src + (n / ALIGNS) % ALIGNS, size);
		test_keep(copy_dst);
	}
	return TEST_OK;
}

/* Classic's order of release: the blocks of each triple, from the last triple back. */
static void free_triples(char **blk, unsigned made)
{
	for (unsigned end = ALLOC_BLOCKS; end >= 3; end -= 3) {
		unsigned t = end - 3;
		if (t < made)
			free(blk[t]);
		if (t + 2 < made)
			free(blk[t + 2]);
		if (t + 1 < made)
			free(blk[t + 1]);
	}
}

/* 100 rounds of classic's 300 allocations (a copied string, a malloc and a calloc of its
 * table's sizes, per string), each touched, freed in its order. */
static enum test_status mem_rtns_1(struct test_ctx *ctx, const struct test_def *self)
{
	static const char str[] = "Hello, this is an average length string 1234";
	char *blk[ALLOC_BLOCKS];
	long count = 0;
	(void)self;
	for (unsigned r = 0; r < ALLOC_ROUNDS; r++) {
		unsigned j = 0;
		for (unsigned i = 0; i < ALLOC_STRINGS; i++) {
			size_t m = block_sizes[i % ARRAY_LEN(block_sizes)];
			size_t c = block_sizes[(i + 1) % ARRAY_LEN(block_sizes)];
			char *s = malloc(sizeof(str));
			if (s != NULL)
				strcpy(s, str);
			blk[j++] = s;
			blk[j++] = malloc(m);
			blk[j++] = calloc(c, 1);
			if (blk[j - 3] == NULL || blk[j - 2] == NULL || blk[j - 1] == NULL) {
				free_triples(blk, j);
				return test_fail(ctx, ENOMEM, "mem_rtns_1: allocating %zu and %zu B", m, c);
			}
			count += (long)strlen(s) + 1 + (long)(m + c);
		}
		/* the first byte of each, so its page is really there */
		for (unsigned i = 0; i < ALLOC_BLOCKS; i++) {
			blk[i][0] = (char)i;
			count += blk[i][0];
			test_keep(blk[i]);
		}
		free_triples(blk, ALLOC_BLOCKS);
	}
	test_keep(count);
	return TEST_OK;
}

/* 100 rounds of classic's memset x2, memchr, memcmp, memcpy and memmove on its table's sizes at
 * offsets 0..7 of two 8 KiB buffers. */
static enum test_status mem_rtns_2(struct test_ctx *ctx, const struct test_def *self)
{
	unsigned char *x = memfn_buf, *y = memfn_buf + MEMFN_STRIDE;
	(void)self;
	for (unsigned n = 0; n < MEMFN_ROUNDS; n++) {
		unsigned a = n % ALIGNS, b = (n / ALIGNS) % ALIGNS;
		size_t size = block_sizes[n % ARRAY_LEN(block_sizes)];
		memset(x + a, 'A', size);
		memset(y + b, 'A', size);
		x[a + n % size] = 'Z';
		test_keep(x);
		unsigned char *z = memchr(x + a, 'Z', size);
		if (z == NULL)
			return test_fail(ctx, 0, "mem_rtns_2: memchr missed the marker (%zu B)", size);
		if (memcmp(x + a, y + b, size) > 0)
			*z = 'A';
		memcpy(x + a, y + b, size);
		memmove(y + a, x + b, size);
		test_keep(y);
	}
	return TEST_OK;
}

/* Grow the break by 1 MiB, then rounds × (shrink 64 KiB, 16 × grow 4 KiB, optionally
 * writing every 128th new byte), then put the break back exactly where it was.
 * Between the first move and the restore nothing may call malloc, which can use the
 * break itself: failures are only noted, and reported after the restore. */
static enum test_status break_cycle(struct test_ctx *ctx, unsigned rounds, int touch)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return test_fail(ctx, errno, "sysconf(_SC_PAGESIZE)");
	void *start = sbrk(0);
	if (start == (void *)-1)
		return test_fail(ctx, errno, "reading the program break");

	/* Start the arena on a page boundary so every 4 KiB step maps the same pages each call. */
	intptr_t pad = (intptr_t)(-(uintptr_t)start & ((uintptr_t)page - 1));
	const char *step = NULL;
	int err = 0;
	if (sbrk(pad + BREAK_ARENA) == (void *)-1) {
		err = errno;
		step = "growing the break by 1 MiB";
	}
	for (unsigned r = 0; r < rounds && step == NULL; r++) {
		if (sbrk(-(intptr_t)BREAK_SHRINK) == (void *)-1) {
			err = errno;
			step = "shrinking the break by 64 KiB";
			break;
		}
		for (unsigned g = 0; g < BREAK_STEPS; g++) {
			volatile char *p = sbrk(BREAK_STEP);
			if (p == (void *)-1) {
				err = errno;
				step = "growing the break by 4 KiB";
				break;
			}
			for (unsigned off = 0; touch && off < BREAK_STEP; off += TOUCH_STRIDE)
				p[off] = (char)(off | 1);
		}
	}
	if (brk(start) != 0 && step == NULL) {
		err = errno;
		step = "restoring the program break";
	}
	if (step == NULL && sbrk(0) != start) {
		err = 0;
		step = "restoring the program break (it moved)";
	}
	return step != NULL ? test_fail(ctx, err, "%s", step) : TEST_OK;
}

static enum test_status page_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	return break_cycle(ctx, PAGE_ROUNDS, 1);
}

static enum test_status brk_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	return break_cycle(ctx, BRK_ROUNDS, 0);
}

static const struct test_def tests[] = {
	{ .name = "ram_copy", .run = ram_copy, .ops_per_call = 25020, .units = "classic ops", .flags = TF_CPU,
	  .desc = "100 memcpy of classic's sizes (1 B..64 KiB, most under 64 B) at 8 x 8 alignments" },
	{ .name = "mem_rtns_1", .run = mem_rtns_1, .ops_per_call = ALLOC_ROUNDS * ALLOC_BLOCKS, .units = "allocations", .flags = TF_CPU, .elem_ops = (uint64_t)ALLOC_ROUNDS * ALLOC_BLOCKS * 2,
	  .desc = "100 x (100 x (string copy, malloc, calloc of classic's 1 B..8 KiB sizes), touch, free)" },
	{ .name = "mem_rtns_2", .run = mem_rtns_2, .ops_per_call = MEMFN_ROUNDS, .units = "rounds", .flags = TF_CPU,
	  .desc = "100 x memset x2/memchr/memcmp/memcpy/memmove of classic's 1 B..8 KiB sizes, 8 x 8 alignments" },
	{ .name = "page_test", .run = page_test, .ops_per_call = PAGE_ROUNDS * (1 + BREAK_STEPS), .units = "break moves",
	  .desc = "break +1 MiB; 100 x (shrink 64 KiB, 16 x grow 4 KiB writing every 128th byte); restore" },
	{ .name = "brk_test", .run = brk_test, .ops_per_call = BRK_ROUNDS * (1 + BREAK_STEPS), .units = "break moves",
	  .desc = "break +1 MiB; 1000 x (shrink 64 KiB, 16 x grow 4 KiB) untouched; restore" },
};

const struct test_family test_family_memory = { "memory", tests, sizeof(tests) / sizeof(tests[0]), NULL };
