/* duel-fio-import.h — fio's --output-format=json+ as a Drive Duel result
 *
 * Each fio job becomes a test record: the workload from its options, the
 * latency histograms from lat_ns.bins (fio's lat, from submission to
 * completion, is what the engine measures; fio writes these bins with
 * --lat_percentiles=1; its layout is ours, so bins map one to one), or,
 * from fio's default output without them, from clat_ns.bins, the
 * completion latency (the record's latency_kind says which), totals from the read and write sections, and the per-interval
 * series from an IOPS log written with --write_iops_log and log_avg_msec when
 * one is given (else a single row for the whole run). A job of numjobs
 * clones is one test of that many jobs, whether fio summed them
 * (group_reporting) or reported each; fio writes an IOPS log per clone, so
 * such a job is imported without one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "result/duel-result.h"

G_BEGIN_DECLS

/* @iops_log_path may be NULL. The log belongs to the first job (fio writes
 * one per job: NAME_iops.N.log), or to the job whose name it starts with. */
DuelResult *duel_fio_import_file (const char  *json_path,
                                  const char  *iops_log_path,
                                  GError     **error);
DuelResult *duel_fio_import_data (const char  *json_text,
                                  gsize        json_length,
                                  const char  *json_name,
                                  const char  *iops_log_text,
                                  const char  *iops_log_name,
                                  GError     **error);

/* Whether the file at @path looks like fio's JSON output rather than a
 * result: its first few KiB hold a "fio version" member and no result's
 * "format". A cheap look for a loader to choose by (the app's Open and
 * drop); the import itself checks the whole file. */
gboolean    duel_fio_import_is_fio_file (const char  *path);

G_END_DECLS
