/* duel-test-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-json.h"
#include "duel-number.h"
#include "duel-test-record.h"

G_DEFINE_BOXED_TYPE (DuelTestRecord, duel_test_record,
                     duel_test_record_ref, duel_test_record_unref)

static const char * const status_names[] = {
  [DUEL_TEST_STATUS_PENDING]   = "pending",
  [DUEL_TEST_STATUS_RUNNING]   = "running",
  [DUEL_TEST_STATUS_COMPLETE]  = "complete",
  [DUEL_TEST_STATUS_CANCELLED] = "cancelled",
  [DUEL_TEST_STATUS_FAILED]    = "failed",
};

DuelTestRecord *
duel_test_record_new (const char         *name,
                      const DuelWorkload *workload)
{
  DuelTestRecord *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (workload != NULL, NULL);

  self = g_new0 (DuelTestRecord, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->name = g_strdup (name);
  self->workload = *workload;
  self->status = DUEL_TEST_STATUS_PENDING;
  self->series = duel_series_new ();
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      /* ~20 KiB each: on the heap, never on a worker's stack. */
      self->latency[d] = g_new0 (DuelHistogram, 1);
      duel_histogram_init (self->latency[d]);
    }

  return self;
}

DuelTestRecord *
duel_test_record_ref (DuelTestRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);

  g_atomic_ref_count_inc (&record->ref_count);
  return record;
}

void
duel_test_record_unref (DuelTestRecord *record)
{
  g_return_if_fail (record != NULL);

  if (!g_atomic_ref_count_dec (&record->ref_count))
    return;

  g_free (record->name);
  g_free (record->preset);
  g_clear_pointer (&record->started, g_date_time_unref);
  g_free (record->error_message);
  g_clear_pointer (&record->series, duel_series_free);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    g_clear_pointer (&record->latency[d], g_free);
  g_clear_pointer (&record->summary, json_object_unref);
  g_clear_pointer (&record->typed_summary, g_bytes_unref);
  g_clear_pointer (&record->pauses, g_array_unref);
  g_free (record);
}

void
duel_test_record_add_pause (DuelTestRecord  *record,
                            const DuelPause *pause)
{
  DuelPause *last;
  guint end;

  g_return_if_fail (record != NULL);
  g_return_if_fail (pause != NULL);

  if (record->pauses == NULL)
    record->pauses = g_array_new (FALSE, FALSE, sizeof (DuelPause));
  if (record->pauses->len < DUEL_TEST_RECORD_MAX_PAUSES)
    {
      g_array_append_val (record->pauses, *pause);
      return;
    }
  /* Memory stays bounded however often a run is paused. */
  last = &g_array_index (record->pauses, DuelPause, record->pauses->len - 1);
  end = MAX (last->row + last->rows, pause->row + MAX (pause->rows, 1));
  last->rows = end - last->row;
  last->length_ns += pause->length_ns;
  last->latencies_left_out += pause->latencies_left_out;
}

guint
duel_test_record_get_n_pauses (const DuelTestRecord *record)
{
  g_return_val_if_fail (record != NULL, 0);

  return record->pauses != NULL ? record->pauses->len : 0;
}

const DuelPause *
duel_test_record_get_pause (const DuelTestRecord *record,
                            guint                 index)
{
  g_return_val_if_fail (index < duel_test_record_get_n_pauses (record), NULL);

  return &g_array_index (record->pauses, DuelPause, index);
}

gboolean
duel_test_record_row_paused (const DuelTestRecord *record,
                             guint                 index)
{
  g_return_val_if_fail (record != NULL, FALSE);

  for (guint i = 0; record->pauses != NULL && i < record->pauses->len; i++)
    {
      const DuelPause *pause = &g_array_index (record->pauses, DuelPause, i);

      if (index >= pause->row && index - pause->row < MAX (pause->rows, 1))
        return TRUE;
    }
  return FALSE;
}

const DuelSeries *
duel_test_record_get_figure_series (const DuelTestRecord *record,
                                    DuelSeries          **out_owned)
{
  DuelSeries *kept;

  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (out_owned != NULL && *out_owned == NULL, NULL);

  if (duel_test_record_get_n_pauses (record) == 0 || duel_series_get_length (record->series) == 0)
    return record->series;

  /* A view, not a copy: a paused day-long fill's rows are most of the
   * memory its analysis may take (docs/result-format.md#memory). The
   * pauses are in row order. */
  kept = duel_series_new_view (record->series);
  for (guint p = 0; p < record->pauses->len; p++)
    {
      const DuelPause *pause = &g_array_index (record->pauses, DuelPause, p);

      duel_series_leave_out (kept, pause->row, MAX (pause->rows, 1));
    }
  *out_owned = kept;
  return kept;
}

/* Seconds as people read a pause's length: "3.2", "60". */
static char *
format_pause_seconds (guint64 ns)
{
  double seconds = ns / 1e9;

  return duel_number_format (seconds, seconds < 10 ? 1 : 0);
}

char *
duel_test_record_dup_pause_note (const DuelTestRecord *record)
{
  const DuelPause *first;
  g_autofree char *length = NULL;
  g_autofree char *at = NULL;
  guint64 total_ns = 0;
  guint n;

  g_return_val_if_fail (record != NULL, NULL);

  n = duel_test_record_get_n_pauses (record);
  if (n == 0)
    return NULL;
  first = duel_test_record_get_pause (record, 0);
  for (guint i = 0; i < n; i++)
    total_ns += duel_test_record_get_pause (record, i)->length_ns;
  length = format_pause_seconds (total_ns);
  at = duel_number_format (floor (CLAMP (first->fraction, 0, 1) * 100), 0);
  if (n == 1)
    /* TRANSLATORS: the process was stopped (SIGSTOP, a suspend, a frozen
     * virtual machine) during a test; the first %s is its length in seconds,
     * the second how much of the test was done, in percent */
    return g_strdup_printf (_("The run was paused for %s s at %s %%; the rows of that time are left out of the figures."),
                            length, at);
  /* TRANSLATORS: as above, paused several times: %u times, %s seconds in all, the first at %s percent */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The run was paused %u time, for %s s in all, first at %s %%; the rows of that time are left out of the figures.",
                                       "The run was paused %u times, for %s s in all, first at %s %%; the rows of that time are left out of the figures.",
                                       n),
                          n, length, at);
}

const char *
duel_test_status_to_string (DuelTestStatus status)
{
  if ((guint) status < G_N_ELEMENTS (status_names))
    return status_names[status];
  return "failed";
}

const char *
duel_test_status_describe (DuelTestStatus status)
{
  switch (status)
    {
    case DUEL_TEST_STATUS_PENDING:   return _("not run");
    case DUEL_TEST_STATUS_RUNNING:   return _("interrupted");
    case DUEL_TEST_STATUS_COMPLETE:  return _("complete");
    case DUEL_TEST_STATUS_CANCELLED: return _("stopped");
    case DUEL_TEST_STATUS_FAILED:
    default:                         return _("failed");
    }
}

gboolean
duel_test_status_from_string (const char     *text,
                              DuelTestStatus *out_status)
{
  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    {
      if (g_strcmp0 (text, status_names[i]) == 0)
        {
          if (out_status != NULL)
            *out_status = (DuelTestStatus) i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
duel_latency_kind_to_string (DuelLatencyKind kind)
{
  return kind == DUEL_LATENCY_COMPLETION ? "completion" : "total";
}

DuelLatencyKind
duel_latency_kind_from_string (const char *text)
{
  return g_strcmp0 (text, "completion") == 0 ? DUEL_LATENCY_COMPLETION : DUEL_LATENCY_TOTAL;
}

/* The series is the source of truth for counts: it is what the file keeps
 * row by row, and the histograms of an engine record agree with it. */
guint64
duel_test_record_get_ops (const DuelTestRecord *record,
                          DuelDirection         direction)
{
  const DuelSeriesRow *rows;
  guint n;
  guint64 total = 0;

  g_return_val_if_fail (record != NULL, 0);
  g_return_val_if_fail (direction < DUEL_N_DIRECTIONS, 0);

  if (record->series == NULL)
    return 0;
  rows = duel_series_get_rows (record->series);
  n = duel_series_get_length (record->series);
  for (guint i = 0; i < n; i++)
    total += rows[i].ops[direction];
  return total;
}

guint64
duel_test_record_get_bytes (const DuelTestRecord *record,
                            DuelDirection         direction)
{
  const DuelSeriesRow *rows;
  guint n;
  guint64 total = 0;

  g_return_val_if_fail (record != NULL, 0);
  g_return_val_if_fail (direction < DUEL_N_DIRECTIONS, 0);

  if (record->series == NULL)
    return 0;
  rows = duel_series_get_rows (record->series);
  n = duel_series_get_length (record->series);
  for (guint i = 0; i < n; i++)
    total += rows[i].bytes[direction];
  return total;
}

/* The time the counts cover: the runtime, or, when the run never wrote
 * its end (a checkpoint of a killed run holds runtime_ns 0), the end of
 * its last row, as duel_analysis_throughput() takes it. */
static double
measured_seconds (const DuelTestRecord *record)
{
  guint n;

  if (record->runtime_ns > 0)
    return record->runtime_ns / 1e9;
  n = record->series != NULL ? duel_series_get_length (record->series) : 0;
  return n > 0 ? duel_series_get_row (record->series, n - 1)->t_ms / 1e3 : 0;
}

double
duel_test_record_get_iops (const DuelTestRecord *record,
                           DuelDirection         direction)
{
  double seconds;

  g_return_val_if_fail (record != NULL, 0);

  seconds = measured_seconds (record);
  if (seconds <= 0)
    return 0;
  return (double) duel_test_record_get_ops (record, direction) / seconds;
}

guint64
duel_test_record_latest_row_ms (const DuelTestRecord *record)
{
  g_return_val_if_fail (record != NULL, 0);

  /* One interval and a second of slack: the last row closes the interval
   * in which the last I/O completed. */
  return record->runtime_ns / 1000000 + record->workload.interval_ms + 1000;
}

#define ROW_SPAN_INTERVALS 64

gboolean
duel_test_record_rows_span_fits (guint   n_rows,
                                 guint32 interval_ms,
                                 guint64 last_t_ms)
{
  guint64 room_ms = ((guint64) n_rows + 1) * MAX (interval_ms, 1u) * ROW_SPAN_INTERVALS + 60000;

  return n_rows == 0 || last_t_ms <= room_ms;
}

double
duel_test_record_get_bytes_per_second (const DuelTestRecord *record,
                                       DuelDirection         direction)
{
  double seconds;

  g_return_val_if_fail (record != NULL, 0);

  seconds = measured_seconds (record);
  if (seconds <= 0)
    return 0;
  return (double) duel_test_record_get_bytes (record, direction) / seconds;
}

static const char *
better_to_string (DuelBetter better)
{
  switch (better)
    {
    case DUEL_BETTER_HIGHER: return "higher";
    case DUEL_BETTER_LOWER:  return "lower";
    case DUEL_BETTER_NONE:
    default:                 return "none";
    }
}

static JsonObject *
ensure_summary (DuelTestRecord *record)
{
  if (record->summary == NULL)
    record->summary = json_object_new ();
  if (!json_object_has_member (record->summary, "figures") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (record->summary, "figures")))
    json_object_set_array_member (record->summary, "figures", json_array_new ());
  return record->summary;
}

static JsonObject *
find_figure (const DuelTestRecord *record,
             const char           *key)
{
  JsonNode *node;
  JsonArray *figures;
  guint n;

  if (record->summary == NULL)
    return NULL;
  node = json_object_get_member (record->summary, "figures");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  figures = json_node_get_array (node);
  n = json_array_get_length (figures);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (figures, i);
      JsonObject *figure;
      JsonNode *key_node;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      figure = json_node_get_object (element);
      key_node = json_object_get_member (figure, "key");
      if (key_node != NULL && json_node_get_value_type (key_node) == G_TYPE_STRING &&
          g_strcmp0 (json_node_get_string (key_node), key) == 0)
        return figure;
    }
  return NULL;
}

void
duel_test_record_set_figure (DuelTestRecord *record,
                             const char     *key,
                             double          value,
                             const char     *unit,
                             DuelBetter      better)
{
  JsonObject *figure;

  g_return_if_fail (record != NULL);
  g_return_if_fail (key != NULL);

  ensure_summary (record);
  figure = find_figure (record, key);
  if (figure == NULL)
    {
      JsonArray *figures = json_object_get_array_member (record->summary, "figures");

      figure = json_object_new ();
      json_object_set_string_member (figure, "key", key);
      json_array_add_object_element (figures, figure);
    }
  /* A value that could not be computed is kept as NaN and saved as null. */
  json_object_set_double_member (figure, "value", value);
  json_object_set_string_member (figure, "unit", unit != NULL ? unit : "");
  json_object_set_string_member (figure, "better", better_to_string (better));
}

gboolean
duel_test_record_get_figure (const DuelTestRecord *record,
                             const char           *key,
                             double               *out_value)
{
  JsonObject *figure;
  JsonNode *value;
  double v = NAN;

  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  figure = find_figure (record, key);
  if (figure == NULL)
    return FALSE;
  value = json_object_get_member (figure, "value");
  if (duel_json_node_is_number (value))
    v = json_node_get_double (value);
  if (out_value != NULL)
    *out_value = v;
  return TRUE;
}

double
duel_test_record_get_figure_value (const DuelTestRecord *record,
                                   const char           *key)
{
  double value = NAN;

  if (record != NULL)
    duel_test_record_get_figure (record, key, &value);
  return value;
}

JsonObject *
duel_test_record_get_details (DuelTestRecord *record)
{
  JsonNode *node;

  g_return_val_if_fail (record != NULL, NULL);

  ensure_summary (record);
  node = json_object_get_member (record->summary, "details");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      json_object_set_object_member (record->summary, "details", json_object_new ());
      node = json_object_get_member (record->summary, "details");
    }
  return json_node_get_object (node);
}
