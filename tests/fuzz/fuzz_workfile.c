/* libFuzzer harness for the workfile parser. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct workfile wf;
	struct errlist errs = {0};
	workfile_parse("fuzz", text, &wf, &errs);
	workfile_free(&wf);
	errlist_free(&errs);
	free(text);
	return 0;
}
