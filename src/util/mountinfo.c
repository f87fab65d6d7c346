/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one reader of /proc/self/mountinfo lines: fields decoded onto the heap (paths can be as long
 * as the kernel allows), so no caller needs a PATH_MAX buffer on its stack. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The field at *pp (blank-separated, within the line), decoded from mountinfo's octal escapes
 * (\040 a blank, \011 a tab, \012 a newline, \134 a backslash); NULL at the end of the line. */
static char *field(const char **pp)
{
	const char *p = *pp;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *start = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	if (p == start)
		return NULL;
	char *out = xmalloc((size_t)(p - start) + 1), *o = out;
	for (const char *q = start; q < p;) {
		if (q[0] == '\\' && p - q >= 4 && q[1] >= '0' && q[1] <= '3' && q[2] >= '0' && q[2] <= '7' &&
		    q[3] >= '0' && q[3] <= '7') {
			*o++ = (char)((q[1] - '0') * 64 + (q[2] - '0') * 8 + (q[3] - '0'));
			q += 4;
		} else {
			*o++ = *q++;
		}
	}
	*o = '\0';
	*pp = p;
	return out;
}

void mountinfo_entry_free(struct mountinfo_entry *e)
{
	free(e->root);
	free(e->point);
	free(e->fstype);
	free(e->source);
	free(e->options);
	*e = (struct mountinfo_entry){0};
}

int mountinfo_next(const char **pp, struct mountinfo_entry *e)
{
	*e = (struct mountinfo_entry){0};
	const char *line = *pp;
	if (!line || !*line)
		return -1;
	const char *eol = strchr(line, '\n');
	*pp = eol ? eol + 1 : line + strlen(line);
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS */
	const char *p = line;
	unsigned long long id, parent, major_no, minor_no;
	if (next_u64(&p, &id) < 0 || next_u64(&p, &parent) < 0 || next_u64(&p, &major_no) < 0 || *p++ != ':' ||
	    next_u64(&p, &minor_no) < 0 || major_no > UINT_MAX || minor_no > UINT_MAX)
		return 0;
	e->major = (unsigned)major_no;
	e->minor = (unsigned)minor_no;
	e->root = field(&p);
	e->point = e->root ? field(&p) : NULL;
	const char *sep = e->point ? strstr(p, " - ") : NULL; /* after the optional fields */
	if (!sep || (eol && sep > eol)) {
		mountinfo_entry_free(e);
		return 0;
	}
	p = sep + 3;
	e->fstype = field(&p);
	e->source = e->fstype ? field(&p) : NULL;
	e->options = e->source ? field(&p) : NULL;
	if (!e->point || !e->options) {
		mountinfo_entry_free(e);
		return 0;
	}
	return 1;
}
