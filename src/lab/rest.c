/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A client of LAVA's REST API (/api/v0.2/) on libcurl and json-c: devices, job submission, a job's
 * state and its log. Every answer is checked: a server that cannot be reached, refuses the token or
 * answers something that is not what LAVA answers is an error naming it. */
#include "config.h"

#include <curl/curl.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "util/util.h"

/* An answer larger than this is no answer of LAVA's to these requests (a log goes to a file). */
#define ANSWER_MAX (16u << 20)
#define CONNECT_TIMEOUT_S 10L
#define REQUEST_TIMEOUT_S 60L

struct lab_rest {
	CURL *curl;
	char *api;            /* http://host:port/api/v0.2/ */
	char *server;         /* http://host:port */
	char *auth;           /* the Authorization header */
	const char *identity; /* its name, for messages */
};

/* What a request brings back: the body in memory, or into a file. */
struct answer {
	struct strbuf body;
	FILE *file;
	int too_big;
};

static size_t take(char *data, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;
	size_t len = size * n;
	if (a->file)
		return fwrite(data, 1, len, a->file);
	if (a->body.len + len > ANSWER_MAX) {
		a->too_big = 1;
		return 0;
	}
	strbuf_add(&a->body, data, len);
	return len;
}

struct lab_rest *lab_rest_open(const struct lab_identity *id, char *err, size_t errlen)
{
	const char *uri = id->uri, *scheme_end = strstr(uri, "://");
	if (!scheme_end || (strncmp(uri, "http://", 7) != 0 && strncmp(uri, "https://", 8) != 0)) {
		set_err(err, errlen, "%s: identity %s: uri %s is not http:// or https://", id->file, id->name, uri);
		return NULL;
	}
	static int curl_ready;
	if (!curl_ready && curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
		set_err(err, errlen, "cannot start libcurl");
		return NULL;
	}
	curl_ready = 1;
	struct lab_rest *r = xcalloc(1, sizeof(*r));
	if (!(r->curl = curl_easy_init())) {
		free(r);
		set_err(err, errlen, "cannot start libcurl");
		return NULL;
	}
	const char *path = strchr(scheme_end + 3, '/');
	size_t hostlen = path ? (size_t)(path - uri) : strlen(uri);
	r->server = xasprintf("%.*s", (int)hostlen, uri);
	r->api = xasprintf("%s/api/v0.2/", r->server);
	r->auth = xasprintf("Authorization: Token %s", id->token);
	r->identity = id->name;
	return r;
}

void lab_rest_close(struct lab_rest *r)
{
	if (!r)
		return;
	curl_easy_cleanup(r->curl);
	free(r->api);
	free(r->server);
	if (r->auth)
		memset(r->auth, 0, strlen(r->auth));
	free(r->auth);
	free(r);
}

const char *lab_rest_server(const struct lab_rest *r)
{
	return r->server;
}

/* The first line of an answer, cut and printable, for a message. */
static void answer_excerpt(const struct strbuf *b, char *out, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; b->buf && i < b->len && n + 1 < len && n < 120; i++) {
		unsigned char c = (unsigned char)b->buf[i];
		if (c == '\n' && n)
			break;
		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : ' ';
	}
	out[n] = '\0';
}

/* One request: GET (body NULL) or POST of a JSON body, to the API's path. The status into *code; 0, or
 * -1 with err for a server that cannot be reached or whose answer is refused (401, 403, 5xx). */
static int request(struct lab_rest *r, const char *path, const char *body, struct answer *a, long *code, char *err,
		   size_t errlen)
{
	char *url = xasprintf("%s%s", r->api, path), curl_err[CURL_ERROR_SIZE] = "";
	struct curl_slist *h = curl_slist_append(NULL, r->auth);
	h = curl_slist_append(h, "Accept: application/json");
	if (body)
		h = curl_slist_append(h, "Content-Type: application/json");
	CURL *c = r->curl;
	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, CONNECT_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, a->file ? 0L : REQUEST_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L); /* a redirect would carry the token elsewhere */
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	if (body)
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	CURLcode rc = curl_easy_perform(c);
	curl_slist_free_all(h);
	int out = 0;
	*code = 0;
	if (rc != CURLE_OK) {
		set_err(err, errlen, "%s (identity %s): %s%s", r->server, r->identity,
			a->too_big ? "an answer larger than any of LAVA's" : curl_err[0] ? curl_err : curl_easy_strerror(rc),
			rc == CURLE_COULDNT_CONNECT ? " (is lava-server running? contrib/lava/lab-setup.sh starts it)" : "");
		out = -1;
	} else {
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code);
		if (*code == 401 || *code == 403) {
			set_err(err, errlen, "%s refused the token of identity %s (HTTP %ld, %s): a wrong or revoked token?",
				r->server, r->identity, *code, path);
			out = -1;
		} else if (*code >= 500 || *code < 200 || (*code >= 300 && *code < 400)) {
			char ex[128];
			answer_excerpt(&a->body, ex, sizeof(ex));
			set_err(err, errlen, "%s answered HTTP %ld to %s%s%s", r->server, *code, path, ex[0] ? ": " : "", ex);
			out = -1;
		}
	}
	free(url);
	return out;
}

/* The answer parsed as a JSON object; NULL with err naming the request when it is not one. */
static json_object *parse_object(const struct lab_rest *r, const char *path, const struct answer *a, char *err,
				 size_t errlen)
{
	json_object *o = a->body.buf ? json_tokener_parse(a->body.buf) : NULL;
	if (!o || !json_object_is_type(o, json_type_object)) {
		char ex[128];
		answer_excerpt(&a->body, ex, sizeof(ex));
		set_err(err, errlen, "%s answered %s with something that is not LAVA's JSON: \"%s\"", r->server, path, ex);
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* GET path as a JSON object: NULL with err (404 is an error too: the caller says what was missing
 * when *code is given). */
static json_object *get_object(struct lab_rest *r, const char *path, long *code, char *err, size_t errlen)
{
	struct answer a = {0};
	long c;
	json_object *o = NULL;
	if (request(r, path, NULL, &a, &c, err, errlen) == 0) {
		if (c == 404)
			set_err(err, errlen, "%s has no %s (HTTP 404)", r->server, path);
		else
			o = parse_object(r, path, &a, err, errlen);
	}
	if (code)
		*code = c;
	strbuf_free(&a.body);
	return o;
}

/* A string member, "" when it is missing or null (LAVA writes null for a job not yet on a device). */
static const char *str_of(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return "";
	return json_object_get_string(v);
}

/* The page's "results" array; NULL with err when the answer has none. */
static json_object *results_of(const struct lab_rest *r, json_object *page, const char *path, char *err,
			       size_t errlen)
{
	json_object *res;
	if (!json_object_object_get_ex(page, "results", &res) || !json_object_is_type(res, json_type_array)) {
		set_err(err, errlen, "%s answered %s without LAVA's \"results\" list", r->server, path);
		return NULL;
	}
	return res;
}

/* The ids of the tags named as a device: a device pinned by its own tag. */
static int tag_ids_named(struct lab_rest *r, json_object **tags, char *err, size_t errlen)
{
	*tags = get_object(r, "tags/?limit=1000", NULL, err, errlen);
	return *tags && results_of(r, *tags, "tags/", err, errlen) ? 0 : -1;
}

/* Whether device d carries the tag named hostname. */
static int has_own_tag(json_object *tags, json_object *dev, const char *hostname)
{
	json_object *mine, *all;
	if (!json_object_object_get_ex(dev, "tags", &mine) || !json_object_is_type(mine, json_type_array) ||
	    !json_object_object_get_ex(tags, "results", &all))
		return 0;
	for (size_t i = 0; i < json_object_array_length(mine); i++) {
		json_object *t = json_object_array_get_idx(mine, i);
		if (json_object_is_type(t, json_type_string) && strcmp(json_object_get_string(t), hostname) == 0)
			return 1; /* a tag by name */
		for (size_t j = 0; j < json_object_array_length(all); j++) {
			json_object *row = json_object_array_get_idx(all, j), *tid;
			if (json_object_object_get_ex(row, "id", &tid) && json_object_get_int64(tid) == json_object_get_int64(t) &&
			    strcmp(str_of(row, "name"), hostname) == 0)
				return 1;
		}
	}
	return 0;
}

static int by_hostname(const void *a, const void *b)
{
	return strcmp(((const struct lab_device *)a)->hostname, ((const struct lab_device *)b)->hostname);
}

int lab_rest_devices(struct lab_rest *r, const char *device_type, struct lab_device **devs, size_t *n, char *err,
		     size_t errlen)
{
	*devs = NULL;
	*n = 0;
	long code;
	char *type_path = xasprintf("devicetypes/%s/", device_type);
	json_object *type = get_object(r, type_path, &code, err, errlen), *tags = NULL, *page = NULL, *res;
	if (!type && code == 404)
		set_err(err, errlen, "%s has no device type %s (HTTP 404 for %s)", r->server, device_type, type_path);
	free(type_path);
	char *path = xasprintf("devices/?device_type=%s&limit=1000", device_type);
	int rc = -1;
	if (type && tag_ids_named(r, &tags, err, errlen) == 0 && (page = get_object(r, path, NULL, err, errlen)) &&
	    (res = results_of(r, page, "devices/", err, errlen))) {
		*devs = xcalloc(json_object_array_length(res) + 1, sizeof(**devs));
		for (size_t i = 0; i < json_object_array_length(res); i++) {
			json_object *d = json_object_array_get_idx(res, i);
			struct lab_device *o = &(*devs)[*n];
			if (strcmp(str_of(d, "health"), "Retired") == 0 || !*str_of(d, "hostname"))
				continue;
			text_copy(o->hostname, sizeof(o->hostname), str_of(d, "hostname"));
			text_copy(o->worker, sizeof(o->worker), str_of(d, "worker_host"));
			text_copy(o->health, sizeof(o->health), str_of(d, "health"));
			o->own_tag = has_own_tag(tags, d, o->hostname);
			(*n)++;
		}
		qsort(*devs, *n, sizeof(**devs), by_hostname);
		rc = 0;
	}
	free(path);
	json_object_put(type);
	json_object_put(tags);
	json_object_put(page);
	return rc;
}

int lab_rest_submit(struct lab_rest *r, const char *definition, int64_t *id, char *err, size_t errlen)
{
	json_object *body = json_object_new_object(), *ids;
	json_object_object_add(body, "definition", json_object_new_string(definition));
	struct answer a = {0};
	long code;
	int rc = request(r, "jobs/", json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN), &a, &code, err,
			 errlen);
	json_object_put(body);
	json_object *o = rc == 0 ? parse_object(r, "jobs/", &a, err, errlen) : NULL;
	rc = -1;
	if (o && code == 400) {
		set_err(err, errlen, "%s refused the job: %s", r->server, str_of(o, "message"));
	} else if (o && (!json_object_object_get_ex(o, "job_ids", &ids) || !json_object_is_type(ids, json_type_array) ||
			 json_object_array_length(ids) != 1)) {
		set_err(err, errlen, "%s answered a submission (HTTP %ld) without one job id", r->server, code);
	} else if (o) {
		json_object *v = json_object_array_get_idx(ids, 0);
		errno = 0;
		*id = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : strtoll(json_object_get_string(v),
												 NULL, 10);
		if (*id <= 0)
			set_err(err, errlen, "%s answered a submission with job id %s", r->server, json_object_get_string(v));
		else
			rc = 0;
	}
	json_object_put(o);
	strbuf_free(&a.body);
	return rc;
}

int lab_rest_job(struct lab_rest *r, int64_t id, struct lab_job_status *st, char *err, size_t errlen)
{
	char *path = xasprintf("jobs/%lld/", (long long)id);
	json_object *o = get_object(r, path, NULL, err, errlen);
	int rc = -1;
	memset(st, 0, sizeof(*st));
	if (o && (!*str_of(o, "state") || !*str_of(o, "health")))
		set_err(err, errlen, "%s answered %s without a job's state and health", r->server, path);
	else if (o) {
		text_copy(st->state, sizeof(st->state), str_of(o, "state"));
		text_copy(st->health, sizeof(st->health), str_of(o, "health"));
		text_copy(st->device, sizeof(st->device), str_of(o, "actual_device"));
		text_copy(st->failure, sizeof(st->failure), str_of(o, "failure_comment"));
		rc = 0;
	}
	json_object_put(o);
	free(path);
	return rc;
}

int lab_rest_log(struct lab_rest *r, int64_t id, const char *path, char *err, size_t errlen)
{
	char *api = xasprintf("jobs/%lld/logs/", (long long)id);
	struct answer a = {0};
	long code;
	int rc = -1;
	if (!(a.file = fopen(path, "w"))) {
		set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(api);
		return -1;
	}
	if (request(r, api, NULL, &a, &code, err, errlen) == 0) {
		if (code != 200)
			set_err(err, errlen, "%s has no log for job %lld (HTTP %ld)", r->server, (long long)id, code);
		else
			rc = 0;
	}
	if (fclose(a.file) != 0 && rc == 0) {
		set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	free(api);
	return rc;
}
