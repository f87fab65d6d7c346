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

#define CALL_ROUNDS 512000L

#define JMP_ROUNDS 1000
#define JMP_DEPTH 11

/*
 * Starting values live in volatiles so the compiler cannot evaluate a chain at
 * build time; the multiplier seeds are odd, and odd times odd stays odd, so a
 * multiply chain never collapses to zero.
 */
static volatile unsigned long chain_seed_a = 0x9e3779b97f4a7c15UL;
static volatile unsigned long chain_seed_b = 0x2545f4914f6cdd1dUL;
static volatile int div_divisor = 3;

#define REPEAT6(s) do { s; s; s; s; s; s; } while (0)
#define REPEAT12(s) do { s; s; s; s; s; s; s; s; s; s; s; s; } while (0)

/*
 * Wrap-around arithmetic in the unsigned type (signed overflow would be UB).
 * The add and multiply chains let two variables feed each other in turn, so
 * each of the twelve operations consumes the result of the one before and
 * neither reassociation nor a closed form can shorten the chain.
 */
#define ADD_STEP(x, y) ((x) = (elem_t)((wide_t)(x) + (wide_t)(y)))
#define MUL_STEP(x, y) ((x) = (elem_t)((wide_t)(x) * (wide_t)(y)))
/* With a runtime divisor of at least 2, x stays within [0, 2 * offset) and never overflows. */
#define DIV_STEP(x, d) ((x) = (elem_t)(offset + (x) / (d)))

/*
 * One add, one multiply and one divide test for an integer type T (computed in
 * the unsigned type W); offset keeps the divide chain inside T's range.
 */
#define DEFINE_ARITH_TESTS(T, W, tag, add_rounds, mul_rounds, div_rounds, offset_val) \
	static enum test_status add_##tag(struct test_ctx *ctx) \
	{ \
		typedef T elem_t; \
		typedef W wide_t; \
		elem_t a = (elem_t)chain_seed_a, b = (elem_t)chain_seed_b; \
		(void)ctx; \
		for (long i = (add_rounds); i > 0; i--) \
			REPEAT6((ADD_STEP(a, b), ADD_STEP(b, a))); \
		test_keep(a); \
		test_keep(b); \
		return TEST_OK; \
	} \
	static enum test_status mul_##tag(struct test_ctx *ctx) \
	{ \
		typedef T elem_t; \
		typedef W wide_t; \
		elem_t a = (elem_t)(chain_seed_a | 1), b = (elem_t)(chain_seed_b | 1); \
		(void)ctx; \
		for (long i = (mul_rounds); i > 0; i--) \
			REPEAT6((MUL_STEP(a, b), MUL_STEP(b, a))); \
		test_keep(a); \
		test_keep(b); \
		return TEST_OK; \
	} \
	static enum test_status div_##tag(struct test_ctx *ctx) \
	{ \
		typedef T elem_t; \
		const elem_t offset = (offset_val); \
		elem_t x = (elem_t)(chain_seed_a & (unsigned long)offset); \
		elem_t d = (elem_t)div_divisor; \
		if (d < 2) \
			return test_fail(ctx, 0, "divisor %d would not keep the divide chain bounded", \
					 (int)d); \
		for (long i = (div_rounds); i > 0; i--) \
			REPEAT12(DIV_STEP(x, d)); \
		test_keep(x); \
		return TEST_OK; \
	}

DEFINE_ARITH_TESTS(int, unsigned, int, ADD_ROUNDS, MUL_ROUNDS, DIV_ROUNDS, INT_MAX / 2)
DEFINE_ARITH_TESTS(long, unsigned long, long, ADD_ROUNDS, MUL_ROUNDS, DIV_ROUNDS, LONG_MAX / 2)
DEFINE_ARITH_TESTS(short, unsigned, short, ADD_SHORT_ROUNDS, MUL_SHORT_ROUNDS, DIV_ROUNDS,
		   SHRT_MAX / 2)

/* Count the primes below limit with the sieve of Eratosthenes; composite has limit bytes. */
static long count_primes(unsigned char *composite, size_t limit)
{
	long count = 0;
	memset(composite, 0, limit);
	for (size_t i = 2; i * i < limit; i++) {
		if (composite[i])
			continue;
		for (size_t j = i * i; j < limit; j += i)
			composite[j] = 1;
	}
	for (size_t i = 2; i < limit; i++)
		count += !composite[i];
	return count;
}

/* Sieve SIEVE_PASSES times in one buffer, checking every count. */
static enum test_status sieve(struct test_ctx *ctx)
{
	unsigned char *buf = malloc(SIEVE_LIMIT);
	if (buf == NULL)
		return test_fail(ctx, errno, "allocating the %d-byte sieve buffer", SIEVE_LIMIT);
	for (int pass = 0; pass < SIEVE_PASSES; pass++) {
		long found = count_primes(buf, SIEVE_LIMIT);
		if (found != SIEVE_PRIMES) {
			free(buf);
			return test_fail(ctx, 0, "sieve found %ld primes below %d, expected %d",
					 found, SIEVE_LIMIT, SIEVE_PRIMES);
		}
	}
	free(buf);
	return TEST_OK;
}

/* Callees for fun_cal*: small on purpose, the call itself is what is measured. */
static int callee0(void)
{
	return 1;
}

static int callee1(int a)
{
	return a + 1;
}

static int callee2(int a, int b)
{
	return a ^ b;
}

static int callee15(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j,
		    int k, int l, int m, int n, int o)
{
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k ^ l ^ m ^ n ^ o;
}

/* Read through volatiles so the compiler can neither inline nor devirtualize the calls. */
static int (*volatile callee0_ptr)(void) = callee0;
static int (*volatile callee1_ptr)(int) = callee1;
static int (*volatile callee2_ptr)(int, int) = callee2;
static int (*volatile callee15_ptr)(int, int, int, int, int, int, int, int, int, int, int, int,
				    int, int, int) = callee15;

static enum test_status fun_cal(struct test_ctx *ctx)
{
	int (*fn)(void) = callee0_ptr;
	unsigned sum = 0;
	(void)ctx;
	for (int i = 0; i < CALL_ROUNDS; i++)
		sum += (unsigned)fn();
	test_keep(sum);
	return TEST_OK;
}

static enum test_status fun_cal1(struct test_ctx *ctx)
{
	int (*fn)(int) = callee1_ptr;
	int r = 0;
	(void)ctx;
	for (int i = 0; i < CALL_ROUNDS; i++)
		r = fn(r);
	test_keep(r);
	return TEST_OK;
}

static enum test_status fun_cal2(struct test_ctx *ctx)
{
	int (*fn)(int, int) = callee2_ptr;
	int r = 0;
	(void)ctx;
	for (int i = 0; i < CALL_ROUNDS; i++)
		r = fn(r, i);
	test_keep(r);
	return TEST_OK;
}

static enum test_status fun_cal15(struct test_ctx *ctx)
{
	int (*fn)(int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) =
		callee15_ptr;
	int r = 0;
	(void)ctx;
	for (int i = 0; i < CALL_ROUNDS; i++)
		r = fn(r, i, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, i);
	test_keep(r);
	return TEST_OK;
}

/*
 * One level of the jmp_test dive. Each level keeps a volatile local and hands
 * its address to the next, so the compiler can neither pass it by value nor
 * turn the recursion into a loop: all JMP_DEPTH frames are really on the stack
 * when the bottom one jumps back. A dive that miscounts its depth returns
 * normally, which jmp_test reports as a failure.
 */
__attribute__((noinline)) static void jmp_dive(jmp_buf env, int depth, volatile int *reached,
					       const volatile int *up)
{
	volatile int here = *up + 1;
	if (depth > 1) {
		jmp_dive(env, depth - 1, reached, &here);
		return;
	}
	*reached += here;
	if (here == JMP_DEPTH)
		longjmp(env, 1);
}

/* JMP_ROUNDS dives from one setjmp point, checking every dive came back from the bottom. */
static enum test_status jmp_test(struct test_ctx *ctx)
{
	const volatile int surface = 0;
	jmp_buf env;
	/* Changed between setjmp and longjmp (or across rounds), hence volatile. */
	volatile int reached = 0;
	volatile int landed = 0;
	for (volatile int round = 0; round < JMP_ROUNDS; round++) {
		if (setjmp(env) == 0) {
			jmp_dive(env, JMP_DEPTH, &reached, &surface);
			return test_fail(ctx, 0, "jmp_test dive returned instead of jumping back");
		}
		landed++;
	}
	if (landed != JMP_ROUNDS || reached != JMP_ROUNDS * JMP_DEPTH)
		return test_fail(ctx, 0, "jmp_test landed %d times with total depth %d, expected %d and %d",
				 landed, reached, JMP_ROUNDS, JMP_ROUNDS * JMP_DEPTH);
	return TEST_OK;
}

/* A table row for a chain test: ops are counted in thousands of single operations. */
#define CHAIN_ROW(name, rounds, units, desc) \
	{ #name, name, (rounds) * CHAIN_LEN / 1000, units, desc, TF_CPU, \
	  (uint64_t)(rounds) * CHAIN_LEN }

static const struct test_def tests[] = {
	CHAIN_ROW(add_int, ADD_ROUNDS, "thousand adds", "5,000,000 x 12 dependent int adds"),
	CHAIN_ROW(add_long, ADD_ROUNDS, "thousand adds", "5,000,000 x 12 dependent long adds"),
	CHAIN_ROW(add_short, ADD_SHORT_ROUNDS, "thousand adds",
		  "2,000,000 x 12 dependent short adds"),
	CHAIN_ROW(mul_int, MUL_ROUNDS, "thousand multiplies",
		  "20,000 x 12 dependent int multiplies"),
	CHAIN_ROW(mul_long, MUL_ROUNDS, "thousand multiplies",
		  "20,000 x 12 dependent long multiplies"),
	CHAIN_ROW(mul_short, MUL_SHORT_ROUNDS, "thousand multiplies",
		  "25,000 x 12 dependent short multiplies"),
	CHAIN_ROW(div_int, DIV_ROUNDS, "thousand divides", "75,000 x 12 dependent int divides"),
	CHAIN_ROW(div_long, DIV_ROUNDS, "thousand divides", "75,000 x 12 dependent long divides"),
	CHAIN_ROW(div_short, DIV_ROUNDS, "thousand divides",
		  "75,000 x 12 dependent short divides"),
	{ "sieve", sieve, SIEVE_PASSES, "sieves",
	  "count the primes below 1,000,000 in a 1 MB buffer, 5 times, checked", TF_CPU,
	  (uint64_t)SIEVE_PASSES * SIEVE_LIMIT },
	{ "fun_cal", fun_cal, CALL_ROUNDS, "calls",
	  "512,000 indirect calls with no arguments", TF_CPU, CALL_ROUNDS },
	{ "fun_cal1", fun_cal1, CALL_ROUNDS, "calls",
	  "512,000 indirect calls with 1 int argument", TF_CPU, CALL_ROUNDS },
	{ "fun_cal2", fun_cal2, CALL_ROUNDS, "calls",
	  "512,000 indirect calls with 2 int arguments", TF_CPU, CALL_ROUNDS },
	{ "fun_cal15", fun_cal15, CALL_ROUNDS, "calls",
	  "512,000 indirect calls with 15 int arguments", TF_CPU, CALL_ROUNDS },
	{ "jmp_test", jmp_test, JMP_ROUNDS, "longjmps",
	  "1,000 x (setjmp, 11-deep recursion, longjmp back)", TF_CPU,
	  (uint64_t)JMP_ROUNDS * (JMP_DEPTH + 2) },
};

const struct test_family test_family_cpu_int = { "cpu_int", tests, sizeof(tests) / sizeof(tests[0]), NULL };
