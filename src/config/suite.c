/* Suites (libconfig files) resolved into a plan: the workloads, each with its options
 * after defaults, suite keys, workload keys and command-line flags, in that order. */
#include "config.h"

#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config/cfg.h"
#include "util/util.h"

/* Keys that are not options: they describe the suite itself. */
static const char *const meta_keys[] = {"name", "description", "workloads", NULL};

static int is_meta(const char *key)
{
	for (int i = 0; meta_keys[i]; i++)
		if (strcmp(meta_keys[i], key) == 0)
			return 1;
	return 0;
}

/* The text form of a scalar setting, as option_set() expects it. */
static char *scalar_text(const config_setting_t *s, const struct option_def *def)
{
	int type = config_setting_type(s);
	/* names, lists of names and choices are strings; numbers only where a number is meant */
	int textual = def->type == OPT_STR || def->type == OPT_STRLIST || def->type == OPT_ENUM;
	if (textual && type != CONFIG_TYPE_STRING && !(type == CONFIG_TYPE_BOOL && def->choices == osync_names))
		return NULL;
	if (def->type == OPT_INT && type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
		return NULL;
	switch (type) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return xasprintf("%lld", config_setting_get_int64(s));
	case CONFIG_TYPE_FLOAT:
		return xasprintf("%.17g", config_setting_get_float(s));
	case CONFIG_TYPE_STRING:
		return xstrdup(config_setting_get_string(s));
	case CONFIG_TYPE_BOOL:
		if (def->choices == osync_names)
			return xstrdup(config_setting_get_bool(s) ? "on" : "off");
		return NULL;
	default:
		return NULL;
	}
}

static void apply_setting(struct run_opts *o, const config_setting_t *s, const char *file,
			  struct errlist *errs)
{
	const char *key = config_setting_name(s);
	int line = (int)config_setting_source_line(s);
	const struct option_def *def = option_find(key);
	if (!def || strchr(key, '-')) {
		errlist_add(errs, file, line, "unknown key '%s'", key);
		return;
	}
	const char *why = NULL;
	if (config_setting_is_aggregate(s)) {
		if (def->type != OPT_STRLIST && def->type != OPT_TASKS) {
			errlist_add(errs, file, line, "'%s' takes a single value", key);
			return;
		}
		struct strbuf joined = {0};
		strbuf_add(&joined, "", 0);
		if (def->type == OPT_STRLIST)
			str_list_free(&o->dirs); /* a list replaces, not extends */
		for (int i = 0; i < config_setting_length(s); i++) {
			const config_setting_t *el = config_setting_get_elem(s, (unsigned)i);
			char *v = scalar_text(el, def);
			if (!v) {
				errlist_add(errs, file, line, "'%s': element %d has the wrong type", key, i + 1);
				strbuf_free(&joined);
				return;
			}
			if (def->type == OPT_STRLIST && option_set(o, def, v, &why) < 0)
				errlist_add(errs, file, line, "'%s': %s", key, why);
			strbuf_addf(&joined, "%s%s", i ? "," : "", v);
			free(v);
		}
		if (def->type == OPT_TASKS && option_set(o, def, joined.buf, &why) < 0)
			errlist_add(errs, file, line, "'%s': %s", key, why);
		strbuf_free(&joined);
		return;
	}
	char *v = scalar_text(s, def);
	if (!v) {
		errlist_add(errs, file, line, "'%s' has the wrong type", key);
		return;
	}
	if (def->type == OPT_STRLIST)
		str_list_free(&o->dirs);
	if (option_set(o, def, v, &why) < 0)
		errlist_add(errs, file, line, "'%s' = '%s': %s", key, v, why);
	free(v);
}

/* Apply every option key of a group (the suite's top level or one workload). */
static void apply_group(struct run_opts *o, const config_setting_t *group, const char *file,
			struct errlist *errs)
{
	for (int i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
		if (!is_meta(config_setting_name(s)))
			apply_setting(o, s, file, errs);
	}
}

static void apply_overrides(struct run_opts *o, const struct overrides *ov)
{
	if (!ov)
		return;
	struct run_opts given;
	run_opts_copy(&given, &ov->opts);
	for (size_t i = 0; i < option_count; i++)
		if (ov->given[i])
			option_swap(o, &given, &option_table[i]);
	run_opts_free(&given); /* now holds the values the flags replaced */
}

/* Fill what nothing set: dirs, label, sizes from the workfile, mode threshold. */
static void finish_opts(struct run_opts *o, const struct workfile *wf)
{
	if (o->dirs.count == 0) {
		const char *tmp = getenv("TMPDIR");
		o->dirs.v = xcalloc(1, sizeof(char *));
		o->dirs.v[o->dirs.count++] = xstrdup(tmp && *tmp ? tmp : "/var/tmp");
	}
	if (!o->label) {
		struct utsname u;
		o->label = xstrdup(uname(&u) == 0 ? u.release : "unknown");
	}
	if (o->filesize_kib < 0)
		o->filesize_kib = wf->filesize_kib >= 0 ? wf->filesize_kib : 10;
	if (o->poolsize_kib < 0)
		o->poolsize_kib = wf->poolsize_kib >= 0 ? wf->poolsize_kib : 0;
	if (o->threshold <= 0)
		o->threshold = o->mode == MODE_QUICK ? 60.0 : o->mode == MODE_CROSSOVER ? 1.0 : 0.0;
}

static void add_workload(struct plan *p, const char *name, const struct run_opts *base,
			 const config_setting_t *root, const config_setting_t *group, const char *file,
			 const struct overrides *ov, struct errlist *errs)
{
	struct workload w = {0};
	run_opts_copy(&w.opts, base);
	if (group)
		apply_group(&w.opts, group, file, errs);
	apply_overrides(&w.opts, ov);
	if (!w.opts.workfile) {
		errlist_add(errs, file, group ? (int)config_setting_source_line(group) : 0,
			    "no workfile given");
		run_opts_free(&w.opts);
		return;
	}
	const config_setting_t *where = group ? config_setting_get_member(group, "workfile") : NULL;
	if (!where && root)
		where = config_setting_get_member(root, "workfile");
	int line = where ? (int)config_setting_source_line(where) : 0;
	if (workfile_load(w.opts.workfile, root ? file : NULL, line, &w.wf, errs) < 0) {
		workfile_free(&w.wf);
		run_opts_free(&w.opts);
		return;
	}
	w.name = xstrdup(name ? name : w.wf.name);
	finish_opts(&w.opts, &w.wf);
	p->wl = xrealloc(p->wl, (p->nwl + 1) * sizeof(*p->wl));
	p->wl[p->nwl++] = w;
}

static char *resolve_suite(const char *suite)
{
	if (strchr(suite, '/'))
		return xstrdup(suite);
	char *cfg = xasprintf("%s.cfg", suite);
	char *p = NULL;
	if (access(cfg, F_OK) == 0 && strstr(suite, ".cfg"))
		p = xstrdup(suite);
	if (!p) {
		char *local = xasprintf("suites/%s", cfg);
		if (access(local, F_OK) == 0)
			p = local;
		else
			free(local);
	}
	if (!p)
		p = find_data_file("suites", cfg);
	if (!p && strstr(suite, ".cfg") && access(suite, F_OK) == 0)
		p = xstrdup(suite);
	free(cfg);
	return p ? p : xstrdup(suite);
}

/* Parse the suite text; on success the caller owns *cfg. */
static int parse_suite(const char *path, const char *text, config_t *cfg, struct errlist *errs)
{
	config_init(cfg);
	if (config_read_string(cfg, text) != CONFIG_TRUE) {
		errlist_add(errs, path, config_error_line(cfg), "%s", config_error_text(cfg));
		config_destroy(cfg);
		return -1;
	}
	return 0;
}

int plan_from_suite(const char *suite, const struct overrides *ov, struct plan *p, struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	char *path = resolve_suite(suite);
	char *text = read_text_file(path, 1 << 20);
	if (!text) {
		char hint[128] = "";
		int e = errno;
		if (e == ENOENT && !strchr(suite, '/'))
			data_suggest("suites", ".cfg", 1, suite, hint, sizeof(hint));
		errlist_add(errs, path, 0, "cannot read suite: %s%s", strerror(e), hint);
		free(path);
		return -1;
	}
	int rc = plan_from_suite_text(path, text, ov, p, errs);
	free(path);
	free(text);
	return rc;
}

int plan_from_suite_text(const char *path_in, const char *text_in, const struct overrides *ov, struct plan *p,
			 struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	size_t before = errs->count;
	char *path = xstrdup(path_in), *text = xstrdup(text_in);
	config_t cfg;
	if (parse_suite(path, text, &cfg, errs) < 0) {
		free(path);
		free(text);
		return -1;
	}
	const config_setting_t *root = config_root_setting(&cfg);
	const char *name = NULL;
	if (!config_lookup_string(&cfg, "name", &name)) {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		p->suite_name = xasprintf("%.*s", (int)strcspn(base, "."), base);
	} else {
		p->suite_name = xstrdup(name);
	}
	p->suite_path = path;
	p->suite_text = text;

	struct run_opts base;
	run_opts_defaults(&base);
	apply_group(&base, root, path, errs);
	const config_setting_t *wls = config_setting_get_member(root, "workloads");
	int cli_workfile = ov && ov->given[option_find("workfile") - option_table];
	if (wls && !cli_workfile) {
		if (!config_setting_is_list(wls) && !config_setting_is_array(wls)) {
			errlist_add(errs, path, (int)config_setting_source_line(wls),
				    "'workloads' must be a list of groups: ( { workfile = \"...\"; }, ... )");
		}
		for (int i = 0; i < config_setting_length(wls); i++) {
			const config_setting_t *g = config_setting_get_elem(wls, (unsigned)i);
			if (!config_setting_is_group(g)) {
				errlist_add(errs, path, (int)config_setting_source_line(g),
					    "each workload must be a group { ... }");
				continue;
			}
			const char *wname = NULL;
			config_setting_lookup_string(g, "name", &wname);
			add_workload(p, wname, &base, root, g, path, ov, errs);
		}
	} else {
		add_workload(p, NULL, &base, root, NULL, path, ov, errs);
	}
	run_opts_free(&base);
	config_destroy(&cfg);
	if (errs->count == before && p->nwl == 0)
		errlist_add(errs, path, 0, "no workloads");
	return errs->count == before ? 0 : -1;
}

int plan_from_workfile(const char *wf, const struct overrides *ov, struct plan *p, struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	size_t before = errs->count;
	struct run_opts base;
	run_opts_defaults(&base);
	base.workfile = xstrdup(wf);
	add_workload(p, NULL, &base, NULL, NULL, "command line", ov, errs);
	run_opts_free(&base);
	if (p->nwl) {
		p->suite_name = xstrdup(p->wl[0].wf.name);
		p->suite_text = xstrdup("");
	}
	return errs->count == before ? 0 : -1;
}

/* One stored workload: defaults, then its options as stored, then the label asked for; its
 * workfile parsed from the stored text. */
static void add_stored(struct plan *p, const char *where, const struct stored_workload *w, const char *label,
		       struct errlist *errs)
{
	struct workload wl = {0};
	char *origin = xasprintf("%s, workload %s", where, w->name);
	run_opts_defaults(&wl.opts);
	for (size_t k = 0; k < w->nopts; k++) {
		const struct option_def *def = option_find(w->opts[k].key);
		const char *why;
		if (!def)
			errlist_add(errs, origin, 0, "option '%s' is not one this reaim knows", w->opts[k].key);
		else if (option_set(&wl.opts, def, w->opts[k].value, &why) < 0)
			errlist_add(errs, origin, 0, "option %s = '%s': %s", def->key, w->opts[k].value, why);
	}
	free(origin);
	free(wl.opts.label);
	wl.opts.label = NULL;
	const char *why;
	if (label && option_set(&wl.opts, option_find("label"), label, &why) < 0)
		errlist_add(errs, "--label", 0, "'%s': %s", label, why);
	char *wf_where = xasprintf("%s as stored with %s", w->workfile_name, where);
	int rc = workfile_parse(wf_where, w->workfile_text, &wl.wf, errs);
	free(wf_where);
	if (rc < 0) {
		workfile_free(&wl.wf);
		run_opts_free(&wl.opts);
		return;
	}
	free(wl.wf.name);
	wl.wf.name = xstrdup(w->workfile_name);
	wl.name = xstrdup(w->name);
	finish_opts(&wl.opts, &wl.wf);
	p->wl = xrealloc(p->wl, (p->nwl + 1) * sizeof(*p->wl));
	p->wl[p->nwl++] = wl;
}

int plan_from_stored(const char *where, const char *suite_name, const char *suite_text, const struct stored_workload *w,
		     size_t n, const char *label, struct plan *p, struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	size_t before = errs->count;
	p->suite_name = xstrdup(suite_name);
	p->suite_path = xstrdup(where);
	p->suite_text = xstrdup(suite_text);
	for (size_t i = 0; i < n; i++)
		add_stored(p, where, &w[i], label, errs);
	if (errs->count == before && p->nwl == 0)
		errlist_add(errs, where, 0, "no workloads stored");
	return errs->count == before ? 0 : -1;
}

int suite_check(const char *path, struct errlist *errs)
{
	struct plan p;
	int rc = plan_from_suite(path, NULL, &p, errs);
	plan_free(&p);
	return rc;
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->nwl; i++) {
		free(p->wl[i].name);
		workfile_free(&p->wl[i].wf);
		run_opts_free(&p->wl[i].opts);
	}
	free(p->wl);
	free(p->suite_name);
	free(p->suite_path);
	free(p->suite_text);
	memset(p, 0, sizeof(*p));
}
