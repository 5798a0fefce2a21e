/* duel-review-test-private.h — how a file in this folder gives its descriptors
 *
 * A new review test: a file here, review/duel-test-KIND.c, with its
 * DuelReviewTest and DUEL_REVIEW_TEST_FILE (kind, ...) at its end; its line
 * in review_test_kinds (src/core/meson.build) and in po/POTFILES.in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-review-test.h"

G_BEGIN_DECLS

/* The descriptors a file review/duel-test-KIND.c gives, in the review's
 * order: DUEL_REVIEW_TEST_FILE (kind, &test, ...) at its end. */
#define DUEL_REVIEW_TEST_FILE(kind, ...) \
  extern const DuelReviewTest * const _duel_review_tests_##kind[]; \
  const DuelReviewTest * const _duel_review_tests_##kind[] = { __VA_ARGS__, NULL }

G_END_DECLS
