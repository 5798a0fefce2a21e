/* duel-fio-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "duel-error.h"
#include "duel-made-files.h"
#include "duel-fio-export.h"
#include "review/duel-review-test.h"
#include "engine/duel-workload-option.h"

/* Job names become section names and log file names: keep them plain. */
static char *
job_name (const char *name)
{
  char *copy = g_strdup (name && *name ? name : "job");

  for (char *p = copy; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      *p = '_';
  return copy;
}

/* How long Drive Duel's review runs the test @record is a step of (its
 * descriptor's length), for a record whose source states none: 0 for a
 * fill, which is bounded by bytes, for the person's own workload, and for
 * a record of no preset or of a test no descriptor gives. */
static guint64
review_runtime_ms (const DuelTestRecord *record)
{
  const DuelReviewTest *test;
  const DuelReviewStep *step;

  if (record->preset == NULL || !duel_review_test_find_step (record->name, &test, &step) ||
      step->fill || step->chosen)
    return 0;
  return test->runtime_ms;
}

/* One line of the job: the option's fio name and value, from the table. */
static void
append_option (GString             *job,
               DuelWorkloadOptionId id,
               const DuelWorkload  *workload)
{
  const DuelWorkloadOption *option = duel_workload_option_get (id);
  g_autofree char *line = duel_workload_option_to_fio (option, duel_workload_option_read (option, workload));

  g_string_append_printf (job, "%s\n", line);
}

char *
duel_fio_export_job (const DuelTestRecord *record,
                     const char           *filename)
{
  const DuelWorkload *w;
  g_autofree char *name = NULL;
  GString *job;
  guint64 span_offset, span_length, io_size = 0;

  g_return_val_if_fail (record != NULL, NULL);

  w = &record->workload;
  name = job_name (record->name);
  span_offset = record->span_length > 0 ? record->span_offset : w->span_offset;
  span_length = record->span_length > 0 ? record->span_length : w->span_length;

  job = g_string_new (NULL);
  g_string_append_printf (job, "[%s]\n", name);
  if (filename != NULL && *filename != '\0')
    g_string_append_printf (job, "filename=%s\n", filename);
  /* One test after the other, as the preset ran them. */
  g_string_append (job, "stonewall\n");
  g_string_append_printf (job, "rw=%s\n", duel_workload_get_rw_name (w));
  if (duel_workload_is_mixed (w))
    append_option (job, DUEL_WORKLOAD_OPTION_READ_PERCENT, w);
  append_option (job, DUEL_WORKLOAD_OPTION_BLOCK_SIZE, w);
  append_option (job, DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, w);
  if (w->numjobs > 1)
    {
      /* The jobs as one: one report, the sum, as the engine's record is. */
      append_option (job, DUEL_WORKLOAD_OPTION_NUMJOBS, w);
      g_string_append (job, "group_reporting\n");
    }
  if (span_offset > 0)
    g_string_append_printf (job, "offset=%" G_GUINT64_FORMAT "\n", span_offset);
  if (span_length > 0)
    g_string_append_printf (job, "size=%" G_GUINT64_FORMAT "\n", span_length);

  /* The stop rule: bytes (io_size), time, or whichever comes first. */
  if (record->byte_limit > 0)
    io_size = record->byte_limit;
  else if (w->size_bytes > 0)
    io_size = w->size_bytes;
  else if (w->size_multiple > 0 && span_length > 0)
    io_size = (guint64) (w->size_multiple * (double) span_length);
  if (io_size > 0 && w->numjobs > 1)
    {
      guint64 share = io_size / w->numjobs;

      /* fio counts io_size per job, the engine all jobs together. */
      share = MAX (share - share % w->block_size, w->block_size);
      g_string_append_printf (job, "; io_size is each job's: %u × %" G_GUINT64_FORMAT " bytes of the %"
                              G_GUINT64_FORMAT " Drive Duel moved in all\n",
                              w->numjobs, share, io_size);
      io_size = share;
    }
  if (io_size > 0)
    g_string_append_printf (job, "io_size=%" G_GUINT64_FORMAT "\n", io_size);
  if (w->runtime_ms > 0)
    {
      append_option (job, DUEL_WORKLOAD_OPTION_RUNTIME, w);
      if (record->byte_limit == 0 && w->size_bytes == 0 && w->size_multiple == 0)
        g_string_append (job, "time_based=1\n");
    }
  else if (io_size == 0)
    {
      /* A published test whose source gives no duration: fio would go
       * through the whole span (hundreds of GB), so the review's. */
      guint64 runtime_ms = review_runtime_ms (record);

      if (runtime_ms > 0)
        {
          g_string_append_printf (job, "; the source states no duration: Drive Duel's %s preset runs this test for %"
                                  G_GUINT64_FORMAT " s\n", record->preset, runtime_ms / 1000);
          g_autofree char *line = duel_workload_option_to_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_RUNTIME),
                                                               runtime_ms);

          g_string_append_printf (job, "%s\ntime_based=1\n", line);
        }
      else
        g_string_append (job, "; no duration or size is known for this test: fio goes through size once\n");
    }

  /* Per-interval IOPS like our series. */
  g_string_append_printf (job, "write_iops_log=%s\n", name);
  append_option (job, DUEL_WORKLOAD_OPTION_INTERVAL, w);
  append_option (job, DUEL_WORKLOAD_OPTION_SEED, w);
  return g_string_free (job, FALSE);
}

char *
duel_fio_export_result (DuelResult *result)
{
  const DuelTargetInfo *target;
  GPtrArray *tests;
  GString *text;

  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  target = duel_result_get_target (result);
  tests = duel_result_get_tests (result);
  text = g_string_new (NULL);

  g_string_append_printf (text, "; fio jobs equivalent to the Drive Duel result “%s”.\n",
                          duel_result_get_name (result));
  g_string_append (text, "; Run: fio --output-format=json+ --output=result.json THIS_FILE\n");
  g_string_append (text, "; then: driveduel-cli import result.json --iops-log JOB_iops.1.log --output RESULT.json\n");
  g_string_append (text, "; Offsets are uniformly random as in Drive Duel (norandommap), not the same sequence.\n");
  if (duel_result_is_published (result))
    g_string_append (text, "; These are published figures. Parameters their source does not state are Drive Duel's\n"
                           "; preset's (the result's source.notes say which).\n");

  g_string_append (text, "\n[global]\n");
  g_string_append (text, "ioengine=io_uring\n");
  g_string_append (text, "fixedbufs=1\n");
  g_string_append (text, "registerfiles=1\n");
  g_string_append (text, "direct=1\n");
  g_string_append (text, "norandommap=1\n");
  g_string_append (text, "randrepeat=0\n");
  g_string_append (text, "; Latency as Drive Duel measures it: fio's lat, from submission to completion.\n");
  g_string_append (text, "lat_percentiles=1\n");
  g_string_append (text, "percentile_list=50:90:99:99.9:99.99:99.999\n");
  if (target != NULL && target->path != NULL && target->path[0] != '\0')
    g_string_append_printf (text, "filename=%s\n", target->path);
  else
    g_string_append (text, "; filename=/dev/YOUR_DEVICE\n");

  for (guint i = 0; i < tests->len; i++)
    {
      const DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autofree char *job = duel_fio_export_job (record, NULL);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, "; %s\n", record->name);
      if (record->trimmed)
        {
          guint64 offset = record->span_offset;
          guint64 length = record->span_length;

          /* fio cannot discard through io_uring here: leave it to blkdiscard. */
          if (length > 0)
            g_string_append_printf (text, "; trimmed first: blkdiscard --offset %" G_GUINT64_FORMAT
                                    " --length %" G_GUINT64_FORMAT " DEVICE\n", offset, length);
          else
            g_string_append (text, "; trimmed first: blkdiscard DEVICE\n");
        }
      g_string_append (text, job);
    }

  return g_string_free (text, FALSE);
}

gboolean
duel_fio_export_save (DuelResult  *result,
                      const char  *path,
                      GError     **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (result), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  text = duel_fio_export_result (result);
  return duel_made_files_write_contents (path, text, strlen (text),
                                        DUEL_WRITE_REPLACE_MADE | DUEL_WRITE_REPLACE_EMPTY | DUEL_WRITE_RECORD_MADE, error);
}
