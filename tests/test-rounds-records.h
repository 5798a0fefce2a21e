/* test-rounds-records.h — records of a test in rounds with figures set by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/duel-analysis.h"
#include "duel-json.h"
#include "result/duel-result.h"

/* Adds to @result the record of cell @name (@block_size, @read_percent) of
 * SNIA's IOPS test in round @round, with the figure "iops" @iops and
 * "latency_max_us" @max_us (NAN: none), under SNIA's rules (25 rounds at
 * most, a window of 5, limits 0.2 and 0.1, 4 KiB writes tracked). */
static inline void
test_add_round_cell (DuelResult *result,
                     const char *name,
                     guint32     block_size,
                     guint       read_percent,
                     guint       round,
                     double      iops,
                     double      max_us)
{
  g_autoptr(DuelSummary) summary = duel_summary_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  JsonObject *details, *rules;
  DuelWorkload workload;

  duel_workload_init (&workload);
  workload.block_size = block_size;
  workload.read_percent = read_percent;
  record = duel_test_record_new (name, &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  duel_summary_add (summary, "iops", iops);
  if (!isnan (max_us))
    duel_summary_add (summary, "latency_max_us", max_us);
  duel_analysis_apply (record, DUEL_ANALYSIS_MATRIX_CELL, NULL, summary);
  details = duel_test_record_get_details (record);
  json_object_set_string_member (details, "section", "pts-iops");
  json_object_set_int_member (details, "round", round);
  rules = json_object_new ();
  json_object_set_int_member (rules, "max_rounds", 25);
  json_object_set_int_member (rules, "window", 5);
  json_object_set_double_member (rules, "data_limit", 0.2);
  json_object_set_double_member (rules, "slope_limit", 0.1);
  json_object_set_string_member (rules, "tracked_step", "pts-iops-4k-r0");
  json_object_set_string_member (rules, "tracked_key", "iops");
  json_object_set_object_member (details, "rounds", rules);
  duel_result_add_test (result, record);
}
