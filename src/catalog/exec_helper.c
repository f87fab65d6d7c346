/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tiny program exec_test runs: it exits 0 at once, so a call measures fork+exec+wait. */
#include "config.h"

int main(void)
{
	return 0;
}
