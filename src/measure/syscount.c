/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's system-wide counters of a point: parsers for /proc/vmstat, interrupts, softirqs,
 * schedstat, lock_stat, slabinfo and diskstats, a reading of all of them, and the changes between two. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/procstat.h"
#include "measure/syscount.h"
#include "util/util.h"

/* The largest /proc file read (an interrupts file of thousands of CPUs, a lock_stat of every class). */
#define SYSCOUNT_FILE_MAX (64u << 20)

/* How a source is read and what its rows are. */
struct source_def {
	const char *name;  /* as stored: point_counters.source */
	const char *file;  /* under the proc root */
	int (*parse)(const char *text, struct syscount_set *out);
	const char *(*unit)(const char *name);
	int top_only;      /* keep only the top changes (classes and caches come and go by the hundred) */
};

static void add(struct syscount_set *s, const char *name, size_t len, double value)
{
	if (len >= SYSCOUNT_NAME_MAX)
		len = SYSCOUNT_NAME_MAX - 1;
	if (s->n == s->cap) {
		s->cap = s->cap * 2 + 64;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	memcpy(s->v[s->n].name, name, len);
	s->v[s->n].name[len] = '\0';
	s->v[s->n].value = value;
	s->n++;
}

static const char *line_end(const char *p) { return p + strcspn(p, "\n"); }
static const char *next_line(const char *p)
{
	p = line_end(p);
	return *p ? p + 1 : NULL;
}
static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "name value" lines. */
static int parse_vmstat(const char *text, struct syscount_set *out)
{
	size_t found = 0;
	for (const char *p = text; p && *p; p = next_line(p)) {
		size_t k = strcspn(p, " \t\n");
		const char *q = p + k;
		unsigned long long v;
		if (k == 0 || *q == '\n' || next_u64(&q, &v) < 0)
			continue;
		add(out, p, k, (double)v);
		found++;
	}
	return found ? 0 : -1;
}

/* The CPU columns of a header line "CPU0 CPU1 ...". */
static size_t cpu_columns(const char *line)
{
	size_t n = 0;
	for (const char *p = strstr(line, "CPU"); p && p < line_end(line); p = strstr(p + 3, "CPU"))
		n++;
	return n;
}

/* After "KEY:", up to ncpu numbers summed; *rest is left after them. -1 when there is none. */
static int sum_columns(const char **pp, size_t ncpu, double *sum)
{
	const char *p = *pp;
	size_t got = 0;
	unsigned long long v;
	*sum = 0;
	while (got < ncpu && next_u64(&p, &v) == 0) {
		*sum += (double)v;
		got++;
	}
	*pp = p;
	return got ? 0 : -1;
}

/* The same, or added to the item of that name (the IRQ lines of one device): a scan, as an
 * interrupts file has tens of lines. */
static void add_sum(struct syscount_set *s, const char *name, size_t len, double value)
{
	size_t k = len < SYSCOUNT_NAME_MAX ? len : SYSCOUNT_NAME_MAX - 1;
	for (size_t i = 0; i < s->n; i++)
		if (strncmp(s->v[i].name, name, k) == 0 && s->v[i].name[k] == '\0') {
			s->v[i].value += value;
			return;
		}
	add(s, name, len, value);
}

/* A numbered IRQ's name: the devices after the chip and its hwirq ("IO-APIC 2-edge timer"), or the
 * last word where an older kernel prints the two as one ("IO-APIC-edge timer"). */
static void irq_name(const char *rest, const char *end, const char *key, size_t klen, struct syscount_set *out,
		     double sum)
{
	const char *w[3] = {NULL, NULL, NULL};
	size_t nw = 0;
	for (const char *p = skip_blanks(rest); p < end && nw < 3; p = skip_blanks(p)) {
		w[nw++] = p;
		p += strcspn(p, " \t\n");
	}
	const char *name = nw >= 3 ? w[2] : nw == 2 ? w[1] : NULL;
	if (!name) {
		char buf[32];
		int n = snprintf(buf, sizeof(buf), "irq%.*s", (int)(klen < 16 ? klen : 16), key);
		add_sum(out, buf, (size_t)n, sum);
		return;
	}
	size_t len = (size_t)(end - name);
	while (len && (name[len - 1] == ' ' || name[len - 1] == '\t'))
		len--;
	add_sum(out, name, len, sum);
}

/* /proc/interrupts (numbered lines by device, LOC, RES, ... by their key) and /proc/softirqs. */
static int parse_per_cpu(const char *text, struct syscount_set *out, int by_device)
{
	size_t ncpu = cpu_columns(text);
	if (!ncpu)
		return -1;
	for (const char *p = next_line(text); p && *p; p = next_line(p)) {
		const char *key = skip_blanks(p), *end = line_end(p);
		const char *colon = memchr(key, ':', (size_t)(end - key));
		if (!colon || colon == key)
			continue;
		size_t klen = (size_t)(colon - key);
		const char *q = colon + 1;
		double sum;
		if (sum_columns(&q, ncpu, &sum) < 0)
			continue;
		if (by_device && strspn(key, "0123456789") == klen)
			irq_name(q, end, key, klen, out, sum);
		else
			add_sum(out, key, klen, sum);
	}
	return 0;
}

static int parse_interrupts(const char *text, struct syscount_set *out) { return parse_per_cpu(text, out, 1); }
static int parse_softirqs(const char *text, struct syscount_set *out) { return parse_per_cpu(text, out, 0); }

/* cpuN lines: yld_count, (legacy), sched_count, sched_goidle, ttwu_count, ttwu_local, rq_cpu_time,
 * run_delay, pcount (Documentation/scheduler/sched-stats.rst). */
static int parse_schedstat(const char *text, struct syscount_set *out)
{
	static const struct { size_t field; const char *name; } kept[] = {
		{7, "rq_cpu_time_ns"}, {8, "run_delay_ns"}, {9, "timeslices"}};
	size_t cpus = 0;
	double sum[ARRAY_SIZE(kept)] = {0};
	for (const char *p = text; p && *p; p = next_line(p)) {
		if (strncmp(p, "cpu", 3) != 0 || p[3] < '0' || p[3] > '9')
			continue;
		const char *q = p + 3;
		unsigned long long f[10], v;
		next_u64(&q, &v);
		size_t n = 0;
		while (n < ARRAY_SIZE(f) && next_u64(&q, &f[n]) == 0)
			n++;
		if (n < 8)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(kept); k++)
			if (kept[k].field <= n)
				sum[k] += (double)f[kept[k].field - 1];
		cpus++;
	}
	if (!cpus)
		return -1;
	for (size_t k = 0; k < ARRAY_SIZE(kept); k++)
		add(out, kept[k].name, strlen(kept[k].name), sum[k]);
	return 0;
}

/* Class lines "NAME: con-bounces contentions waittime-min -max -total [-avg] acq-bounces ...", 12
 * numbers (10 before version 0.4 added the averages): the name ends at the last colon the numbers
 * follow (a class name may hold colons). */
static int parse_lockstat(const char *text, struct syscount_set *out)
{
	if (strncmp(text, "lock_stat version", 17) != 0)
		return -1;
	double contentions = 0, wait_us = 0;
	for (const char *p = next_line(text); p && *p; p = next_line(p)) {
		const char *end = line_end(p), *colon = NULL;
		for (const char *c = p; c < end; c++)
			if (*c == ':')
				colon = c;
		if (!colon)
			continue;
		double f[12];
		size_t n = 0;
		const char *q = colon + 1;
		while (n < ARRAY_SIZE(f)) {
			char *e;
			q = skip_blanks(q);
			if (*q < '0' || *q > '9')
				break;
			f[n] = strtod(q, &e);
			if (e == q)
				break;
			n++;
			q = e;
		}
		if (n < 10 || skip_blanks(q) != end)
			continue;
		const char *name = skip_blanks(p);
		add(out, name, (size_t)(colon - name), f[1]);
		contentions += f[1];
		wait_us += f[4];
	}
	add(out, "total.contentions", strlen("total.contentions"), contentions);
	add(out, "total.wait_us", strlen("total.wait_us"), wait_us);
	return 0;
}

/* "name active_objs num_objs objsize ...": a cache's bytes. */
static int parse_slabinfo(const char *text, struct syscount_set *out)
{
	if (strncmp(text, "slabinfo - version: 2", 21) != 0)
		return -1;
	for (const char *p = next_line(text); p && *p; p = next_line(p)) {
		if (*p == '#')
			continue;
		size_t k = strcspn(p, " \t\n");
		const char *q = p + k;
		unsigned long long active, num, size;
		if (k && next_u64(&q, &active) == 0 && next_u64(&q, &num) == 0 && next_u64(&q, &size) == 0)
			add(out, p, k, (double)num * (double)size);
	}
	return 0;
}

/* "major minor name" and its counters (Documentation/admin-guide/iostats.rst): 11 fields, 15 with
 * discards (4.18), 17 with flushes (5.5); field 9, the I/Os in flight, is a gauge and left out. */
static int parse_diskstats(const char *text, struct syscount_set *out)
{
	static const char *const field[17] = {
		"reads", "reads_merged", "read_kib", "read_ms", "writes", "writes_merged", "write_kib", "write_ms",
		NULL, "io_ms", "queue_ms", "discards", "discards_merged", "discard_kib", "discard_ms", "flushes",
		"flush_ms"};
	size_t devices = 0;
	for (const char *p = text; p && *p; p = next_line(p)) {
		unsigned long long f[17];
		const char *name;
		size_t nlen;
		int got = procstat_diskstats_line(p, &name, &nlen, f, ARRAY_SIZE(f));
		if (got < 11)
			continue;
		size_t n = (size_t)got;
		devices++;
		if (f[0] == 0 && f[4] == 0 && (n < 12 || f[11] == 0) && (n < 16 || f[15] == 0))
			continue; /* never used: no row (there are tens of idle loop devices) */
		for (size_t k = 0; k < n; k++) {
			if (!field[k])
				continue;
			char key[SYSCOUNT_NAME_MAX];
			int len = snprintf(key, sizeof(key), "%.*s.%s", (int)(nlen < 48 ? nlen : 48), name, field[k]);
			/* sectors are 512 bytes whatever the device's block size */
			add(out, key, (size_t)len, strstr(field[k], "_kib") ? (double)f[k] / 2 : (double)f[k]);
		}
	}
	return devices ? 0 : -1;
}

static const char *unit_vmstat(const char *name)
{
	if (strcmp(name, "pgpgin") == 0 || strcmp(name, "pgpgout") == 0)
		return "KiB";
	return strncmp(name, "nr_", 3) == 0 ? "pages" : "events";
}
static const char *unit_interrupts(const char *name) { (void)name; return "interrupts"; }
static const char *unit_softirqs(const char *name) { (void)name; return "softirqs"; }
static const char *unit_schedstat(const char *name) { return strstr(name, "_ns") ? "ns" : "timeslices"; }
static const char *unit_lockstat(const char *name) { return strcmp(name, "total.wait_us") == 0 ? "us" : "contentions"; }
static const char *unit_slabinfo(const char *name) { (void)name; return "bytes"; }
static const char *unit_diskstats(const char *name)
{
	const char *field = strrchr(name, '.');
	field = field ? field + 1 : name;
	size_t len = strlen(field);
	if (len > 3 && strcmp(field + len - 3, "_ms") == 0)
		return "ms";
	return len > 4 && strcmp(field + len - 4, "_kib") == 0 ? "KiB" : "I/Os";
}

static const struct source_def sources[SYSCOUNT_NSOURCES] = {
	[SYSCOUNT_VMSTAT] = {.name = "vmstat", .file = "vmstat", .parse = parse_vmstat, .unit = unit_vmstat},
	[SYSCOUNT_INTERRUPTS] = {.name = "interrupts", .file = "interrupts", .parse = parse_interrupts,
				 .unit = unit_interrupts},
	[SYSCOUNT_SOFTIRQS] = {.name = "softirqs", .file = "softirqs", .parse = parse_softirqs, .unit = unit_softirqs},
	[SYSCOUNT_SCHEDSTAT] = {.name = "schedstat", .file = "schedstat", .parse = parse_schedstat,
				.unit = unit_schedstat},
	[SYSCOUNT_LOCKSTAT] = {.name = "lock_stat", .file = "lock_stat", .parse = parse_lockstat,
			       .unit = unit_lockstat, .top_only = 1},
	[SYSCOUNT_SLABINFO] = {.name = "slabinfo", .file = "slabinfo", .parse = parse_slabinfo,
			       .unit = unit_slabinfo, .top_only = 1},
	[SYSCOUNT_DISKSTATS] = {.name = "diskstats", .file = "diskstats", .parse = parse_diskstats,
				.unit = unit_diskstats},
};

const char *syscount_source_name(enum syscount_source s) { return sources[s].name; }

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct syscount_item *)x)->name, ((const struct syscount_item *)y)->name);
}

int syscount_parse(enum syscount_source s, const char *text, struct syscount_set *out)
{
	if (sources[s].parse(text, out) < 0)
		return -1;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_name);
	return 0;
}

void syscount_read(const char *proc_root, struct syscount_reading *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t s = 0; s < SYSCOUNT_NSOURCES; s++) {
		char *path = xasprintf("%s/%s", proc_root ? proc_root : "/proc", sources[s].file);
		char *text = read_text_file(path, SYSCOUNT_FILE_MAX);
		free(path);
		if (text && syscount_parse((enum syscount_source)s, text, &r->src[s]) == 0)
			r->have |= 1u << s;
		free(text);
	}
}

void syscount_reading_free(struct syscount_reading *r)
{
	for (size_t s = 0; s < SYSCOUNT_NSOURCES; s++)
		free(r->src[s].v);
	memset(r, 0, sizeof(*r));
}

static int by_size_of_change(const void *x, const void *y)
{
	double a = fabs(((const struct syscount_row *)x)->value), b = fabs(((const struct syscount_row *)y)->value);
	return a < b ? 1 : a > b ? -1 : strcmp(((const struct syscount_row *)x)->name, ((const struct syscount_row *)y)->name);
}

/* The changes of one source, a merge of two name-sorted sets: a name only in b counts from 0, one only
 * in a (a cache destroyed) falls to 0. */
static size_t source_delta(const struct source_def *d, const struct syscount_set *a, const struct syscount_set *b,
			   struct syscount_row *out)
{
	size_t i = 0, j = 0, n = 0;
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i].name, b->v[j].name);
		const struct syscount_item *it = c > 0 ? &b->v[j] : &a->v[i];
		double v = c == 0 ? b->v[j].value - a->v[i].value : c > 0 ? b->v[j].value : -a->v[i].value;
		i += c <= 0;
		j += c >= 0;
		if (d->top_only && v == 0 && strncmp(it->name, "total.", 6) != 0)
			continue;
		struct syscount_row *r = &out[n++];
		r->source = d->name;
		snprintf(r->name, sizeof(r->name), "%s", it->name);
		r->unit = d->unit(it->name);
		r->value = v;
	}
	return n;
}

struct syscount_row *syscount_delta(const struct syscount_reading *a, const struct syscount_reading *b,
				    size_t top, size_t *n)
{
	size_t cap = 1;
	for (size_t s = 0; s < SYSCOUNT_NSOURCES; s++)
		cap += a->src[s].n + b->src[s].n;
	struct syscount_row *rows = xcalloc(cap, sizeof(*rows));
	*n = 0;
	for (size_t s = 0; s < SYSCOUNT_NSOURCES; s++) {
		if (!(a->have & b->have & (1u << s)))
			continue;
		struct syscount_row *first = rows + *n;
		size_t k = source_delta(&sources[s], &a->src[s], &b->src[s], first);
		if (sources[s].top_only) {
			/* the totals (lock_stat's) are always kept, ahead of the top entries */
			size_t kept = 0;
			for (size_t i = 0; i < k; i++)
				if (strncmp(first[i].name, "total.", 6) == 0) {
					struct syscount_row t = first[kept];
					first[kept++] = first[i];
					first[i] = t;
				}
			qsort(first + kept, k - kept, sizeof(*first), by_size_of_change);
			if (k - kept > top)
				k = kept + top;
		}
		*n += k;
	}
	return rows;
}
