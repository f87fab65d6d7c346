/* The option table: every suite key and its command-line flag, type, default, range and
 * help text. Parsing, defaults, validation, --help and the man page all come from it. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "util/util.h"

const char *const osync_names[] = {"off", "on", "both", NULL};
const char *const sync_mode_names[] = {"fsync", "none", "global", NULL};
const char *const mode_names[] = {"sweep", "crossover", "quick", "peak", "single", NULL};
const char *const onoff_names[] = {"off", "on", NULL};

#define OFF(f) offsetof(struct run_opts, f)

const struct option_def option_table[] = {
	{"workfile", 'f', OPT_STR, NULL, 0, 0, NULL, OFF(workfile), "FILE",
	 "workfile (a name in the workfiles dir, or a path): the weighted test mix"},
	{"tasks", 't', OPT_TASKS, "1,2,4,8", 1, 100000, NULL, OFF(tasks), "LIST",
	 "task counts: '1,2,4', '8-64:8' (step) or '1-512*2' (factor)"},
	{"jobs_per_task", 'j', OPT_INT, "100", 1, 10000000, NULL, OFF(jobs_per_task), "N",
	 "nominal jobs per task; each test gets round(weight/total * N), at least 1"},
	{"repeat", 'r', OPT_INT, "1", 1, 1000, NULL, OFF(repeat), "N",
	 "measure each task count N times"},
	{"osync", 0, OPT_ENUM, "on", 0, 0, osync_names, OFF(osync), "on|off|both",
	 "open the sync_* tests' files with O_SYNC; both runs each workload twice"},
	{"sync_mode", 0, OPT_ENUM, "fsync", 0, 0, sync_mode_names, OFF(sync_mode), "fsync|none|global",
	 "what the disk tests' sync points do: fsync the task's file, nothing, or sync()"},
	{"filesize", 0, OPT_KIB, NULL, 0, 1LL << 30, NULL, OFF(filesize_kib), "SIZE",
	 "per-task file size for disk tests (default: the workfile's FILESIZE, else 10K)"},
	{"poolsize", 0, OPT_KIB, NULL, 0, 1LL << 32, NULL, OFF(poolsize_kib), "SIZE",
	 "pool shared among tasks: n = FILESIZE + POOLSIZE / tasks (default: workfile, else 0)"},
	{"dirs", 'd', OPT_STRLIST, NULL, 0, 0, NULL, OFF(dirs), "DIR",
	 "disk directories, used round robin by tasks (default $TMPDIR or /var/tmp)"},
	{"seed", 0, OPT_INT, "1", 0, 0x7fffffffffffffffLL, NULL, OFF(seed), "N",
	 "random seed for job orders and offsets; the same seed gives the same run"},
	{"label", 0, OPT_STR, NULL, 0, 0, NULL, OFF(label), "TEXT",
	 "label stored with the run (default: the kernel release, uname -r)"},
	{"mode", 0, OPT_ENUM, "sweep", 0, 0, mode_names, OFF(mode), "sweep|crossover|quick|peak|single",
	 "sweep the listed task counts, grow them until Jobs/Min per task falls to the threshold, "
	 "or run each test alone (single, the AIM9 way)"},
	{"threshold", 0, OPT_DOUBLE, "0", 0, 1000000, NULL, OFF(threshold), "JPM",
	 "Jobs/Min per task that ends crossover (default 1) or quick (default 60) mode"},
	{"max_tasks", 0, OPT_INT, "1024", 1, 100000, NULL, OFF(max_tasks), "N",
	 "largest task count crossover and quick modes may reach"},
	{"period", 'p', OPT_SECONDS, "2", 0, 0, NULL, OFF(period_s), "SECONDS",
	 "single mode: how long each test runs alone"},
	{"sample_interval", 0, OPT_SECONDS, "0.1", 0, 0, NULL, OFF(sample_interval_s), "SECONDS",
	 "how often the system sampler reads /proc/stat, diskstats and vmstat during a point; 0 turns it off"},
	{"timeout", 0, OPT_SECONDS, "0", 0, 0, NULL, OFF(timeout_s), "SECONDS",
	 "per-point time limit; 0 derives it (10 minutes, or 20x the previous point)"},
	{"warmup", 0, OPT_INT, "0", 0, 100, NULL, OFF(warmup), "N",
	 "run N points at the first task count before the measured ones, and store none of them"},
	{"pin", 0, OPT_ENUM, "off", 0, 0, onoff_names, OFF(pin), "on|off",
	 "bind task i to the i-th allowed CPU (round robin), so tasks neither migrate nor share a CPU while another is idle"},
	{"drop_caches", 0, OPT_ENUM, "off", 0, 0, onoff_names, OFF(drop_caches), "on|off",
	 "before each point, write back and drop the page, dentry and inode caches (root only)"},
};
const size_t option_count = ARRAY_SIZE(option_table);

const struct option_def *option_find(const char *key)
{
	for (size_t i = 0; i < option_count; i++) {
		const char *k = option_table[i].key, *s = key;
		while (*k && (*k == *s || (*k == '_' && *s == '-')))
			k++, s++;
		if (!*k && !*s)
			return &option_table[i];
	}
	return NULL;
}

const struct option_def *option_find_short(char c)
{
	for (size_t i = 0; i < option_count; i++)
		if (c && option_table[i].short_flag == c)
			return &option_table[i];
	return NULL;
}

static int set_enum(const struct option_def *def, const char *value, int *slot, const char **why)
{
	for (int i = 0; def->choices[i]; i++) {
		if (strcmp(def->choices[i], value) == 0) {
			*slot = i;
			return 0;
		}
	}
	*why = "not one of the allowed values";
	return -1;
}

int option_set(struct run_opts *o, const struct option_def *def, const char *value, const char **why)
{
	void *slot = (char *)o + def->offset;
	long long v;
	double d;
	switch (def->type) {
	case OPT_INT:
		if (parse_long(value, def->min, def->max, &v) < 0) {
			*why = "not a whole number in range";
			return -1;
		}
		*(long long *)slot = v;
		return 0;
	case OPT_KIB:
		if (parse_kib(value, &v) < 0 || v > def->max) {
			*why = "not a size (e.g. 10K, 5M, 1G)";
			return -1;
		}
		*(long long *)slot = v;
		return 0;
	case OPT_DOUBLE:
	case OPT_SECONDS: {
		char *end;
		if (def->type == OPT_SECONDS) {
			if (parse_seconds(value, &d) < 0) {
				*why = "not a duration (e.g. 30, 90s, 5m)";
				return -1;
			}
		} else if (!*value || (d = strtod(value, &end), *end) || d < def->min || d > def->max) {
			*why = "not a number in range";
			return -1;
		}
		*(double *)slot = d;
		return 0;
	}
	case OPT_STR:
		if (!*value) {
			*why = "empty";
			return -1;
		}
		free(*(char **)slot);
		*(char **)slot = xstrdup(value);
		return 0;
	case OPT_STRLIST:
		if (!*value) {
			*why = "empty";
			return -1;
		}
		o->dirs.v = xrealloc(o->dirs.v, (o->dirs.count + 1) * sizeof(char *));
		o->dirs.v[o->dirs.count++] = xstrdup(value);
		return 0;
	case OPT_TASKS: {
		struct task_list t;
		if (tasks_parse(value, &t, why) < 0) /* it enforces TASKS_MAX */
			return -1;
		tasks_free(&o->tasks);
		o->tasks = t;
		return 0;
	}
	case OPT_ENUM:
		return set_enum(def, value, (int *)slot, why);
	}
	*why = "unknown option type";
	return -1;
}

void run_opts_defaults(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->filesize_kib = o->poolsize_kib = -1;
	for (size_t i = 0; i < option_count; i++) {
		const char *why;
		if (option_table[i].def && option_set(o, &option_table[i], option_table[i].def, &why) < 0)
			abort(); /* a broken default is a programming error */
	}
}

void run_opts_copy(struct run_opts *dst, const struct run_opts *src)
{
	*dst = *src;
	dst->workfile = src->workfile ? xstrdup(src->workfile) : NULL;
	dst->label = src->label ? xstrdup(src->label) : NULL;
	dst->tasks.n = xmalloc(src->tasks.count * sizeof(int));
	memcpy(dst->tasks.n, src->tasks.n, src->tasks.count * sizeof(int));
	dst->dirs.v = src->dirs.count ? xcalloc(src->dirs.count, sizeof(char *)) : NULL;
	for (size_t i = 0; i < src->dirs.count; i++)
		dst->dirs.v[i] = xstrdup(src->dirs.v[i]);
}

void str_list_free(struct str_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->count = 0;
}

static size_t option_size(enum opt_type type)
{
	switch (type) {
	case OPT_INT:
	case OPT_KIB: return sizeof(long long);
	case OPT_ENUM: return sizeof(int);
	case OPT_DOUBLE:
	case OPT_SECONDS: return sizeof(double);
	case OPT_STR: return sizeof(char *);
	case OPT_TASKS: return sizeof(struct task_list);
	case OPT_STRLIST: return sizeof(struct str_list);
	}
	return 0;
}

void option_swap(struct run_opts *a, struct run_opts *b, const struct option_def *def)
{
	char tmp[sizeof(struct str_list) > sizeof(struct task_list) ? sizeof(struct str_list)
								    : sizeof(struct task_list)];
	size_t n = option_size(def->type);
	memcpy(tmp, (char *)a + def->offset, n);
	memcpy((char *)a + def->offset, (char *)b + def->offset, n);
	memcpy((char *)b + def->offset, tmp, n);
}

void run_opts_free(struct run_opts *o)
{
	free(o->workfile);
	free(o->label);
	tasks_free(&o->tasks);
	str_list_free(&o->dirs);
	memset(o, 0, sizeof(*o));
}

/* ---- task lists ---- */

/* The most tasks a point may have, and so the largest value a task list may hold. */
#define TASKS_MAX 100000

static void tasks_push(struct task_list *t, long long n)
{
	if ((t->count & (t->count - 1)) == 0) /* grow at powers of two */
		t->n = xrealloc(t->n, (t->count ? t->count * 2 : 1) * sizeof(int));
	t->n[t->count++] = (int)n;
}

/* One comma-separated item: "N", "A-B", "A-B:STEP" or "A-B*FACTOR". */
static int tasks_item(char *item, struct task_list *t, const char **why)
{
	long long a, b, step = 1, factor = 0;
	char *dash = strchr(item, '-'), *op = NULL;
	if (!dash) {
		if (parse_long(item, 1, TASKS_MAX, &a) < 0) {
			*why = "bad task count (1 to 100000)";
			return -1;
		}
		tasks_push(t, a);
		return 0;
	}
	*dash = '\0';
	op = strpbrk(dash + 1, ":*");
	char kind = op ? *op : 0;
	if (op)
		*op = '\0';
	if (parse_long(item, 1, TASKS_MAX, &a) < 0 || parse_long(dash + 1, 1, TASKS_MAX, &b) < 0 || a > b) {
		*why = "bad range (expected A-B with 1 <= A <= B <= 100000)";
		return -1;
	}
	if (kind == ':' && parse_long(op + 1, 1, TASKS_MAX, &step) < 0) {
		*why = "bad step after ':'";
		return -1;
	}
	if (kind == '*' && parse_long(op + 1, 2, 1000, &factor) < 0) {
		*why = "bad factor after '*' (must be 2 or more)";
		return -1;
	}
	for (long long n = a; n <= b; n = factor ? n * factor : n + step) {
		if (t->count >= 100000) {
			*why = "too many task counts";
			return -1;
		}
		tasks_push(t, n);
	}
	return 0;
}

int tasks_parse(const char *spec, struct task_list *out, const char **why)
{
	struct task_list t = {0};
	char *copy = xstrdup(spec);
	char *save = NULL;
	int rc = 0;
	*why = "empty task list";
	for (char *item = strtok_r(copy, ", ", &save); item; item = strtok_r(NULL, ", ", &save))
		if ((rc = tasks_item(item, &t, why)) < 0)
			break;
	free(copy);
	if (rc < 0 || t.count == 0) {
		tasks_free(&t);
		return -1;
	}
	*out = t;
	return 0;
}

void tasks_free(struct task_list *t)
{
	free(t->n);
	t->n = NULL;
	t->count = 0;
}

char *tasks_format(const struct task_list *t)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; i < t->count; i++)
		strbuf_addf(&sb, "%s%d", i ? "," : "", t->n[i]);
	return sb.buf;
}
