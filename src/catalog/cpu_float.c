/* The floating-point and libm CPU tests of the AIM catalog: arithmetic chains, libm, strings and sorting. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"

/*
 * Inputs live in volatiles so the compiler cannot fold the work at build time.
 * The chain operands cancel (sum 0, or v and 1/v), which keeps every chain
 * near its start: no drift to inf, NaN or denormals, which would change the cost.
 */
static volatile double chain_start = 3.0;
static volatile double add_terms[12] = {
	0.5, 1.25, -0.75, 2.0, -1.5, 0.125, -0.5, -1.25, 0.75, -2.0, 1.5, -0.125,
};
static volatile double near_one[6] = {
	1.000244140625, 0.99951171875, 1.0009765625,
	0.9998779296875, 1.00048828125, 0.999755859375,
};

/* The 12 additive operands; exact binary fractions, so x comes back exactly. */
static void load_add_terms(double k[12])
{
	for (int i = 0; i < 12; i++)
		k[i] = add_terms[i];
}

/* The 12 multiplicative operands: each value near 1 followed by its reciprocal. */
static void load_ratios(double k[12])
{
	for (int i = 0; i < 6; i++) {
		k[2 * i] = near_one[i];
		k[2 * i + 1] = 1.0 / near_one[i];
	}
}

/* Fails unless a chain ended within a factor of (1 +- tol) of where it started. */
static enum test_status check_chain(struct test_ctx *ctx, const char *name, double x, double tol)
{
	double start = chain_start;
	if (!(fabs(x - start) <= tol * start))
		return test_fail(ctx, 0, "%s: chain drifted from %g to %g", name, start, x);
	return TEST_OK;
}

/* Twelve dependent operations: each needs the previous result. */
#define CHAIN12(x, OP, k)                                                      \
	do {                                                                   \
		x = x OP k[0]; x = x OP k[1]; x = x OP k[2]; x = x OP k[3];    \
		x = x OP k[4]; x = x OP k[5]; x = x OP k[6]; x = x OP k[7];    \
		x = x OP k[8]; x = x OP k[9]; x = x OP k[10]; x = x OP k[11];  \
	} while (0)

/* One arithmetic test: iters rounds of CHAIN12 in type T, then a drift check. */
#define CHAIN_TEST(name, T, OP, iters, load, tol)                              \
	static enum test_status name(struct test_ctx *ctx)                     \
	{                                                                      \
		double kd[12];                                                 \
		T k[12];                                                       \
		T x = (T)chain_start;                                          \
		load(kd);                                                      \
		for (int i = 0; i < 12; i++)                                   \
			k[i] = (T)kd[i];                                       \
		for (long it = 0; it < (iters); it++)                          \
			CHAIN12(x, OP, k);                                     \
		test_keep(x);                                                  \
		return check_chain(ctx, #name, (double)x, tol);                \
	}

CHAIN_TEST(add_double, double, +, 1500000L, load_add_terms, 0.0)
CHAIN_TEST(add_float, float, +, 1000000L, load_add_terms, 0.0)
CHAIN_TEST(mul_double, double, *, 1000000L, load_ratios, 1e-6)
CHAIN_TEST(mul_float, float, *, 1000000L, load_ratios, 1e-2)
CHAIN_TEST(div_double, double, /, 250000L, load_ratios, 1e-6)
CHAIN_TEST(div_float, float, /, 250000L, load_ratios, 1e-2)

static volatile double num_table[16] = {
	0.75, 1.5, 2.25, 3.1, 4.7, 5.5, 6.25, 7.9,
	8.125, 9.6, 10.4, 11.75, 12.2, 13.9, 15.3, 17.8,
};

/* One pass of the classic numeric functions over a table entry. */
static double num_round(struct test_ctx *ctx, int i)
{
	double v = num_table[i % 16], w = num_table[(i + 5) % 16];
	double ip;
	int ex;
	/* classic used rand(); test_rand keeps tasks from sharing libc state */
	long r = (long)(test_rand(ctx) >> 33) - (1L << 30);
	double s = exp(v) + floor(v * 1.7) + log10(v) + ceil(v * 1.3) + log(v);
	s += modf(v * 2.3, &ip) + ip;
	s += frexp(v, &ex) + ex;
	s += ldexp(v, ex & 7) + fmod(w, v) + pow(v, w / 8.0) + sqrt(v);
	return s + (double)labs(r) * 1e-9;
}

/* 100 passes of exp, floor, log10, ceil, log, modf, frexp, ldexp, fmod, pow, sqrt, rand, labs. */
static enum test_status num_rtns_1(struct test_ctx *ctx)
{
	double acc = 0.0;
	for (int i = 0; i < 100; i++)
		acc += num_round(ctx, i);
	test_keep(acc);
	if (!isfinite(acc))
		return test_fail(ctx, 0, "num_rtns_1: result is not finite");
	return TEST_OK;
}

static const double half_pi = 1.57079632679489661923;
static volatile double raph_offsets[4] = { -0.3, -0.1, 0.12, 0.31 };

/* Newton-Raphson on f(x) = 1000 sin x cos x from x; 0 on convergence, -1 if not. */
static int newton_root(double x, double *root)
{
	for (int it = 0; it < 60; it++) {
		double s = sin(x), c = cos(x);
		double dx = (1000.0 * s * c) / (1000.0 * (c * c - s * s));
		x -= dx;
		if (fabs(dx) <= 1e-13 * (1.0 + fabs(x))) {
			*root = x;
			return 0;
		}
	}
	return -1;
}

/* 200 roots, each started within 0.31 of k*pi/2 so it must converge to that root. */
static enum test_status new_raph(struct test_ctx *ctx)
{
	double acc = 0.0;
	for (int i = 0; i < 200; i++) {
		double target = (i / 4) * half_pi, root = 0.0;
		if (newton_root(target + raph_offsets[i % 4], &root) != 0 ||
		    !(fabs(root - target) <= 1e-9 * (1.0 + target)))
			return test_fail(ctx, 0, "new_raph: no root near %g (got %g)", target, root);
		acc += root;
	}
	test_keep(acc);
	return TEST_OK;
}

static volatile double trig_base = -0.9999, trig_step = 1.9998 / 10000.0;

/* 10,000 rounds of ten trig/hyperbolic functions; cos and tan get a different
 * argument from sin so gcc cannot merge sin+cos into one sincos call. */
static enum test_status trig_rtns(struct test_ctx *ctx)
{
	double base = trig_base, step = trig_step, acc = 0.0;
	for (int i = 0; i < 10000; i++) {
		double x = base + i * step, y = 0.5 * x + 0.25;
		acc += sin(x) + asin(x) + cos(y) + acos(x) + tan(y);
		acc += atan(x) + tanh(x) + sinh(y) + cosh(x) + atan2(x, 1.5 - y);
	}
	test_keep(acc);
	if (!isfinite(acc))
		return test_fail(ctx, 0, "trig_rtns: result is not finite");
	return TEST_OK;
}

static volatile double mat_angles[5] = { 0.3, 1.1, -0.7, 0.45, 2.0 };
static volatile double mat_vec[4] = { 1.0, -2.0, 3.0, 0.5 };

/* Rotates rows p and q of m by angle a (a Givens rotation keeps m orthogonal). */
static void givens(double m[4][4], int p, int q, double a)
{
	double c = cos(a), s = sin(a);
	for (int j = 0; j < 4; j++) {
		double mp = m[p][j], mq = m[q][j];
		m[p][j] = c * mp - s * mq;
		m[q][j] = s * mp + c * mq;
	}
}

static double norm4(const double v[4])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
}

/* 100 dependent 4x4 matrix-vector products; the matrix is orthogonal, so the
 * vector's length must survive, which is checked. */
static enum test_status matrix_rtns(struct test_ctx *ctx)
{
	double m[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
	static const int planes[5][2] = { { 0, 1 }, { 2, 3 }, { 0, 2 }, { 1, 3 }, { 0, 3 } };
	double v[4], w[4];
	for (int i = 0; i < 5; i++)
		givens(m, planes[i][0], planes[i][1], mat_angles[i]);
	for (int i = 0; i < 4; i++)
		v[i] = mat_vec[i];
	double n0 = norm4(v);
	for (int it = 0; it < 100; it++) {
		for (int r = 0; r < 4; r++)
			w[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2] + m[r][3] * v[3];
		memcpy(v, w, sizeof(v));
	}
	double n1 = norm4(v);
	test_keep(n1);
	if (!(fabs(n1 - n0) <= 1e-9 * n0))
		return test_fail(ctx, 0, "matrix_rtns: length changed from %g to %g", n0, n1);
	return TEST_OK;
}

#define GAUSS_MAX 100

/* Uniform in [-1, 1). */
static double rand_unit(struct test_ctx *ctx)
{
	return (double)(test_rand(ctx) >> 11) * 0x1p-52 - 1.0;
}

/* Solves a x = b by elimination with partial pivoting; a (n*n, row-major) is
 * destroyed and b becomes x. Returns -1 on a zero pivot. */
static int gauss_solve(double *a, double *b, int n)
{
	for (int col = 0; col < n; col++) {
		int piv = col;
		for (int r = col + 1; r < n; r++)
			if (fabs(a[r * n + col]) > fabs(a[piv * n + col]))
				piv = r;
		if (a[piv * n + col] == 0.0)
			return -1;
		if (piv != col) {
			for (int c = col; c < n; c++) {
				double t = a[col * n + c];
				a[col * n + c] = a[piv * n + c];
				a[piv * n + c] = t;
			}
			double t = b[col];
			b[col] = b[piv];
			b[piv] = t;
		}
		for (int r = col + 1; r < n; r++) {
			double f = a[r * n + col] / a[col * n + col];
			for (int c = col + 1; c < n; c++)
				a[r * n + c] -= f * a[col * n + c];
			b[r] -= f * b[col];
		}
	}
	for (int r = n - 1; r >= 0; r--) {
		double s = b[r];
		for (int c = r + 1; c < n; c++)
			s -= a[r * n + c] * b[c];
		b[r] = s / a[r * n + r];
	}
	return 0;
}

/* Builds a random diagonally dominant system a0 x = b0 (well-conditioned) in a0/b0. */
static void make_system(struct test_ctx *ctx, double *a0, double *b0, double *xt, int n)
{
	for (int i = 0; i < n; i++)
		xt[i] = rand_unit(ctx);
	for (int i = 0; i < n; i++) {
		double s = 0.0;
		for (int j = 0; j < n; j++) {
			a0[i * n + j] = i == j ? n + 1.0 : rand_unit(ctx);
			s += a0[i * n + j] * xt[j];
		}
		b0[i] = s;
	}
}

/* Largest |a0 x - b0| relative to the largest |b0|. */
static double residual(const double *a0, const double *b0, const double *x, int n)
{
	double worst = 0.0, bmax = 0.0;
	for (int i = 0; i < n; i++) {
		double s = -b0[i];
		for (int j = 0; j < n; j++)
			s += a0[i * n + j] * x[j];
		worst = fmax(worst, fabs(s));
		bmax = fmax(bmax, fabs(b0[i]));
	}
	return bmax > 0.0 ? worst / bmax : worst;
}

/* 20 Gaussian eliminations of size 5, 10, ..., 100, each solution verified. */
static enum test_status array_rtns(struct test_ctx *ctx)
{
	const size_t nn = (size_t)GAUSS_MAX * GAUSS_MAX;
	double *mem = malloc((2 * nn + 3 * GAUSS_MAX) * sizeof(double));
	if (!mem)
		return test_fail(ctx, errno, "array_rtns: allocating the matrices");
	double *a0 = mem, *a = a0 + nn, *b0 = a + nn, *b = b0 + GAUSS_MAX, *xt = b + GAUSS_MAX;
	enum test_status st = TEST_OK;
	for (int n = 5; n <= GAUSS_MAX && st == TEST_OK; n += 5) {
		make_system(ctx, a0, b0, xt, n);
		memcpy(a, a0, (size_t)n * n * sizeof(double));
		memcpy(b, b0, (size_t)n * sizeof(double));
		double res = gauss_solve(a, b, n) == 0 ? residual(a0, b0, b, n) : INFINITY;
		test_keep(b[0]);
		if (!(res <= 1e-10))
			st = test_fail(ctx, 0, "array_rtns: size %d residual %g", n, res);
	}
	free(mem);
	return st;
}

static volatile double series_lo = 0.1, series_hi = 3.0;

/* sin(x) by its Taylor series, summed until the terms stop mattering. */
static double taylor_sin(double x)
{
	double term = x, sum = x, x2 = x * x;
	for (int k = 1; k < 40; k++) {
		term *= -x2 / ((2.0 * k) * (2.0 * k + 1.0));
		sum += term;
		if (fabs(term) < 1e-17 * fabs(sum))
			break;
	}
	return sum;
}

/* 100 Taylor-series sines over 0.1 <= |x| <= 3, each checked against sin(). */
static enum test_status series_1(struct test_ctx *ctx)
{
	double lo = series_lo, step = (series_hi - lo) / 100.0, acc = 0.0;
	for (int i = 0; i < 100; i++) {
		double x = lo + (i + 0.5) * step;
		if (i & 1)
			x = -x;
		double t = taylor_sin(x), s = sin(x);
		if (!(fabs(t - s) <= 1e-9 * fabs(s)))
			return test_fail(ctx, 0, "series_1: series gives %.17g, sin(%g) = %.17g", t, x, s);
		acc += t;
	}
	test_keep(acc);
	return TEST_OK;
}

static volatile long str_seed = 123457;
static volatile long str_time = 1000000000L;
static const char *const str_words[8] = {
	"alpha", "Bravo", "charlie", "Delta", "echo-foxtrot", "golf", "Hotel", "india;juliet",
};

/* Classifies every character of s and folds the classes into one number. */
static unsigned long ctype_scan(const char *s)
{
	unsigned long sum = 0;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		sum += isalpha(ch) ? 1 : isdigit(ch) ? 2 : isspace(ch) ? 3 : ispunct(ch) ? 5 : 7;
		sum += (unsigned long)toupper(ch);
	}
	return sum;
}

/* The string functions that search and compare, over line and word. */
static unsigned long str_search(const char *line, const char *word, const char *cat)
{
	const char *p = strpbrk(line, "aeiou");
	const char *q = strrchr(line, ' ');
	unsigned long sum = strcspn(line, " .") + strspn(line, "0123456789-");
	sum += (unsigned long)(p ? p - line : 0) + (unsigned long)(q ? q - line : 0);
	sum += (unsigned long)(strcmp(cat, line) > 0) + (unsigned long)(strcoll(cat, word) < 0);
	return sum;
}

/* One round of string_rtns: format, parse back (checked), scan, build, search, ctime. */
static enum test_status string_round(struct test_ctx *ctx, int i, unsigned long *acc)
{
	char line[128], cat[192], when[64];
	const char *word = str_words[i % 8];
	long val = str_seed + i * 7919L;
	double dv = (double)val / 8.0;  /* an exact binary fraction: prints and parses back exactly */
	int len = snprintf(line, sizeof(line), "%ld %.3f %s", val, dv, word);
	if (len < 0 || (size_t)len >= sizeof(line))
		return test_fail(ctx, errno, "string_rtns: formatting a line");
	char *end;
	long l = strtol(line, &end, 10);
	double d = strtod(end, &end);
	const char *sp = strchr(line, ' ');
	if (l != val || d != dv || atoi(line) != (int)val || !sp || atof(sp + 1) != dv ||
	    strstr(line, word) == NULL)
		return test_fail(ctx, 0, "string_rtns: \"%s\" did not parse back", line);
	strcpy(cat, line);
	strcat(cat, ":");
	strncat(cat, word, sizeof(cat) - strlen(cat) - 1);
	/* ctime_r: ctime's static buffer would be shared if tasks ever were threads */
	time_t t = (time_t)(str_time + i * 86461L);
	if (ctime_r(&t, when) == NULL)
		return test_fail(ctx, errno, "string_rtns: ctime_r");
	*acc += ctype_scan(line) + str_search(line, word, cat) + (unsigned char)when[8];
	return TEST_OK;
}

/* 100 rounds of sprintf, atof, strtod, atoi, strtol, ctype, strcat/strncat/strcmp,
 * ctime, strcoll, strcspn, strpbrk, strrchr, strspn, strstr. */
static enum test_status string_rtns(struct test_ctx *ctx)
{
	unsigned long acc = 0;
	for (int i = 0; i < 100; i++) {
		enum test_status st = string_round(ctx, i, &acc);
		if (st != TEST_OK)
			return st;
	}
	test_keep(acc);
	return TEST_OK;
}

#define SORT_N 10000
#define SORT_SEARCHES 2000

static int cmp_int(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	return (a > b) - (a < b);
}

/* One round: 3 qsorts of fresh random ints (order checked), then bsearches
 * for keys taken from the array, which must all be found. */
static enum test_status sort_round(struct test_ctx *ctx, int *v, uint64_t *acc)
{
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < SORT_N; i++)
			v[i] = (int)(uint32_t)test_rand(ctx);
		qsort(v, SORT_N, sizeof(*v), cmp_int);
		for (int i = 1; i < SORT_N; i++)
			if (v[i - 1] > v[i])
				return test_fail(ctx, 0, "sort_rtns_1: qsort left the array out of order");
	}
	for (int i = 0; i < SORT_SEARCHES; i++) {
		int key = v[test_rand_below(ctx, SORT_N)];
		const int *hit = bsearch(&key, v, SORT_N, sizeof(*v), cmp_int);
		if (hit == NULL || *hit != key)
			return test_fail(ctx, 0, "sort_rtns_1: bsearch missed key %d", key);
		*acc += (uint64_t)(hit - v);
	}
	return TEST_OK;
}

/* 2 rounds of (3 qsorts of 10,000 ints + 2,000 bsearches), each in its own buffer. */
static enum test_status sort_rtns_1(struct test_ctx *ctx)
{
	uint64_t acc = 0;
	for (int round = 0; round < 2; round++) {
		int *v = malloc(SORT_N * sizeof(*v));
		if (v == NULL)
			return test_fail(ctx, errno, "sort_rtns_1: allocating %d ints", SORT_N);
		enum test_status st = sort_round(ctx, v, &acc);
		free(v);
		if (st != TEST_OK)
			return st;
	}
	test_keep(acc);
	return TEST_OK;
}

static const struct test_def tests[] = {
	{ "add_double", add_double, 18000, "thousand adds",
	  "1,500,000 x 12 dependent double adds", TF_CPU, 18000000 },
	{ "add_float", add_float, 12000, "thousand adds",
	  "1,000,000 x 12 dependent float adds", TF_CPU, 12000000 },
	{ "mul_double", mul_double, 12000, "thousand multiplies",
	  "1,000,000 x 12 dependent double multiplies", TF_CPU, 12000000 },
	{ "mul_float", mul_float, 12000, "thousand multiplies",
	  "1,000,000 x 12 dependent float multiplies", TF_CPU, 12000000 },
	{ "div_double", div_double, 3000, "thousand divides",
	  "250,000 x 12 dependent double divides", TF_CPU, 3000000 },
	{ "div_float", div_float, 3000, "thousand divides",
	  "250,000 x 12 dependent float divides", TF_CPU, 3000000 },
	{ "num_rtns_1", num_rtns_1, 100, "function rounds",
	  "100 x (exp, floor, log10, ceil, log, modf, frexp, ldexp, fmod, pow, sqrt, rand, labs)",
	  TF_CPU, 100 * 13 },
	{ "new_raph", new_raph, 200, "roots",
	  "Newton-Raphson roots of 1000 sin x cos x from 200 starting points, checked",
	  TF_CPU, 200 * 2 * 2 },
	{ "trig_rtns", trig_rtns, 10000, "trig rounds",
	  "10,000 x (sin, asin, cos, acos, tan, atan, tanh, sinh, cosh, atan2)",
	  TF_CPU, 10000 * 10 },
	{ "matrix_rtns", matrix_rtns, 100, "matrix-vector products",
	  "100 dependent 4x4 matrix-vector products, length checked", TF_CPU, 100 * 28 },
	{ "array_rtns", array_rtns, 20, "linear systems",
	  "20 Gaussian eliminations of size 5..100 (step 5), residual checked",
	  TF_CPU, 1837500 },
	{ "series_1", series_1, 100, "series",
	  "100 Taylor-series sines, each checked against sin()", TF_CPU, 100 * 10 },
	{ "string_rtns", string_rtns, 100, "string rounds",
	  "100 x (sprintf, atof, strtod, atoi, strtol, ctype, strcat, ctime, strcoll, str*)",
	  TF_CPU, 100 * 20 },
	{ "sort_rtns_1", sort_rtns_1, 10, "sort operations",
	  "2 x (3 qsorts of 10,000 ints + 2,000 bsearches), checked", TF_CPU,
	  2 * (3 * SORT_N * 12 + SORT_SEARCHES * 12) },
};

const struct test_family test_family_cpu_float = { "cpu_float", tests,
						   sizeof(tests) / sizeof(tests[0]), NULL };
