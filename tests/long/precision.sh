#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The --precision stopping rule's full simulation (4000 runs of each design; `make check` runs a
# fixed-seed twentieth of them): test_precision --full, its TAP as it is.
exec "${REAIM_BUILDDIR:-$(pwd)}/tests/unit/test_precision" --full
