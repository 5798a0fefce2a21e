/* ssd-model-check.c — compares the model's ground truth with a run's result
 *
 * Usage:
 *   ssd-model-check check TRUTH.json RESULT.json [--shape falls]
 *       TAP checks (see test-ssd-model.sh); exit 1 when one fails.
 *   ssd-model-check report TRUTH.json RESULT.json
 *       The truth (cache out, GC start, WA, plateau) and the result's curve,
 *       IOPS against % of capacity written, in steps of 10 %.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

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
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  printf ("%s - %s\n", ok ? "ok" : "not ok", text);
  if (!ok)
    failures++;
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

/* The model's per-second write curve; the last second is partial. */
static void
truth_curve (JsonNode *truth,
             Curve    *c)
{
  g_autoptr(GArray) cum = column (truth, "seconds.host_bytes_written");
  double prev = 0, run_s = num (truth, "host.run_s");

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

int
main (int    argc,
      char **argv)
{
  g_autoptr(JsonNode) truth = NULL;
  g_autoptr(JsonNode) result = NULL;
  const char *shape = NULL;

  if (argc < 4 || (strcmp (argv[1], "check") != 0 && strcmp (argv[1], "report") != 0))
    {
      fprintf (stderr, "usage: %s check|report TRUTH.json RESULT.json [--shape NAME]\n", argv[0]);
      return 2;
    }
  for (int i = 4; i + 1 < argc; i += 2)
    if (strcmp (argv[i], "--shape") == 0)
      shape = argv[i + 1];
  truth = load (argv[2]);
  result = load (argv[3]);
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
