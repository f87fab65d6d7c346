/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's own cgroups: find cgroup2 (and on hybrid machines the v1 blkio and memory hierarchies),
 * make a run cgroup and one per point, move tasks in, read CPU, I/O, memory peak and pressure, kill
 * everything inside and remove them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "measure/cgroup.h"
#include "measure/measure.h"
#include "util/util.h"

/* Largest control file accepted (io.stat of many disks). */
#define CG_FILE_MAX (4u << 20)
/* A limit no disk reaches (1 TB/s): on v1 blkio, setting any limit on a disk is what turns its
 * counters on (blk-throttle is set up lazily, Linux 6.x), and this one never holds an I/O back. */
#define BLKIO_UNBINDING_BPS "1000000000000"
/* How long destroy waits for the last processes of a killed point to leave. */
#define DESTROY_WAIT_NS 1000000000ull
/* Rounds of the cgroup.procs kill loop before giving up (about 1 ms each). */
#define KILL_ROUNDS 2000

static const char *const psi_file[CGROUP_PSI_N] = {"cpu.pressure", "io.pressure", "memory.pressure"};
static const unsigned psi_bit[CGROUP_PSI_N] = {CGROUP_HAVE_PSI_CPU, CGROUP_HAVE_PSI_IO, CGROUP_HAVE_PSI_MEM};

struct cgroup_run {
	enum cgroup_layout layout;
	unsigned have;
	int swept; /* cgroups of dead runs removed when it opened */
	int has_kill;
	char dir[PATH_MAX];    /* the run cgroup in cgroup2 */
	char blkio[PATH_MAX];  /* its v1 blkio twin, "" if I/O is not taken from v1 */
	char memory[PATH_MAX]; /* its v1 memory twin, "" if the peak is not taken from v1 */
	/* the cgroups this process was in when the run opened, where cgroup_run_leave moves it back */
	char home[PATH_MAX], home_blkio[PATH_MAX], home_memory[PATH_MAX];
	char traits[1024]; /* what it measures and how, with no per-run name: an environment fact */
	/* --cpus through a cpuset: which one, its v1 twin (with the prefix of its files, "" when the
	 * hierarchy is mounted noprefix) and the v1 cpuset this process was in; how, or why not */
	enum cgroup_cpuset cpuset;
	char cpuset_dir[PATH_MAX], home_cpuset[PATH_MAX];
	const char *cpuset_prefix;
	char cpuset_text[600];
};

struct cgroup_point {
	const struct cgroup_run *run;
	char dir[PATH_MAX], blkio[PATH_MAX], memory[PATH_MAX];
	char cpuset[PATH_MAX]; /* its v1 cpuset twin, made by cgroup_point_cpus; "" without */
	char procs[4][PATH_MAX]; /* the cgroup.procs files a pid is written to, made before any fork */
	size_t nprocs;
};

static int kill_dir(const char *dir, int has_kill);
static int remove_cg(const char *dir);

/* ---- pure parsers ---- */

static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "MAJ:MIN" at *pp. */
static int get_devno(const char **pp, unsigned *major_no, unsigned *minor_no)
{
	unsigned long long a, b;
	const char *p = *pp;
	if (next_u64(&p, &a) < 0 || *p != ':')
		return -1;
	p++;
	if (next_u64(&p, &b) < 0 || a > UINT_MAX || b > UINT_MAX)
		return -1;
	*major_no = (unsigned)a;
	*minor_no = (unsigned)b;
	*pp = p;
	return 0;
}

/* The next blank-separated field of a line into out (mountinfo's octal escapes such as \040 decoded);
 * *pp moves past it. -1 at the end of the line or if it does not fit. */
static int get_field(const char **pp, char *out, size_t len)
{
	const char *p = skip_blanks(*pp);
	size_t n = 0;
	if (!*p || *p == '\n')
		return -1;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
		char c = *p++;
		if (c == '\\' && p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7') {
			c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
			p += 3;
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	*pp = p;
	return 0;
}

int cgroup_parse_cpu_stat(const char *text, struct cgroup_cpu *out)
{
	static const char *const keys[] = {"usage_usec", "user_usec", "system_usec"};
	unsigned long long *dst[] = {&out->usage_usec, &out->user_usec, &out->system_usec};
	unsigned found = 0;
	*out = (struct cgroup_cpu){0};
	for (const char *line = text; line && *line; line = next_line(line)) {
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			size_t n = strlen(keys[k]);
			const char *p = line + n;
			if (strncmp(line, keys[k], n) != 0 || (*p != ' ' && *p != '\t'))
				continue;
			p = skip_blanks(p);
			if (next_u64(&p, dst[k]) == 0)
				found |= 1u << k;
		}
	}
	return found == 7u ? 0 : -1;
}

/* The entry for a device in devs, added if new; NULL when devs is full. */
static struct cgroup_io_dev *dev_slot(struct cgroup_io_dev *devs, size_t max, size_t *n, unsigned ma, unsigned mi)
{
	for (size_t i = 0; i < *n; i++)
		if (devs[i].major == ma && devs[i].minor == mi)
			return &devs[i];
	if (*n >= max)
		return NULL;
	devs[*n] = (struct cgroup_io_dev){.major = ma, .minor = mi};
	return &devs[(*n)++];
}

int cgroup_parse_io_stat(const char *text, struct cgroup_io_dev *devs, size_t max, size_t *n)
{
	*n = 0;
	for (const char *line = text; line && *line; line = next_line(line)) {
		const char *p = skip_blanks(line);
		if (*p == '\n' || !*p)
			continue;
		unsigned ma, mi;
		if (get_devno(&p, &ma, &mi) < 0)
			return -1;
		struct cgroup_io_dev *d = dev_slot(devs, max, n, ma, mi);
		if (!d)
			return -1;
		/* key=value pairs; keys this code does not know (dbytes, dios, cost.*) are skipped */
		for (;;) {
			p = skip_blanks(p);
			if (!*p || *p == '\n')
				break;
			const char *eq = p;
			while (*eq && *eq != '=' && *eq != ' ' && *eq != '\n')
				eq++;
			if (*eq != '=')
				return -1;
			size_t klen = (size_t)(eq - p);
			unsigned long long *dst = NULL;
			if (klen == 6 && memcmp(p, "rbytes", 6) == 0)
				dst = &d->rbytes;
			else if (klen == 6 && memcmp(p, "wbytes", 6) == 0)
				dst = &d->wbytes;
			else if (klen == 4 && memcmp(p, "rios", 4) == 0)
				dst = &d->rios;
			else if (klen == 4 && memcmp(p, "wios", 4) == 0)
				dst = &d->wios;
			p = eq + 1;
			unsigned long long v;
			if (dst) {
				if (next_u64(&p, &v) < 0)
					return -1;
				*dst = v;
			}
			while (*p && *p != ' ' && *p != '\t' && *p != '\n')
				p++;
		}
	}
	return 0;
}

/* One v1 blkio file into the bytes (or ios) fields: the Read and Write lines; the others are sums. */
static int parse_blkio_one(const char *text, int ios, struct cgroup_io_dev *devs, size_t max, size_t *n)
{
	for (const char *line = text; line && *line; line = next_line(line)) {
		const char *p = skip_blanks(line);
		if (*p == '\n' || !*p || strncmp(p, "Total", 5) == 0)
			continue;
		unsigned ma, mi;
		char op[16];
		unsigned long long v;
		if (get_devno(&p, &ma, &mi) < 0 || get_field(&p, op, sizeof(op)) < 0)
			return -1;
		p = skip_blanks(p);
		if (next_u64(&p, &v) < 0)
			return -1;
		int rd = strcmp(op, "Read") == 0, wr = strcmp(op, "Write") == 0;
		if (!rd && !wr)
			continue;
		struct cgroup_io_dev *d = dev_slot(devs, max, n, ma, mi);
		if (!d)
			return -1;
		if (ios)
			*(rd ? &d->rios : &d->wios) = v;
		else
			*(rd ? &d->rbytes : &d->wbytes) = v;
	}
	return 0;
}

int cgroup_parse_blkio(const char *bytes_text, const char *ios_text, struct cgroup_io_dev *devs, size_t max,
		       size_t *n)
{
	*n = 0;
	if (parse_blkio_one(bytes_text, 0, devs, max, n) < 0 || parse_blkio_one(ios_text, 1, devs, max, n) < 0)
		return -1;
	return 0;
}

int cgroup_parse_pressure(const char *text, struct cgroup_psi *out)
{
	*out = (struct cgroup_psi){0};
	int have_some = 0;
	for (const char *line = text; line && *line; line = next_line(line)) {
		int some = strncmp(line, "some ", 5) == 0, full = strncmp(line, "full ", 5) == 0;
		if (!some && !full)
			continue;
		const char *eol = strchr(line, '\n');
		const char *t = strstr(line, "total=");
		if (!t || (eol && t > eol))
			return -1;
		t += 6;
		unsigned long long v;
		if (next_u64(&t, &v) < 0)
			return -1;
		if (some) {
			out->some_usec = v;
			have_some = 1;
		} else {
			out->full_usec = v;
			out->has_full = 1;
		}
	}
	return have_some ? 0 : -1;
}

int cgroup_parse_u64(const char *text, unsigned long long *v)
{
	const char *p = skip_blanks(text);
	if (next_u64(&p, v) < 0)
		return -1;
	p = skip_blanks(p);
	return *p == '\0' || (*p == '\n' && p[1] == '\0') ? 0 : -1;
}

/* ---- figures ---- */

static double grew(unsigned long long a, unsigned long long b)
{
	return b > a ? (double)(b - a) : 0.0;
}

void cgroup_figures_between(const struct cgroup_stats *a, const struct cgroup_stats *b, double wall_s,
			    struct cgroup_figures *out)
{
	static const struct cgroup_stats zero;
	*out = (struct cgroup_figures){.have = b->have};
	const struct cgroup_stats *z = a ? a : &zero;
	out->cpu_s = grew(z->cpu.usage_usec, b->cpu.usage_usec) / 1e6;
	out->user_s = grew(z->cpu.user_usec, b->cpu.user_usec) / 1e6;
	out->sys_s = grew(z->cpu.system_usec, b->cpu.system_usec) / 1e6;
	for (size_t i = 0; i < b->ndevs && i < CGROUP_MAX_DEVS; i++) {
		struct cgroup_io_dev was = {0};
		cgroup_io_of(z, b->io[i].major, b->io[i].minor, &was);
		out->read_bytes += grew(was.rbytes, b->io[i].rbytes);
		out->write_bytes += grew(was.wbytes, b->io[i].wbytes);
		out->read_ios += grew(was.rios, b->io[i].rios);
		out->write_ios += grew(was.wios, b->io[i].wios);
	}
	out->mem_peak_bytes = (double)b->mem_peak_bytes;
	if (!(wall_s > 0) && a && b->t_ns > a->t_ns)
		wall_s = (double)(b->t_ns - a->t_ns) / 1e9;
	for (int k = 0; k < CGROUP_PSI_N; k++) {
		out->psi_some_pct[k] = out->psi_full_pct[k] = NAN;
		if (!(b->have & psi_bit[k]) || !(wall_s > 0))
			continue;
		/* stalls cannot exceed the wall time; a rounding excess is clamped */
		out->psi_some_pct[k] = fmin(100, 100 * grew(z->psi[k].some_usec, b->psi[k].some_usec) / (wall_s * 1e6));
		if (b->psi[k].has_full)
			out->psi_full_pct[k] =
				fmin(100, 100 * grew(z->psi[k].full_usec, b->psi[k].full_usec) / (wall_s * 1e6));
	}
}

int cgroup_io_of(const struct cgroup_stats *s, unsigned major_no, unsigned minor_no, struct cgroup_io_dev *out)
{
	*out = (struct cgroup_io_dev){.major = major_no, .minor = minor_no};
	for (size_t i = 0; i < s->ndevs && i < CGROUP_MAX_DEVS; i++) {
		if (s->io[i].major == major_no && s->io[i].minor == minor_no) {
			*out = s->io[i];
			return 0;
		}
	}
	return -1;
}

int cgroup_disk_of(unsigned major_no, unsigned minor_no, unsigned *dmajor, unsigned *dminor)
{
	char link[64];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major_no, minor_no);
	char *real = realpath(link, NULL);
	if (!real)
		return -1;
	*dmajor = major_no;
	*dminor = minor_no;
	char *path = xasprintf("%s/partition", real);
	int whole = access(path, F_OK) != 0;
	free(path);
	/* a partition's directory sits inside its disk's */
	char *slash = strrchr(real, '/');
	if (whole || !slash) {
		free(real);
		return whole ? 0 : -1;
	}
	*slash = '\0';
	path = xasprintf("%s/dev", real);
	free(real);
	char *text = read_text_file(path, 64);
	free(path);
	if (!text)
		return -1;
	const char *p = text;
	int rc = get_devno(&p, dmajor, dminor);
	free(text);
	if (rc < 0)
		errno = EBADMSG;
	return rc;
}

/* ---- files ---- */

/* dir/name into buf; -1 with ENAMETOOLONG if it does not fit. */
static int join(char *buf, size_t len, const char *dir, const char *name)
{
	int w = snprintf(buf, len, "%s/%s", dir, name);
	if (w < 0 || (size_t)w >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Write a short string to a control file with open/write/close only (async-signal-safe). */
static int write_ctl(const char *path, const char *s, size_t n)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t w;
	while ((w = write(fd, s, n)) < 0 && errno == EINTR)
		;
	int e = errno;
	int rc = close(fd);
	if (w < 0 || (size_t)w != n) {
		errno = w < 0 ? e : EIO;
		return -1;
	}
	return rc;
}

static int write_ctl_in(const char *dir, const char *name, const char *s)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = write_ctl(path, s, strlen(s));
	free(path);
	return rc;
}

/* A control file's text (caller frees), or NULL with errno. */
static char *read_ctl(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = read_text_file(path, CG_FILE_MAX);
	int e = errno;
	free(path);
	errno = e;
	return text;
}

/* dir, allocated, into a field of the run (PATH_MAX on the heap); -1 with ENAMETOOLONG if it does not fit. */
static int keep_path(char *field, size_t len, char *dir)
{
	int rc = dir && strlen(dir) < len ? 0 : -1;
	if (rc == 0)
		memcpy(field, dir, strlen(dir) + 1);
	else if (dir)
		errno = ENAMETOOLONG;
	free(dir);
	return rc;
}

static void desc_add(struct cgroup_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void desc_add(struct cgroup_run *r, const char *fmt, ...)
{
	size_t used = strlen(r->traits);
	if (used + 1 >= sizeof(r->traits))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->traits + used, sizeof(r->traits) - used, fmt, ap);
	va_end(ap);
}

static int name_ok(const char *name)
{
	return name && name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
	       strlen(name) < NAME_MAX;
}

/* ---- the run ---- */

/* A run cgroup name met in the sweep: whether its run is gone (asked once), whether any of its
 * directories could not be removed. */
struct swept_name {
	char *name;
	int stale, kept;
};

static struct swept_name *name_seen(const struct cgroup_run_config *cfg, struct swept_name **v, size_t *n,
				    const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i].name, name) == 0)
			return &(*v)[i];
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = (struct swept_name){.name = xstrdup(name), .stale = cfg->stale(name)};
	return &(*v)[(*n)++];
}

/* Kill and remove one dead run's cgroup and its points; 0 once it is gone. In v1 only the
 * directories go: their processes die through v2, which the caller sweeps first. */
static int sweep_dir(const char *dir, int v2)
{
	char *kill_file = xasprintf("%s/cgroup.kill", dir);
	if (v2 && access(kill_file, W_OK) == 0)
		(void)kill_dir(dir, 1);
	free(kill_file);
	DIR *points = opendir(dir);
	struct dirent *pe;
	while (points && (pe = readdir(points)) != NULL) {
		if (pe->d_type != DT_DIR || !name_ok(pe->d_name))
			continue;
		char *sub = xasprintf("%s/%s", dir, pe->d_name);
		if (v2)
			(void)kill_dir(sub, 0); /* nothing left after cgroup.kill; the only way without it */
		(void)remove_cg(sub);
		free(sub);
	}
	if (points)
		closedir(points);
	return remove_cg(dir);
}

/* Whether a v2 base holds a directory of this name: a live run makes its v2 cgroup before its v1
 * twins and removes it after them, so a v1 twin without one belongs to no live run. */
static int twin_in_v2(const struct cgroup_sweep_base *bases, size_t nbases, const char *name)
{
	int found = 0;
	for (size_t b = 0; b < nbases && !found; b++) {
		if (!bases[b].v2 || !bases[b].dir)
			continue;
		char *dir = xasprintf("%s/%s", bases[b].dir, name);
		found = access(dir, F_OK) == 0;
		free(dir);
	}
	return found;
}

int cgroup_sweep(const struct cgroup_run_config *cfg, const struct cgroup_sweep_base *bases, size_t nbases)
{
	if (!cfg->stale)
		return 0;
	struct swept_name *names = NULL;
	size_t nn = 0;
	int removed = 0;
	for (size_t b = 0; b < nbases; b++) {
		DIR *d = bases[b].dir ? opendir(bases[b].dir) : NULL;
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			if ((e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) || !name_ok(e->d_name) ||
			    strcmp(e->d_name, cfg->name) == 0)
				continue;
			struct swept_name *sn = name_seen(cfg, &names, &nn, e->d_name);
			if (sn->stale == CGROUP_RUN_UNMARKED && !bases[b].v2 && !twin_in_v2(bases, nbases, e->d_name))
				sn->stale = CGROUP_RUN_DEAD;
			if (sn->stale != CGROUP_RUN_DEAD)
				continue;
			char *dir = xasprintf("%s/%s", bases[b].dir, e->d_name);
			if (sweep_dir(dir, bases[b].v2) == 0)
				removed += bases[b].v2;
			else
				sn->kept = 1;
			free(dir);
		}
		if (d)
			closedir(d);
	}
	/* only now, with every hierarchy swept, may the run's mark of death go */
	for (size_t i = 0; i < nn; i++) {
		if (names[i].stale == CGROUP_RUN_DEAD && !names[i].kept && cfg->swept)
			cfg->swept(names[i].name);
		free(names[i].name);
	}
	free(names);
	return removed;
}

int cgroup_controller_listed(const char *controllers, const char *name)
{
	size_t alen = controllers ? strcspn(controllers, "\n") : 0, len = strlen(name);
	/* the file is one blank-separated line */
	for (size_t s = 0; s < alen;) {
		size_t n = strcspn(controllers + s, " \n");
		if (n == len && memcmp(controllers + s, name, n) == 0)
			return 1;
		s += n + 1;
	}
	return 0;
}

/* Turn on the io and memory controllers for the points, where the parent passes them down. */
static void enable_v2(struct cgroup_run *r)
{
	static const struct {
		const char *name, *plus;
		unsigned bit;
	} ctl[] = {{"io", "+io", CGROUP_HAVE_IO}, {"memory", "+memory", CGROUP_HAVE_MEM}};
	char *avail = read_ctl(r->dir, "cgroup.controllers");
	for (size_t i = 0; i < ARRAY_SIZE(ctl); i++)
		if (cgroup_controller_listed(avail, ctl[i].name) &&
		    write_ctl_in(r->dir, "cgroup.subtree_control", ctl[i].plus) == 0)
			r->have |= ctl[i].bit;
	free(avail);
}

/* Copy a v1 cpuset file (cpus, mems) from one cgroup to another: v1 takes no task into a cpuset
 * whose CPUs or memory nodes are empty, and a new one starts empty. */
static int copy_cpuset_file(const char *from, const char *to, const char *prefix, const char *what)
{
	char *name = xasprintf("%s%s", prefix, what);
	char *text = read_ctl(from, name);
	int rc = text ? write_ctl_in(to, name, text[0] ? text : "\n") : -1;
	int e = errno;
	free(text);
	free(name);
	errno = e;
	return rc;
}

/* The v1 cpuset twin of the run cgroup on a hybrid machine: made under this process's v1 cpuset
 * with its CPUs and memory nodes, which each point's twin narrows. */
static void open_cpuset_v1(struct cgroup_run *r, const struct cgroup_run_config *cfg, const char *mi,
			   const char *self)
{
	char *base = cgroup_dir_of(mi, self, "cpuset", NULL);
	if (!base) {
		snprintf(r->cpuset_text, sizeof(r->cpuset_text),
			 "affinity only: no cpuset controller (cgroup2 does not pass it down and no v1 cpuset "
			 "hierarchy is mounted)");
		return;
	}
	char *probe = xasprintf("%s/cpuset.cpus", base);
	r->cpuset_prefix = access(probe, F_OK) == 0 ? "cpuset." : ""; /* "" when mounted noprefix */
	free(probe);
	char *dir = xasprintf("%s/%s", base, cfg->name);
	const char *step = "cannot create";
	int rc = -1;
	if (strlen(dir) >= sizeof(r->cpuset_dir) || strlen(base) >= sizeof(r->home_cpuset))
		errno = ENAMETOOLONG;
	else if (mkdir(dir, 0755) == 0) {
		step = "cannot copy the CPUs to";
		if (copy_cpuset_file(base, dir, r->cpuset_prefix, "cpus") == 0) {
			step = "cannot copy the memory nodes to";
			rc = copy_cpuset_file(base, dir, r->cpuset_prefix, "mems");
		}
		if (rc < 0) {
			int e = errno;
			(void)rmdir(dir);
			errno = e;
		}
	}
	if (rc == 0) {
		keep_path(r->cpuset_dir, sizeof(r->cpuset_dir), dir);
		keep_path(r->home_cpuset, sizeof(r->home_cpuset), base);
		r->cpuset = CGROUP_CPUSET_V1;
		snprintf(r->cpuset_text, sizeof(r->cpuset_text), "cpuset (cgroup v1 cpuset.cpus)");
		return;
	}
	snprintf(r->cpuset_text, sizeof(r->cpuset_text), "affinity only: %s a v1 cpuset in %s: %s", step, base,
		 strerror(errno));
	free(dir);
	free(base);
}

/* How --cpus can confine a point beyond affinity: the cpuset controller in cgroup2 where the parent
 * passes it down, else a v1 cpuset hierarchy (hybrid), else none, said in cpuset_text. */
static void open_cpuset(struct cgroup_run *r, const struct cgroup_run_config *cfg, const char *mi, const char *self)
{
	if (cfg->no_cpuset) {
		snprintf(r->cpuset_text, sizeof(r->cpuset_text), "affinity only: cpusets turned off");
		return;
	}
	char *avail = read_ctl(r->dir, "cgroup.controllers");
	int listed = cgroup_controller_listed(avail, "cpuset");
	free(avail);
	if (!listed) {
		open_cpuset_v1(r, cfg, mi, self);
		return;
	}
	if (write_ctl_in(r->dir, "cgroup.subtree_control", "+cpuset") < 0) {
		snprintf(r->cpuset_text, sizeof(r->cpuset_text),
			 "affinity only: cannot enable the cpuset controller in %.256s: %s", r->dir, strerror(errno));
		return;
	}
	r->cpuset = CGROUP_CPUSET_V2;
	snprintf(r->cpuset_text, sizeof(r->cpuset_text), "cpuset (cgroup v2 cpuset.cpus)");
}

/* The v1 blkio twin: counts only once a limit exists on the disk, so each run disk gets one no disk reaches. */
static void open_blkio_v1(struct cgroup_run *r, const struct cgroup_run_config *cfg, const char *mi, const char *self)
{
	char *base = cgroup_dir_of(mi, self, "blkio", NULL);
	if (!base)
		return;
	if (cfg->ndisks == 0) {
		desc_add(r, "; no I/O: cgroup v1 blkio needs the run's disks");
		free(base);
		return;
	}
	char *dir = xasprintf("%s/%s", base, cfg->name);
	if (strlen(dir) >= sizeof(r->blkio) || strlen(base) >= sizeof(r->home_blkio) || mkdir(dir, 0755) < 0) {
		desc_add(r, "; no I/O: cannot create a cgroup in %s: %s", base,
			 strlen(dir) >= sizeof(r->blkio) ? strerror(ENAMETOOLONG) : strerror(errno));
		free(dir);
		free(base);
		return;
	}
	for (size_t i = 0; i < cfg->ndisks; i++) {
		char line[64];
		snprintf(line, sizeof(line), "%u:%u " BLKIO_UNBINDING_BPS, major(cfg->disks[i]), minor(cfg->disks[i]));
		if (write_ctl_in(dir, "blkio.throttle.read_bps_device", line) < 0 ||
		    write_ctl_in(dir, "blkio.throttle.write_bps_device", line) < 0) {
			desc_add(r, "; no I/O: cannot set a blkio limit on %u:%u (needed for its counters): %s",
				 major(cfg->disks[i]), minor(cfg->disks[i]), strerror(errno));
			(void)rmdir(dir);
			free(dir);
			free(base);
			return;
		}
	}
	keep_path(r->blkio, sizeof(r->blkio), dir);
	keep_path(r->home_blkio, sizeof(r->home_blkio), base);
	r->have |= CGROUP_HAVE_IO;
	desc_add(r, "; I/O from cgroup v1 blkio (an unbinding 1 TB/s limit per disk turns its counters on; "
		    "only I/O the tasks issue themselves, not background writeback)");
}

static void open_memory_v1(struct cgroup_run *r, const struct cgroup_run_config *cfg, const char *mi, const char *self)
{
	char *base = cgroup_dir_of(mi, self, "memory", NULL);
	if (!base)
		return;
	char *dir = xasprintf("%s/%s", base, cfg->name);
	if (strlen(dir) >= sizeof(r->memory) || strlen(base) >= sizeof(r->home_memory) || mkdir(dir, 0755) < 0) {
		desc_add(r, "; no memory peak: cannot create a cgroup in %s: %s", base,
			 strlen(dir) >= sizeof(r->memory) ? strerror(ENAMETOOLONG) : strerror(errno));
		free(dir);
		free(base);
		return;
	}
	keep_path(r->memory, sizeof(r->memory), dir);
	keep_path(r->home_memory, sizeof(r->home_memory), base);
	r->have |= CGROUP_HAVE_MEM;
	desc_add(r, "; memory peak from cgroup v1 memory");
}

/* Where the run cgroup goes (allocated): the given directory (which must be cgroup2) or this process's cgroup. */
static char *parent_dir(const struct cgroup_run_config *cfg, const char *mi, const char *self, char *err,
			size_t errlen)
{
	if (cfg->parent) {
		struct statfs sf;
		if (statfs(cfg->parent, &sf) < 0) {
			set_err(err, errlen, "cgroup %s: %s", cfg->parent, strerror(errno));
			return NULL;
		}
		if (sf.f_type != CGROUP2_SUPER_MAGIC) {
			set_err(err, errlen, "%s is not a cgroup v2 directory", cfg->parent);
			return NULL;
		}
		return xstrdup(cfg->parent);
	}
	struct cgroup_mount m;
	if (cgroup_mount_parse(mi, NULL, &m) < 0) {
		set_err(err, errlen, "no cgroup v2 hierarchy is mounted (none in /proc/self/mountinfo)");
		return NULL;
	}
	char *dir = cgroup_dir_of(mi, self, NULL, NULL);
	if (!dir)
		set_err(err, errlen, "this process's cgroup v2 path (/proc/self/cgroup) is not under %s", m.point);
	cgroup_mount_free(&m);
	return dir;
}

/* What the new run cgroup can give (its layout, cgroup.kill, the v2 controllers, pressure), with the
 * v1 twins for I/O and memory on a hybrid layout, said in r's description. */
static void describe_run_cgroup(struct cgroup_run *r, const struct cgroup_run_config *cfg, const char *mi,
				const char *self)
{
	struct cgroup_mount v1;
	r->layout = cgroup_mount_parse(mi, "blkio", &v1) == 0 || cgroup_mount_parse(mi, "memory", &v1) == 0
			    ? CGROUP_HYBRID : CGROUP_V2;
	cgroup_mount_free(&v1);
	r->have = CGROUP_HAVE_CPU;
	/* cgroup.kill came with Linux 5.14 */
	char *probe = xasprintf("%s/cgroup.kill", r->dir);
	r->has_kill = !cfg->no_kill_file && access(probe, W_OK) == 0;
	free(probe);
	enable_v2(r);
	open_cpuset(r, cfg, mi, self);
	for (int k = 0; k < CGROUP_PSI_N; k++) {
		char *t = read_ctl(r->dir, psi_file[k]);
		struct cgroup_psi psi;
		if (t && cgroup_parse_pressure(t, &psi) == 0)
			r->have |= psi_bit[k];
		free(t);
	}
	desc_add(r, "(CPU%s%s%s%s%s)", r->have & CGROUP_HAVE_IO ? ", I/O" : "",
		 r->have & CGROUP_HAVE_MEM ? ", memory peak" : "",
		 r->have & (CGROUP_HAVE_PSI_CPU | CGROUP_HAVE_PSI_IO | CGROUP_HAVE_PSI_MEM) ? ", pressure" : ", no pressure",
		 r->has_kill ? "" : ", kill by cgroup.procs", r->layout == CGROUP_HYBRID ? "; hybrid layout" : "");
	if (!(r->have & CGROUP_HAVE_IO)) {
		if (r->layout == CGROUP_HYBRID)
			open_blkio_v1(r, cfg, mi, self);
		else
			desc_add(r, "; no I/O: the parent cgroup does not pass the io controller down (cgroup.subtree_control)");
	}
	if (!(r->have & CGROUP_HAVE_MEM)) {
		if (r->layout == CGROUP_HYBRID)
			open_memory_v1(r, cfg, mi, self);
		else
			desc_add(r, "; no memory peak: the parent cgroup does not pass the memory controller down");
	}
}

int cgroup_run_open(const struct cgroup_run_config *cfg, struct cgroup_run **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!name_ok(cfg->name)) {
		set_err(err, errlen, "bad cgroup name '%s'", cfg->name ? cfg->name : "(null)");
		return -1;
	}
	char *mi = read_text_file("/proc/self/mountinfo", CGROUP_PROC_FILE_MAX);
	char *self = read_text_file("/proc/self/cgroup", CGROUP_PROC_FILE_MAX);
	struct cgroup_run *r = xcalloc(1, sizeof(*r));
	char *parent = NULL;
	if (!mi || !self) {
		set_err(err, errlen, "cannot read /proc/self/%s: %s", mi ? "cgroup" : "mountinfo", strerror(errno));
		goto fail;
	}
	if (!(parent = parent_dir(cfg, mi, self, err, errlen)))
		goto fail;
	if (keep_path(r->home, sizeof(r->home), cgroup_dir_of(mi, self, NULL, NULL)) < 0) {
		set_err(err, errlen,
			"this process's cgroup v2 path (/proc/self/cgroup) is not under the cgroup2 mount");
		goto fail;
	}
	/* every hierarchy at once: v2 first (its kill ends the processes), then the v1 twins */
	char *blkio_base = cgroup_dir_of(mi, self, "blkio", NULL), *memory_base = cgroup_dir_of(mi, self, "memory", NULL);
	char *cpuset_base = cgroup_dir_of(mi, self, "cpuset", NULL);
	const struct cgroup_sweep_base bases[] = {{parent, 1}, {blkio_base, 0}, {memory_base, 0}, {cpuset_base, 0}};
	int swept = cgroup_sweep(cfg, bases, ARRAY_SIZE(bases));
	free(blkio_base);
	free(memory_base);
	free(cpuset_base);
	if (keep_path(r->dir, sizeof(r->dir), xasprintf("%s/%s", parent, cfg->name)) < 0) {
		set_err(err, errlen, "cgroup path too long under %s", parent);
		goto fail;
	}
	if (mkdir(r->dir, 0755) < 0) {
		int e = errno;
		if (e == EEXIST)
			set_err(err, errlen, "cgroup %s already exists (left by a run that crashed? rmdir it)", r->dir);
		else
			set_err(err, errlen,
				"cannot create a cgroup in %s: %s (needs root or a delegated cgroup, e.g. "
				"systemd-run --user --scope -p Delegate=yes)",
				parent, strerror(e));
		goto fail;
	}
	r->swept = swept;
	describe_run_cgroup(r, cfg, mi, self);
	free(mi);
	free(self);
	free(parent);
	*out = r;
	return 0;
fail:
	free(mi);
	free(self);
	free(parent);
	free(r);
	return -1;
}

enum cgroup_layout cgroup_run_layout(const struct cgroup_run *r)
{
	return r->layout;
}

unsigned cgroup_run_have(const struct cgroup_run *r)
{
	return r->have;
}

int cgroup_run_swept(const struct cgroup_run *r)
{
	return r->swept;
}

const char *cgroup_run_traits(const struct cgroup_run *r)
{
	return r->traits;
}

const char *cgroup_run_dir(const struct cgroup_run *r)
{
	return r->dir;
}

enum cgroup_cpuset cgroup_run_cpuset(const struct cgroup_run *r)
{
	return r->cpuset;
}

const char *cgroup_run_cpuset_text(const struct cgroup_run *r)
{
	return r->cpuset_text;
}

/* rmdir, retrying while the cgroup still has processes on their way out. */
static int remove_cg(const char *dir)
{
	uint64_t until = clock_now_ns() + DESTROY_WAIT_NS;
	struct timespec nap = {.tv_nsec = 5000000};
	while (rmdir(dir) < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno != EBUSY || clock_now_ns() > until)
			return -1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int cgroup_run_close(struct cgroup_run *r, char *err, size_t errlen)
{
	if (!r)
		return 0;
	int rc = 0;
	const char *dirs[] = {r->blkio, r->memory, r->cpuset_dir, r->dir};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (dirs[i][0] && remove_cg(dirs[i]) < 0 && rc == 0) {
			set_err(err, errlen, "cannot remove cgroup %s: %s", dirs[i], strerror(errno));
			rc = -1;
		}
	}
	free(r);
	return rc;
}

/* ---- points ---- */

/* A cgroup under the run's in cgroup2, and with v1 (the measuring twins) in its v1 twins too. */
static int create_under(const struct cgroup_run *r, const char *name, int v1, struct cgroup_point **out, char *err,
			size_t errlen)
{
	*out = NULL;
	if (!name_ok(name)) {
		set_err(err, errlen, "bad cgroup name '%s'", name ? name : "(null)");
		return -1;
	}
	struct cgroup_point *p = xcalloc(1, sizeof(*p));
	p->run = r;
	const char *bases[] = {r->dir, v1 ? r->blkio : "", v1 ? r->memory : ""};
	char *dirs[] = {p->dir, p->blkio, p->memory};
	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		if (!bases[i][0])
			continue;
		if (join(dirs[i], PATH_MAX, bases[i], name) < 0 || mkdir(dirs[i], 0755) < 0 ||
		    join(p->procs[p->nprocs], sizeof(p->procs[0]), dirs[i], "cgroup.procs") < 0) {
			int e = errno;
			set_err(err, errlen, "cannot create cgroup %s: %s", dirs[i], strerror(e));
			/* undo the ones made */
			for (size_t j = 0; j < i; j++)
				if (dirs[j][0])
					(void)rmdir(dirs[j]);
			if (e != EEXIST)
				(void)rmdir(dirs[i]);
			free(p);
			return -1;
		}
		p->nprocs++;
	}
	*out = p;
	return 0;
}

int cgroup_point_create(struct cgroup_run *r, const char *name, struct cgroup_point **out, char *err, size_t errlen)
{
	return create_under(r, name, 1, out, err, errlen);
}

int cgroup_side_create(const struct cgroup_run *r, const char *name, struct cgroup_point **out, char *err,
		       size_t errlen)
{
	return create_under(r, name, 0, out, err, errlen);
}

/* The v1 cpuset twin of a point: its memory nodes the run's, its CPUs the list. */
static int point_cpuset_v1(struct cgroup_point *p, const char *list, char *err, size_t errlen)
{
	const struct cgroup_run *r = p->run;
	const char *name = strrchr(p->dir, '/') + 1;
	char *cpus = xasprintf("%scpus", r->cpuset_prefix);
	const char *step = "cannot create";
	if (join(p->cpuset, sizeof(p->cpuset), r->cpuset_dir, name) == 0 && mkdir(p->cpuset, 0755) == 0) {
		if ((step = "cannot copy the memory nodes to",
		     copy_cpuset_file(r->cpuset_dir, p->cpuset, r->cpuset_prefix, "mems") == 0) &&
		    (step = "cannot set the CPUs of", write_ctl_in(p->cpuset, cpus, list) == 0) &&
		    (step = "path too long:", join(p->procs[p->nprocs], sizeof(p->procs[0]), p->cpuset,
						    "cgroup.procs") == 0)) {
			p->nprocs++;
			free(cpus);
			return 0;
		}
		int e = errno;
		(void)rmdir(p->cpuset);
		errno = e;
	}
	set_err(err, errlen, "%s cpuset %s: %s", step, p->cpuset, strerror(errno));
	p->cpuset[0] = '\0';
	free(cpus);
	return -1;
}

int cgroup_point_cpus(struct cgroup_point *p, const int *cpus, size_t n, char *err, size_t errlen)
{
	const struct cgroup_run *r = p->run;
	if (r->cpuset == CGROUP_CPUSET_NONE || p->cpuset[0] || p->nprocs >= ARRAY_SIZE(p->procs) || n == 0) {
		set_err(err, errlen, "no cpuset for cgroup %s: %s", p->dir,
			r->cpuset == CGROUP_CPUSET_NONE ? r->cpuset_text : "confined already");
		errno = EINVAL;
		return -1;
	}
	struct strbuf list = {0};
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&list, "%s%d", i ? "," : "", cpus[i]);
	int rc = 0;
	if (r->cpuset == CGROUP_CPUSET_V1)
		rc = point_cpuset_v1(p, list.buf, err, errlen);
	else if (write_ctl_in(p->dir, "cpuset.cpus", list.buf) < 0) {
		set_err(err, errlen, "cannot set the CPUs of cgroup %s: %s", p->dir, strerror(errno));
		rc = -1;
	}
	strbuf_free(&list);
	return rc;
}

int cgroup_point_attach(const struct cgroup_point *p, pid_t pid)
{
	/* the pid in decimal without stdio, which a forked child of a threaded parent must not use */
	char num[24];
	size_t n = sizeof(num);
	unsigned long v = (unsigned long)(pid ? pid : getpid());
	do {
		num[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n > 0);
	for (size_t i = 0; i < p->nprocs; i++)
		if (write_ctl(p->procs[i], num + n, sizeof(num) - n) < 0)
			return -1;
	return 0;
}

int cgroup_point_read(const struct cgroup_point *p, struct cgroup_stats *out)
{
	const struct cgroup_run *r = p->run;
	*out = (struct cgroup_stats){0};
	out->t_ns = clock_now_ns();
	char *t = read_ctl(p->dir, "cpu.stat");
	if (!t)
		return -1;
	int rc = cgroup_parse_cpu_stat(t, &out->cpu);
	free(t);
	if (rc < 0) {
		errno = EBADMSG;
		return -1;
	}
	out->have = CGROUP_HAVE_CPU;
	if (r->have & CGROUP_HAVE_IO) {
		if (p->blkio[0]) {
			char *b = read_ctl(p->blkio, "blkio.throttle.io_service_bytes");
			char *o = read_ctl(p->blkio, "blkio.throttle.io_serviced");
			if (b && o && cgroup_parse_blkio(b, o, out->io, CGROUP_MAX_DEVS, &out->ndevs) == 0)
				out->have |= CGROUP_HAVE_IO;
			free(b);
			free(o);
		} else {
			t = read_ctl(p->dir, "io.stat");
			if (t && cgroup_parse_io_stat(t, out->io, CGROUP_MAX_DEVS, &out->ndevs) == 0)
				out->have |= CGROUP_HAVE_IO;
			free(t);
		}
	}
	if (r->have & CGROUP_HAVE_MEM) {
		t = p->memory[0] ? read_ctl(p->memory, "memory.max_usage_in_bytes") : read_ctl(p->dir, "memory.peak");
		if (t && cgroup_parse_u64(t, &out->mem_peak_bytes) == 0)
			out->have |= CGROUP_HAVE_MEM;
		free(t);
	}
	for (int k = 0; k < CGROUP_PSI_N; k++) {
		if (!(r->have & psi_bit[k]))
			continue;
		t = read_ctl(p->dir, psi_file[k]);
		if (t && cgroup_parse_pressure(t, &out->psi[k]) == 0)
			out->have |= psi_bit[k];
		free(t);
	}
	return 0;
}

/* The pids listed in a cgroup.procs text, up to max; returns how many there were in all. */
static size_t list_pids(const char *text, pid_t *pids, size_t max)
{
	size_t n = 0;
	for (const char *line = text; line && *line; line = next_line(line)) {
		unsigned long long v;
		const char *q = line;
		if (next_u64(&q, &v) == 0 && v > 0 && v <= INT_MAX) {
			if (n < max)
				pids[n] = (pid_t)v;
			n++;
		}
	}
	return n;
}

int cgroup_point_count(const struct cgroup_point *p)
{
	char *t = read_ctl(p->dir, "cgroup.procs");
	if (!t)
		return -1;
	size_t n = list_pids(t, NULL, 0);
	free(t);
	return n > INT_MAX ? INT_MAX : (int)n;
}

int cgroup_point_kill(const struct cgroup_point *p)
{
	return kill_dir(p->dir, p->run->has_kill);
}

/* Whether a cgroup.procs text lists pid. */
static int lists_pid(const char *text, pid_t pid)
{
	for (const char *line = text; line && *line; line = next_line(line)) {
		unsigned long long v;
		const char *q = line;
		if (next_u64(&q, &v) == 0 && v == (unsigned long long)pid)
			return 1;
	}
	return 0;
}

/* SIGKILL the listed pids that are in the cgroup still. Each is pinned with a pidfd first and killed
 * through it only if a reading of cgroup.procs taken after the pin lists it: the pinned process
 * itself, or (had it died meanwhile) nothing at all, never a process that took its pid. Without
 * pidfds (before Linux 5.3) the pid read is killed as listed. */
static int kill_listed(const char *dir, const pid_t *pids, size_t n)
{
	int fds[256], errs[256];
	n = n < ARRAY_SIZE(fds) ? n : ARRAY_SIZE(fds);
	int pinned = 0;
	for (size_t i = 0; i < n; i++) {
#ifdef SYS_pidfd_open
		fds[i] = (int)syscall(SYS_pidfd_open, pids[i], 0u);
		errs[i] = fds[i] < 0 ? errno : 0;
#else
		fds[i] = -1;
		errs[i] = ENOSYS;
#endif
		pinned |= fds[i] >= 0;
	}
	char *again = pinned ? read_ctl(dir, "cgroup.procs") : NULL;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		long sent = 0;
		if (fds[i] >= 0) {
#ifdef SYS_pidfd_send_signal
			if (again && lists_pid(again, pids[i]))
				sent = syscall(SYS_pidfd_send_signal, fds[i], SIGKILL, NULL, 0u);
#endif
			close(fds[i]);
		} else if (errs[i] == ENOSYS) {
			sent = kill(pids[i], SIGKILL);
		} /* else gone already (ESRCH), or not pinned this round (EMFILE): the next round sees it */
		if (sent < 0 && errno != ESRCH && rc == 0)
			rc = -1;
	}
	free(again);
	return rc;
}

/* SIGKILL every process in a cgroup and below it: cgroup.kill, else its cgroup.procs in a loop. */
static int kill_dir(const char *dir, int has_kill)
{
	if (has_kill)
		return write_ctl_in(dir, "cgroup.kill", "1");
	/* without cgroup.kill, kill what is listed until the list stays empty: a process forked while
	 * we read is caught on a later round */
	struct timespec nap = {.tv_nsec = 1000000};
	pid_t pids[256];
	for (int round = 0; round < KILL_ROUNDS; round++) {
		char *t = read_ctl(dir, "cgroup.procs");
		if (!t)
			return -1;
		size_t n = list_pids(t, pids, ARRAY_SIZE(pids));
		free(t);
		if (n == 0)
			return 0;
		if (kill_listed(dir, pids, n < ARRAY_SIZE(pids) ? n : ARRAY_SIZE(pids)) < 0)
			return -1;
		nanosleep(&nap, NULL);
	}
	errno = EBUSY;
	return -1;
}

int cgroup_point_destroy(struct cgroup_point *p, char *err, size_t errlen)
{
	if (!p)
		return 0;
	int rc = 0;
	/* the v1 twins first: v2 holds the processes' lifetime, and all leave every hierarchy at exit */
	const char *dirs[] = {p->blkio, p->memory, p->cpuset, p->dir};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (dirs[i][0] && remove_cg(dirs[i]) < 0 && rc == 0) {
			set_err(err, errlen, "cannot remove cgroup %s: %s", dirs[i], strerror(errno));
			rc = -1;
		}
	}
	free(p);
	return rc;
}

const char *cgroup_point_path(const struct cgroup_point *p)
{
	return p->dir;
}

int cgroup_run_leave(const struct cgroup_run *r) { return cgroup_run_send_home(r, getpid()); }

int cgroup_run_send_home(const struct cgroup_run *r, pid_t pid)
{
	/* v2 last: after a failure the caller is still in the v2 point, and knows not to kill it */
	const char *homes[] = {r->home_blkio, r->home_memory, r->home};
	char num[24];
	snprintf(num, sizeof(num), "%ld", (long)pid);
	for (size_t i = 0; i < ARRAY_SIZE(homes); i++)
		if (homes[i][0] && write_ctl_in(homes[i], "cgroup.procs", num) < 0)
			return -1;
	return 0;
}

int cgroup_run_leave_cpuset(const struct cgroup_run *r) { return cgroup_run_send_home_cpuset(r, getpid()); }

int cgroup_run_send_home_cpuset(const struct cgroup_run *r, pid_t pid)
{
	if (!r->home_cpuset[0])
		return 0; /* cgroup2's cpuset: cgroup_run_leave took us out of it */
	char num[24];
	snprintf(num, sizeof(num), "%ld", (long)pid);
	return write_ctl_in(r->home_cpuset, "cgroup.procs", num);
}

int cgroup_set_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}
