#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/functional/lab_install.sh with mmtests' reaim shellpack on its own workfile, page_test
# (classic's single-user run of `10 page_test`, as mmtests runs it); `make check` runs the
# shellpack on a one-test workfile instead.
LAB_FULL=1 exec sh "$(dirname "$0")/../functional/lab_install.sh"
