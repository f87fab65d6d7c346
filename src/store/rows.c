/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statements and rows: binding values and figures, and the one loop that reads result rows. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "util/util.h"

/* Every store error says the file, what was being done and SQLite's reason. */
int store_fail(struct store *st, const char *what)
{
	snprintf(st->err, sizeof(st->err), "%s: %s: %s", st->path, what, st->db ? sqlite3_errmsg(st->db) : "no database");
	return -1;
}

static int bind_all(sqlite3_stmt *s, const char *fmt, va_list ap)
{
	for (int i = 1; *fmt; fmt++, i++) {
		int rc;
		switch (*fmt) {
		case 's': {
			const char *v = va_arg(ap, const char *);
			rc = v ? sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(s, i);
			break;
		}
		case 'i': rc = sqlite3_bind_int64(s, i, va_arg(ap, int64_t)); break;
		case 'd': rc = sqlite3_bind_double(s, i, va_arg(ap, double)); break;
		default: BUG("bind format '%c' is none of s, i, d", *fmt);
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

int store_vprepare(struct store *st, sqlite3_stmt **s, const char *what, const char *sql, const char *fmt,
		   va_list ap)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
		return store_fail(st, what);
	if (bind_all(*s, fmt, ap) != SQLITE_OK) {
		store_fail(st, what);
		sqlite3_finalize(*s);
		*s = NULL;
		return -1;
	}
	return 0;
}

int store_prepare(struct store *st, sqlite3_stmt **s, const char *what, const char *sql, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = store_vprepare(st, s, what, sql, fmt, ap);
	va_end(ap);
	return rc;
}

int store_query(struct store *st, const char *what, struct store_rows *out, const char *sql, const char *fmt, ...)
{
	size_t size = out->size;
	sqlite3_stmt *s;
	va_list ap;
	out->v = NULL;
	out->n = 0;
	va_start(ap, fmt);
	int rc = store_vprepare(st, &s, what, sql, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	size_t cap = 0;
	char *v = NULL;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (out->n == cap) {
			cap = cap ? 2 * cap : 16;
			v = xrealloc(v, cap * size);
		}
		char *row = v + out->n++ * size;
		memset(row, 0, size);
		out->read(s, row);
	}
	if (rc != SQLITE_DONE) {
		store_fail(st, what);
		for (size_t i = 0; out->drop && i < out->n; i++)
			out->drop(s, v + i * size);
		free(v);
		out->n = 0;
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	out->v = v;
	return 0;
}

void store_read_id(sqlite3_stmt *s, void *row)
{
	*(int64_t *)row = sqlite3_column_int64(s, 0);
}

void store_copy_text(char *dst, size_t len, sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

int store_bind_figures(sqlite3_stmt *s, int first, const struct store_figure_table *t, const void *row,
		       int no_system)
{
	for (size_t i = 0; i < t->count; i++) {
		const struct store_figure *f = &t->fig[i];
		const char *at = (const char *)row + f->offset;
		int col = first + (int)i, rc;
		int iv;
		int64_t lv;
		double dv;
		if (no_system && f->group == STORE_FIG_SYSTEM) {
			rc = sqlite3_bind_null(s, col);
		} else {
			switch (f->type) {
			case STORE_FIG_INT:
			case STORE_FIG_BOOL:
				memcpy(&iv, at, sizeof(iv));
				rc = sqlite3_bind_int64(s, col, iv);
				break;
			case STORE_FIG_I64:
				memcpy(&lv, at, sizeof(lv));
				rc = sqlite3_bind_int64(s, col, lv);
				break;
			case STORE_FIG_REAL: /* SQLite stores NaN as NULL; say so rather than rely on it */
				memcpy(&dv, at, sizeof(dv));
				rc = isnan(dv) ? sqlite3_bind_null(s, col) : sqlite3_bind_double(s, col, dv);
				break;
			case STORE_FIG_TEXT:
				rc = *at ? sqlite3_bind_text(s, col, at, (int)strnlen(at, f->size), SQLITE_TRANSIENT)
					 : sqlite3_bind_null(s, col);
				break;
			default: BUG("figure %s has no type", f->name);
			}
		}
		if (rc != SQLITE_OK)
			return -1;
	}
	return 0;
}

void store_read_figures(sqlite3_stmt *s, int first, const struct store_figure_table *t, void *row)
{
	for (size_t i = 0; i < t->count; i++) {
		const struct store_figure *f = &t->fig[i];
		char *at = (char *)row + f->offset;
		int col = first + (int)i;
		int iv;
		int64_t lv;
		double dv;
		switch (f->type) {
		case STORE_FIG_INT:
		case STORE_FIG_BOOL:
			iv = sqlite3_column_int(s, col);
			memcpy(at, &iv, sizeof(iv));
			break;
		case STORE_FIG_I64:
			lv = sqlite3_column_int64(s, col);
			memcpy(at, &lv, sizeof(lv));
			break;
		case STORE_FIG_REAL:
			dv = sqlite3_column_type(s, col) == SQLITE_NULL ? NAN : sqlite3_column_double(s, col);
			memcpy(at, &dv, sizeof(dv));
			break;
		case STORE_FIG_TEXT: store_copy_text(at, f->size, s, col); break;
		}
	}
}
