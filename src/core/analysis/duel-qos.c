/* duel-qos.c — quality of service: latency percentiles 99 to 99.999 % per direction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"


static const double qos_percentiles[DUEL_QOS_N_PERCENTILES] = { 99, 99.9, 99.99, 99.999 };

const double *
duel_analysis_qos_percentiles (void)
{
  return qos_percentiles;
}

void
duel_analysis_qos (const DuelHistogram *histogram,
                   DuelQos             *out)
{
  g_return_if_fail (histogram != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->samples = histogram->count;
  out->mean_ns = histogram->count > 0 ? duel_histogram_mean_ns (histogram) : NAN;
  out->max_ns = histogram->max_ns;
  for (guint i = 0; i < DUEL_QOS_N_PERCENTILES; i++)
    {
      DuelQosPoint *point = &out->points[i];

      point->percentile = qos_percentiles[i];
      point->min_samples = duel_histogram_min_samples_for (point->percentile);
      point->enough = histogram->count >= point->min_samples;
      point->value_ns = duel_histogram_percentile_ns (histogram, point->percentile);
    }
}

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  JsonObject *details = json_object_new ();
  gboolean mixed = duel_workload_is_mixed (&record->workload);

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_autofree char *prefix = NULL;
      g_autofree char *samples_key = NULL;
      JsonObject *dir = json_object_new ();
      JsonArray *points = json_array_new ();
      DuelQos qos;

      if ((d == DUEL_DIRECTION_READ && !duel_workload_reads (&record->workload)) ||
          (d == DUEL_DIRECTION_WRITE && !duel_workload_writes (&record->workload)) ||
          record->latency[d] == NULL)
        {
          json_object_unref (dir);
          json_array_unref (points);
          continue;
        }

      /* The details' member for this direction: the keys without their ending. */
      prefix = g_strdup_printf ("qos_%s%s_qd%u", mixed ? "mix_" : "",
                                _duel_analysis_direction_name (d), record->workload.queue_depth);
      duel_analysis_qos (record->latency[d], &qos);

      for (guint i = 0; i < DUEL_QOS_N_PERCENTILES; i++)
        {
          const DuelQosPoint *p = &qos.points[i];
          g_autofree char *key = duel_analysis_qos_key (d, record->workload.queue_depth, mixed, i);
          JsonObject *point = json_object_new ();

          /* Too few samples: the "percentile" would only be the slowest I/O. */
          duel_summary_add (summary, key, p->enough ? p->value_ns / 1e3 : NAN);

          json_object_set_double_member (point, "percentile", p->percentile);
          if (qos.samples > 0)
            json_object_set_double_member (point, "value_us", p->value_ns / 1e3);
          else
            json_object_set_null_member (point, "value_us");
          json_object_set_int_member (point, "min_samples", (gint64) p->min_samples);
          json_object_set_boolean_member (point, "enough_samples", p->enough);
          json_array_add_object_element (points, point);
        }
      samples_key = duel_analysis_qos_key (d, record->workload.queue_depth, mixed, DUEL_QOS_N_PERCENTILES);
      duel_summary_add (summary, samples_key, (double) qos.samples);

      json_object_set_int_member (dir, "samples", (gint64) qos.samples);
      duel_json_set_double_or_null (dir, "mean_us", qos.mean_ns / 1e3);
      json_object_set_double_member (dir, "max_us", qos.max_ns / 1e3);
      json_object_set_array_member (dir, "percentiles", points);
      json_object_set_object_member (details, prefix, dir);
    }

  json_object_set_object_member (duel_summary_get_details (summary), "qos", details);
}

static const DuelFigureInfo figures[] = {
  /* xgettext:no-c-format */
  { "qos_read_qd1_p99_us",         "us",   DUEL_BETTER_LOWER, N_("4K random read QD1, 99 % latency") },
  /* xgettext:no-c-format */
  { "qos_read_qd1_p99_9_us",       "us",   DUEL_BETTER_LOWER, N_("4K random read QD1, 99.9 % latency") },
  /* xgettext:no-c-format */
  { "qos_read_qd1_p99_99_us",      "us",   DUEL_BETTER_LOWER, N_("4K random read QD1, 99.99 % latency") },
  /* xgettext:no-c-format */
  { "qos_read_qd1_p99_999_us",     "us",   DUEL_BETTER_LOWER, N_("4K random read QD1, 99.999 % latency") },
  { "qos_read_qd1_samples",        "I/Os", DUEL_BETTER_NONE,  N_("4K random read QD1, latency samples") },
  /* xgettext:no-c-format */
  { "qos_write_qd1_p99_us",        "us",   DUEL_BETTER_LOWER, N_("4K random write QD1, 99 % latency") },
  /* xgettext:no-c-format */
  { "qos_write_qd1_p99_9_us",      "us",   DUEL_BETTER_LOWER, N_("4K random write QD1, 99.9 % latency") },
  /* xgettext:no-c-format */
  { "qos_write_qd1_p99_99_us",     "us",   DUEL_BETTER_LOWER, N_("4K random write QD1, 99.99 % latency") },
  /* xgettext:no-c-format */
  { "qos_write_qd1_p99_999_us",    "us",   DUEL_BETTER_LOWER, N_("4K random write QD1, 99.999 % latency") },
  { "qos_write_qd1_samples",       "I/Os", DUEL_BETTER_NONE,  N_("4K random write QD1, latency samples") },
  /* xgettext:no-c-format */
  { "qos_read_qd32_p99_us",        "us",   DUEL_BETTER_LOWER, N_("4K random read QD32, 99 % latency") },
  /* xgettext:no-c-format */
  { "qos_read_qd32_p99_9_us",      "us",   DUEL_BETTER_LOWER, N_("4K random read QD32, 99.9 % latency") },
  /* xgettext:no-c-format */
  { "qos_read_qd32_p99_99_us",     "us",   DUEL_BETTER_LOWER, N_("4K random read QD32, 99.99 % latency") },
  /* xgettext:no-c-format */
  { "qos_read_qd32_p99_999_us",    "us",   DUEL_BETTER_LOWER, N_("4K random read QD32, 99.999 % latency") },
  { "qos_read_qd32_samples",       "I/Os", DUEL_BETTER_NONE,  N_("4K random read QD32, latency samples") },
  /* xgettext:no-c-format */
  { "qos_write_qd32_p99_us",       "us",   DUEL_BETTER_LOWER, N_("4K random write QD32, 99 % latency") },
  /* xgettext:no-c-format */
  { "qos_write_qd32_p99_9_us",     "us",   DUEL_BETTER_LOWER, N_("4K random write QD32, 99.9 % latency") },
  /* xgettext:no-c-format */
  { "qos_write_qd32_p99_99_us",    "us",   DUEL_BETTER_LOWER, N_("4K random write QD32, 99.99 % latency") },
  /* xgettext:no-c-format */
  { "qos_write_qd32_p99_999_us",   "us",   DUEL_BETTER_LOWER, N_("4K random write QD32, 99.999 % latency") },
  { "qos_write_qd32_samples",      "I/Os", DUEL_BETTER_NONE,  N_("4K random write QD32, latency samples") },
  /* xgettext:no-c-format */
  { "qos_mix_read_qd32_p99_us",    "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, reads, 99 % latency") },
  /* xgettext:no-c-format */
  { "qos_mix_read_qd32_p99_9_us",  "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, reads, 99.9 % latency") },
  /* xgettext:no-c-format */
  { "qos_mix_read_qd32_p99_99_us", "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, reads, 99.99 % latency") },
  /* xgettext:no-c-format */
  { "qos_mix_read_qd32_p99_999_us", "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, reads, 99.999 % latency") },
  { "qos_mix_read_qd32_samples",   "I/Os", DUEL_BETTER_NONE,  N_("Mixed 50/50 QD32, reads, latency samples") },
  /* xgettext:no-c-format */
  { "qos_mix_write_qd32_p99_us",   "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, writes, 99 % latency") },
  /* xgettext:no-c-format */
  { "qos_mix_write_qd32_p99_9_us", "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, writes, 99.9 % latency") },
  /* xgettext:no-c-format */
  { "qos_mix_write_qd32_p99_99_us", "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, writes, 99.99 % latency") },
  /* xgettext:no-c-format */
  { "qos_mix_write_qd32_p99_999_us", "us",   DUEL_BETTER_LOWER, N_("Mixed 50/50 QD32, writes, 99.999 % latency") },
  { "qos_mix_write_qd32_samples",  "I/Os", DUEL_BETTER_NONE,  N_("Mixed 50/50 QD32, writes, latency samples") },
};

/* Latencies were measured. */
static gboolean
fits (const DuelTestRecord *record)
{
  return record->latency[DUEL_DIRECTION_READ]->count > 0 || record->latency[DUEL_DIRECTION_WRITE]->count > 0;
}

const DuelAnalysisOps _duel_analysis_qos_ops = {
  .kind = DUEL_ANALYSIS_QOS,
  .name = "qos",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
