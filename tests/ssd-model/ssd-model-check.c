/* ssd-model-check.c — compares the model's ground truth with a run's result
 *
 * Usage:
 *   ssd-model-check check TRUTH.json RESULT.json [--shape falls]
 *       TAP checks (see test-ssd-model.sh); exit 1 when one fails.
 *   ssd-model-check report TRUTH.json RESULT.json
 *       The truth (cache out, GC start, WA, plateau) and the result's curve,
 *       IOPS against % of capacity written, in steps of 10 %.
 *   ssd-model-check analysis TRUTH.json RESULT.json
 *       TAP checks of what Drive Duel's analysis reports for the fill
 *       (the write-saturation preset's wsat-fill) against the model's truth:
 *       the cliff, the plateau, the first steady-state window.
 *   ssd-model-check probe TRUTH.json RESULT.json
 *       TAP checks of the fill's probe (run before the discard, so the
 *       model's first cache exhaustion is the probe's): where its rate fell
 *       against where the model's cache ran out, or that it saw no fall on
 *       a model without a cache.
 *   --host-busy REASON (with analysis, probe, consistency): the host was
 *       busy during the run; a failed check of a rate, a time or a knee is
 *       reported as TODO, not as a failure.
 *   ssd-model-check consistency TRUTH.json RESULT.json
 *       TAP checks of the consistency preset on a preconditioned model: the
 *       slowest interval and the latency percentiles against the waits and
 *       the per-second IOPS the model logged.
 *   ssd-model-check paced TRUTH.json RESULT.json
 *       One TAP check: the model's units were busy at least 90 % of the
 *       time around the event that causes the fill's cliff, so the curve
 *       there is the model's and not the host's; exit 1 when not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Set by --host-busy REASON: the host was busy in every attempt of the run
 * (test-ssd-analysis.sh measures it), so the figures the wall clock shapes
 * are not the model's. Their checks still print, but a failed one is TODO:
 * test-ssd-virtual holds the analysis to the same margins on the model's
 * own clock, where no host can reshape the curve. */
static const char *host_busy;

static void
report_check (gboolean    ok,
              gboolean    timed,
              const char *format,
              va_list     args) G_GNUC_PRINTF (3, 0);

static void
report_check (gboolean    ok,
              gboolean    timed,
              const char *format,
              va_list     args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);

  if (!ok && timed && host_busy != NULL)
    {
      printf ("not ok - %s # TODO the host was busy (%s)\n", text, host_busy);
      return;
    }
  printf ("%s - %s\n", ok ? "ok" : "not ok", text);
  if (!ok)
    failures++;
}

static void
check (gboolean    ok,
       const char *format,
       ...) G_GNUC_PRINTF (2, 3);

static void
check (gboolean    ok,
       const char *format,
       ...)
{
  va_list args;

  va_start (args, format);
  report_check (ok, FALSE, format, args);
  va_end (args);
}

/* A check of a figure the host's speed shapes: a rate, a time, a knee. */
static void
timed_check (gboolean    ok,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
timed_check (gboolean    ok,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  report_check (ok, TRUE, format, args);
  va_end (args);
}

static JsonNode *
load (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_file (parser, path, &error))
    {
      printf ("# cannot read %s: %s\n", path, error->message);
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

/* A member by a dotted path ("host.write_ops", "tests.0.series"); NULL if absent. */
static JsonNode *
at (JsonNode   *root,
    const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);
  JsonNode *node = root;

  for (guint i = 0; parts[i] != NULL && node != NULL; i++)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        node = json_object_get_member (json_node_get_object (node), parts[i]);
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          guint64 index = g_ascii_strtoull (parts[i], NULL, 10);
          JsonArray *array = json_node_get_array (node);

          node = index < json_array_get_length (array) ? json_array_get_element (array, index) : NULL;
        }
      else
        node = NULL;
    }
  return node;
}

static gboolean
is_number (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 ||
          json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

static double
num (JsonNode   *root,
     const char *path)
{
  JsonNode *node = at (root, path);

  if (!is_number (node))
    return -1;
  return json_node_get_value_type (node) == G_TYPE_INT64 ? (double) json_node_get_int (node)
                                                         : json_node_get_double (node);
}

static GArray *
column (JsonNode   *root,
        const char *path)
{
  JsonNode *node = at (root, path);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          double v = json_node_get_double (json_array_get_element (array, i));

          g_array_append_val (out, v);
        }
    }
  return out;
}

#define COL(a, i) g_array_index ((a), double, (i))

/* Mean rate (ops per s) of rows while the cumulative bytes were in [lo, hi):
 * a row straddling a bound counts with the share of its bytes inside, as the
 * project's analysis does (docs/result-format.md). */
static double
rate_between (GArray *ops,
              GArray *bytes,
              GArray *seconds_per_row,
              double  lo,
              double  hi)
{
  double cum = 0, n = 0, t = 0;

  for (guint i = 0; i < ops->len; i++)
    {
      double b = COL (bytes, i), from = cum, to = cum + b, share;

      cum = to;
      if (b <= 0 || to <= lo || from >= hi)
        continue;
      share = (MIN (to, hi) - MAX (from, lo)) / b;
      n += COL (ops, i) * share;
      t += COL (seconds_per_row, i) * share;
    }
  return t > 0 ? n / t : -1;
}

typedef struct
{
  GArray *ops, *bytes, *secs;   /* per row */
  double  total_bytes;
} Curve;

static void
curve_clear (Curve *c)
{
  g_clear_pointer (&c->ops, g_array_unref);
  g_clear_pointer (&c->bytes, g_array_unref);
  g_clear_pointer (&c->secs, g_array_unref);
}

/* The result's write curve: rows of the first test. */
static void
result_curve (JsonNode *result,
              Curve    *c)
{
  g_autoptr(GArray) t_ms = column (result, "tests.0.series.t_ms");
  double prev = 0;

  c->ops = column (result, "tests.0.series.write_ops");
  c->bytes = column (result, "tests.0.series.write_bytes");
  c->secs = g_array_new (FALSE, FALSE, sizeof (double));
  c->total_bytes = 0;
  for (guint i = 0; i < t_ms->len; i++)
    {
      double s = (COL (t_ms, i) - prev) / 1000.0;

      prev = COL (t_ms, i);
      g_array_append_val (c->secs, s);
      if (i < c->bytes->len)
        c->total_bytes += COL (c->bytes, i);
    }
}

/* The model's per-second write curve; the second of the last write is
 * partial (reads may follow, as the preset's read score does). */
static void
truth_curve (JsonNode *truth,
             Curve    *c)
{
  g_autoptr(GArray) cum = column (truth, "seconds.host_bytes_written");
  double prev = 0, run_s = num (truth, "host.write_run_s");

  c->ops = column (truth, "seconds.write_ops");
  c->bytes = g_array_new (FALSE, FALSE, sizeof (double));
  c->secs = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < cum->len; i++)
    {
      double b = COL (cum, i) - prev, s = MIN (1.0, run_s - i);

      prev = COL (cum, i);
      s = MAX (s, 1e-3);
      g_array_append_val (c->bytes, b);
      g_array_append_val (c->secs, s);
    }
  c->total_bytes = prev;
}

static void
print_curve (const Curve *c,
             double       span)
{
  double peak = 1;
  double rates[64];
  guint n = 0;

  for (double lo = 0; lo < c->total_bytes - 1 && n < G_N_ELEMENTS (rates); lo += span / 10)
    {
      rates[n] = rate_between (c->ops, c->bytes, c->secs, lo, lo + span / 10);
      peak = MAX (peak, rates[n]);
      n++;
    }
  for (guint i = 0; i < n; i++)
    {
      int bar = rates[i] > 0 ? (int) (40 * rates[i] / peak + 0.5) : 0;

      printf ("    %3u-%3u %%  %7.0f IOPS  %.*s\n", i * 10, i * 10 + 10, rates[i], bar,
              "########################################");
    }
}

static double
pct (JsonNode   *truth,
     const char *key)
{
  return num (truth, key);
}

static int
report (JsonNode *truth,
        JsonNode *result)
{
  Curve rc = { 0 };
  double span = num (result, "tests.0.params.span_bytes");

  result_curve (result, &rc);
  printf ("  shape %s, capacity %.0f MiB, OP %.1f %%, cache %.0f MiB, %.0f units\n",
          json_node_get_string (at (truth, "config.shape")),
          num (truth, "config.capacity_bytes") / 1048576, num (truth, "config.op_pct"),
          num (truth, "config.cache_bytes") / 1048576, num (truth, "config.units"));
  printf ("  run time %.1f s (result runtime_ns), model: %.1f s from the first write\n",
          num (result, "tests.0.runtime_ns") / 1e9, num (truth, "host.run_s"));
  printf ("  truth: cache out at %.1f %%, GC from %.1f %%, backlog cleared at %.1f %%, "
          "WA %.2f (last 10 %% of writes %.2f)\n",
          pct (truth, "events.cache_exhausted_pct"), pct (truth, "events.gc_first_pct"),
          pct (truth, "events.backlog_cleared_pct"),
          num (truth, "write_amplification"), num (truth, "write_amplification_last10"));
  printf ("  plateau (last 10 %% written): model %.0f IOPS, result %.0f IOPS; longest model wait %.1f ms\n",
          num (truth, "host.plateau_write_iops"),
          rate_between (rc.ops, rc.bytes, rc.secs, rc.total_bytes * 0.9, rc.total_bytes + 1),
          num (truth, "stall.max_wait_ns") / 1e6);
  printf ("  (-1 means the event did not happen)\n  result curve, write IOPS by %% of capacity written:\n");
  if (span > 0)
    print_curve (&rc, span);
  curve_clear (&rc);
  return 0;
}

static int
run_checks (JsonNode   *truth,
            JsonNode   *result,
            const char *shape)
{
  Curve tc = { 0 }, rc = { 0 };
  double capacity = num (truth, "config.capacity_bytes");
  double cache = num (truth, "config.cache_bytes");
  double op = num (truth, "config.op_pct");
  double cache_at = num (truth, "events.cache_exhausted_host_bytes");
  double gc_at = num (truth, "events.gc_first_host_bytes");
  double model_writes = num (truth, "host.write_ops");
  double result_writes = num (result, "tests.0.totals.write.ops");
  double first, plateau, sum = 0;
  JsonNode *status = at (result, "tests.0.status");
  g_autoptr(GArray) series_writes = column (result, "tests.0.series.write_ops");

  check (status != NULL && g_strcmp0 (json_node_get_string (status), "complete") == 0,
         "the run completed (status %s)", status ? json_node_get_string (status) : "missing");
  check (json_node_get_boolean (at (truth, "complete")), "the model wrote its final log at unmount");
  check (num (truth, "flash.backlog_blocks") >= 0, "the log has the flash counters");

  /* The cache runs out after exactly its size in host pages, plus what idle
   * time folded back (none at QD32 unless the host stalled): 5 % of capacity
   * of slack. */
  check (cache > 0 && cache_at >= cache && cache_at <= cache + capacity * 0.05,
         "the write cache ran out, after %.1f %% written (cache %.1f %%)",
         100 * cache_at / capacity, 100 * cache / capacity);
  /* GC cannot start before the physical space (1 + OP) is nearly used
   * (random writes leave almost every old copy valid until then), and must
   * start by then: it has nowhere else to write. */
  check (gc_at >= capacity * 0.9 && gc_at <= capacity * (1 + op / 100) * 1.05,
         "GC began, after %.1f %% written (physical space %.1f %%)",
         100 * gc_at / capacity, 100 + op);
  check (num (truth, "write_amplification") > 1.05 && num (truth, "write_amplification_last10") > 1.2,
         "GC amplified writes: WA %.3f overall, %.3f over the last 10 %%",
         num (truth, "write_amplification"), num (truth, "write_amplification_last10"));

  for (guint i = 0; i < series_writes->len; i++)
    sum += COL (series_writes, i);
  check (model_writes > 0 && model_writes == result_writes && model_writes == sum,
         "the model completed as many writes as the result counts (%.0f; totals %.0f, series %.0f)",
         model_writes, result_writes, sum);
  check (num (truth, "host.write_bytes") == num (result, "tests.0.totals.write.bytes"),
         "and as many bytes (%.0f)", num (truth, "host.write_bytes"));

  truth_curve (truth, &tc);
  /* "The first seconds": the first 10 % of capacity written. */
  first = rate_between (tc.ops, tc.bytes, tc.secs, 0, capacity * 0.1);
  plateau = rate_between (tc.ops, tc.bytes, tc.secs, tc.total_bytes * 0.9, tc.total_bytes + 1);
  printf ("# model: %.0f IOPS over the first 10 %% of capacity, %.0f over the last 10 %% written\n",
          first, plateau);
  if (g_strcmp0 (shape, "falls") == 0)
    /* Cache speed against the GC plateau: about 7x by the model's times;
     * 2x leaves room for any host hiccup. */
    check (first > 2 * plateau && plateau > 0,
           "falls: the start (%.0f IOPS) is more than twice the plateau (%.0f IOPS)", first, plateau);

  /* The engine saw the same shape (its intervals, its clock). */
  result_curve (result, &rc);
  {
    double r_first = rate_between (rc.ops, rc.bytes, rc.secs, 0, capacity * 0.1);
    double r_plateau = rate_between (rc.ops, rc.bytes, rc.secs, rc.total_bytes * 0.9, rc.total_bytes + 1);

    printf ("# result: %.0f IOPS over the first 10 %%, %.0f over the last 10 %%\n", r_first, r_plateau);
    if (g_strcmp0 (shape, "falls") == 0)
      check (r_first > 2 * r_plateau && r_plateau > 0,
             "falls: the result shows it too (%.0f against %.0f IOPS)", r_first, r_plateau);
    /* Same ops over the same bytes: the plateau rates agree within 25 %. */
    check (r_plateau > 0 && plateau / r_plateau > 0.75 && plateau / r_plateau < 1.33,
           "the model's plateau (%.0f IOPS) matches the result's (%.0f IOPS)", plateau, r_plateau);
  }
  curve_clear (&tc);
  curve_clear (&rc);
  return failures == 0 ? 0 : 1;
}

/* The test named @name in the result, or NULL. */
static JsonNode *
test_named (JsonNode   *result,
            const char *name,
            guint      *out_index)
{
  JsonNode *tests = at (result, "tests");

  if (tests == NULL || !JSON_NODE_HOLDS_ARRAY (tests))
    return NULL;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (tests)); i++)
    {
      JsonNode *test = json_array_get_element (json_node_get_array (tests), i);
      JsonNode *n = at (test, "name");

      if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && g_strcmp0 (json_node_get_string (n), name) == 0)
        {
          if (out_index != NULL)
            *out_index = i;
          return test;
        }
    }
  return NULL;
}

/* A summary figure of @test by key; NAN when absent or null. */
static double
figure (JsonNode   *test,
        const char *key)
{
  JsonNode *figures = at (test, "summary.figures");

  if (figures == NULL || !JSON_NODE_HOLDS_ARRAY (figures))
    return NAN;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (figures)); i++)
    {
      JsonNode *f = json_array_get_element (json_node_get_array (figures), i);
      JsonNode *k = at (f, "key");

      if (k != NULL && g_strcmp0 (json_node_get_string (k), key) == 0)
        return is_number (at (f, "value")) ? num (f, "value") : NAN;
    }
  return NAN;
}

/* Bytes the result's test had written by @t_ms (rows end at t_ms). */
static double
bytes_by (JsonNode *test,
          double    t_ms)
{
  g_autoptr(GArray) ends = column (test, "series.t_ms");
  g_autoptr(GArray) bytes = column (test, "series.write_bytes");
  double cum = 0, prev = 0;

  for (guint i = 0; i < ends->len && i < bytes->len; i++)
    {
      double end = COL (ends, i);

      if (end <= t_ms)
        cum += COL (bytes, i);
      else
        {
          /* A row straddling t_ms: its bytes spread evenly over it. */
          if (t_ms > prev)
            cum += COL (bytes, i) * (t_ms - prev) / (end - prev);
          break;
        }
      prev = end;
    }
  return cum;
}

/* SNIA PTS's steady-state test on the model's write counts of seconds
 * [first, first + n): the range of the values within 20 % of their mean, the
 * range of the least-squares line over the window within 10 %. Written here
 * from the definition, not with the project's code. */
static gboolean
model_window_steady (JsonNode *truth,
                     guint     first,
                     guint     n,
                     double   *out_data,
                     double   *out_slope)
{
  g_autoptr(GArray) writes = column (truth, "seconds.write_ops");
  double mean = 0, lo = G_MAXDOUBLE, hi = 0, sxy = 0, sxx = 0;

  *out_data = *out_slope = NAN;
  if (n < 2 || first + n > writes->len)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      double v = COL (writes, first + i);

      mean += v / n;
      lo = MIN (lo, v);
      hi = MAX (hi, v);
    }
  for (guint i = 0; i < n; i++)
    {
      double x = i - (n - 1) / 2.0;

      sxy += x * (COL (writes, first + i) - mean);
      sxx += x * x;
    }
  if (mean <= 0)
    return FALSE;
  *out_data = (hi - lo) / mean;
  *out_slope = fabs (sxy / sxx) * (n - 1) / mean;
  return *out_data <= 0.2 && *out_slope <= 0.1;
}

/* The rounds are the engine's seconds, the model's seconds start at its
 * first write: a few ms apart, so the excursions differ a little. The
 * model's "not steady" is taken to agree within a point of either limit. */
#define SNIA_AGREE 0.01

/* What the analysis says of the fill, against the model's truth. */
/* Whether the model, not the host, set the pace around the fill's cliff: the
 * share of the units' time they were busy over the seconds in which the
 * writes went from 20 % of capacity before the event that causes the cliff
 * to 10 % after it (with a write cache, from the event on: before it the
 * cache is faster than this host's FUSE path and the host sets the pace by
 * design). A busy host (another process, a sanitizer) leaves the units idle
 * between requests; the curve then has the host's shape, and no analysis
 * could place the model's cliff on it. The test runs again when this fails. */
static int
check_paced (JsonNode *truth)
{
  g_autoptr(GArray) written = column (truth, "seconds.host_bytes_written");
  g_autoptr(GArray) idle = column (truth, "seconds.unit_idle_ns");
  double capacity = num (truth, "config.capacity_bytes");
  double units = num (truth, "config.units");
  gboolean has_cache = num (truth, "config.cache_bytes") > 0;
  double event = has_cache ? num (truth, "events.cache_exhausted_host_bytes")
                           : num (truth, "events.gc_first_host_bytes");
  double lo, hi, busy;
  guint first = 0, last;

  if (event < 0 || written->len < 3 || idle->len != written->len || !(units > 0))
    {
      check (FALSE, "the model logged its units' idle time around the cliff (event at %.0f bytes)", event);
      return 1;
    }
  lo = has_cache ? event : MAX (event - 0.2 * capacity, 0);
  hi = event + 0.1 * capacity;
  /* Cumulative columns: second k's value is at its end. */
  while (first + 1 < written->len && COL (written, first) < lo)
    first++;
  first = first > 0 ? first - 1 : 0;
  last = first + 1;
  while (last + 1 < written->len && COL (written, last) < hi)
    last++;
  if (last < first + 2 && last + 1 < written->len)
    last++;
  busy = 1 - (COL (idle, last) - COL (idle, first)) / (units * (last - first) * 1e9);
  check (busy >= 0.9,
         "the model set the pace around the cliff: its units were busy %.1f %% of seconds %u-%u "
         "(%.0f-%.0f %% of capacity written; at least 90 %%)",
         100 * busy, first + 1, last, 100 * COL (written, first) / capacity,
         100 * COL (written, last) / capacity);
  return busy >= 0.9 ? 0 : 1;
}

static int
check_analysis (JsonNode *truth,
                JsonNode *result)
{
  JsonNode *fill = test_named (result, "wsat-fill", NULL);
  Curve tc = { 0 };
  double capacity = num (truth, "config.capacity_bytes");
  gboolean has_cache = num (truth, "config.cache_bytes") > 0;
  /* The fill's own account starts at its discard, the last trim of the
   * whole model: the probe wrote before it (into the cache, which the
   * trim empties), and its bytes are not the fill's. */
  double origin_pct = is_number (at (truth, "events.whole_trim_pct")) ? num (truth, "events.whole_trim_pct") : 0;
  double origin = capacity * origin_pct / 100;
  double cache_pct = has_cache && is_number (at (truth, "events.cache_exhausted_after_trim_pct"))
                     ? num (truth, "events.cache_exhausted_after_trim_pct") - origin_pct : NAN;
  double gc_pct = is_number (at (truth, "events.gc_first_pct")) ? num (truth, "events.gc_first_pct") - origin_pct : NAN;
  double cliff, plateau, lo, hi, model_plateau, round_ms, start_pct, data = NAN, slope = NAN, data_limit;
  guint n_window, last_full, n_falls;
  JsonNode *window, *falls;
  gboolean cache_found = FALSE, gc_found = FALSE;

  check (fill != NULL, "the result holds the fill (wsat-fill)");
  if (fill == NULL)
    return 1;
  check (num (fill, "params.span_bytes") == capacity,
         "the fill covered the whole model (%.0f bytes)", capacity);

  /* The falls (docs/analysis.md): each at an event of the model's that
   * makes one (its cache running out, GC beginning), within 3 points of
   * capacity written or the resolution the analysis states. */
  falls = at (fill, "summary.details.saturation.falls");
  n_falls = falls != NULL && JSON_NODE_HOLDS_ARRAY (falls) ? json_array_get_length (json_node_get_array (falls)) : 0;
  for (guint i = 0; i < n_falls; i++)
    {
      JsonObject *f = json_array_get_object_element (json_node_get_array (falls), i);
      double knee = json_object_get_double_member_with_default (f, "knee_pct", NAN);
      double tolerance = MAX (3.0, json_object_get_double_member_with_default (f, "resolution_pct", 0));
      gboolean at_cache = isfinite (cache_pct) && fabs (knee - cache_pct) <= tolerance;
      gboolean at_gc = isfinite (gc_pct) && fabs (knee - gc_pct) <= tolerance;

      cache_found |= at_cache;
      gc_found |= at_gc;
      timed_check (at_cache || at_gc,
                   "a fall at %.1f %% of capacity written, where the model's %s (within %.1f points)",
                   knee, at_cache ? "cache ran out" : at_gc ? "GC began" : "events were not", tolerance);
    }
  if (isfinite (cache_pct))
    timed_check (cache_found, "the model's cache ran out at %.1f %% written: a fall there", cache_pct);
  if (isfinite (gc_pct))
    printf ("# GC began at %.1f %% written%s\n", gc_pct,
            gc_found ? ": a fall there" : " (no fall reported there: a shallow one is no fall)");

  /* The write cliff is the last fall. */
  cliff = figure (fill, "cliff_pct");
  if (n_falls > 0)
    check (cliff == json_object_get_double_member_with_default (
                      json_array_get_object_element (json_node_get_array (falls), n_falls - 1), "knee_pct", NAN),
           "the write cliff (%.1f %%) is the last fall", cliff);
  else
    check (!isfinite (cliff), "no falls, no write cliff");

  /* The plateau, against the IOPS the model delivered while the same bytes
   * were written (its own per-second log, prorated at the edges). */
  plateau = figure (fill, "plateau_iops");
  lo = num (fill, "summary.details.saturation.points.plateau.lo_pct");
  hi = num (fill, "summary.details.saturation.points.plateau.hi_pct");
  truth_curve (truth, &tc);
  model_plateau = rate_between (tc.ops, tc.bytes, tc.secs, origin + capacity * lo / 100, origin + capacity * hi / 100 + 1);
  timed_check (model_plateau > 0 && fabs (plateau / model_plateau - 1) <= 0.05,
         "plateau %.0f IOPS over %.0f-%.0f %% written; the model delivered %.0f IOPS there (within 5 %%)",
         plateau, lo, hi, model_plateau);
  curve_clear (&tc);

  /* The first steady-state window lies where the model's GC runs (before
   * that the drive is not in its steady state, whatever the rounds say) and
   * at the level the model delivered on its plateau (within SNIA's data
   * limit). When the analysis finds none, the model's last complete seconds
   * must fail SNIA's test (written here from the definition): the drive
   * really was still settling. The model's seconds are not held to SNIA's
   * test where the analysis found a window: a window passing near the
   * limits on the engine's rounds can fall just outside them on the model's
   * seconds, which start a few ms apart, and the verdict must not depend on
   * that. */
  window = at (fill, "summary.details.saturation.steady_state.first_steady_window");
  round_ms = num (fill, "summary.details.saturation.steady_state.round_ms");
  n_window = (guint) num (fill, "summary.details.analysis_parameters.ss_window_rounds");
  data_limit = num (fill, "summary.details.analysis_parameters.ss_data_limit");
  last_full = (guint) floor (num (truth, "host.write_run_s"));
  if (window != NULL && round_ms > 0)
    {
      double mean = num (window, "mean");

      start_pct = 100 * bytes_by (fill, num (window, "first_round") * round_ms) / capacity;
      timed_check (start_pct >= gc_pct,
             "first steady-state window (round %.0f on) starts at %.1f %% written, after the model's GC began (%.1f %%)",
             figure (fill, "ss_first_steady_round"), start_pct, gc_pct);
      /* The analysis holds the window within its data limit of its own
       * plateau, which is within 5 % of the model's (checked above). */
      timed_check (model_plateau > 0 && data_limit > 0 && fabs (mean / model_plateau - 1) <= data_limit + 0.05,
             "its mean (%.0f IOPS) is at the model's plateau (%.0f IOPS, within %.0f %% + 5 %%)",
             mean, model_plateau, 100 * data_limit);
    }
  else
    {
      gboolean unsteady;

      if (last_full >= n_window)
        model_window_steady (truth, last_full - n_window, n_window, &data, &slope);
      unsteady = data > 0.2 - SNIA_AGREE || slope > 0.1 - SNIA_AGREE;
      timed_check (unsteady,
             "no steady state reported, and the model's last %u full seconds fail SNIA's test too, "
             "to within a point (data %.1f %%, slope %.1f %% of the mean; limits 20 %%, 10 %%)",
             n_window, 100 * data, 100 * slope);
    }
  return failures == 0 ? 0 : 1;
}

/* The model's IOPS (reads + writes) over [a_ms, b_ms) of its per-second log,
 * whose origin is the first write's arrival (the run's start, to within the
 * time a request takes to reach the model). */
static double
model_iops_between (JsonNode *truth,
                    double    a_ms,
                    double    b_ms)
{
  g_autoptr(GArray) reads = column (truth, "seconds.read_ops");
  g_autoptr(GArray) writes = column (truth, "seconds.write_ops");
  double end_ms = 1000 * num (truth, "host.run_s"), ops = 0;

  for (guint k = 0; k < reads->len && k < writes->len; k++)
    {
      /* The last second ends at the last completion: its ops are spread
       * over that part only. */
      double k_end = MIN ((k + 1) * 1000.0, MAX (end_ms, k * 1000.0 + 1));
      double from = MAX (a_ms, k * 1000.0), to = MIN (b_ms, k_end);

      if (to > from)
        ops += (COL (reads, k) + COL (writes, k)) * (to - from) / (k_end - k * 1000.0);
    }
  return b_ms > a_ms ? ops * 1000.0 / (b_ms - a_ms) : -1;
}

static int
check_consistency (JsonNode *truth,
                   JsonNode *result)
{
  JsonNode *test = test_named (result, "consistency", NULL);
  g_autoptr(GArray) ends = NULL, reads = NULL, writes = NULL;
  double slowest = NAN, ratio, model_slowest, model_mean, prev = 0, slow_a = 0, slow_b = 0;
  double t_prog = num (truth, "config.t_prog_ns"), units = num (truth, "config.units");
  double runtime_ms;
  static const char * const kinds[] = { "read", "write" };

  check (test != NULL, "the result holds the consistency test");
  if (test == NULL)
    return 1;
  check (num (truth, "precondition.capacity_multiple") >= 1,
         "the model was preconditioned (%.1fx its capacity in random writes)",
         num (truth, "precondition.capacity_multiple"));
  /* A queue of 32 programs on one unit waits 32 x t_prog; anything much
   * longer is the unit collecting garbage in the foreground. */
  check (num (truth, "stall.max_wait_ns") > 32 * t_prog,
         "the model logged GC stalls: longest wait %.1f ms, a full queue's programs take %.1f ms",
         num (truth, "stall.max_wait_ns") / 1e6, 32 * t_prog / 1e6);

  /* The slowest interval, located in the result's own rows. */
  ends = column (test, "series.t_ms");
  reads = column (test, "series.read_ops");
  writes = column (test, "series.write_ops");
  for (guint i = 0; i < ends->len; i++)
    {
      double iops = (COL (reads, i) + COL (writes, i)) * 1000.0 / (COL (ends, i) - prev);

      if (!(iops >= slowest))
        {
          slowest = iops;
          slow_a = prev;
          slow_b = COL (ends, i);
        }
      prev = COL (ends, i);
    }
  runtime_ms = prev;
  check (fabs (figure (test, "consistency_slowest_iops") / slowest - 1) < 1e-9,
         "the slowest interval (%.0f-%.0f ms) is the one the figure reports (%.0f IOPS)",
         slow_a, slow_b, figure (test, "consistency_slowest_iops"));
  model_slowest = model_iops_between (truth, slow_a, slow_b);
  timed_check (model_slowest > 0 && fabs (slowest / model_slowest - 1) <= 0.03,
         "slowest interval %.0f IOPS; the model completed %.0f IOPS in it (within 3 %%)",
         slowest, model_slowest);
  model_mean = model_iops_between (truth, 0, runtime_ms);
  ratio = figure (test, "consistency_ratio");
  timed_check (model_mean > 0 && isfinite (ratio) && fabs (ratio / (100 * model_slowest / model_mean) - 1) <= 0.03,
         "slowest / mean %.1f %%; by the model's own counts %.1f %% (within 3 %%)",
         ratio, 100 * model_slowest / model_mean);

  /* Latency: the engine's clock for a request starts before the model sees
   * it and stops after the model answers, so each latency is at least the
   * model's wait for it, and so is each percentile. Both sides round to
   * their histogram buckets (the model's floor is under 1.6 % low, the
   * engine's value fio's bucket, within 1/64): 1/32 of slack. */
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *percentiles_path = g_strdup_printf ("totals.%s.lat_ns.percentiles", kinds[k]);
      g_autofree char *max_path = g_strdup_printf ("totals.%s.lat_ns.max", kinds[k]);
      g_autofree char *floor_path = g_strdup_printf ("%s_waits.p99_99_floor_ns", kinds[k]);
      g_autofree char *model_max_path = g_strdup_printf ("%s_waits.max_ns", kinds[k]);
      /* "99.99" is one key: not a dotted path. */
      JsonNode *percentiles = at (test, percentiles_path);
      JsonNode *p9999 = percentiles && JSON_NODE_HOLDS_OBJECT (percentiles)
                        ? json_object_get_member (json_node_get_object (percentiles), "99.99") : NULL;
      double engine = is_number (p9999) ? json_node_get_double (p9999) : -1;
      double model_floor = num (truth, floor_path), model_max = num (truth, model_max_path);

      check (engine > 0 && engine >= model_floor * (1 - 1.0 / 32),
             "%s p99.99 %.2f ms >= the model's p99.99 wait (%.2f ms or more)",
             kinds[k], engine / 1e6, model_floor / 1e6);
      check (num (test, max_path) >= model_max,
             "%s max latency %.2f ms >= the model's longest %s wait (%.2f ms)",
             kinds[k], num (test, max_path) / 1e6, kinds[k], model_max / 1e6);
      /* At QD32 a stall holds up every request queued on its unit (about
       * QD / units of them, more than 0.01 % of the run's requests), and
       * the model's stalls are of one size (a victim's copies and an
       * erase): p99.99 sits at the longest stall, not below 90 % of it. */
      timed_check (engine >= 0.9 * model_max,
             "%s p99.99 %.2f ms shows the longest stall (%.2f ms; %.0f requests per unit in flight)",
             kinds[k], engine / 1e6, model_max / 1e6, 32 / units);
    }
  return failures == 0 ? 0 : 1;
}

/* The probe (src/core/run/duel-probe.c) against the model's truth. */
static int
check_probe (JsonNode *truth,
             JsonNode *result)
{
  JsonNode *fill = test_named (result, "wsat-fill", NULL);
  double cache = num (truth, "config.cache_bytes");
  double cache_at = num (truth, "events.cache_exhausted_host_bytes");
  JsonNode *fall_node;
  double runtime_ms, fall;

  check (fill != NULL, "the result holds the fill (wsat-fill)");
  if (fill == NULL)
    return 1;
  runtime_ms = num (fill, "summary.details.probe.runtime_ms");
  fall_node = at (fill, "summary.details.probe.fall_bytes");
  fall = is_number (fall_node) ? num (fill, "summary.details.probe.fall_bytes") : NAN;
  check (runtime_ms >= 2000, "the probe ran its minimum (%.0f ms of at least 2000)", runtime_ms);
  /* It stops by its own rule, not its 20 s limit. */
  timed_check (runtime_ms > 0 && runtime_ms < 20000, "the probe stopped on its own after %.0f ms", runtime_ms);
  if (cache > 0)
    {
      /* The fall is found between 100 ms rows; at the model's cache rate a
       * row is about 13 % of a 51 MiB cache. */
      timed_check (isfinite (fall) && cache_at > 0 && fabs (fall - cache_at) <= 0.2 * cache,
             "the probe's rate fell after %.1f MiB; the model's cache (%.1f MiB) ran out after %.1f MiB",
             fall / 1048576, cache / 1048576, cache_at / 1048576);
      timed_check (num (fill, "summary.details.probe.end_write_iops") < num (fill, "summary.details.probe.write_iops"),
             "its rate after the fall (%.0f IOPS) is below its mean (%.0f IOPS)",
             num (fill, "summary.details.probe.end_write_iops"), num (fill, "summary.details.probe.write_iops"));
    }
  else
    timed_check (fall_node != NULL && JSON_NODE_HOLDS_NULL (fall_node),
           "the probe saw no fall on a model without a write cache (fall_bytes null)");
  return failures > 0;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(JsonNode) truth = NULL;
  g_autoptr(JsonNode) result = NULL;
  const char *shape = NULL;

  if (argc < 4 || (strcmp (argv[1], "check") != 0 && strcmp (argv[1], "report") != 0 &&
                    strcmp (argv[1], "analysis") != 0 && strcmp (argv[1], "consistency") != 0 &&
                    strcmp (argv[1], "probe") != 0 && strcmp (argv[1], "paced") != 0))
    {
      fprintf (stderr, "usage: %s check|report|analysis|consistency|probe|paced TRUTH.json RESULT.json [--shape NAME] [--host-busy REASON]\n",
               argv[0]);
      return 2;
    }
  for (int i = 4; i + 1 < argc; i += 2)
    if (strcmp (argv[i], "--shape") == 0)
      shape = argv[i + 1];
    else if (strcmp (argv[i], "--host-busy") == 0)
      host_busy = argv[i + 1];
  truth = load (argv[2]);
  result = load (argv[3]);
  if (strcmp (argv[1], "paced") == 0)
    return truth != NULL ? check_paced (truth) : 1;
  if (strcmp (argv[1], "analysis") == 0 || strcmp (argv[1], "consistency") == 0 ||
      strcmp (argv[1], "probe") == 0)
    {
      check (truth != NULL && result != NULL, "the model's log and the result load");
      if (truth == NULL || result == NULL)
        return 1;
      if (strcmp (argv[1], "probe") == 0)
        return check_probe (truth, result);
      return strcmp (argv[1], "analysis") == 0 ? check_analysis (truth, result)
                                                : check_consistency (truth, result);
    }
  if (strcmp (argv[1], "check") == 0)
    {
      check (truth != NULL, "the model's log %s loads", argv[2]);
      check (result != NULL, "the result %s loads", argv[3]);
      if (truth == NULL || result == NULL)
        return 1;
      return run_checks (truth, result, shape);
    }
  if (truth == NULL || result == NULL)
    return 1;
  return report (truth, result);
}
