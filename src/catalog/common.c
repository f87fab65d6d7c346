/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every test family shares: failure reports and the per-task random stream. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "catalog/catalog.h"

enum test_status test_fail(struct test_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
	va_end(ap);
	ctx->err = err;
	return TEST_FAIL;
}

enum test_status test_skip(struct test_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
	va_end(ap);
	ctx->err = 0;
	return TEST_SKIP;
}

uint64_t test_rand(struct test_ctx *ctx)
{
	uint64_t x = ctx->rng ? ctx->rng : 0x9e3779b97f4a7c15ull;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	ctx->rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint64_t test_rand_below(struct test_ctx *ctx, uint64_t bound)
{
	return bound ? test_rand(ctx) % bound : 0;
}
