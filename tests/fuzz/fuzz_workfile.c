/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the workfile parser. */
#include "config.h"

#include "config/cfg.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct workfile wf;
	struct errlist errs = {0};
	workfile_parse("fuzz", text, &wf, &errs);
	workfile_free(&wf);
	errlist_free(&errs);
	free(text);
	return 0;
}
