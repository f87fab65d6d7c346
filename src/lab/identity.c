/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A lab's address and token from lavacli's identity file (libyaml), so a token never goes on a
 * command line. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "lab/lab.h"
#include "util/util.h"

/* An identity file is small; a larger one is not lavacli's. */
#define IDENTITY_MAX (1 << 20)

char *lab_identity_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		return xasprintf("%s/lavacli.yaml", xdg);
	return xasprintf("%s/.config/lavacli.yaml", home && *home ? home : ".");
}

/* The scalar value of key in a mapping node, or NULL. */
static const char *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key, yaml_node_t **node)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key), *v = yaml_document_get_node(doc, p->value);
		if (!k || k->type != YAML_SCALAR_NODE || strcmp((const char *)k->data.scalar.value, key) != 0)
			continue;
		if (node)
			*node = v;
		return v && v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
	}
	return NULL;
}

/* The identities a file has, for the message when the one asked for is not there. */
static void identity_names(yaml_document_t *doc, yaml_node_t *root, char *out, size_t len)
{
	struct strbuf sb = {0};
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", (const char *)k->data.scalar.value);
	}
	snprintf(out, len, "%s", sb.len ? sb.buf : "none");
	strbuf_free(&sb);
}

/* The identity's fields from a parsed document; 0 or -1 with err. */
static int identity_from(yaml_document_t *doc, const char *path, const char *name, struct lab_identity *id, char *err,
			 size_t errlen)
{
	yaml_node_t *root = yaml_document_get_root_node(doc), *entry = NULL;
	if (!root || root->type != YAML_MAPPING_NODE) {
		set_err(err, errlen, "%s: not a lavacli identity file (no mapping of identities)", path);
		return -1;
	}
	if (!map_get(doc, root, name, &entry)) {
		char names[512];
		identity_names(doc, root, names, sizeof(names));
		set_err(err, errlen, "%s: no identity %s (it has: %s); contrib/lava/lab-setup.sh writes reaim-lab, "
			"`lavacli identities add` others", path, name, names);
		return -1;
	}
	const char *uri = map_get(doc, entry, "uri", NULL), *token = map_get(doc, entry, "token", NULL);
	const char *user = map_get(doc, entry, "username", NULL);
	if (!uri || !*uri || !token || !*token) {
		set_err(err, errlen, "%s:%zu: identity %s has no %s", path, entry ? entry->start_mark.line + 1 : 0, name,
			!uri || !*uri ? "uri" : "token");
		return -1;
	}
	id->name = xstrdup(name);
	id->uri = xstrdup(uri);
	id->token = xstrdup(token);
	id->username = user && *user ? xstrdup(user) : NULL;
	id->file = xstrdup(path);
	return 0;
}

int lab_identity_read(const char *path, const char *name, struct lab_identity *id, char *err, size_t errlen)
{
	int line = 0;
	memset(id, 0, sizeof(*id));
	char *text = read_input_file(path, IDENTITY_MAX, err, errlen, &line);
	if (!text) {
		char why[256];
		snprintf(why, sizeof(why), "%s", err);
		if (access(path, F_OK) != 0 && errno == ENOENT)
			set_err(err, errlen, "%s: no such file: lavacli's identities are kept there (contrib/lava/"
				"lab-setup.sh writes one, `lavacli identities add` another)", path);
		else
			set_err(err, errlen, "%s: %s", path, why);
		return -1;
	}
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc = -1;
	if (!yaml_parser_initialize(&parser)) {
		set_err(err, errlen, "%s: cannot start the YAML parser", path);
		free(text);
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		set_err(err, errlen, "%s:%zu: %s", path, parser.problem_mark.line + 1,
			parser.problem ? parser.problem : "not YAML");
	} else {
		rc = identity_from(&doc, path, name, id, err, errlen);
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	free(text);
	return rc;
}

void lab_identity_free(struct lab_identity *id)
{
	free(id->name);
	free(id->uri);
	free(id->username);
	if (id->token)
		memset(id->token, 0, strlen(id->token));
	free(id->token);
	free(id->file);
	memset(id, 0, sizeof(*id));
}
