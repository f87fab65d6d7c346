/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "cpu_int" test family: integer add/multiply/divide chains, a prime sieve, indirect calls and setjmp/longjmp. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

#define ADD_ROUNDS 5000000L
#define ADD_SHORT_ROUNDS 2000000L
#define MUL_ROUNDS 20000L
#define MUL_SHORT_ROUNDS 25000L
#define DIV_ROUNDS 75000L
#define CHAIN_LEN 12

#define SIEVE_LIMIT 1000000
#define SIEVE_PRIMES 78498
#define SIEVE_PASSES 5

#define CALL_OUTER 1000
#define CALL_INNER 32
#define CALL_UNROLL 16
#define CALL_ROUNDS (CALL_OUTER * CALL_INNER * CALL_UNROLL)

#define JMP_ROUNDS 1000
#define JMP_DEPTH 11

/*
 * Classic's operands, which it read with sscanf so the compiler could not fold them: the
 * adds start from (0, 3, -3), the multiplies and divides multiply and divide by 1. Read
 * through volatiles here for the same reason.
 */
static volatile long arith_add_operand = 3;
static volatile long arith_one = 1;
static volatile long arith_start_long = 12345678, arith_start_div = 1234578, arith_start_short = 1234;

#define REPEAT16(s) do { s; s; s; s; s; s; s; s; s; s; s; s; s; s; s; s; } while (0)

/*
 * Classic's add loop: three variables, twelve adds, after which the variables are back
 * where they started (so the result is checked). A compiler may merge a pair of adds of the
 * same operand into one, as it could in classic's build.
 */
#define ADD12(x, a, b)                                                              \
	do {                                                                        \
		x += a; a += b; a += b; b += x; b += x; x += a;                     \
		x += a; a += b; a += b; b += x; b += x; x += a;                     \
	} while (0)
/* Classic's multiply loop over (x, 1, 1). */
#define MUL12(x, a, b)                                                              \
	do {                                                                        \
		x *= a; a *= b; a *= b; b *= a; b *= a; x *= b;                     \
		x *= a; a *= b; a *= b; b *= a; b *= a; x *= b;                     \
	} while (0)
/* Classic's divide loop over (x, 1, 1). */
#define DIV12(x, a, b)                                                              \
	do {                                                                        \
		x /= a; x /= b; a /= b; b /= a; x /= a; x /= b;                     \
		a /= b; b /= a; x /= a; x /= b; a /= b; b /= a;                     \
	} while (0)

/* One add, one multiply and one divide test for an integer type T, with classic's work. */
#define DEFINE_ARITH_TESTS(T, tag, add_rounds, mul_rounds, start) \
	static enum test_status add_##tag(struct test_ctx *ctx, const struct test_def *self) \
	{ \
		T x = 0, a = (T)arith_add_operand, b = (T)-arith_add_operand; \
		(void)self; \
		for (long i = (add_rounds); i > 0; i--) \
			ADD12(x, a, b); \
		test_keep(x); \
		if (x != 0 || a != (T)arith_add_operand || b != (T)-arith_add_operand) \
			return test_fail(ctx, 0, "add_" #tag " ended at (%ld, %ld, %ld), not (0, 3, -3)", \
					 (long)x, (long)a, (long)b); \
		return TEST_OK; \
	} \
	static enum test_status mul_##tag(struct test_ctx *ctx, const struct test_def *self) \
	{ \
		T x = (T)(start), a = (T)arith_one, b = (T)arith_one; \
		(void)self; \
		for (long i = (mul_rounds); i > 0; i--) \
			MUL12(x, a, b); \
		test_keep(x); \
		if (x != (T)(start)) \
			return test_fail(ctx, 0, "mul_" #tag " changed %ld to %ld", (long)(T)(start), (long)x); \
		return TEST_OK; \
	} \
	static enum test_status div_##tag(struct test_ctx *ctx, const struct test_def *self) \
	{ \
		T x = (T)(tag##_div_start), a = (T)arith_one, b = (T)arith_one; \
		(void)self; \
		for (long i = DIV_ROUNDS; i > 0; i--) \
			DIV12(x, a, b); \
		test_keep(x); \
		if (x != (T)(tag##_div_start)) \
			return test_fail(ctx, 0, "div_" #tag " changed %ld to %ld", (long)(T)(tag##_div_start), \
					 (long)x); \
		return TEST_OK; \
	}

#define int_div_start arith_start_div
#define long_div_start arith_start_div
#define short_div_start arith_start_short
DEFINE_ARITH_TESTS(int, int, ADD_ROUNDS, MUL_ROUNDS, arith_start_long)
DEFINE_ARITH_TESTS(long, long, ADD_ROUNDS, MUL_ROUNDS, arith_start_long)
DEFINE_ARITH_TESTS(short, short, ADD_SHORT_ROUNDS, MUL_SHORT_ROUNDS, arith_start_short)

/*
 * Classic's sieve: every number from 2 up that is still marked prime has all its multiples
 * from 2n marked, up to the limit (no stopping at the square root, no starting at n*n).
 * 0 and 1 stay marked too, so the count checked after the last pass is the primes plus 2.
 */
static void classic_sieve(unsigned char *prime, size_t limit)
{
	memset(prime, 1, limit);
	for (size_t n = 2; n < limit; n++) {
		if (!prime[n])
			continue;
		for (size_t i = n + n; i < limit; i += n)
			prime[i] = 0;
	}
}

/* SIEVE_PASSES sieves in one buffer, the count checked after the last as classic did. */
static enum test_status sieve(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	unsigned char *buf = malloc(SIEVE_LIMIT);
	if (buf == NULL)
		return test_fail(ctx, errno, "allocating the %d-byte sieve buffer", SIEVE_LIMIT);
	for (int pass = 0; pass < SIEVE_PASSES; pass++)
		classic_sieve(buf, SIEVE_LIMIT);
	long found = 0;
	for (size_t i = 0; i < SIEVE_LIMIT; i++)
		found += buf[i];
	free(buf);
	if (found != SIEVE_PRIMES + 2)
		return test_fail(ctx, 0, "sieve found %ld primes below %d, expected %d", found - 2,
				 SIEVE_LIMIT, SIEVE_PRIMES);
	return TEST_OK;
}

/* Classic's callees add to a count in memory (a load and a store per call besides the call
 * itself); this count is that memory, never read as a result. */
static long call_count;
static volatile int call_arg = 1;

static int callee0(void)
{
	return (int)(call_count += call_arg);
}

static int callee1(int n)
{
	return (int)(call_count += n);
}

static int callee2(int n, int i)
{
	return (int)(call_count += n + i);
}

static int callee15(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j,
		    int k, int l, int m, int n, int o)
{
	(void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)i, (void)j;
	(void)k, (void)l, (void)m, (void)n;
	return (int)(call_count += h + o);
}

/* Read through volatiles so the compiler can neither inline nor devirtualize the calls. */
static int (*volatile callee0_ptr)(void) = callee0;
static int (*volatile callee1_ptr)(int) = callee1;
static int (*volatile callee2_ptr)(int, int) = callee2;
static int (*volatile callee15_ptr)(int, int, int, int, int, int, int, int, int, int, int, int,
				    int, int, int) = callee15;

/* Classic's loops: 1,000 x 32 x 16 unrolled calls (fun_cal15: 1,000 x 512). */
static enum test_status fun_cal(struct test_ctx *ctx, const struct test_def *self)
{
	int (*fn)(void) = callee0_ptr;
	(void)ctx, (void)self;
	for (int n = CALL_OUTER; n-- > 0;)
		for (int i = CALL_INNER; i-- > 0;)
			REPEAT16(fn());
	return TEST_OK;
}

static enum test_status fun_cal1(struct test_ctx *ctx, const struct test_def *self)
{
	int (*fn)(int) = callee1_ptr;
	(void)ctx, (void)self;
	for (int n = CALL_OUTER; n-- > 0;)
		for (int i = CALL_INNER; i-- > 0;)
			REPEAT16(fn(n));
	return TEST_OK;
}

static enum test_status fun_cal2(struct test_ctx *ctx, const struct test_def *self)
{
	int (*fn)(int, int) = callee2_ptr;
	(void)ctx, (void)self;
	for (int n = CALL_OUTER; n-- > 0;)
		for (int i = CALL_INNER; i-- > 0;)
			REPEAT16(fn(n, i));
	return TEST_OK;
}

static enum test_status fun_cal15(struct test_ctx *ctx, const struct test_def *self)
{
	int (*fn)(int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) =
		callee15_ptr;
	(void)ctx, (void)self;
	for (int n = CALL_OUTER; n-- > 0;)
		for (int i = CALL_INNER * CALL_UNROLL; i-- > 0;)
			fn(i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
	return TEST_OK;
}

/*
 * Classic's dive: count down to 0 through nested calls, then longjmp back. The barrier after
 * the call keeps it from being a tail call, which gcc's -O2 would turn into a loop: the
 * frames are really on the stack when the bottom one jumps, as in classic built the way the
 * labs build it (LKP without -O, mmtests with its configure's -O); gcc -O2 deletes classic's
 * dive, so against such a build this test costs about twice classic's (docs/compat.md).
 */
__attribute__((noinline)) static void jmp_dive(jmp_buf env, int count)
{
	if (count < 0)
		return; /* never: jmp_test then reports the dive that came back */
	if (count == 0)
		longjmp(env, 1);
	jmp_dive(env, count - 1);
	__asm__ volatile("");
}

/* JMP_ROUNDS x (setjmp, a dive of JMP_DEPTH calls, longjmp), each landing counted. */
static enum test_status jmp_test(struct test_ctx *ctx, const struct test_def *self)
{
	jmp_buf env;
	/* changed between setjmp and longjmp, hence volatile */
	volatile int landed = 0;
	(void)self;
	for (volatile int round = 0; round < JMP_ROUNDS; round++) {
		if (setjmp(env) == 0) {
			jmp_dive(env, JMP_DEPTH - 1);
			return test_fail(ctx, 0, "jmp_test dive returned instead of jumping back");
		}
		landed++;
	}
	if (landed != JMP_ROUNDS)
		return test_fail(ctx, 0, "jmp_test landed %d times, expected %d", landed, JMP_ROUNDS);
	return TEST_OK;
}

/* A table row for a chain test: ops are counted in thousands of single operations. */
#define CHAIN_ROW(fn, rounds, unit_text, desc_text) \
	{ .name = #fn, .run = fn, .ops_per_call = (rounds) * CHAIN_LEN / 1000, .units = unit_text, \
	  .flags = TF_CPU, .elem_ops = (uint64_t)(rounds) * CHAIN_LEN, .desc = desc_text }

static const struct test_def tests[] = {
	CHAIN_ROW(add_int, ADD_ROUNDS, "thousand adds", "5,000,000 x classic's 12 adds over three ints, checked"),
	CHAIN_ROW(add_long, ADD_ROUNDS, "thousand adds", "5,000,000 x classic's 12 adds over three longs, checked"),
	CHAIN_ROW(add_short, ADD_SHORT_ROUNDS, "thousand adds",
		  "2,000,000 x classic's 12 adds over three shorts, checked"),
	CHAIN_ROW(mul_int, MUL_ROUNDS, "thousand multiplies",
		  "20,000 x 12 int multiplies by 1 (classic's data)"),
	CHAIN_ROW(mul_long, MUL_ROUNDS, "thousand multiplies",
		  "20,000 x 12 long multiplies by 1 (classic's data)"),
	CHAIN_ROW(mul_short, MUL_SHORT_ROUNDS, "thousand multiplies",
		  "25,000 x 12 short multiplies by 1 (classic's data)"),
	CHAIN_ROW(div_int, DIV_ROUNDS, "thousand divides", "75,000 x 12 int divides by 1 (classic's data)"),
	CHAIN_ROW(div_long, DIV_ROUNDS, "thousand divides", "75,000 x 12 long divides by 1 (classic's data)"),
	CHAIN_ROW(div_short, DIV_ROUNDS, "thousand divides",
		  "75,000 x 12 short divides by 1 (classic's data)"),
	{ .name = "sieve", .run = sieve, .ops_per_call = SIEVE_PASSES, .units = "sieves", .flags = TF_CPU, .elem_ops = (uint64_t)SIEVE_PASSES * SIEVE_LIMIT,
	  .desc = "classic's sieve below 1,000,000 (multiples of every prime, from 2p), 5 times, checked" },
	{ .name = "fun_cal", .run = fun_cal, .ops_per_call = CALL_ROUNDS, .units = "calls", .flags = TF_CPU, .elem_ops = CALL_ROUNDS,
	  .desc = "512,000 indirect calls with no arguments" },
	{ .name = "fun_cal1", .run = fun_cal1, .ops_per_call = CALL_ROUNDS, .units = "calls", .flags = TF_CPU, .elem_ops = CALL_ROUNDS,
	  .desc = "512,000 indirect calls with 1 int argument" },
	{ .name = "fun_cal2", .run = fun_cal2, .ops_per_call = CALL_ROUNDS, .units = "calls", .flags = TF_CPU, .elem_ops = CALL_ROUNDS,
	  .desc = "512,000 indirect calls with 2 int arguments" },
	{ .name = "fun_cal15", .run = fun_cal15, .ops_per_call = CALL_ROUNDS, .units = "calls", .flags = TF_CPU, .elem_ops = CALL_ROUNDS,
	  .desc = "512,000 indirect calls with 15 int arguments" },
	{ .name = "jmp_test", .run = jmp_test, .ops_per_call = JMP_ROUNDS, .units = "longjmps", .flags = TF_CPU, .elem_ops = (uint64_t)JMP_ROUNDS * (JMP_DEPTH + 2),
	  .desc = "1,000 x (setjmp, 11-deep recursion, longjmp back)" },
};

const struct test_family test_family_cpu_int = { "cpu_int", tests, sizeof(tests) / sizeof(tests[0]), NULL };
