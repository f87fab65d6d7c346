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
#define ALLOC_ROUNDS 100
#define ALLOC_BLOCKS 300
#define ALLOC_MAX 8192
#define MEMFN_ROUNDS 100
#define MEMFN_MAX 8192
#define MEMFN_CALLS 5           /* memset, memchr, memcpy, memcmp, memmove */
#define ALIGNS 8                /* offsets 0..7 from a malloc-aligned base */
#define BREAK_ARENA (1024 * 1024)
#define BREAK_SHRINK (64 * 1024)
#define BREAK_STEP 4096
#define BREAK_STEPS (BREAK_SHRINK / BREAK_STEP)
#define TOUCH_STRIDE 128
#define PAGE_ROUNDS 100
#define BRK_ROUNDS 1000

/* Elementary ops for the mem* tests: one 32-byte vector's worth of bytes, so that
 * the "implausibly fast" check stays far below what any memcpy can reach. */
#define VEC_BYTES 32

/* Copy sizes spread evenly over 1 B..max, so every call does the same work. */
static size_t spread_size(unsigned i, unsigned count, size_t max)
{
	return 1 + (size_t)i * (max - 1) / (count - 1);
}

/* 100 copies, 1 B..64 KiB, the source and destination offsets each cycling through 8 alignments. */
static enum test_status ram_copy(struct test_ctx *ctx)
{
	/* Two blocks rather than one so each stays under glibc's mmap threshold:
	 * a per-call mmap would add page faults the classic test never had. */
	unsigned char *src = malloc(COPY_MAX + ALIGNS);
	unsigned char *dst = malloc(COPY_MAX + ALIGNS);
	if (src == NULL || dst == NULL) {
		free(src);
		free(dst);
		return test_fail(ctx, ENOMEM, "allocating the ram_copy buffers");
	}
	for (size_t j = 0; j < COPY_MAX + ALIGNS; j++)
		src[j] = (unsigned char)(j * 31 + 7);

	uint64_t sum = 0;
	enum test_status st = TEST_OK;
	for (unsigned i = 0; i < COPY_CALLS; i++) {
		size_t n = spread_size(i, COPY_CALLS, COPY_MAX);
		unsigned a = i % ALIGNS, b = (i / ALIGNS) % ALIGNS;
		memcpy(dst + b, src + a, n);
		test_keep(dst);
		if (dst[b] != src[a] || dst[b + n - 1] != src[a + n - 1]) {
			st = test_fail(ctx, 0, "memcpy of %zu B (offsets %u/%u) copied wrong bytes", n, a, b);
			break;
		}
		sum += dst[b + n / 2];
	}
	test_keep(sum);
	free(src);
	free(dst);
	return st;
}

/* Free every block, evens first, so the allocator has to coalesce out of order. */
static void free_blocks(unsigned char **blk, unsigned n)
{
	for (unsigned start = 0; start < 2; start++)
		for (unsigned i = start; i < n; i += 2)
			free(blk[i]);
}

/* 100 rounds of 300 malloc/calloc blocks of 1 B..8 KiB, each touched at both ends, then freed. */
static enum test_status mem_rtns_1(struct test_ctx *ctx)
{
	unsigned char *blk[ALLOC_BLOCKS];
	uint64_t sum = 0;

	for (unsigned r = 0; r < ALLOC_ROUNDS; r++) {
		for (unsigned i = 0; i < ALLOC_BLOCKS; i++) {
			size_t n = 1 + (size_t)test_rand_below(ctx, ALLOC_MAX);
			int zeroed = i & 1;
			unsigned char *p = zeroed ? calloc(1, n) : malloc(n);
			if (p == NULL) {
				free_blocks(blk, i);
				return test_fail(ctx, ENOMEM, "allocating %zu B", n);
			}
			blk[i] = p;
			if (zeroed && (p[0] | p[n - 1]) != 0) {
				free_blocks(blk, i + 1);
				return test_fail(ctx, 0, "calloc of %zu B returned nonzero bytes", n);
			}
			p[0] = (unsigned char)r;
			p[n - 1] = (unsigned char)i;
			/* The pointer escapes here, so -O2 cannot pair and drop malloc/free. */
			test_keep(p);
			sum += p[0];
		}
		free_blocks(blk, ALLOC_BLOCKS);
	}
	test_keep(sum);
	return TEST_OK;
}

/* One round of the five mem* routines on n bytes at offsets a (x) and b (y); 0 or a failure text. */
static const char *memfn_round(unsigned char *x, unsigned char *y, size_t n, unsigned a,
			       unsigned b, unsigned char c, uint64_t *sum)
{
	unsigned char mark = (unsigned char)~c;

	memset(x + a, c, n);
	x[a + n - 1] = mark;
	test_keep(x);
	const unsigned char *hit = memchr(x + a, mark, n);
	if (hit != x + a + n - 1)
		return "memchr missed the marker";
	memcpy(y + b, x + a, n);
	test_keep(y);
	if (memcmp(y + b, x + a, n) != 0)
		return "memcmp found the copy different";
	memmove(y + b + 1, y + b, n);
	test_keep(y);
	if (y[b + n] != mark || y[b] != (n > 1 ? c : mark))
		return "memmove shifted wrong bytes";
	*sum += (uint64_t)(hit - x) + y[b + n / 2];
	return NULL;
}

/* 100 rounds of memset/memchr/memcmp/memcpy/memmove on 1 B..8 KiB at varied alignments. */
static enum test_status mem_rtns_2(struct test_ctx *ctx)
{
	/* +1: memmove shifts the copy one byte up. */
	unsigned char x[MEMFN_MAX + ALIGNS], y[MEMFN_MAX + ALIGNS + 1];
	uint64_t sum = 0;

	for (unsigned r = 0; r < MEMFN_ROUNDS; r++) {
		size_t n = spread_size(r, MEMFN_ROUNDS, MEMFN_MAX);
		unsigned a = r % ALIGNS, b = (r / ALIGNS) % ALIGNS;
		const char *bad = memfn_round(x, y, n, a, b, (unsigned char)(r * 37 + 1), &sum);
		if (bad != NULL)
			return test_fail(ctx, 0, "%s (%zu B, offsets %u/%u)", bad, n, a, b);
	}
	test_keep(sum);
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

static enum test_status page_test(struct test_ctx *ctx)
{
	return break_cycle(ctx, PAGE_ROUNDS, 1);
}

static enum test_status brk_test(struct test_ctx *ctx)
{
	return break_cycle(ctx, BRK_ROUNDS, 0);
}

static const struct test_def tests[] = {
	{ "ram_copy", ram_copy, 25020, "classic ops",
	  "100 memcpy of 1 B..64 KiB at 8 source and 8 destination alignments", TF_CPU,
	  (uint64_t)COPY_CALLS * (COPY_MAX / 2) / VEC_BYTES },
	{ "mem_rtns_1", mem_rtns_1, ALLOC_ROUNDS * ALLOC_BLOCKS, "allocations",
	  "100 x (300 malloc/calloc of 1 B..8 KiB, touch, free)", TF_CPU,
	  (uint64_t)ALLOC_ROUNDS * ALLOC_BLOCKS * 2 },
	{ "mem_rtns_2", mem_rtns_2, MEMFN_ROUNDS, "rounds",
	  "100 x memset/memchr/memcpy/memcmp/memmove on 1 B..8 KiB, varied alignment", TF_CPU,
	  (uint64_t)MEMFN_ROUNDS * MEMFN_CALLS * (MEMFN_MAX / 2) / VEC_BYTES },
	{ "page_test", page_test, PAGE_ROUNDS * (1 + BREAK_STEPS), "break moves",
	  "break +1 MiB; 100 x (shrink 64 KiB, 16 x grow 4 KiB writing every 128th byte); restore",
	  0, 0 },
	{ "brk_test", brk_test, BRK_ROUNDS * (1 + BREAK_STEPS), "break moves",
	  "break +1 MiB; 1000 x (shrink 64 KiB, 16 x grow 4 KiB) untouched; restore", 0, 0 },
};

const struct test_family test_family_memory = { "memory", tests, sizeof(tests) / sizeof(tests[0]), NULL };
