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

/* What the scan holds between lines: the database being decoded and where it began. */
struct scan {
	struct strbuf gz;
	struct base64 d;
	size_t begun; /* its REAIM-DB-BEGIN line, 0 when none is open */
};

/* The end marker of the open database: checked and unpacked into x's list; 0, or -1 with err. */
static int scan_end(struct lava_extract *x, struct scan *sc, const char *line, size_t lineno, char *err, size_t errlen)
{
	char why[512], *path = NULL;
	int cut = base64_finish(&sc->d) < 0;
	if (cut || check_end(strstr(line, LAVA_DB_END), &sc->gz, why, sizeof(why)) < 0 ||
	    !(path = unpack(&sc->gz, x->dir, x->n, why, sizeof(why)))) {
		set_err(err, errlen, "%s:%zu: the database begun at line %zu: %s", x->log, lineno, sc->begun,
			cut ? "the base64 text ends mid-byte" : why);
		return -1;
	}
	x->paths = xrealloc(x->paths, (x->n + 1) * sizeof(*x->paths));
	x->paths[x->n++] = path;
	sc->begun = 0;
	return 0;
}

/* One line of the log; 0, or -1 with err. */
static int scan_line(struct lava_extract *x, struct scan *sc, const char *line, size_t lineno, char *err,
		     size_t errlen)
{
	const char *p;
	if (strstr(line, LAVA_DB_BEGIN)) {
		if (sc->begun) { /* the job printed another before this one ended: this one was cut */
			set_err(err, errlen, "%s:%zu: the database begun there has no end marker before the next "
					     "begins at line %zu (it was cut short)", x->log, sc->begun, lineno);
			return -1;
		}
		sc->begun = lineno;
		sc->gz.len = 0;
		memset(&sc->d, 0, sizeof(sc->d));
	} else if (sc->begun && (p = strstr(line, LAVA_DB_LINE))) {
		p += strlen(LAVA_DB_LINE);
		size_t k = 0;
		while (is_b64(p[k]))
			k++;
		if (base64_decode(&sc->d, p, k, &sc->gz) < 0) {
			set_err(err, errlen, "%s:%zu: not base64 after the padding", x->log, lineno);
			return -1;
		}
	} else if (sc->begun && strstr(line, LAVA_DB_END)) {
		return scan_end(x, sc, line, lineno, err, errlen);
	}
	return 0;
}

/* Lines between two looks at whether the scan was cancelled: a 150 MB log is ended within a second. */
#define LINES_PER_CANCEL_CHECK 4096

int lava_log_extract(struct lava_extract *x, char *err, size_t errlen)
{
	x->paths = NULL;
	x->n = 0;
	FILE *f = fdopen(x->fd, "r");
	if (!f) {
		set_err(err, errlen, "cannot read %s: %s", x->log, strerror(errno));
		close(x->fd);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	struct scan sc = {0};
	int rc = 0;
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		if (++lineno % LINES_PER_CANCEL_CHECK == 0 && x->cancelled && x->cancelled(x->arg)) {
			set_err(err, errlen, "%s: stopped at line %zu", x->log, lineno);
			errno = EINTR;
			rc = -1;
		} else {
			rc = scan_line(x, &sc, line, lineno, err, errlen);
		}
	}
	if (rc == 0 && ferror(f)) {
		set_err(err, errlen, "cannot read %s: %s", x->log, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && sc.begun) {
		set_err(err, errlen, "%s:%zu: the database begun there has no end marker (the job was cut short)",
			x->log, sc.begun);
		rc = -1;
	}
	int saved = errno;
	fclose(f);
	free(line);
	strbuf_free(&sc.gz);
	errno = saved;
	return rc;
}
