/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The floating-point and libm CPU tests of the AIM catalog: arithmetic chains, libm, strings and
 * sorting, each doing classic re-aim's work per call (its loops, its data). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "catalog/cpu_values.h"

/*
 * Classic's operands, which it read with sscanf ("%g" of pi, so 3.14159 and 0.31831), read
 * through volatiles so the compiler cannot fold them. The multiply chain of doubles reaches 0
 * within a few rounds, as classic's did: that is its data.
 */
static volatile double add_d1 = 3.14159, add_d2 = -3.14159;
static volatile float add_f1 = 3.5f, add_f2 = -3.5f;
static volatile double mul_d1 = 3.14159, mul_d2 = 0.31831;
static volatile float mul_f1 = 4.0f, mul_f2 = 0.25f;
static volatile double div_d1 = 4.0, div_d2 = 0.25;
static volatile float div_f1 = 4.0f, div_f2 = 0.25f;

/* Classic's twelve-statement loops over (x, a, b); only the add loop returns to its start. */
#define FADD12(x, a, b)                                                                    \
	do {                                                                               \
		x += a; a += b; a += b; b += x; b += x; x += a;                            \
		x += a; a += b; a += b; b += x; b += x; x += a;                            \
	} while (0)
#define FMUL12(x, a, b)                                                                    \
	do {                                                                               \
		x *= a; a *= b; a *= b; b *= x; b *= x; x *= a;                            \
		x *= a; a *= b; a *= b; b *= x; b *= x; x *= a;                            \
	} while (0)
#define FDIV12(x, a, b)                                                                    \
	do {                                                                               \
		x /= a; b /= x; a /= b; b /= a; x /= b; b /= x;                            \
		x /= a; b /= x; a /= b; b /= a; x /= b; b /= x;                            \
	} while (0)

/* One arithmetic test: iters rounds of classic's loop from (x0, a, b), the result kept. */
#define CHAIN_TEST(name, T, LOOP, iters, x0, a0, b0)                                       \
	static enum test_status name(struct test_ctx *ctx, const struct test_def *self)    \
	{                                                                                  \
		T x = (x0), a = (a0), b = (b0);                                            \
		(void)self;                                                                \
		for (long it = (iters); it > 0; it--)                                      \
			LOOP(x, a, b);                                                     \
		test_keep(x);                                                              \
		test_keep(a);                                                              \
		test_keep(b);                                                              \
		if (isnan((double)x))                                                      \
			return test_fail(ctx, 0, #name ": the chain ended in NaN");        \
		return TEST_OK;                                                            \
	}

CHAIN_TEST(add_double, double, FADD12, 1500000L, 0.0, add_d1, add_d2)
CHAIN_TEST(add_float, float, FADD12, 1000000L, 0.0f, add_f1, add_f2)
CHAIN_TEST(mul_double, double, FMUL12, 1000000L, 1.0, mul_d1, mul_d2)
CHAIN_TEST(mul_float, float, FMUL12, 1000000L, 1.0f, mul_f1, mul_f2)
CHAIN_TEST(div_double, double, FDIV12, 250000L, 1.0, div_d1, div_d2)
CHAIN_TEST(div_float, float, FDIV12, 250000L, 1.0f, div_f1, div_f2)

/* ---- classic's value tables ---- */

/*
 * Classic's vals[] (cpu_values.h: 0, 1, the smallest subnormal, then halving down to 2^-497)
 * read through a cursor as classic's next_value() read it, one load a value; classic's cursor
 * ran on across calls, a call here starts at a random place instead. The tiny values make
 * series_1 and matrix_rtns meet subnormals as classic's did.
 */
static inline double vals_next(unsigned *cur)
{
	return cpu_vals[(*cur)++ % NUMVALS];
}

/*
 * Classic's vals10[] (cpu_values.h: rand() in [-10, 10], every 100th the smallest subnormal),
 * read through a cursor as classic's ARG read it, one load a value; a call starts at a random
 * place as classic's ever-running cursor did.
 */
struct val10_cursor {
	uint64_t i;
};

static inline double arg_next(struct val10_cursor *c)
{
	return cpu_vals10[c->i++ % NUM10VALS];
}

#define ARG (arg_next(&cur))
#define POS (ARG + 10.0001)
#define NEG (ARG - 10.0001)

/* 100 rounds of classic's libm mix: exp, floor, log10, ceil, log, modf, frexp, ldexp, fmod,
 * pow, sqrt, srand, rand and labs over its values. */
static enum test_status num_rtns_1(struct test_ctx *ctx, const struct test_def *self)
{
	struct val10_cursor cur = { test_rand(ctx) };
	double sink = 0.0;
	(void)self;
	for (int n = 0; n < 100; n++) {
		double ip;
		int ex = 0;
		double o1 = floor(exp(ARG)) + ceil(log10(POS));
		double o2 = modf(log(POS), &ip) + frexp(NEG, &ex);
		double o3 = ldexp(ARG, abs(-ex)) + fabs(fmod(ARG * 5, POS));
		double o4 = sqrt(pow(POS, ARG));
		/* classic reseeded libc's generator each round; each task is its own process */
		srand((unsigned)ex);
		long o5 = labs((long)(-rand() + n));
		sink += o1 + o2 + o3 + o4 + (double)o5 + ip;
	}
	test_keep(sink);
	if (isnan(sink))
		return test_fail(ctx, 0, "num_rtns_1: result is NaN");
	return TEST_OK;
}

/* f(x) = 1000 sin x cos x and its derivative, as classic wrote them. */
static double raph_f(double x)
{
	return 1000.0 * sin(x) * cos(x);
}

static double raph_f_prime(double x)
{
	double c = cos(x), s = sin(x);
	return -(s * s * 1000.0) + (c * c * 1000.0);
}

/* Newton-Raphson from 0.05 n for n = 0..199, to |step| < 1e-12 within 100 tries, as classic. */
static enum test_status new_raph(struct test_ctx *ctx, const struct test_def *self)
{
	double acc = 0.0;
	(void)self;
	for (int n = 0; n < 200; n++) {
		double p0 = 0.05 * n, p = p0;
		int i = 1;
		while (i < 100) {
			p = p0 - raph_f(p0) / raph_f_prime(p0);
			if (fabs(p - p0) < 1e-12)
				break;
			i++;
			p0 = p;
		}
		if (i >= 100)
			return test_fail(ctx, 0, "new_raph: no root from %g in 100 tries", 0.05 * n);
		acc += p;
	}
	test_keep(acc);
	return TEST_OK;
}

/* 10,000 rounds of classic's nested calls: acos(cos(asin(sin))), tanh(atan(tan)), atan2(sinh, cosh). */
static enum test_status trig_rtns(struct test_ctx *ctx, const struct test_def *self)
{
	struct val10_cursor cur = { test_rand(ctx) };
	double acc = 0.0;
	(void)self;
	for (int n = 0; n < 10000; n++) {
		acc += acos(cos(asin(sin(ARG))));
		acc += tanh(atan(tan(ARG)));
		double y = ARG;
		acc += atan2(sinh(y), cosh(ARG));
	}
	test_keep(acc);
	if (isnan(acc))
		return test_fail(ctx, 0, "trig_rtns: result is NaN");
	return TEST_OK;
}

/* 100 x (20 fresh values, a 4x4 matrix times a 4-vector, screen coordinates), as classic. */
static enum test_status matrix_rtns(struct test_ctx *ctx, const struct test_def *self)
{
	unsigned cur = (unsigned)test_rand_below(ctx, NUMVALS);
	double v1[4], v2[4][4], v3[4], prod = 0.0, sink = 0.0;
	(void)self;
	for (int n = 0; n < 100; n++) {
		for (int i = 0; i < 4; i++)
			v1[i] = vals_next(&cur);
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				v2[i][j] = vals_next(&cur);
		for (int i = 0; i < 4; i++) {
			v3[i] = 0.0;
			for (int j = 0; j < 4; j++)
				v3[i] += v1[j] * v2[i][j];
		}
		int x = (int)(v3[0] * 1280.0), y = (int)(v3[1] * 1024.0), z = (int)(v3[2] * 8192.0);
		prod += v3[0] * v3[1] * v3[2];
		sink += x + y + z + prod;
	}
	test_keep(sink);
	return TEST_OK;
}

#define A_HEIGHT 100
#define A_WIDTH 101
#define A_SIZE (A_HEIGHT * A_WIDTH)
/* element (x, y) of a matrix laid out with row stride `wide`, as classic indexed it */
#define M(a, x, y) (a)[(x) + wide * (y)]

/* Classic's Gauss-Jordan elimination without pivoting; 0 on a zero pivot. */
static int solve_array(double *a, double *b, int wide, int high)
{
	for (int i = 0; i < high; i++) {
		double t = M(a, i, i);
		if (t == 0.0)
			return 0;
		for (int j = i; j < wide; j++)
			M(a, j, i) = M(a, j, i) / t;
		for (int j = i + 1; j < high; j++) {
			t = M(a, i, j);
			for (int k = 0; k < wide; k++)
				M(a, k, j) = M(a, k, j) - t * M(a, k, i);
		}
	}
	for (int i = high - 1; i > 0; i--)
		for (int j = i - 1; j >= 0; j--) {
			double t = M(a, i, j);
			for (int k = 0; k < wide; k++)
				M(a, k, j) = M(a, k, j) - t * M(a, k, i);
		}
	for (int i = 0; i < high; i++)
		b[i] = M(a, wide - 1, i);
	return 1;
}

/* Classic's check: every row of the original system reproduces its right side within 0.5. */
static int check_array(const double *a, const double *b, int wide, int high)
{
	for (int i = 0; i < high; i++) {
		double t = 0.0;
		for (int j = 0; j < high; j++)
			t += M(a, j, i) * b[j];
		if (fabs(M(a, wide - 1, i) - t) > .5)
			return 0;
	}
	return 1;
}

/* 20 systems of 5, 10, ..., 100 equations from classic's value sequence, solved and checked. */
static enum test_status array_rtns(struct test_ctx *ctx, const struct test_def *self)
{
	double *a = malloc(A_SIZE * sizeof(double)), *orig = malloc(A_SIZE * sizeof(double));
	double results[A_HEIGHT];
	enum test_status st = TEST_OK;
	(void)self;
	if (a == NULL || orig == NULL) {
		free(a);
		free(orig);
		return test_fail(ctx, ENOMEM, "array_rtns: allocating the matrices");
	}
	memset(a, 0, A_SIZE * sizeof(double));
	memset(orig, 0, A_SIZE * sizeof(double));
	double val = 1.0;
	for (int n = 0, high = 5; n < 20 && st == TEST_OK; n++, high += 5) {
		if (high > A_HEIGHT)
			high = 5;
		int wide = high + 1;
		for (int j = 0; j < high; j++)
			for (int k = 0; k < wide; k++) {
				M(a, k, j) = val;
				val = val * 1.00001 + 1.0;
				if (val > 1e20)
					val -= 1e19;
			}
		memcpy(orig, a, A_SIZE * sizeof(double));
		if (!solve_array(a, results, wide, high))
			st = test_fail(ctx, 0, "array_rtns: singular matrix of size %d", high);
		else if (!check_array(orig, results, wide, high))
			st = test_fail(ctx, 0, "array_rtns: wrong solution of size %d", high);
		test_keep(results[0]);
	}
	free(a);
	free(orig);
	return st;
}

/* 100 sines of classic's values by their Taylor series, summed until a term changes nothing,
 * each checked against sin(). */
static enum test_status series_1(struct test_ctx *ctx, const struct test_def *self)
{
	unsigned cur = (unsigned)test_rand_below(ctx, NUMVALS);
	(void)self;
	for (int n = 0; n < 100; n++) {
		double d0 = vals_next(&cur), d1 = d0, old = 100.0, sine = 0.0;
		double d1_squared = d1 * d1, fact = 1.0, i = 1.0;
		while (sine != old) {
			old = sine;
			sine += d1 / fact;
			fact *= (i + 1) * (i + 2);
			i += 2;
			d1 *= -d1_squared;
		}
		if (fabs(sine - sin(d0)) > .0001)
			return test_fail(ctx, 0, "series_1: the series gives %g for %g, sin() %g", sine, d0,
					 sin(d0));
		test_keep(sine);
	}
	return TEST_OK;
}

/* Classic's string round, over its 1 KiB buffer (kept between rounds, so the scans meet the
 * previous round's text): numbers to text and back, a ctype scan of all 1,023 bytes, the
 * buffer filled by strcat and by strncat, ctime, and the searches. */
static const char str_chars[] = " \t\n\r\b0123456789 abcde fghij klmno pqrst uvwxy z ABCDE FGHIJ KLMNO "
				"PQRST UVWXY Z .,;:!@#$%^&*()_-+=|\\\"'`[]}{";

static long ctype_scan(char *buffer, size_t len)
{
	long count = 0;
	for (char *p = buffer; p != &buffer[len - 1]; p++) {
		int c = (unsigned char)*p;
		count += !!isalnum(c) + !!isalpha(c) + !!iscntrl(c) + !!isdigit(c) + !!isgraph(c);
		if (islower(c)) {
			count++;
			*p = (char)toupper(c);
			*p = (char)tolower((unsigned char)*p);
		}
		c = (unsigned char)*p;
		count += !!isprint(c) + !!ispunct(c) + !!isspace(c);
		if (isupper(c)) {
			count++;
			*p = (char)tolower(c);
			*p = (char)toupper((unsigned char)*p);
		}
		count += !!isxdigit((unsigned char)*p);
	}
	return count;
}

static enum test_status string_rtns(struct test_ctx *ctx, const struct test_def *self)
{
	char buffer[1024], catbuf[32], *p;
	long itemp1 = 0, itemp2 = 0, sink = 0;
	time_t when = time(NULL);
	(void)self;
	memset(buffer, 0, sizeof(buffer));
	for (int n = 0; n < 100; n++) {
		snprintf(buffer, sizeof(buffer), "%g", (double)itemp1 / 1000.0);
		double d2 = atof(buffer), d3 = strtod(buffer, &p);
		long l1 = (long)(1000 * d2);
		snprintf(buffer, sizeof(buffer), "%ld", l1);
		long l2 = atol(buffer);
		itemp1 = atoi(buffer);
		long l3 = strtol(buffer, &p, 10);
		sink += l2 + l3 + (long)d3;
		/* sprintf, not memcpy: classic formatted it each round */
		snprintf(buffer, sizeof(buffer), "%s", str_chars);
		itemp1 += ctype_scan(buffer, sizeof(buffer));
		snprintf(catbuf, sizeof(catbuf), "What is your name?");
		/* The barriers keep gcc from tracking the strings' lengths (its -O2 strlen pass), so
		 * every strlen, strcat and strcmp scans as classic's did at -O. */
		test_keep(catbuf);
		itemp2 = (long)strlen(catbuf);
		snprintf(buffer, sizeof(buffer), "%s", catbuf);
		test_keep(buffer);
		itemp2 += strcmp(buffer, catbuf) == 0;
		while (sizeof(buffer) - strlen(buffer) > strlen(catbuf)) {
			strcat(buffer, catbuf);
			test_keep(buffer);
			itemp2 += strcmp(buffer, catbuf) == 0;
		}
		strcpy(buffer, catbuf);
		test_keep(buffer);
		while (sizeof(buffer) - strlen(buffer) > strlen(catbuf)) {
			/* strncat(buffer, catbuf, 10), which gcc warns truncates on purpose */
			size_t end = strlen(buffer);
			memcpy(buffer + end, catbuf, 10);
			buffer[end + 10] = '\0';
			test_keep(buffer);
			itemp2 += strncmp(buffer, catbuf, 10) == 0;
		}
		p = ctime(&when);
		if (p == NULL)
			return test_fail(ctx, errno, "string_rtns: ctime");
		when++;
		memcpy(buffer, p, strlen(p));
		itemp1 += strcoll(buffer, catbuf) == 0;
		itemp1 += strcspn(buffer, "jfamsond") > 4;
		itemp1 += strpbrk(buffer, " ;\n") == NULL;
		itemp1 += strrchr(buffer, '\n') == NULL;
		itemp1 += strspn(buffer, "abcdefghijklmnopqrstuvwxyz") > 5;
		itemp1 += strstr(buffer, buffer) != buffer;
		if (itemp2 > 100) {
			itemp2 = 0;
			itemp1++;
		}
	}
	test_keep(sink);
	test_keep(itemp2);
	if (itemp1 < 0)
		return test_fail(ctx, 0, "string_rtns: counter went negative");
	return TEST_OK;
}

#define SORT_N 10000

static int cmp_up(const void *pa, const void *pb)
{
	return *(const int *)pa - *(const int *)pb;
}

static int cmp_down(const void *pa, const void *pb)
{
	return *(const int *)pb - *(const int *)pa;
}

/* Classic's table: 0..9999 in order at the start of every call (each call left it so), sorted
 * up, down and up again, then 2,000 searches for 0, 10, ..., 19,990 (half of them absent);
 * twice. */
static enum test_status sort_rtns_1(struct test_ctx *ctx, const struct test_def *self)
{
	int *table = malloc(SORT_N * sizeof(*table));
	long missing = 0;
	(void)self;
	if (table == NULL)
		return test_fail(ctx, errno, "sort_rtns_1: allocating %d ints", SORT_N);
	for (int i = 0; i < SORT_N; i++)
		table[i] = i;
	for (int round = 0; round < 2; round++) {
		qsort(table, SORT_N, sizeof(*table), cmp_up);
		qsort(table, SORT_N, sizeof(*table), cmp_down);
		qsort(table, SORT_N, sizeof(*table), cmp_up);
		for (int key = 0; key < SORT_N * 2; key += 10)
			missing += bsearch(&key, table, SORT_N, sizeof(*table), cmp_up) == NULL;
	}
	int sorted = table[0] == 0 && table[SORT_N - 1] == SORT_N - 1;
	free(table);
	if (!sorted || missing != 2 * (SORT_N / 10))
		return test_fail(ctx, 0, "sort_rtns_1: %ld searches missed, expected %d", missing,
				 2 * (SORT_N / 10));
	return TEST_OK;
}

static const struct test_def tests[] = {
	{ .name = "add_double", .run = add_double, .ops_per_call = 18000, .units = "thousand adds", .flags = TF_CPU, .elem_ops = 18000000,
	  .desc = "1,500,000 x classic's 12 double adds over three values" },
	{ .name = "add_float", .run = add_float, .ops_per_call = 12000, .units = "thousand adds", .flags = TF_CPU, .elem_ops = 12000000,
	  .desc = "1,000,000 x classic's 12 float adds over three values" },
	{ .name = "mul_double", .run = mul_double, .ops_per_call = 12000, .units = "thousand multiplies", .flags = TF_CPU, .elem_ops = 12000000,
	  .desc = "1,000,000 x classic's 12 double multiplies (its data reach 0 at once)" },
	{ .name = "mul_float", .run = mul_float, .ops_per_call = 12000, .units = "thousand multiplies", .flags = TF_CPU, .elem_ops = 12000000,
	  .desc = "1,000,000 x classic's 12 float multiplies by 4 and 1/4" },
	{ .name = "div_double", .run = div_double, .ops_per_call = 3000, .units = "thousand divides", .flags = TF_CPU, .elem_ops = 3000000,
	  .desc = "250,000 x classic's 12 double divides by 4 and 1/4" },
	{ .name = "div_float", .run = div_float, .ops_per_call = 3000, .units = "thousand divides", .flags = TF_CPU, .elem_ops = 3000000,
	  .desc = "250,000 x classic's 12 float divides by 4 and 1/4" },
	{ .name = "num_rtns_1", .run = num_rtns_1, .ops_per_call = 100, .units = "function rounds", .flags = TF_CPU, .elem_ops = 100 * 13,
	  .desc = "100 x (exp, floor, log10, ceil, log, modf, frexp, ldexp, fmod, pow, sqrt, srand, rand, labs)" },
	{ .name = "new_raph", .run = new_raph, .ops_per_call = 200, .units = "roots", .flags = TF_CPU, .elem_ops = 200 * 4,
	  .desc = "Newton-Raphson on 1000 sin x cos x from 0, 0.05, ..., 9.95, each to 1e-12" },
	{ .name = "trig_rtns", .run = trig_rtns, .ops_per_call = 10000, .units = "trig rounds", .flags = TF_CPU, .elem_ops = 10000 * 10,
	  .desc = "10,000 x (acos(cos(asin(sin))), tanh(atan(tan)), atan2(sinh, cosh))" },
	{ .name = "matrix_rtns", .run = matrix_rtns, .ops_per_call = 100, .units = "point transformations", .flags = TF_CPU, .elem_ops = 100 * 16,
	  .desc = "100 x (20 values, 4x4 matrix times vector, to screen coordinates)" },
	{ .name = "array_rtns", .run = array_rtns, .ops_per_call = 20, .units = "linear systems", .flags = TF_CPU, .elem_ops = 1837500,
	  .desc = "20 Gauss-Jordan solutions of size 5..100 (step 5), checked" },
	{ .name = "series_1", .run = series_1, .ops_per_call = 100, .units = "series", .flags = TF_CPU, .elem_ops = 100 * 2,
	  .desc = "100 Taylor-series sines of classic's values, each checked against sin()" },
	{ .name = "string_rtns", .run = string_rtns, .ops_per_call = 100, .units = "string rounds", .flags = TF_CPU, .elem_ops = 100 * 1000,
	  .desc = "100 x (number conversions, ctype scan of 1 KiB, strcat/strncat fills, ctime, searches)" },
	{ .name = "sort_rtns_1", .run = sort_rtns_1, .ops_per_call = 10, .units = "sort operations", .flags = TF_CPU, .elem_ops = 2 * (3 * SORT_N * 12 + 2000 * 12),
	  .desc = "2 x (qsort 10,000 ordered ints up, down, up + 2,000 bsearches), checked" },
};

const struct test_family test_family_cpu_float = { "cpu_float", tests,
						   sizeof(tests) / sizeof(tests[0]), NULL };
