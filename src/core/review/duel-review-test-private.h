/* duel-review-test-private.h — the descriptors, one per file in this folder
 *
 * A new review test: a file here with its DuelReviewTest, its line in
 * duel-review-tests.c's list, in meson.build and in po/POTFILES.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-review-test.h"

G_BEGIN_DECLS

extern const DuelReviewTest _duel_review_test_write_saturation;
extern const DuelReviewTest _duel_review_test_consistency;
extern const DuelReviewTest _duel_review_test_qos;
extern const DuelReviewTest _duel_review_test_standard;
extern const DuelReviewTest _duel_review_test_custom;
extern const DuelReviewTest _duel_review_test_crystaldiskmark;
extern const DuelReviewTest _duel_review_test_crystaldiskmark_nvme;
extern const DuelReviewTest _duel_review_test_pts_iops;
extern const DuelReviewTest _duel_review_test_pts_throughput_1m, _duel_review_test_pts_throughput_128k;
extern const DuelReviewTest _duel_review_test_pts_latency;
extern const DuelReviewTest _duel_review_test_sequential_write;

G_END_DECLS
