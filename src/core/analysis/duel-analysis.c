/* duel-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"
#include "device/duel-device-link.h"
#include "review/duel-review-test.h"
#include "duel-error.h"
#include "duel-json.h"
#include "duel-number.h"

/* ---- The review's tests -------------------------------------------------- */

/* One module each (src/core/analysis/), in report order: the order of the
 * figures everywhere they are listed. */
static const DuelAnalysisOps * const all_ops[] = {
  &_duel_analysis_saturation_ops,
  &_duel_analysis_read_score_ops,
  &_duel_analysis_consistency_ops,
  &_duel_analysis_qos_ops,
  &_duel_analysis_standard_ops,
  &_duel_analysis_matrix_cell_ops,
  &_duel_analysis_sequential_write_ops,
  &_duel_analysis_recovery_ops,
};

const DuelAnalysisOps *
_duel_analysis_get_ops (DuelAnalysisKind kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (all_ops); i++)
    if (all_ops[i]->kind == kind)
      return all_ops[i];
  return NULL;
}

const char *
duel_analysis_kind_to_string (DuelAnalysisKind kind)
{
  const DuelAnalysisOps *ops = _duel_analysis_get_ops (kind);

  return ops != NULL ? ops->name : "none";
}

gboolean
duel_analysis_kind_from_string (const char       *text,
                                DuelAnalysisKind *out_kind)
{
  if (g_strcmp0 (text, "none") == 0)
    {
      if (out_kind != NULL)
        *out_kind = DUEL_ANALYSIS_NONE;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (all_ops); i++)
    {
      if (g_strcmp0 (text, all_ops[i]->name) == 0)
        {
          if (out_kind != NULL)
            *out_kind = all_ops[i]->kind;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
duel_analysis_fits (const DuelTestRecord *record,
                    DuelAnalysisKind      kind)
{
  const DuelAnalysisOps *ops = _duel_analysis_get_ops (kind);

  g_return_val_if_fail (record != NULL, FALSE);

  return ops != NULL && ops->fits (record);
}

DuelAnalysisKind
duel_analysis_guess (const DuelTestRecord *record)
{
  const DuelWorkload *w;

  g_return_val_if_fail (record != NULL, DUEL_ANALYSIS_NONE);

  w = &record->workload;
  if (duel_analysis_fits (record, DUEL_ANALYSIS_SATURATION))
    return DUEL_ANALYSIS_SATURATION;
  if (duel_analysis_fits (record, DUEL_ANALYSIS_CONSISTENCY))
    return DUEL_ANALYSIS_CONSISTENCY;
  /* A mix without a profile over time is told by its latencies; a read or a
   * write, a filled drive's read included, by its IOPS and MB/s. */
  if (duel_workload_is_mixed (w))
    return DUEL_ANALYSIS_QOS;
  return DUEL_ANALYSIS_STANDARD;
}

DuelAnalysisKind
duel_analysis_kind_of_record (const DuelTestRecord *record)
{
  JsonObject *details;
  DuelAnalysisKind kind;

  g_return_val_if_fail (record != NULL, DUEL_ANALYSIS_NONE);

  details = duel_json_get_object (record->summary, "details");
  if (details != NULL && duel_analysis_kind_from_string (duel_json_get_string (details, "analysis"), &kind))
    return kind;
  return duel_analysis_kind_for_test_name (record->name);
}

DuelAnalysisKind
duel_analysis_kind_for_test_name (const char *name)
{
  const DuelReviewStep *step;

  if (duel_review_test_find_step (name, NULL, &step))
    return step->analysis;
  return DUEL_ANALYSIS_NONE;
}

void
duel_analysis_params_init (DuelAnalysisParams *params)
{
  g_return_if_fail (params != NULL);

  *params = (DuelAnalysisParams) {
    .point_window_pct = 1.0,
    .edge_window_pct = 2.0,
    .plateau_fraction = 0.10,
    .cliff_smooth_rows = 5,
    .cliff_smooth_pct = 2.0,
    .cliff_step_pct = 0.25,
    .fall_min_drop = 0.25,
    .fall_max_pct = 20.0,
    .fall_turn = 4.0,
    .fall_trend_pct = 10.0,
    .fall_hold_pct = 5.0,
    .round_ms = 60000,
    .ss_window_rounds = 5,
    .ss_data_limit = 0.20,
    .ss_slope_limit = 0.10,
  };
}

JsonNode *
duel_analysis_params_to_json (const DuelAnalysisParams *params)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_double_member (object, "point_window_pct", params->point_window_pct);
  json_object_set_double_member (object, "edge_window_pct", params->edge_window_pct);
  json_object_set_double_member (object, "plateau_fraction", params->plateau_fraction);
  json_object_set_int_member (object, "cliff_smooth_rows", params->cliff_smooth_rows);
  json_object_set_double_member (object, "cliff_smooth_pct", params->cliff_smooth_pct);
  json_object_set_double_member (object, "cliff_step_pct", params->cliff_step_pct);
  json_object_set_double_member (object, "fall_min_drop", params->fall_min_drop);
  json_object_set_double_member (object, "fall_max_pct", params->fall_max_pct);
  json_object_set_double_member (object, "fall_turn", params->fall_turn);
  json_object_set_double_member (object, "fall_trend_pct", params->fall_trend_pct);
  json_object_set_double_member (object, "fall_hold_pct", params->fall_hold_pct);
  json_object_set_int_member (object, "round_ms", (gint64) params->round_ms);
  json_object_set_int_member (object, "ss_window_rounds", params->ss_window_rounds);
  json_object_set_double_member (object, "ss_data_limit", params->ss_data_limit);
  json_object_set_double_member (object, "ss_slope_limit", params->ss_slope_limit);
  json_node_take_object (node, object);
  return node;
}

static gboolean
read_number (JsonObject  *object,
             const char  *name,
             double       min,
             double       max,
             double      *inout,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);
  double value;

  if (node == NULL)
    return TRUE;
  if (!duel_json_node_is_number (node))
    goto bad;
  value = json_node_get_double (node);
  if (!(value >= min && value <= max))
    goto bad;
  *inout = value;
  return TRUE;

bad:
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
               _("The analysis parameter “%s” is not a number between %g and %g."),
               name, min, max);
  return FALSE;
}

gboolean
duel_analysis_params_from_json (JsonObject          *object,
                                DuelAnalysisParams  *out_params,
                                GError             **error)
{
  DuelAnalysisParams p;
  double smooth, round_ms, window, retired = 0;

  g_return_val_if_fail (out_params != NULL, FALSE);

  duel_analysis_params_init (&p);
  if (object == NULL)
    {
      *out_params = p;
      return TRUE;
    }

  smooth = p.cliff_smooth_rows;
  round_ms = (double) p.round_ms;
  window = p.ss_window_rounds;
  if (!read_number (object, "point_window_pct", 0, 100, &p.point_window_pct, error) ||
      !read_number (object, "edge_window_pct", 0, 100, &p.edge_window_pct, error) ||
      !read_number (object, "plateau_fraction", 0, 1, &p.plateau_fraction, error) ||
      /* The halfway rule's parameters (files before the falls): checked,
       * not used; such files are recomputed with the falls' defaults. */
      !read_number (object, "cliff_fraction", 0, 1, &retired, error) ||
      !read_number (object, "cliff_fit_pct", 0, 1000, &retired, error) ||
      !read_number (object, "cliff_min_drop", 0, 1, &retired, error) ||
      !read_number (object, "cliff_smooth_rows", 1, DUEL_CLIFF_MAX_SMOOTH_ROWS, &smooth, error) ||
      !read_number (object, "cliff_smooth_pct", 0, 100, &p.cliff_smooth_pct, error) ||
      !read_number (object, "cliff_step_pct", DUEL_CLIFF_MIN_STEP_PCT, 10, &p.cliff_step_pct, error) ||
      !read_number (object, "fall_min_drop", 0.01, 0.99, &p.fall_min_drop, error) ||
      !read_number (object, "fall_max_pct", 0.05, 100, &p.fall_max_pct, error) ||
      !read_number (object, "fall_turn", 1, 100, &p.fall_turn, error) ||
      !read_number (object, "fall_trend_pct", 0.1, 100, &p.fall_trend_pct, error) ||
      !read_number (object, "fall_hold_pct", 0.1, 100, &p.fall_hold_pct, error) ||
      !read_number (object, "round_ms", 1, 24.0 * 3600 * 1000, &round_ms, error) ||
      !read_number (object, "ss_window_rounds", 2, DUEL_STEADY_STATE_MAX_WINDOW, &window, error) ||
      !read_number (object, "ss_data_limit", 0, 10, &p.ss_data_limit, error) ||
      !read_number (object, "ss_slope_limit", 0, 10, &p.ss_slope_limit, error))
    return FALSE;
  p.cliff_smooth_rows = (guint) smooth;
  p.round_ms = (guint64) round_ms;
  p.ss_window_rounds = (guint) window;

  *out_params = p;
  return TRUE;
}

/* ---- Throughput ----------------------------------------------------------- */

guint64
_duel_analysis_series_end_ms (const DuelSeries *series)
{
  guint n = duel_series_get_length (series);
  DuelSeriesRow last;

  return n > 0 && duel_series_read_row (series, n - 1, &last) ? last.t_ms : 0;
}

void
duel_analysis_throughput (const DuelSeries *series,
                          guint64           runtime_ns,
                          DuelThroughput   *out)
{
  DuelSeriesRow total;
  double seconds;

  g_return_if_fail (series != NULL);
  g_return_if_fail (out != NULL);

  duel_series_sum (series, &total);
  seconds = runtime_ns > 0 ? runtime_ns / 1e9 : _duel_analysis_series_end_ms (series) / 1e3;

  *out = (DuelThroughput) { .seconds = seconds };
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      out->iops[d] = seconds > 0 ? total.ops[d] / seconds : NAN;
      out->mb_per_s[d] = seconds > 0 ? total.bytes[d] / seconds / 1e6 : NAN;
    }
  out->total_iops = out->iops[DUEL_DIRECTION_READ] + out->iops[DUEL_DIRECTION_WRITE];
  out->total_mb_per_s = out->mb_per_s[DUEL_DIRECTION_READ] + out->mb_per_s[DUEL_DIRECTION_WRITE];
}

/* ---- Summaries ---------------------------------------------------------------- */

typedef struct
{
  char   *key;
  double  value;
} Figure;

struct _DuelSummary
{
  GArray     *figures;    /* Figure */
  JsonObject *details;
  GBytes     *typed;      /* the module's typed summary, or NULL */
};

static void
figure_clear (gpointer data)
{
  Figure *figure = data;

  g_free (figure->key);
}

void
_duel_summary_set_typed (DuelSummary   *summary,
                         gconstpointer  data,
                         gsize          size)
{
  g_clear_pointer (&summary->typed, g_bytes_unref);
  summary->typed = g_bytes_new (data, size);
}

DuelSummary *
duel_summary_new (void)
{
  DuelSummary *summary = g_new0 (DuelSummary, 1);

  summary->figures = g_array_new (FALSE, TRUE, sizeof (Figure));
  g_array_set_clear_func (summary->figures, figure_clear);
  summary->details = json_object_new ();
  return summary;
}

void
duel_summary_free (DuelSummary *summary)
{
  if (summary == NULL)
    return;
  g_array_unref (summary->figures);
  json_object_unref (summary->details);
  g_clear_pointer (&summary->typed, g_bytes_unref);
  g_free (summary);
}

void
duel_summary_add (DuelSummary *summary,
                  const char  *key,
                  double       value)
{
  Figure figure;

  g_return_if_fail (summary != NULL);
  g_return_if_fail (key != NULL);

  for (guint i = 0; i < summary->figures->len; i++)
    {
      Figure *existing = &g_array_index (summary->figures, Figure, i);

      if (strcmp (existing->key, key) == 0)
        {
          existing->value = value;
          return;
        }
    }
  figure.key = g_strdup (key);
  figure.value = value;
  g_array_append_val (summary->figures, figure);
}

guint
duel_summary_get_n_figures (const DuelSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);

  return summary->figures->len;
}

const char *
duel_summary_get_key (const DuelSummary *summary,
                      guint              index)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (index < summary->figures->len, NULL);

  return g_array_index (summary->figures, Figure, index).key;
}

double
duel_summary_get_value (const DuelSummary *summary,
                        guint              index)
{
  g_return_val_if_fail (summary != NULL, NAN);
  g_return_val_if_fail (index < summary->figures->len, NAN);

  return g_array_index (summary->figures, Figure, index).value;
}

gboolean
duel_summary_lookup (const DuelSummary *summary,
                     const char        *key,
                     double            *out_value)
{
  g_return_val_if_fail (summary != NULL, FALSE);

  for (guint i = 0; i < summary->figures->len; i++)
    {
      const Figure *figure = &g_array_index (summary->figures, Figure, i);

      if (g_strcmp0 (figure->key, key) == 0)
        {
          if (out_value != NULL)
            *out_value = figure->value;
          return TRUE;
        }
    }
  return FALSE;
}

JsonObject *
duel_summary_get_details (const DuelSummary *summary)
{
  g_return_val_if_fail (summary != NULL, NULL);

  return summary->details;
}

const char *
_duel_analysis_direction_name (DuelDirection direction)
{
  return direction == DUEL_DIRECTION_READ ? "read" : "write";
}

int
_duel_analysis_compare_doubles (gconstpointer a,
                                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

DuelSummary *
duel_analysis_summarize (const DuelTestRecord     *record,
                         DuelAnalysisKind          kind,
                         const DuelAnalysisParams *params)
{
  const DuelAnalysisOps *ops;
  DuelSummary *summary;
  DuelAnalysisParams defaults;

  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (record->series != NULL, NULL);

  if (params == NULL)
    {
      duel_analysis_params_init (&defaults);
      params = &defaults;
    }

  summary = duel_summary_new ();
  ops = _duel_analysis_get_ops (kind);
  if (ops != NULL)
    ops->summarize (record, params, summary);
  return summary;
}

void
duel_analysis_apply (DuelTestRecord           *record,
                     DuelAnalysisKind          kind,
                     const DuelAnalysisParams *params,
                     const DuelSummary        *summary)
{
  JsonObject *details;
  DuelAnalysisParams defaults;
  g_autoptr(GList) members = NULL;

  g_return_if_fail (record != NULL);
  g_return_if_fail (summary != NULL);

  if (params == NULL)
    {
      duel_analysis_params_init (&defaults);
      params = &defaults;
    }

  for (guint i = 0; i < summary->figures->len; i++)
    {
      const Figure *figure = &g_array_index (summary->figures, Figure, i);
      const DuelFigureInfo *info = duel_figure_lookup (figure->key);

      duel_test_record_set_figure (record, figure->key, figure->value,
                                   info ? info->unit : "",
                                   info ? info->better : DUEL_BETTER_NONE);
    }

  /* The typed summary travels beside the JSON, so that this process's
   * readers never read back what it wrote. */
  g_clear_pointer (&record->typed_summary, g_bytes_unref);
  if (summary->typed != NULL)
    record->typed_summary = g_bytes_ref (summary->typed);

  details = duel_test_record_get_details (record);
  json_object_set_string_member (details, "analysis", duel_analysis_kind_to_string (kind));
  json_object_set_member (details, "analysis_parameters", duel_analysis_params_to_json (params));
  members = json_object_get_members (summary->details);
  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (details, l->data,
                            json_node_copy (json_object_get_member (summary->details, l->data)));
}

DuelSummary *
duel_analysis_resummarize (const DuelTestRecord  *record,
                           DuelAnalysisKind      *out_kind,
                           GError               **error)
{
  DuelAnalysisKind kind = DUEL_ANALYSIS_NONE;
  DuelAnalysisParams params;
  JsonObject *details = NULL;

  g_return_val_if_fail (record != NULL, NULL);

  details = duel_json_get_object (record->summary, "details");

  if (details != NULL && json_object_has_member (details, "analysis"))
    {
      const char *name = json_object_get_string_member_with_default (details, "analysis", NULL);

      if (!duel_analysis_kind_from_string (name, &kind))
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                       _("The test “%s” names an unknown analysis “%s”."),
                       record->name, name ? name : "");
          return NULL;
        }
    }
  else
    kind = duel_analysis_kind_for_test_name (record->name);

  if (kind == DUEL_ANALYSIS_NONE)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The test “%s” is not part of a preset, so it has no summary figures."),
                   record->name);
      return NULL;
    }

  if (!duel_analysis_params_from_json (duel_json_get_object (details, "analysis_parameters"), &params, error))
    return NULL;

  if (out_kind != NULL)
    *out_kind = kind;
  return duel_analysis_summarize (record, kind, &params);
}

/* A fill's stored analysis from before the falls: its parameters have no
 * fall_min_drop. */
static void
update_fill_analysis (DuelTestRecord *record)
{
  JsonObject *details = duel_json_get_object (record->summary, "details");
  JsonObject *params = duel_json_get_object (details, "analysis_parameters");
  const char *analysis = details != NULL ? duel_json_get_string (details, "analysis") : NULL;
  g_autoptr(DuelSummary) summary = NULL;
  DuelAnalysisParams parsed;
  DuelAnalysisKind kind;

  if (params == NULL || json_object_has_member (params, "fall_min_drop") ||
      g_strcmp0 (analysis, duel_analysis_kind_to_string (DUEL_ANALYSIS_SATURATION)) != 0 ||
      !duel_analysis_params_from_json (params, &parsed, NULL))
    return;
  summary = duel_analysis_resummarize (record, &kind, NULL);
  if (summary != NULL)
    duel_analysis_apply (record, kind, &parsed, summary);
}

void
duel_analysis_update_result (DuelResult *result)
{
  GPtrArray *tests;

  g_return_if_fail (DUEL_IS_RESULT (result));

  if (duel_result_is_published (result))
    return;
  tests = duel_result_get_tests (result);
  for (guint i = 0; i < tests->len; i++)
    update_fill_analysis (g_ptr_array_index (tests, i));
}


/* Every module's figures, in report order, as one array. */
static GArray *
all_figures (void)
{
  static gsize once = 0;
  static GArray *figures;

  if (g_once_init_enter (&once))
    {
      GArray *all = g_array_new (FALSE, FALSE, sizeof (DuelFigureInfo));

      for (guint i = 0; i < G_N_ELEMENTS (all_ops); i++)
        g_array_append_vals (all, all_ops[i]->figures, all_ops[i]->n_figures);
      figures = all;
      g_once_init_leave (&once, 1);
    }
  return figures;
}

const DuelFigureInfo *
duel_figure_get_all (guint *out_n)
{
  GArray *figures = all_figures ();

  if (out_n != NULL)
    *out_n = figures->len;
  return (const DuelFigureInfo *) (gpointer) figures->data;
}

const DuelFigureInfo *
duel_figure_lookup (const char *key)
{
  guint n;
  const DuelFigureInfo *figures = duel_figure_get_all (&n);

  for (guint i = 0; i < n; i++)
    {
      if (g_strcmp0 (figures[i].key, key) == 0)
        return &figures[i];
    }
  return NULL;
}

/* "<prefix><read|write>_qd<depth>_<rest>": the direction and the depth. */
static gboolean
parse_depth_key (const char *key,
                 const char *prefix,
                 gboolean   *out_read,
                 guint      *out_depth,
                 char        rest[16])
{
  char direction[8] = "";
  int used = 0;

  if (!g_str_has_prefix (key, prefix) ||
      sscanf (key + strlen (prefix), "%7[a-z]_qd%u_%15[a-z0-9_]%n", direction, out_depth, rest, &used) != 3 ||
      key[strlen (prefix) + used] != '\0' ||
      !(g_str_equal (direction, "read") || g_str_equal (direction, "write")))
    return FALSE;
  *out_read = g_str_equal (direction, "read");
  return TRUE;
}

/* Beside compose_label(), which reads back what it spells; the QoS module
 * (duel-qos.c) names its figures with it too. */
char *
duel_analysis_qos_key (DuelDirection direction,
                       guint         queue_depth,
                       gboolean      mixed,
                       guint         p)
{
  static const char * const suffixes[DUEL_QOS_N_PERCENTILES + 1] = {
    "p99_us", "p99_9_us", "p99_99_us", "p99_999_us", "samples",
  };

  g_return_val_if_fail (p <= DUEL_QOS_N_PERCENTILES, NULL);

  return g_strdup_printf ("qos_%s%s_qd%u_%s", mixed ? "mix_" : "", _duel_analysis_direction_name (direction),
                          queue_depth, suffixes[p]);
}

/* Beside compose_label() too; the standard module (duel-standard.c) and
 * the standard chart name its figures with it. */
char *
duel_analysis_standard_key (DuelPattern   pattern,
                            DuelDirection direction,
                            guint         queue_depth,
                            gboolean      iops)
{
  const char *name = _duel_analysis_direction_name (direction);

  /* A sequential test's figure is its throughput, at any depth. */
  if (pattern == DUEL_PATTERN_SEQUENTIAL)
    return g_strdup_printf ("seq_%s_mbps", name);
  return g_strdup_printf ("rand_%s_qd%u_%s", name, queue_depth, iops ? "iops" : "mbps");
}

/* By duel_analysis_qos_key()'s index: the four percentiles, then the samples. */
static const char * const qos_words[DUEL_QOS_N_PERCENTILES + 1] = {
  /* xgettext:no-c-format */
  N_("99 % latency"),
  /* xgettext:no-c-format */
  N_("99.9 % latency"),
  /* xgettext:no-c-format */
  N_("99.99 % latency"),
  /* xgettext:no-c-format */
  N_("99.999 % latency"),
  N_("latency samples"),
};

/* A label for a key of a documented pattern at a queue depth the tables do
 * not list ("rand_write_qd4_iops": a plain run's, an import's): words, not
 * the key. NULL when @key has no such pattern. */
static char *
compose_label (const char *key)
{
  char rest[16] = "";
  guint depth = 0;
  gboolean read, mixed;

  if (parse_depth_key (key, "rand_", &read, &depth, rest))
    {
      if (g_str_equal (rest, "iops"))
        /* TRANSLATORS: a random-access figure at a queue depth: "Random write QD4" */
        return g_strdup_printf (read ? _("Random read QD%u") : _("Random write QD%u"), depth);
      if (g_str_equal (rest, "mbps"))
        return g_strdup_printf (read ? _("Random read QD%u, throughput") : _("Random write QD%u, throughput"), depth);
      return NULL;
    }
  mixed = parse_depth_key (key, "qos_mix_", &read, &depth, rest);
  if (!mixed && !parse_depth_key (key, "qos_", &read, &depth, rest))
    return NULL;
  for (guint p = 0; p <= DUEL_QOS_N_PERCENTILES; p++)
    {
      g_autofree char *spelled = duel_analysis_qos_key (read ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE,
                                                        depth, mixed, p);

      if (!g_str_equal (key, spelled))
        continue;
      if (mixed)
        /* TRANSLATORS: "Mixed QD4, reads, 99 % latency" */
        return g_strdup_printf (read ? _("Mixed QD%u, reads, %s") : _("Mixed QD%u, writes, %s"),
                                depth, _(qos_words[p]));
      /* TRANSLATORS: "Random read QD4, 99 % latency" */
      return g_strdup_printf (read ? _("Random read QD%u, %s") : _("Random write QD%u, %s"),
                              depth, _(qos_words[p]));
    }
  return NULL;
}

/* The unit of a key of a documented pattern at a queue depth the tables do
 * not list (compose_label()'s keys: an imported fio job's), "" for others:
 * "47,798 IOPS", never a bare "47797.8". */
static const char *
composed_unit (const char *key)
{
  char rest[16] = "";
  guint depth = 0;
  gboolean read;

  if (parse_depth_key (key, "rand_", &read, &depth, rest))
    return g_str_equal (rest, "iops") ? "IOPS" : g_str_equal (rest, "mbps") ? "MB/s" : "";
  if (parse_depth_key (key, "qos_mix_", &read, &depth, rest) || parse_depth_key (key, "qos_", &read, &depth, rest))
    return g_str_equal (rest, "samples") ? "I/Os" : g_str_has_suffix (rest, "_us") ? "us" : "";
  return "";
}

const char *
duel_figure_get_label (const char *key)
{
  const DuelFigureInfo *info = duel_figure_lookup (key);
  g_autofree char *composed = NULL;

  if (info != NULL)
    return _(info->label);
  /* Interned: a label lives as long as the process, as a table's does. */
  composed = compose_label (key);
  return composed != NULL ? g_intern_string (composed) : key;
}

gboolean
duel_figure_is_latency (const char *key)
{
  g_return_val_if_fail (key != NULL, FALSE);

  return g_str_has_prefix (key, "qos_") || g_str_equal (key, "worst_case_iops_min");
}

/* What the consistency figures measure, after the workload's words. */
static const struct {
  const char *key;
  const char *words;
} consistency_words[] = {
  { "consistency_mean_iops",    N_("mean IOPS") },
  { "consistency_read_iops",    N_("mean read IOPS") },
  { "consistency_write_iops",   N_("mean write IOPS") },
  /* xgettext:no-c-format */
  { "consistency_slowest_iops", N_("99.9 % slowest interval") },
};

/* "QD32", or with jobs at once "QD32 × 16 jobs" (CrystalDiskMark's Q32T16). */
static char *
describe_queue (guint depth,
                guint jobs)
{
  if (jobs > 1)
    /* TRANSLATORS: a queue depth per job, then how many jobs run at once */
    return g_strdup_printf (_("QD%u × %u jobs"), depth, jobs);
  return g_strdup_printf ("QD%u", depth);
}

/* The tables' labels state the presets' workloads ("Mixed 50/50", "4K
 * random read QD32"); a record of another workload (a custom 70/30 mix, an
 * 8 KiB QoS test, a sequential one) gets its own words in their place.
 * NULL when the table's label is true of @workload. */
static char *
label_for_workload (const char         *key,
                    const DuelWorkload *workload)
{
  gboolean mixed = duel_workload_is_mixed (workload);
  gboolean preset_like = workload->block_size == 4096 && workload->pattern == DUEL_PATTERN_RANDOM &&
                         (!mixed || workload->read_percent == 50) && workload->numjobs <= 1;
  g_autofree char *access = NULL;
  g_autofree char *queue = NULL;
  char rest[16] = "";
  guint depth = 0;
  gboolean read, mix_key;

  if (preset_like)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (consistency_words); i++)
    if (g_str_equal (key, consistency_words[i].key))
      {
        access = duel_workload_describe_access (workload);
        /* TRANSLATORS: a workload, then what was measured: "4 KiB random 70/30 read/write, mean IOPS" */
        return g_strdup_printf (_("%s, %s"), access, _(consistency_words[i].words));
      }

  if (parse_depth_key (key, "rand_", &read, &depth, rest))
    {
      access = duel_workload_describe_access (workload);
      queue = describe_queue (depth, workload->numjobs);
      if (g_str_equal (rest, "iops"))
        /* TRANSLATORS: a workload and its queue: "4 KiB random read QD32 × 16 jobs" */
        return g_strdup_printf (_("%s %s"), access, queue);
      if (g_str_equal (rest, "mbps"))
        /* TRANSLATORS: a workload and its queue, then: its throughput */
        return g_strdup_printf (_("%s %s, throughput"), access, queue);
      return NULL;
    }
  mix_key = parse_depth_key (key, "qos_mix_", &read, &depth, rest);
  if (!mix_key && !parse_depth_key (key, "qos_", &read, &depth, rest))
    return NULL;
  for (guint p = 0; p <= DUEL_QOS_N_PERCENTILES; p++)
    {
      g_autofree char *spelled = duel_analysis_qos_key (read ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE,
                                                        depth, mix_key, p);

      if (!g_str_equal (key, spelled))
        continue;
      access = duel_workload_describe_access (workload);
      queue = describe_queue (depth, workload->numjobs);
      if (mix_key)
        /* TRANSLATORS: a workload, its queue, then the reads' or writes' figure:
         * "4 KiB random 70/30 read/write QD32, reads, 99 % latency" */
        return g_strdup_printf (read ? _("%s %s, reads, %s") : _("%s %s, writes, %s"),
                                access, queue, _(qos_words[p]));
      /* TRANSLATORS: a workload, its queue, then the figure: "8 KiB random read QD32, 99 % latency" */
      return g_strdup_printf (_("%s %s, %s"), access, queue, _(qos_words[p]));
    }
  return NULL;
}

const char *
duel_figure_get_workload_label (const char         *key,
                                const DuelWorkload *workload,
                                gboolean            completion)
{
  g_autofree char *own = NULL;
  g_autofree char *label = NULL;
  const char *base;

  g_return_val_if_fail (key != NULL, NULL);

  own = workload != NULL ? label_for_workload (key, workload) : NULL;
  base = own != NULL ? g_intern_string (own) : duel_figure_get_label (key);
  if (!completion || !duel_figure_is_latency (key))
    return base;
  /* TRANSLATORS: a latency figure of a test imported from fio's default
   * output, which holds the completion latency (fio's clat, the submission
   * left out), not the latency from submission to completion:
   * "Random read QD4, 99 % latency (completion latency)" */
  label = g_strdup_printf (_("%s (completion latency)"), base);
  /* Interned, as duel_figure_get_label()'s composed labels are. */
  return g_intern_string (label);
}

const char *
duel_figure_get_record_label (const char           *key,
                              const DuelTestRecord *record)
{
  g_return_val_if_fail (key != NULL, NULL);

  if (record == NULL)
    return duel_figure_get_label (key);
  return duel_figure_get_workload_label (key, &record->workload, record->latency_kind == DUEL_LATENCY_COMPLETION);
}

/* ngettext's count for a figure (rounded as printed). */
static gulong
count_for_plural (double value)
{
  return value >= 0 && value < (double) G_MAXULONG ? (gulong) (value + 0.5) : 0;
}

/* "112,540 IOPS": the number as the locale writes it, a space, the unit. */
static char *
with_unit (double      value,
           int         decimals,
           const char *unit)
{
  g_autofree char *number = duel_number_format (value, decimals);

  return g_strconcat (number, " ", unit, NULL);
}

char *
duel_figure_format (const char *key,
                    double      value)
{
  const DuelFigureInfo *info = duel_figure_lookup (key);
  const char *unit = info ? info->unit : composed_unit (key);

  /* A QoS percentile is only left out for too few samples. */
  if (!isfinite (value) && g_str_has_prefix (key, "qos_") && strcmp (unit, "us") == 0)
    return g_strdup (_("not enough samples"));
  if (!isfinite (value))
    /* TRANSLATORS: a figure that could not be computed */
    return g_strdup (_("n/a"));
  if (strcmp (unit, "IOPS") == 0)
    return with_unit (value, 0, "IOPS");
  if (strcmp (unit, "MB/s") == 0)
    return duel_rate_format (value);
  if (strcmp (unit, "GB") == 0)
    return with_unit (value, 3, "GB");
  if (strcmp (unit, "%") == 0)
    return with_unit (value, 1, "%");
  /* Latencies: µs up to 10 ms, then ms ("111.7 ms", not "111,673.3 µs"). */
  if (strcmp (unit, "us") == 0 && fabs (value) >= 10000)
    return with_unit (value / 1000, 1, "ms");
  if (strcmp (unit, "us") == 0)
    return with_unit (value, 1, "µs");
  if (strcmp (unit, "ratio") == 0)
    return duel_number_format (value, 2);
  /* A duration: tenths where they count. */
  if (strcmp (unit, "s") == 0)
    return with_unit (value, value < 100 ? 1 : 0, "s");
  /* Counts, in the reader's language. */
  if (strcmp (unit, "rounds") == 0 || strcmp (unit, "intervals") == 0 || strcmp (unit, "I/Os") == 0)
    {
      g_autofree char *number = duel_number_format (value, 0);
      gulong n = count_for_plural (value);

      if (strcmp (unit, "rounds") == 0)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s round", "%s rounds", n), number);
      if (strcmp (unit, "intervals") == 0)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s interval", "%s intervals", n), number);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s I/O", "%s I/Os", n), number);
    }
  /* The one figure without a unit is a yes or no. */
  if (strcmp (key, "ss_steady") == 0 && (value == 0 || value == 1))
    return g_strdup (value != 0 ? _("yes") : _("no"));
  if (unit[0] != '\0')
    return with_unit (value, 0, unit);
  return g_strdup_printf ("%g", value);
}

/* ---- Above the link -------------------------------------------------------- */

char *
duel_analysis_dup_ceiling_note (const char *label,
                                double      mb_s,
                                double      ceiling_bytes_per_second)
{
  g_autofree char *value = duel_rate_format (mb_s);
  g_autofree char *ceiling = duel_rate_format_rounded (ceiling_bytes_per_second / 1e6);

  /* TRANSLATORS: a figure faster than the drive's interface can carry: the
   * figure's name, its value, the interface's ceiling ("Sequential read:
   * 2,000.0 MB/s is faster than the link (600 MB/s): a cache, not the drive.") */
  return g_strdup_printf (_("%s: %s is faster than the link (%s): a cache, not the drive."), label, value, ceiling);
}

char **
duel_analysis_dup_ceiling_notes (const DuelTestRecord *record,
                                 const DuelSummary    *summary,
                                 double                ceiling_bytes_per_second)
{
  g_autoptr(GStrvBuilder) notes = g_strv_builder_new ();

  g_return_val_if_fail (record != NULL, NULL);

  if (!(ceiling_bytes_per_second > 0))
    return g_strv_builder_end (notes);
  if (summary != NULL)
    {
      for (guint i = 0; i < duel_summary_get_n_figures (summary); i++)
        {
          const char *key = duel_summary_get_key (summary, i);
          const DuelFigureInfo *info = duel_figure_lookup (key);
          double value = duel_summary_get_value (summary, i);

          if (info == NULL || strcmp (info->unit, "MB/s") != 0 ||
              !duel_link_ceiling_is_exceeded (ceiling_bytes_per_second, value * 1e6))
            continue;
          g_autofree char *note = duel_analysis_dup_ceiling_note (duel_figure_get_label (key), value,
                                                                  ceiling_bytes_per_second);

          g_strv_builder_add (notes, note);
        }
      return g_strv_builder_end (notes);
    }
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      double bytes_per_second = duel_test_record_get_bytes_per_second (record, d);
      g_autofree char *note = NULL;

      if (!duel_link_ceiling_is_exceeded (ceiling_bytes_per_second, bytes_per_second))
        continue;
      note = duel_analysis_dup_ceiling_note (d == DUEL_DIRECTION_READ ? _("Read bandwidth") : _("Write bandwidth"),
                                             bytes_per_second / 1e6, ceiling_bytes_per_second);
      g_strv_builder_add (notes, note);
    }
  return g_strv_builder_end (notes);
}
