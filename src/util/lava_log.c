/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files carried in a job log: LAVA keeps a job's console and deletes its files, so contrib/lava prints
 * the gzipped database in base64 between markers, each line prefixed, and this takes it back out of
 * whatever wraps the lines (the console as is, or LAVA's YAML log with one message a line). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/util.h"

/* The most a carried file may hold once unpacked: a results database of a long job. */
#define CARRIED_MAX (1u << 30)

static int is_b64(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
	       c == '=';
}

/* gunzip gz into a new file in dir; its path, or NULL with err. */
static char *unpack(const struct strbuf *gz, const char *dir, size_t index, char *err, size_t errlen)
{
	char *path = xasprintf("%s/carried-%zu.db", dir, index);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		set_err(err, errlen, "cannot make %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	z_stream z = {0};
	int rc = inflateInit2(&z, 16 + MAX_WBITS) == Z_OK ? Z_OK : Z_STREAM_ERROR;
	z.next_in = (unsigned char *)gz->buf;
	z.avail_in = (unsigned)gz->len;
	unsigned char out[65536];
	size_t total = 0;
	int bad = rc != Z_OK;
	while (!bad && rc != Z_STREAM_END) {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = inflate(&z, Z_NO_FLUSH);
		size_t n = sizeof(out) - z.avail_out;
		total += n;
		if ((rc != Z_OK && rc != Z_STREAM_END) || total > CARRIED_MAX || (rc == Z_OK && n == 0 && z.avail_in == 0))
			bad = 1;
		else if (n && write(fd, out, n) != (ssize_t)n)
			bad = 2;
	}
	inflateEnd(&z);
	if (close(fd) < 0)
		bad = 2;
	if (bad) {
		set_err(err, errlen, bad == 2 ? "cannot write %s" : "the database %s carries is not a whole gzip stream",
			bad == 2 ? path : "the log");
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

/* One REAIM-DB-END line: the checksum and size of what was carried must match. */
static int check_end(const char *end, const struct strbuf *gz, char *err, size_t errlen)
{
	const char *s = strstr(end, "sha256="), *b = strstr(end, "bytes=");
	char want[SHA256_HEX_LEN + 1] = "", got[SHA256_HEX_LEN + 1];
	if (!s || !b || sscanf(s, "sha256=%64[0-9a-f]", want) != 1) {
		set_err(err, errlen, "no sha256= and bytes= on the end marker");
		return -1;
	}
	struct sha256 h;
	sha256_init(&h);
	sha256_add(&h, gz->buf, gz->len);
	sha256_hex(&h, got);
	if (strtoull(b + 6, NULL, 10) != gz->len || strcmp(want, got) != 0) {
		set_err(err, errlen, "%zu bytes decoded, sha256 %.12s, where the job printed %llu bytes, sha256 %.12s: "
				     "lines were lost or changed on the way", gz->len, got, strtoull(b + 6, NULL, 10), want);
		return -1;
	}
	return 0;
}

int lava_log_extract(const char *log, const char *dir, char ***paths, size_t *n, char *err, size_t errlen)
{
	FILE *f = fopen(log, "re");
	*paths = NULL;
	*n = 0;
	if (!f) {
		set_err(err, errlen, "cannot read %s: %s", log, strerror(errno));
		return -1;
	}
	char *line = NULL, why[512];
	size_t cap = 0, lineno = 0, begun = 0;
	ssize_t len;
	struct strbuf gz = {0};
	struct base64 d = {0};
	int in = 0, rc = 0;
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		const char *p;
		if (strstr(line, LAVA_DB_BEGIN)) {
			in = 1;
			begun = lineno;
			gz.len = 0;
			memset(&d, 0, sizeof(d));
		} else if (in && (p = strstr(line, LAVA_DB_LINE))) {
			p += strlen(LAVA_DB_LINE);
			size_t k = 0;
			while (is_b64(p[k]))
				k++;
			if (base64_decode(&d, p, k, &gz) < 0) {
				set_err(err, errlen, "%s:%zu: not base64 after the padding", log, lineno);
				rc = -1;
			}
		} else if (in && strstr(line, LAVA_DB_END)) {
			in = 0;
			char *path = NULL;
			if (base64_finish(&d) < 0 || check_end(strstr(line, LAVA_DB_END), &gz, why, sizeof(why)) < 0 ||
			    !(path = unpack(&gz, dir, *n, why, sizeof(why)))) {
				set_err(err, errlen, "%s:%zu: the database begun at line %zu: %s", log, lineno, begun,
					base64_finish(&d) < 0 ? "the base64 text ends mid-byte" : why);
				rc = -1;
			} else {
				*paths = xrealloc(*paths, (*n + 1) * sizeof(**paths));
				(*paths)[(*n)++] = path;
			}
		}
	}
	if (rc == 0 && ferror(f)) {
		set_err(err, errlen, "cannot read %s: %s", log, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && in) {
		set_err(err, errlen, "%s:%zu: the database begun there has no end marker (the job was cut short)", log,
			begun);
		rc = -1;
	}
	fclose(f);
	free(line);
	strbuf_free(&gz);
	return rc;
}
