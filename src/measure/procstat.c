/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsers of /proc/stat, /proc/vmstat and /proc/diskstats: a file's text into raw counters. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/procstat.h"
#include "util/util.h"

/* The rest of line p after key, if the line starts with key and a blank; else NULL. */
static const char *after_key(const char *p, const char *key)
{
	size_t k = strlen(key);
	if (strncmp(p, key, k) != 0 || (p[k] != ' ' && p[k] != '\t'))
		return NULL;
	return p + k;
}

static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

int procstat_parse_stat(const char *text, struct sys_counters *c)
{
	enum { HAVE_CPU = 1, HAVE_CTXT = 2, HAVE_PROCS = 4, HAVE_ALL = 7, HAVE_RUNNING = 8 };
	int have = 0;
	memset(c->cpu, 0, sizeof(c->cpu));
	c->ctxt = c->processes = 0;
	c->ncpus = 0;
	c->procs_running = -1;
	/* the cpuN lines come before ctxt, processes and procs_running, so they are all counted before
	 * the loop ends; procs_running is optional (a fixture or an old kernel may lack it) */
	for (const char *p = text; p && *p && have != (HAVE_ALL | HAVE_RUNNING); p = next_line(p)) {
		const char *q;
		if (p[0] == 'c' && p[1] == 'p' && p[2] == 'u' && p[3] >= '0' && p[3] <= '9') {
			c->ncpus++;
		} else if (!(have & HAVE_CPU) && (q = after_key(p, "cpu")) != NULL) {
			size_t i = 0;
			while (i < ARRAY_SIZE(c->cpu) && next_u64(&q, &c->cpu[i]) == 0)
				i++;
			/* kernels before 2.6.11 stop at irq/softirq (no steal); the missing ones stay 0 */
			if (i >= 4)
				have |= HAVE_CPU;
		} else if ((q = after_key(p, "ctxt")) != NULL && next_u64(&q, &c->ctxt) == 0) {
			have |= HAVE_CTXT;
		} else if ((q = after_key(p, "processes")) != NULL && next_u64(&q, &c->processes) == 0) {
			have |= HAVE_PROCS;
		} else if ((q = after_key(p, "procs_running")) != NULL) {
			unsigned long long r;
			if (next_u64(&q, &r) == 0) {
				c->procs_running = (long long)r;
				have |= HAVE_RUNNING;
			}
		}
	}
	return (have & HAVE_ALL) == HAVE_ALL ? 0 : -1;
}

int procstat_parse_vmstat(const char *text, struct sys_counters *c)
{
	static const char *const keys[] = {"pgfault", "pgmajfault", "pswpin", "pswpout"};
	unsigned long long *dst[] = {&c->pgfault, &c->pgmajfault, &c->pswpin, &c->pswpout};
	unsigned found = 0;
	for (size_t k = 0; k < ARRAY_SIZE(dst); k++)
		*dst[k] = 0;
	for (const char *p = text; p && *p; p = next_line(p)) {
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			const char *q = after_key(p, keys[k]);
			if (q && next_u64(&q, dst[k]) == 0) {
				found |= 1u << k;
				break;
			}
		}
	}
	/* pswpin/pswpout are absent without CONFIG_SWAP; the fault counters are always there */
	return (found & 3u) == 3u ? 0 : -1;
}

int procstat_diskstats_line(const char *line, const char **name, size_t *nlen, unsigned long long *f, size_t max)
{
	const char *q = line;
	unsigned long long major_no, minor_no;
	if (next_u64(&q, &major_no) < 0 || next_u64(&q, &minor_no) < 0)
		return -1;
	while (*q == ' ' || *q == '\t')
		q++;
	*name = q;
	while (*q && *q != ' ' && *q != '\t' && *q != '\n')
		q++;
	*nlen = (size_t)(q - *name);
	size_t k = 0;
	while (k < max && next_u64(&q, &f[k]) == 0)
		k++;
	return *nlen ? (int)k : -1;
}

int procstat_parse_diskstats(const char *text, const char *const *devices, size_t n, struct sys_counters *c)
{
	c->rd_ios = c->rd_sectors = c->wr_ios = c->wr_sectors = c->io_ticks_ms = c->io_ticks_max_ms = 0;
	c->in_flight = 0;
	memset(c->dev_io_ticks_ms, 0, sizeof(c->dev_io_ticks_ms));
	c->ndevices = 0;
	if (n > SAMPLER_MAX_DEVICES || (n > 0 && !devices))
		return -1;
	c->ndevices = n;
	unsigned found = 0;
	for (const char *p = text; p && *p; p = next_line(p)) {
		/* rd_ios rd_merges rd_sectors rd_ticks wr_ios wr_merges wr_sectors wr_ticks in_flight io_ticks;
		 * later kernels append discard and flush fields, which we do not need */
		unsigned long long f[10];
		const char *name;
		size_t nlen;
		int k = procstat_diskstats_line(p, &name, &nlen, f, ARRAY_SIZE(f));
		if (k < 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			if ((found & (1u << i)) || !devices[i] || strlen(devices[i]) != nlen ||
			    memcmp(devices[i], name, nlen) != 0)
				continue;
			if (k < (int)ARRAY_SIZE(f))
				break; /* a pre-2.6.25 partition line of 4 fields: no usable counters */
			c->rd_ios += f[0];
			c->rd_sectors += f[2];
			c->wr_ios += f[4];
			c->wr_sectors += f[6];
			c->io_ticks_ms += f[9];
			c->in_flight += f[8];
			c->dev_io_ticks_ms[i] = f[9];
			if (f[9] > c->io_ticks_max_ms)
				c->io_ticks_max_ms = f[9];
			found |= 1u << i;
			break;
		}
	}
	return found == (n ? (1u << n) - 1 : 0u) ? 0 : -1;
}
