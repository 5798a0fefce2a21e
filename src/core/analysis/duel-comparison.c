/* duel-comparison.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-comparison.h"
#include "review/duel-review-test.h"
#include "device/duel-device-link.h"
#include "device/duel-filesystem-note.h"
#include "duel-json.h"
#include "duel-number.h"
#include "duel-size.h"
#include "duel-error.h"

/* Values this close count as a tie: figures come from histograms and
 * interval counters, whose precision is far coarser. */
#define TIE_EPSILON 1e-9

/* What a fairness warning is about, for grouping: its cause (an untranslated
 * phrase, N_()) and its test's title; a warning with no cause stands alone. */
typedef struct
{
  const char *cause;
  const char *title;      /* the comparison's own string, or NULL */
} WarningOrigin;

struct _DuelComparison
{
  GObject     parent_instance;

  DuelResult *results[DUEL_COMPARISON_MAX_DRIVES];
  char       *names[DUEL_COMPARISON_MAX_DRIVES];
  guint       n_drives;
  GArray     *rows;        /* DuelComparisonRow */
  GPtrArray  *tests;       /* char*, NULL-terminated */
  GPtrArray  *warnings;    /* char*, NULL-terminated */
  GArray     *origins;     /* WarningOrigin, one per warning: how they group */
  char       *missing_causes[DUEL_COMPARISON_MAX_DRIVES];  /* "X has no results", made on first use */
  GHashTable *notes;       /* test name → GPtrArray of char*, NULL-terminated */
  GHashTable *section_titles;   /* test name → its heading, made on first use */
  GArray     *headline;   /* guint: indices of the rows the review leads with */
  gboolean    has_rated;
  /* The drives some row rates, found once on the first ask (the rows are
   * made by then); n_rated_drives -1 until then. */
  gint        n_rated_drives;
  guint       rated_drives[DUEL_COMPARISON_MAX_DRIVES];
  guint       rated_attached[DUEL_COMPARISON_MAX_DRIVES];   /* bit per rated_keys[] entry */
};

G_DEFINE_FINAL_TYPE (DuelComparison, duel_comparison, G_TYPE_OBJECT)

static void
row_clear (gpointer data)
{
  DuelComparisonRow *row = data;

  g_free (row->test);
  g_free (row->key);
  g_free (row->label);
  g_free (row->unit);
  for (guint i = 0; i < DUEL_COMPARISON_MAX_DRIVES; i++)
    g_free (row->text[i]);
}

/* No relative difference for counts (rounds, intervals, I/Os) and yes/no
 * figures, which say how a test went, not how fast; nor for figures that
 * are themselves percentages (the cliff at 18 % against 104 % is not
 * "+461 %"): the two values side by side say it. */
static gboolean
unit_has_no_difference (const char *unit)
{
  return unit == NULL || *unit == '\0' || g_strcmp0 (unit, "rounds") == 0 ||
         g_strcmp0 (unit, "intervals") == 0 || g_strcmp0 (unit, "I/Os") == 0 || g_strcmp0 (unit, "%") == 0;
}

static void
duel_comparison_finalize (GObject *object)
{
  DuelComparison *self = (DuelComparison *) object;

  for (guint i = 0; i < DUEL_COMPARISON_MAX_DRIVES; i++)
    {
      g_clear_object (&self->results[i]);
      g_clear_pointer (&self->names[i], g_free);
      g_clear_pointer (&self->missing_causes[i], g_free);
    }
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->tests, g_ptr_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->origins, g_array_unref);
  g_clear_pointer (&self->notes, g_hash_table_unref);
  g_clear_pointer (&self->section_titles, g_hash_table_unref);
  g_clear_pointer (&self->headline, g_array_unref);

  G_OBJECT_CLASS (duel_comparison_parent_class)->finalize (object);
}

static void
duel_comparison_class_init (DuelComparisonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_comparison_finalize;
}

static void
duel_comparison_init (DuelComparison *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (DuelComparisonRow));
  g_array_set_clear_func (self->rows, row_clear);
  self->n_rated_drives = -1;
  self->tests = g_ptr_array_new_with_free_func (g_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->origins = g_array_new (FALSE, FALSE, sizeof (WarningOrigin));
  self->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->section_titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

DuelWinner
duel_comparison_decide (double     a,
                        double     b,
                        DuelBetter better)
{
  double scale;

  if (better == DUEL_BETTER_NONE || !isfinite (a) || !isfinite (b))
    return DUEL_WINNER_NONE;
  scale = MAX (fabs (a), fabs (b));
  if (fabs (a - b) <= TIE_EPSILON * MAX (scale, 1e-300))
    return DUEL_WINNER_TIE;
  if (better == DUEL_BETTER_HIGHER)
    return a > b ? DUEL_WINNER_A : DUEL_WINNER_B;
  return a < b ? DUEL_WINNER_A : DUEL_WINNER_B;
}

/* Which drives hold @row's best value: a bit each; none when fewer than two
 * values are there, the row has no better direction, or all are equal. */
static guint
decide_winners (const DuelComparisonRow *row,
                guint                    n_drives)
{
  double best = NAN;
  guint n_values = 0, mask = 0, n_best = 0;

  if (row->better == DUEL_BETTER_NONE)
    return 0;
  for (guint d = 0; d < n_drives; d++)
    {
      if (!row->has_value[d] || !isfinite (row->value[d]))
        continue;
      n_values++;
      if (!isfinite (best) || (row->better == DUEL_BETTER_HIGHER ? row->value[d] > best : row->value[d] < best))
        best = row->value[d];
    }
  if (n_values < 2)
    return 0;
  for (guint d = 0; d < n_drives; d++)
    if (row->has_value[d] && isfinite (row->value[d]) &&
        duel_comparison_decide (row->value[d], best, row->better) == DUEL_WINNER_TIE)
      {
        mask |= 1u << d;
        n_best++;
      }
  return n_best == n_values ? 0 : mask;
}

/* The winner columns of a row from its values: the mask for any number of
 * drives, the A/B verdict and the difference for two. */
static void
settle_row (DuelComparisonRow *row,
            guint              n_drives)
{
  row->winners = decide_winners (row, n_drives);
  row->winner = n_drives == 2 ? duel_comparison_decide (row->value[0], row->value[1], row->better)
                              : DUEL_WINNER_NONE;
  row->difference_pct = NAN;
  if (n_drives == 2 && row->kind == DUEL_COMPARISON_ROW_FIGURE && row->has_value[0] && row->has_value[1] &&
      row->value[0] != 0 && !unit_has_no_difference (row->unit))
    row->difference_pct = (row->value[1] - row->value[0]) / fabs (row->value[0]) * 100.0;
}

gboolean
duel_comparison_row_is_best (const DuelComparisonRow *row,
                             guint                    drive)
{
  g_return_val_if_fail (row != NULL, FALSE);

  return drive < DUEL_COMPARISON_MAX_DRIVES && (row->winners & (1u << drive)) != 0;
}

/* ---- Reading results ------------------------------------------------------ */

typedef struct
{
  const char *key;
  double      value;      /* NAN for a stored null; the best pass of a test run in passes */
  const char *unit;
  DuelBetter  better;
  guint       n_passes;   /* passes with a value; 0: the test ran once */
  double      mean;       /* of the passes; NAN when it ran once */
  double      min;
  double      max;
} Figure;

static DuelBetter
better_from_string (const char *text)
{
  if (g_strcmp0 (text, "higher") == 0)
    return DUEL_BETTER_HIGHER;
  if (g_strcmp0 (text, "lower") == 0)
    return DUEL_BETTER_LOWER;
  return DUEL_BETTER_NONE;
}

/* The record's summary figures in file order; the loader has checked types. */
static GArray *
record_figures (const DuelTestRecord *record)
{
  GArray *figures = g_array_new (FALSE, TRUE, sizeof (Figure));
  JsonNode *node;
  JsonArray *array;

  if (record->summary == NULL)
    return figures;
  node = json_object_get_member (record->summary, "figures");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return figures;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *object;
      Figure figure;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      object = json_node_get_object (element);
      figure.key = duel_json_get_string (object, "key");
      if (figure.key == NULL)
        continue;
      if (!duel_json_get_number (object, "value", &figure.value))
        figure.value = NAN;
      figure.unit = duel_json_get_string (object, "unit");
      figure.better = better_from_string (duel_json_get_string (object, "better"));
      figure.n_passes = 0;
      figure.mean = figure.min = figure.max = NAN;
      g_array_append_val (figures, figure);
    }
  return figures;
}

static const Figure *
find_figure (GArray     *figures,
             const char *key)
{
  for (guint i = 0; i < figures->len; i++)
    {
      const Figure *figure = &g_array_index (figures, Figure, i);
      if (g_strcmp0 (figure->key, key) == 0)
        return figure;
    }
  return NULL;
}

/* Every record of @result named @test, in file order: one, or a test's
 * passes. */
static GPtrArray *
find_passes (DuelResult *result,
             const char *test)
{
  GPtrArray *tests = duel_result_get_tests (result);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (g_strcmp0 (record->name, test) == 0)
        g_ptr_array_add (found, record);
    }
  return found;
}

/* The pass whose figures stand for a test run in passes: the best by its
 * first figure that has a better side (the mean IOPS of a mix, the
 * throughput of a CrystalDiskMark step), as CrystalDiskMark picks its best
 * run. Every figure shown is then that pass's, so that figures computed
 * from one another (a consistency ratio, its slowest interval and mean)
 * agree. -1 when no pass has a value for it. */
static int
best_pass (GArray **lists,
           guint    n_lists)
{
  const char *lead = NULL;
  DuelBetter better = DUEL_BETTER_NONE;
  double best = NAN;
  int chosen = -1;

  for (guint r = 0; r < n_lists && lead == NULL; r++)
    for (guint i = 0; i < lists[r]->len && lead == NULL; i++)
      {
        const Figure *figure = &g_array_index (lists[r], Figure, i);

        better = figure->better;
        if (better == DUEL_BETTER_NONE && duel_figure_lookup (figure->key) != NULL)
          better = duel_figure_lookup (figure->key)->better;
        if (better != DUEL_BETTER_NONE)
          lead = figure->key;
      }
  if (lead == NULL)
    return -1;
  for (guint r = 0; r < n_lists; r++)
    {
      const Figure *figure = find_figure (lists[r], lead);

      if (figure == NULL || !isfinite (figure->value))
        continue;
      if (chosen < 0 || (better == DUEL_BETTER_LOWER ? figure->value < best : figure->value > best))
        {
          best = figure->value;
          chosen = (int) r;
        }
    }
  return chosen;
}

/* The figures of a test run in @records: those of its one record, or the
 * best pass's (best_pass()), each with the mean and spread of every pass.
 * Keys in the order the passes first hold them. */
static GArray *
pass_figures (GPtrArray *records,
              guint     *out_best)
{
  g_autofree GArray **lists = NULL;
  GArray *merged;
  int best;

  *out_best = 0;
  if (records->len == 0)
    return g_array_new (FALSE, TRUE, sizeof (Figure));
  if (records->len == 1)
    return record_figures (g_ptr_array_index (records, 0));

  lists = g_new0 (GArray *, records->len);
  for (guint r = 0; r < records->len; r++)
    lists[r] = record_figures (g_ptr_array_index (records, r));
  best = best_pass (lists, records->len);
  *out_best = best >= 0 ? (guint) best : 0;

  merged = g_array_new (FALSE, TRUE, sizeof (Figure));
  for (guint r = 0; r < records->len; r++)
    {
      GArray *figures = lists[r];

      for (guint i = 0; i < figures->len; i++)
        {
          const Figure *figure = &g_array_index (figures, Figure, i);
          Figure *into = (Figure *) find_figure (merged, figure->key);

          if (into == NULL)
            {
              Figure fresh = *figure;

              fresh.value = fresh.mean = fresh.min = fresh.max = NAN;
              fresh.n_passes = 0;
              if (fresh.better == DUEL_BETTER_NONE && duel_figure_lookup (fresh.key) != NULL)
                fresh.better = duel_figure_lookup (fresh.key)->better;
              g_array_append_val (merged, fresh);
              into = &g_array_index (merged, Figure, merged->len - 1);
            }
          if ((int) r == best)
            into->value = figure->value;
          if (!isfinite (figure->value))
            continue;
          /* mean holds the sum until the end. */
          if (into->n_passes++ == 0)
            {
              into->min = into->max = into->mean = figure->value;
              continue;
            }
          into->min = MIN (into->min, figure->value);
          into->max = MAX (into->max, figure->value);
          into->mean += figure->value;
        }
    }
  for (guint i = 0; i < merged->len; i++)
    {
      Figure *figure = &g_array_index (merged, Figure, i);

      if (figure->n_passes == 0)
        continue;
      figure->mean /= figure->n_passes;
      /* No figure has a better side: each is the best of its own passes. */
      if (best < 0)
        figure->value = figure->better == DUEL_BETTER_LOWER ? figure->min : figure->max;
    }
  for (guint r = 0; r < records->len; r++)
    g_array_unref (lists[r]);
  return merged;
}

/* A stored record without figures (an older file, a cancelled run) is
 * summarised again from what it holds, when its analysis is known. */
static void
ensure_summary (DuelTestRecord *record)
{
  g_autoptr(DuelSummary) summary = NULL;
  DuelAnalysisKind kind = DUEL_ANALYSIS_NONE;
  DuelAnalysisParams params;
  JsonNode *figures;

  if (record->summary != NULL)
    {
      figures = json_object_get_member (record->summary, "figures");
      if (figures != NULL && JSON_NODE_HOLDS_ARRAY (figures) &&
          json_array_get_length (json_node_get_array (figures)) > 0)
        return;
    }
  if (duel_series_get_length (record->series) == 0)
    return;

  summary = duel_analysis_resummarize (record, &kind, NULL);
  if (summary == NULL || kind == DUEL_ANALYSIS_NONE)
    return;
  duel_analysis_params_init (&params);
  duel_analysis_apply (record, kind, &params, summary);
}

/* ---- Identity ------------------------------------------------------------- */

static char *
format_capacity (double bytes)
{
  if (bytes >= 1e12)
    return g_strdup_printf ("%.2f TB", bytes / 1e12);
  if (bytes >= 1e9)
    return g_strdup_printf ("%.0f GB", bytes / 1e9);
  return g_strdup_printf ("%.0f MB", bytes / 1e6);
}

static JsonObject *
first_hop (JsonObject *link)
{
  JsonNode *node;
  JsonArray *hops;

  if (link == NULL)
    return NULL;
  node = json_object_get_member (link, "hops");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  hops = json_node_get_array (node);
  if (json_array_get_length (hops) == 0)
    return NULL;
  node = json_array_get_element (hops, 0);
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* "NVMe, PCIe 3.0 x4" from the device's transport and the link's first hop. */
static char *
describe_interface (JsonObject *device)
{
  g_autoptr(GString) text = g_string_new (NULL);
  JsonObject *link = duel_json_get_object (device, "link");
  JsonObject *hop = first_hop (link);
  const char *transport = duel_json_get_string (device, "transport");
  const char *explicit = duel_json_get_string (device, "interface");
  const char *line_rate = duel_json_get_string (link, "line_rate");
  double width;

  if (explicit != NULL)
    return g_strdup (explicit);

  if (transport != NULL && g_strcmp0 (transport, "unknown") != 0)
    {
      if (g_ascii_strcasecmp (transport, "nvme") == 0)
        g_string_append (text, "NVMe");
      else
        {
          g_autofree char *upper = g_ascii_strup (transport, -1);
          g_string_append (text, upper);
        }
    }

  if (hop != NULL)
    {
      const char *generation = duel_json_get_string (hop, "generation");
      double gt_s;

      if (text->len > 0)
        g_string_append (text, ", ");
      if (generation != NULL)
        g_string_append (text, generation);
      else if (duel_json_get_number (hop, "current_gt_s", &gt_s))
        g_string_append_printf (text, "PCIe %g GT/s", gt_s);
      else
        g_string_append (text, "PCIe");
      if (duel_json_get_number (hop, "current_width", &width))
        g_string_append_printf (text, " x%u", (guint) width);
    }
  else if (line_rate != NULL)
    {
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append (text, line_rate);
    }

  if (text->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

typedef enum
{
  IDENTITY_MODEL,
  IDENTITY_FIRMWARE,
  IDENTITY_TARGET,
  IDENTITY_CAPACITY,
  IDENTITY_FORM_FACTOR,
  IDENTITY_INTERFACE,
  IDENTITY_SLOT,
  IDENTITY_CEILING,
  N_IDENTITY
} IdentityKey;

/* The words the reference drives' files hold (the files in data/reference,
 * device.form_factor and device.slot), which only these files write: the
 * catalogue translates them where the rows show them (test-user-text checks
 * that every one of the files' words is here). */
static const char * const reference_words[] G_GNUC_UNUSED = {
  N_("add-in card (AIC)"),
  N_("M.2 with heatsink, in an M.2-to-PCIe adapter card"),
  N_("first PCIe x16 slot (CPU lanes)"),
};

static const struct
{
  const char *key;
  const char *label;
} identity_rows[N_IDENTITY] = {
  { "model",       N_("Model") },
  { "firmware",    N_("Firmware") },
  { "target",      N_("Tested on") },
  { "capacity",    N_("Capacity") },
  { "form_factor", N_("Form factor") },
  { "interface",   N_("Interface and link") },
  { "slot",        N_("Slot") },
  { "ceiling",     N_("Interface ceiling") },
};

/* The text of one identity row for @result and, where it is a quantity, its value. */
static char *
identity_text (DuelResult  *result,
               IdentityKey  key,
               double      *out_value)
{
  JsonObject *device = duel_result_get_device (result);
  const char *text;
  double value;

  *out_value = NAN;
  switch (key)
    {
    case IDENTITY_MODEL:
      text = duel_json_get_string (device, "model");
      return text ? g_strstrip (g_strdup (text)) : NULL;

    case IDENTITY_FIRMWARE:
      text = duel_json_get_string (device, "firmware");
      return text ? g_strstrip (g_strdup (text)) : NULL;

    case IDENTITY_TARGET:
      /* A file's size and filesystem: the capacity below is the drive's
       * that holds it, not what was written to. */
      {
        const DuelTargetInfo *target = duel_result_get_target (result);
        const char *filesystem = duel_json_get_string (duel_json_get_object (device, "filesystem"), "type");
        g_autofree char *size = NULL;

        if (target == NULL)
          return NULL;
        if (target->kind != DUEL_TARGET_KIND_FILE)
          return g_strdup (_("the device itself"));
        size = duel_format_size_as_given (target->size_bytes);
        if (filesystem != NULL)
          /* TRANSLATORS: what a run measured: "256 MiB file on ext4" */
          return g_strdup_printf (_("%s file on %s"), size, filesystem);
        /* TRANSLATORS: what a run measured: "256 MiB file" */
        return g_strdup_printf (_("%s file"), size);
      }

    case IDENTITY_CAPACITY:
      /* The device layer writes capacity_bytes; a reference file size_bytes. */
      if (!duel_json_get_number (device, "capacity_bytes", &value) &&
          !duel_json_get_number (device, "size_bytes", &value) &&
          !duel_json_get_number (duel_json_get_object (device, "block_device"), "size_bytes", &value))
        {
          const DuelTargetInfo *target = duel_result_get_target (result);
          if (target == NULL || target->size_bytes == 0 || target->kind != DUEL_TARGET_KIND_BLOCK)
            return NULL;
          value = (double) target->size_bytes;
        }
      *out_value = value;
      {
        const DuelTargetInfo *target = duel_result_get_target (result);
        g_autofree char *capacity = format_capacity (value);

        /* A file's run: the drive's capacity, not what was measured ("Tested on" says that). */
        if (target != NULL && target->kind == DUEL_TARGET_KIND_FILE)
          /* TRANSLATORS: the capacity of the drive a file target lies on: "275 GB (the drive holding the file)" */
          return g_strdup_printf (_("%s (the drive holding the file)"), capacity);
        return g_steal_pointer (&capacity);
      }

    case IDENTITY_FORM_FACTOR:
      text = duel_json_get_string (device, "form_factor");
      return text != NULL ? g_strdup (_(text)) : NULL;

    case IDENTITY_INTERFACE:
      return describe_interface (device);

    case IDENTITY_SLOT:
      text = duel_json_get_string (device, "slot");
      return text != NULL ? g_strdup (_(text)) : NULL;

    case IDENTITY_CEILING:
      if (!duel_json_get_number (duel_json_get_object (device, "link"), "ceiling_bytes_per_second", &value) || value <= 0)
        return NULL;
      *out_value = value / 1e6;
      return duel_rate_format_rounded (value / 1e6);

    case N_IDENTITY:
    default:
      g_assert_not_reached ();
    }
}

static void
add_identity_rows (DuelComparison *self)
{
  gboolean any_file = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    {
      const DuelTargetInfo *target = duel_result_get_target (self->results[d]);

      any_file |= target != NULL && target->kind == DUEL_TARGET_KIND_FILE;
    }

  for (guint k = 0; k < N_IDENTITY; k++)
    {
      DuelComparisonRow row = { 0, };
      gboolean any = FALSE;

      /* Said only where a file was measured: a device was itself. */
      if (k == IDENTITY_TARGET && !any_file)
        continue;

      row.kind = DUEL_COMPARISON_ROW_IDENTITY;
      row.key = g_strdup (identity_rows[k].key);
      row.label = g_strdup (_(identity_rows[k].label));
      row.unit = g_strdup (k == IDENTITY_CEILING ? "MB/s" : k == IDENTITY_CAPACITY ? "bytes" : "");
      row.better = DUEL_BETTER_NONE;
      row.difference_pct = NAN;
      row.winner = DUEL_WINNER_NONE;

      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          row.value[d] = NAN;
          row.rated[d] = NAN;
          row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
          if (d < self->n_drives)
            {
              g_autofree char *text = identity_text (self->results[d], k, &row.value[d]);
              if (text != NULL && *text != '\0')
                {
                  row.text[d] = g_steal_pointer (&text);
                  row.has_value[d] = TRUE;
                  any = TRUE;
                }
            }
          if (row.text[d] == NULL)
            row.text[d] = g_strdup ("–");
        }

      if (!any)
        {
          row_clear (&row);
          continue;
        }
      g_array_append_val (self->rows, row);
    }
}

/* ---- Rated figures ---------------------------------------------------------- */

/* result.rated holds the vendor's figures under these keys (docs/result-format.md):
 * a rated key applies to a single-direction test of that access pattern. */
static const struct
{
  const char  *key;
  DuelPattern  pattern;
  DuelDirection direction;
  const char  *unit;         /* the figure unit it compares with */
} rated_keys[] = {
  { "seq_read_mb_s",   DUEL_PATTERN_SEQUENTIAL, DUEL_DIRECTION_READ,  "MB/s" },
  { "seq_write_mb_s",  DUEL_PATTERN_SEQUENTIAL, DUEL_DIRECTION_WRITE, "MB/s" },
  { "rand_read_iops",  DUEL_PATTERN_RANDOM,     DUEL_DIRECTION_READ,  "IOPS" },
  { "rand_write_iops", DUEL_PATTERN_RANDOM,     DUEL_DIRECTION_WRITE, "IOPS" },
};

/* Which direction a figure key speaks of, by its name: "read_iops" → read. */
static gboolean
key_direction (const char    *key,
               DuelDirection *out_direction)
{
  gboolean read = strstr (key, "read") != NULL;
  gboolean write = strstr (key, "write") != NULL;

  if (read == write)
    return FALSE;
  *out_direction = read ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
  return TRUE;
}

/* The deepest queue depth among @result's standard random tests of one
 * direction: vendors rate 4K IOPS at their deepest queue. */
static guint
deepest_random_depth (DuelResult    *result,
                      DuelDirection  direction)
{
  GPtrArray *tests = duel_result_get_tests (result);
  guint deepest = 0;

  for (guint i = 0; i < tests->len; i++)
    {
      const DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (duel_analysis_kind_for_test_name (record->name) == DUEL_ANALYSIS_STANDARD &&
          record->workload.pattern == DUEL_PATTERN_RANDOM &&
          (direction == DUEL_DIRECTION_READ ? !duel_workload_writes (&record->workload)
                                            : !duel_workload_reads (&record->workload)))
        deepest = MAX (deepest, record->workload.queue_depth);
    }
  return deepest;
}

/* The rated_keys[] entry a standard test's figure is measured against, or -1. */
static int
rated_key_for (DuelResult           *result,
               const DuelTestRecord *record,
               const Figure         *figure)
{
  DuelDirection test_direction, key_dir;

  if (record == NULL || figure->unit == NULL ||
      duel_analysis_kind_for_test_name (record->name) != DUEL_ANALYSIS_STANDARD)
    return -1;
  /* Rated figures are for one direction at a time: 100 % read or write. */
  if (duel_workload_is_mixed (&record->workload))
    return -1;
  test_direction = duel_workload_reads (&record->workload) ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
  if (key_direction (figure->key, &key_dir) && key_dir != test_direction)
    return -1;
  if (record->workload.pattern == DUEL_PATTERN_RANDOM &&
      record->workload.queue_depth != deepest_random_depth (result, test_direction))
    return -1;

  for (guint i = 0; i < G_N_ELEMENTS (rated_keys); i++)
    {
      if (rated_keys[i].pattern == record->workload.pattern &&
          rated_keys[i].direction == test_direction &&
          g_strcmp0 (rated_keys[i].unit, figure->unit) == 0)
        return (int) i;
    }
  return -1;
}

/* ---- Figures ---------------------------------------------------------------- */

/* Below a figure of a test run in passes: the mean of the passes and their
 * spread, rows of their own so that every table and export shows them.
 * Neither has a winner: the best pass decides, as CrystalDiskMark reports. */
static void
add_pass_rows (DuelComparison *self,
               guint           best_index)
{
  /* A copy: appending may move the array (the strings it points to stay). */
  const DuelComparisonRow best_row = g_array_index (self->rows, DuelComparisonRow, best_index);
  const DuelComparisonRow *best = &best_row;
  gboolean any = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    any |= best->n_passes[d] > 0;
  if (!any)
    return;

  for (guint part = 0; part < 2; part++)
    {
      DuelComparisonRow row = { 0, };

      row.kind = DUEL_COMPARISON_ROW_FIGURE;
      row.test = g_strdup (best->test);
      row.key = g_strconcat (best->key, part == 0 ? ".passes_mean" : ".passes_spread", NULL);
      row.label = part == 0
                  /* TRANSLATORS: a figure's label, then: the mean of a test's passes */
                  ? g_strdup_printf (_("%s, mean of the passes"), best->label)
                  /* TRANSLATORS: a figure's label, then: its lowest and highest pass */
                  : g_strdup_printf (_("%s, spread of the passes"), best->label);
      row.unit = g_strdup (part == 0 ? best->unit : "");
      row.better = DUEL_BETTER_NONE;
      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          row.value[d] = row.rated[d] = row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
          if (d >= self->n_drives || best->n_passes[d] == 0)
            {
              row.text[d] = g_strdup ("–");
              continue;
            }
          if (part == 0)
            {
              row.has_value[d] = isfinite (best->pass_mean[d]);
              row.value[d] = best->pass_mean[d];
              row.text[d] = duel_figure_format (best->key, best->pass_mean[d]);
            }
          else
            {
              g_autofree char *low = duel_figure_format (best->key, best->pass_min[d]);
              g_autofree char *high = duel_figure_format (best->key, best->pass_max[d]);

              if (best->pass_mean[d] != 0 && isfinite (best->pass_mean[d]))
                {
                  g_autofree char *share = duel_number_format ((best->pass_max[d] - best->pass_min[d]) /
                                                               fabs (best->pass_mean[d]) * 100.0, 0);

                  /* TRANSLATORS: the lowest and highest pass, and their distance as a share of the mean */
                  row.text[d] = g_strdup_printf (_("%s–%s (%s %%)"), low, high, share);
                }
              else
                row.text[d] = g_strdup_printf ("%s–%s", low, high);
            }
        }
      settle_row (&row, self->n_drives);
      g_array_append_val (self->rows, row);
    }
}

static void
add_figure_row (DuelComparison *self,
                const char     *test,
                const Figure   *figures[DUEL_COMPARISON_MAX_DRIVES],
                DuelTestRecord *records[DUEL_COMPARISON_MAX_DRIVES],
                const guint     best_pass[DUEL_COMPARISON_MAX_DRIVES],
                const guint     n_runs[DUEL_COMPARISON_MAX_DRIVES])
{
  DuelComparisonRow row = { 0, };
  const Figure *any = NULL;
  const DuelWorkload *workload = NULL;
  gboolean completion = FALSE, same_workload = TRUE;

  for (guint d = 0; d < self->n_drives && any == NULL; d++)
    any = figures[d];
  /* A latency figure says "completion latency" when every drive's is
   * fio's clat; a mix of both is a fairness warning (check_fairness()).
   * The label states the drives' workload where they all ran the same
   * (a custom 70/30 mix is not "50/50"); else the table's words. */
  for (guint d = 0; d < self->n_drives; d++)
    if (figures[d] != NULL && records[d] != NULL)
      {
        const DuelWorkload *w = &records[d]->workload;

        completion = workload == NULL ? records[d]->latency_kind == DUEL_LATENCY_COMPLETION
                                      : completion && records[d]->latency_kind == DUEL_LATENCY_COMPLETION;
        if (workload == NULL)
          workload = w;
        else if (w->block_size != workload->block_size || w->pattern != workload->pattern ||
                 w->read_percent != workload->read_percent)
          same_workload = FALSE;
      }

  row.kind = DUEL_COMPARISON_ROW_FIGURE;
  row.test = g_strdup (test);
  row.key = g_strdup (any->key);
  row.label = g_strdup (duel_figure_get_workload_label (any->key, same_workload ? workload : NULL, completion));
  row.unit = g_strdup (any->unit ? any->unit : "");
  row.better = any->better;
  if (row.better == DUEL_BETTER_NONE && duel_figure_lookup (any->key) != NULL)
    row.better = duel_figure_lookup (any->key)->better;

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    {
      row.value[d] = NAN;
      row.rated[d] = NAN;
      if (d < self->n_drives && figures[d] != NULL)
        {
          row.has_value[d] = isfinite (figures[d]->value);
          row.value[d] = figures[d]->value;
          row.text[d] = duel_figure_format (figures[d]->key, figures[d]->value);
          row.n_passes[d] = figures[d]->n_passes;
          if (n_runs[d] > 1)
            {
              row.best_pass[d] = best_pass[d] + 1;
              row.n_runs[d] = n_runs[d];
            }
        }
      row.pass_mean[d] = row.n_passes[d] > 0 ? figures[d]->mean : NAN;
      row.pass_min[d] = row.n_passes[d] > 0 ? figures[d]->min : NAN;
      row.pass_max[d] = row.n_passes[d] > 0 ? figures[d]->max : NAN;
      if (d < self->n_drives)
        {
          const Figure *figure = figures[d] ? figures[d] : any;
          int k = rated_key_for (self->results[d], records[d], figure);

          if (k >= 0 && duel_json_get_number (duel_result_get_rated (self->results[d]), rated_keys[k].key, &row.rated[d]))
            {
              row.has_rated[d] = TRUE;
              self->rated_attached[d] |= 1u << k;
              self->has_rated = TRUE;
            }
        }
      if (row.text[d] == NULL)
        row.text[d] = g_strdup ("–");
    }

  settle_row (&row, self->n_drives);

  g_array_append_val (self->rows, row);
  add_pass_rows (self, self->rows->len - 1);
}

/* The review's scores and the measured figures they are not: the review
 * does not say how its script computes a score, so a score is never set
 * against a drive's mean over the run or read score. Each has a row of its
 * own, shown even where one drive alone holds it (beside a reference,
 * figures one drive alone holds are otherwise left out). */
static const struct
{
  const char *score;
  const char *measured;
} review_scores[] = {
  { "review_write_score_iops", "write_iops_mean" },
  { "review_read_score_iops",  "read_score_iops" },
};

/* Whether @key gets a row though one drive alone holds it: a review score,
 * or the measured figure beside a drive that has the score instead. */
static gboolean
shown_alone (DuelComparison *self,
             GArray         *lists[DUEL_COMPARISON_MAX_DRIVES],
             const char     *key)
{
  for (guint k = 0; k < G_N_ELEMENTS (review_scores); k++)
    {
      if (g_strcmp0 (key, review_scores[k].score) == 0)
        return TRUE;
      if (g_strcmp0 (key, review_scores[k].measured) == 0)
        for (guint d = 0; d < self->n_drives; d++)
          if (find_figure (lists[d], review_scores[k].score) != NULL)
            return TRUE;
    }
  return FALSE;
}

static void
add_test_rows (DuelComparison *self,
               const char     *test)
{
  DuelTestRecord *records[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  GArray *lists[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  guint best_pass[DUEL_COMPARISON_MAX_DRIVES] = { 0, };
  guint n_runs[DUEL_COMPARISON_MAX_DRIVES] = { 0, };
  gboolean published = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autoptr(GPtrArray) passes = find_passes (self->results[d], test);

      lists[d] = pass_figures (passes, &best_pass[d]);
      n_runs[d] = passes->len;
      /* The record the figures are from: the best pass's. */
      records[d] = passes->len > 0 ? g_ptr_array_index (passes, best_pass[d]) : NULL;
      published |= duel_result_is_published (self->results[d]);
    }

  /* A's order, then what only later drives have. A figure one drive alone
   * holds is shown unless a published reference is among them, which
   * prints few; the review's scores and their measured neighbours are. */
  for (guint pass = 0; pass < self->n_drives; pass++)
    {
      for (guint i = 0; i < lists[pass]->len; i++)
        {
          const Figure *figure = &g_array_index (lists[pass], Figure, i);
          const Figure *row[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
          gboolean earlier = FALSE;
          guint holders = 0;

          for (guint d = 0; d < self->n_drives; d++)
            {
              row[d] = d == pass ? figure : find_figure (lists[d], figure->key);
              holders += row[d] != NULL;
              earlier |= d < pass && row[d] != NULL;
            }
          if (earlier)
            continue;   /* added in an earlier drive's pass */
          if (self->n_drives > 1 && holders < 2 && published && !shown_alone (self, lists, figure->key))
            continue;
          add_figure_row (self, test, row, records, best_pass, n_runs);
        }
    }
  for (guint d = 0; d < self->n_drives; d++)
    g_array_unref (lists[d]);
}

static const char * const rated_labels[G_N_ELEMENTS (rated_keys)] = {
  N_("Sequential read"),
  N_("Sequential write"),
  N_("4K random read"),
  N_("4K random write"),
};

/* The measured figure of @result that a rating is compared with: its
 * standard test of that pattern and direction (the deepest queue for IOPS). */
static gboolean
measured_for_rating (DuelResult *result,
                     guint       k,
                     char      **out_key,
                     double     *out_value)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      const DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(GArray) figures = record_figures (record);

      for (guint f = 0; f < figures->len; f++)
        {
          const Figure *figure = &g_array_index (figures, Figure, f);

          if (rated_key_for (result, record, figure) == (int) k && isfinite (figure->value))
            {
              *out_key = g_strdup (figure->key);
              *out_value = figure->value;
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* Ratings no common test row carried get rows of their own, so that a run
 * beside a published reference still shows rated against measured. */
static void
add_rated_rows (DuelComparison *self)
{
  for (guint k = 0; k < G_N_ELEMENTS (rated_keys); k++)
    {
      DuelComparisonRow row = { 0, };
      gboolean any_rated = FALSE;

      for (guint d = 0; d < self->n_drives; d++)
        {
          double value;

          if (!(self->rated_attached[d] & (1u << k)) &&
              duel_json_get_number (duel_result_get_rated (self->results[d]), rated_keys[k].key, &value))
            any_rated = TRUE;
        }
      if (!any_rated)
        continue;

      row.kind = DUEL_COMPARISON_ROW_FIGURE;
      row.test = g_strdup (DUEL_COMPARISON_RATED_SECTION);
      row.key = g_strdup (rated_keys[k].key);
      row.label = g_strdup_printf ("%s (%s)", _(rated_labels[k]),
                                   strcmp (rated_keys[k].unit, "MB/s") == 0
                                   ? duel_rate_unit_get_symbol (duel_get_rate_unit ()) : rated_keys[k].unit);
      row.unit = g_strdup (rated_keys[k].unit);
      row.better = DUEL_BETTER_HIGHER;
      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          g_autofree char *measured_key = NULL;

          row.value[d] = NAN;
          row.rated[d] = NAN;
          row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
          if (d < self->n_drives)
            {
              if (measured_for_rating (self->results[d], k, &measured_key, &row.value[d]))
                {
                  row.has_value[d] = TRUE;
                  row.text[d] = duel_figure_format (measured_key, row.value[d]);
                }
              row.has_rated[d] = duel_json_get_number (duel_result_get_rated (self->results[d]),
                                                rated_keys[k].key, &row.rated[d]);
            }
          if (row.text[d] == NULL)
            row.text[d] = g_strdup ("–");
        }
      settle_row (&row, self->n_drives);
      self->has_rated = TRUE;
      g_array_append_val (self->rows, row);
    }
}

char *
duel_comparison_row_format_passes (const DuelComparisonRow *row,
                                   guint                    drive)
{
  g_autofree char *best = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  g_autofree char *share = NULL;

  g_return_val_if_fail (row != NULL, NULL);
  g_return_val_if_fail (drive < DUEL_COMPARISON_MAX_DRIVES, NULL);

  if (row->kind != DUEL_COMPARISON_ROW_FIGURE || row->n_passes[drive] == 0)
    return g_strdup ("");
  best = duel_figure_format (row->key, row->value[drive]);
  mean = duel_figure_format (row->key, row->pass_mean[drive]);
  low = duel_figure_format (row->key, row->pass_min[drive]);
  high = duel_figure_format (row->key, row->pass_max[drive]);
  if (row->pass_mean[drive] == 0)
    /* TRANSLATORS: a test run in passes: the figure of its best pass, which
     * pass that was and of how many, their mean, the lowest and the highest */
    return g_strdup_printf (_("best %s (pass %u of %u), mean %s, spread %s–%s"), best, row->best_pass[drive],
                            row->n_runs[drive], mean, low, high);
  share = duel_number_format ((row->pass_max[drive] - row->pass_min[drive]) / fabs (row->pass_mean[drive]) * 100.0, 0);
  /* TRANSLATORS: a test run in passes: the figure of its best pass, which
   * pass that was and of how many, their mean, the lowest and the highest,
   * the spread as a share of the mean */
  return g_strdup_printf (_("best %s (pass %u of %u), mean %s, spread %s–%s (%s %%)"), best, row->best_pass[drive],
                          row->n_runs[drive], mean, low, high, share);
}

char *
duel_comparison_row_format_rated (const DuelComparisonRow *row,
                                  guint                    drive)
{
  g_return_val_if_fail (row != NULL, NULL);
  g_return_val_if_fail (drive < DUEL_COMPARISON_MAX_DRIVES, NULL);

  if (!row->has_rated[drive])
    return g_strdup ("");
  if (duel_figure_lookup (row->key) != NULL)
    return duel_figure_format (row->key, row->rated[drive]);
  if (g_strcmp0 (row->unit, "MB/s") == 0)
    return duel_rate_format_rounded (row->rated[drive]);
  if (row->unit != NULL && *row->unit != '\0')
    {
      g_autofree char *number = duel_number_format (row->rated[drive], 0);

      return g_strconcat (number, " ", row->unit, NULL);
    }
  return g_strdup_printf ("%g", row->rated[drive]);
}

const char *
duel_comparison_get_section_title (DuelComparison *self,
                                   const char     *test)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  char *title;

  if (test == NULL)
    return _("Drive");
  if (g_strcmp0 (test, DUEL_COMPARISON_RATED_SECTION) == 0)
    return _("Vendor ratings: rated against measured");
  title = g_hash_table_lookup (self->section_titles, test);
  if (title != NULL)
    return title;

  /* The review's names for the preset's tests, in the session's language;
   * another test (an imported fio job) keeps its own name. */
  title = duel_review_describe_record (test);
  g_hash_table_insert (self->section_titles, g_strdup (test), title);
  return title;
}

const guint *
duel_comparison_get_headline (DuelComparison *self,
                              guint          *out_n_rows)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (out_n_rows != NULL, NULL);

  if (self->headline == NULL)
    {
      const DuelReviewTest * const *tests = duel_review_tests_get_all ();

      /* Each review test's headline figures, in the review's order. */
      self->headline = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint t = 0; tests[t] != NULL; t++)
        for (guint k = 0; tests[t]->headline != NULL && tests[t]->headline[k] != NULL; k++)
          for (guint i = 0; i < self->rows->len; i++)
            {
              const DuelComparisonRow *row = &g_array_index (self->rows, DuelComparisonRow, i);

              /* A measured figure of some drive; the first test that has it. */
              if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (row->key, tests[t]->headline[k]) == 0 &&
                  g_strcmp0 (row->test, DUEL_COMPARISON_RATED_SECTION) != 0)
                {
                  g_array_append_val (self->headline, i);
                  break;
                }
            }
    }
  *out_n_rows = self->headline->len;
  return (const guint *) (gconstpointer) self->headline->data;
}

char *
duel_comparison_dup_title (DuelComparison *self)
{
  GString *title;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  title = g_string_new (self->names[0]);
  for (guint d = 1; d < self->n_drives; d++)
    {
      /* TRANSLATORS: between the drives' names in a title ("A vs B vs C") */
      g_string_append (title, _(" vs "));
      g_string_append (title, self->names[d]);
    }
  return g_string_free (title, FALSE);
}

char *
duel_comparison_dup_difference_heading (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  if (self->n_drives != 2)
    return g_strdup ("");
  /* TRANSLATORS: the difference column's heading: the second drive's name,
   * the first's ("Drive B vs Drive A") */
  return g_strdup_printf (_("%s vs %s"), self->names[1], self->names[0]);
}

char *
duel_comparison_row_format_difference (const DuelComparisonRow *row)
{
  g_autofree char *number = NULL;

  g_return_val_if_fail (row != NULL, NULL);

  if (row->kind != DUEL_COMPARISON_ROW_FIGURE || !isfinite (row->difference_pct))
    return g_strdup ("");
  number = duel_number_format (row->difference_pct, 1);
  /* The sign always shows: which way B differs is the point. */
  return g_strdup_printf ("%s%s %%", number[0] != '-' ? "+" : "", number);
}

/* ---- Fairness ---------------------------------------------------------------- */

static void
warn (DuelComparison *self,
      const char     *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
add_warning (DuelComparison *self,
             const char     *cause,
             const char     *title,
             const char     *format,
             va_list         args) G_GNUC_PRINTF (4, 0);

static void
add_warning (DuelComparison *self,
             const char     *cause,
             const char     *title,
             const char     *format,
             va_list         args)
{
  WarningOrigin origin = { cause, title };

  g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  g_array_append_val (self->origins, origin);
}

static void
warn (DuelComparison *self,
      const char     *format,
      ...)
{
  va_list args;

  va_start (args, format);
  add_warning (self, NULL, NULL, format, args);
  va_end (args);
}

/* A warning about one test for one cause: the same causes group into one
 * line (duel_comparison_dup_warning_lines()). */
static void warn_about (DuelComparison *self,
                        const char     *cause,
                        const char     *title,
                        const char     *format,
                        ...) G_GNUC_PRINTF (4, 5);

static void
warn_about (DuelComparison *self,
            const char     *cause,
            const char     *title,
            const char     *format,
            ...)
{
  va_list args;

  va_start (args, format);
  add_warning (self, cause, title, format, args);
  va_end (args);
}

/* A test drive @drive did not run: the tests one drive lacks group into
 * one line ("Intel SSD 750 has no results on 9 tests: …"). The cause is
 * that drive's own sentence, already translated. */
static void
warn_missing (DuelComparison *self,
              const char     *test,
              guint           drive)
{
  const char *title = duel_comparison_get_section_title (self, test);

  if (self->missing_causes[drive] == NULL)
    /* TRANSLATORS: the start of a grouped warning, "%s has no results on 9 tests: …"; %s is a drive */
    self->missing_causes[drive] = g_strdup_printf (_("%s has no results"), self->names[drive]);
  warn_about (self, self->missing_causes[drive], title, _("%s was not run on %s; its rows are empty there."),
              title, self->names[drive]);
}

static double
span_fraction (DuelResult           *result,
               const DuelTestRecord *record)
{
  const DuelTargetInfo *target = duel_result_get_target (result);

  if (target == NULL || target->size_bytes == 0 || record->span_length == 0)
    return NAN;
  return (double) record->span_length / (double) target->size_bytes;
}

/* The multiple of the span a test was asked to transfer, or NAN. */
static double
capacity_multiple (const DuelTestRecord *record)
{
  if (record->workload.size_multiple > 0)
    return record->workload.size_multiple;
  if (record->byte_limit > 0 && record->span_length > 0)
    return (double) record->byte_limit / (double) record->span_length;
  return NAN;
}

/* Whether a span covering @fraction of @result's target is a whole drive. */
static gboolean
whole_drive (DuelResult *result,
             double      fraction)
{
  const DuelTargetInfo *target = duel_result_get_target (result);

  return target != NULL && target->kind == DUEL_TARGET_KIND_BLOCK && isfinite (fraction) && fraction > 0.99;
}

/* The multiple of the span a test bounded by one did transfer (a fill
 * stopped early reached less than it asked), or NAN. */
static double
reached_multiple (const DuelTestRecord *record)
{
  DuelSeriesRow total;

  if (!isfinite (capacity_multiple (record)) || record->span_length == 0 ||
      duel_series_get_length (record->series) == 0)
    return NAN;
  duel_series_sum (record->series, &total);
  return (double) (total.bytes[DUEL_DIRECTION_READ] + total.bytes[DUEL_DIRECTION_WRITE]) /
         (double) record->span_length;
}

/* Whether @record's figures are read from latencies it holds (a published
 * reference holds none). */
static gboolean
has_latencies (const DuelTestRecord *record)
{
  DuelAnalysisKind kind = duel_analysis_kind_of_record (record);

  if (kind != DUEL_ANALYSIS_QOS && kind != DUEL_ANALYSIS_CONSISTENCY)
    return FALSE;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    if (record->latency[d] != NULL && record->latency[d]->count > 0)
      return TRUE;
  return FALSE;
}

/* Drive @j's run of @test against drive @i's (the first drive that ran it). */
static void
check_fairness (DuelComparison *self,
                const char     *test,
                guint           i,
                guint           j)
{
  DuelTestRecord *a = duel_result_find_test (self->results[i], test);
  DuelTestRecord *b = duel_result_find_test (self->results[j], test);
  const char *name_a = self->names[i], *name_b = self->names[j];
  /* The test as people know it, never its record name. */
  const char *title = duel_comparison_get_section_title (self, test);
  double fa, fb, ma, mb, ra, rb;
  gboolean measured;

  if (a == NULL || b == NULL)
    return;

  /* Published figures say what the review printed, not how it ran. */
  measured = !duel_result_is_published (self->results[i]) && !duel_result_is_published (self->results[j]);
  fa = span_fraction (self->results[i], a);
  fb = span_fraction (self->results[j], b);
  /* The span's size as well as its share of the target: a fill over 1 GiB
   * meets a cache of the same size differently from one over 256 MiB. Two
   * whole drives of different sizes are the review's own method. */
  if (measured && a->span_length > 0 && b->span_length > 0 &&
      fabs ((double) a->span_length - (double) b->span_length) > 0.01 * MAX (a->span_length, b->span_length) &&
      !(whole_drive (self->results[i], fa) && whole_drive (self->results[j], fb)))
    {
      g_autofree char *size_a = duel_format_size (a->span_length);
      g_autofree char *size_b = duel_format_size (b->span_length);

      warn_about (self, N_("The spans differ"), title, _("%s: the spans differ (%s on %s, %s on %s)."),
                  title, size_a, name_a, size_b, name_b);
    }
  if (isfinite (fa) && isfinite (fb) && fabs (fa - fb) > 0.01)
    warn_about (self, N_("The spans differ"), title,
                _("%s: the span covers %.0f %% of %s but %.0f %% of %s."),
          title, fa * 100, name_a, fb * 100, name_b);

  ma = capacity_multiple (a);
  mb = capacity_multiple (b);
  ra = reached_multiple (a);
  rb = reached_multiple (b);
  if (isfinite (ma) && isfinite (mb) && fabs (ma - mb) > 0.01 * MAX (ma, mb))
    warn_about (self, N_("The amounts written differ"), title,
                _("%s: %s wrote %.2g× its span but %s wrote %.2g×."), title, name_a, ma, name_b, mb);
  else if (isfinite (ma) != isfinite (mb) && !duel_result_is_published (self->results[i]) &&
           !duel_result_is_published (self->results[j]))
    warn_about (self, N_("The amounts written differ"), title,
                _("%s: one run was bounded by a capacity multiple, the other was not."), title);
  /* Asked alike, but one stopped early: its curve ends where the other's
   * goes on (a fill stopped at 147 % against one at 200 %). */
  else if (measured && isfinite (ra) && isfinite (rb) && fabs (ra - rb) > 0.01 * MAX (ra, rb))
    warn_about (self, N_("The amounts written differ"), title,
                /* TRANSLATORS: a test's title, then the percentage of its span each drive's run reached */
                _("%s: the run on %s reached %.0f %% of its span, the run on %s %.0f %%."),
                title, name_a, ra * 100, name_b, rb * 100);

  /* A slowest interval of 100 ms is not one of 1 s, nor is a curve's noise. */
  if (measured && a->workload.interval_ms > 0 && b->workload.interval_ms > 0 &&
      a->workload.interval_ms != b->workload.interval_ms &&
      duel_series_get_length (a->series) > 0 && duel_series_get_length (b->series) > 0)
    warn_about (self, N_("The intervals differ"), title,
                _("%s: the intervals differ (%u ms on %s, %u ms on %s)."),
                title, a->workload.interval_ms, name_a, b->workload.interval_ms, name_b);

  if (a->workload.runtime_ms > 0 && b->workload.runtime_ms > 0 &&
      a->workload.runtime_ms != b->workload.runtime_ms)
    warn_about (self, N_("The run lengths differ"), title,
                _("%s: the run lengths differ (%.0f s on %s, %.0f s on %s)."),
          title, a->workload.runtime_ms / 1000.0, name_a, b->workload.runtime_ms / 1000.0, name_b);
  else if (a->runtime_ns > 0 && b->runtime_ns > 0 &&
           a->workload.size_multiple == 0 && b->workload.size_multiple == 0 &&
           a->workload.size_bytes == 0 && b->workload.size_bytes == 0 &&
           fabs ((double) a->runtime_ns - (double) b->runtime_ns) > 0.10 * MAX (a->runtime_ns, b->runtime_ns))
    warn_about (self, N_("The run lengths differ"), title,
                _("%s: the runs lasted %.0f s on %s and %.0f s on %s."),
          title, a->runtime_ns / 1e9, name_a, b->runtime_ns / 1e9, name_b);

  if (a->trimmed != b->trimmed && !duel_result_is_published (self->results[i]) &&
      !duel_result_is_published (self->results[j]))
    warn_about (self, N_("The trim before the run differs"), title,
                _("%s: the span was trimmed before the run on %s only."), title, a->trimmed ? name_a : name_b);

  /* fio's clat leaves the submission out: lower than the same I/Os' total
   * latency, so the two are not set against each other silently. */
  if (a->latency_kind != b->latency_kind && has_latencies (a) && has_latencies (b))
    warn_about (self, N_("The latencies are measured differently"), title,
                /* TRANSLATORS: completion latency is fio's clat (without the submission); total is from submission to completion */
                _("%s: latency measured differently: completion latency (fio clat) on %s, total on %s."), title,
                a->latency_kind == DUEL_LATENCY_COMPLETION ? name_a : name_b,
                a->latency_kind == DUEL_LATENCY_COMPLETION ? name_b : name_a);

  if (a->workload.block_size != b->workload.block_size)
    {
      g_autofree char *bs_a = duel_workload_format_block_size (a->workload.block_size);
      g_autofree char *bs_b = duel_workload_format_block_size (b->workload.block_size);

      warn_about (self, N_("The block sizes differ"), title,
                  /* TRANSLATORS: a test's title, then a block size ("4 KiB") and a drive, twice */
                  _("%s: the block sizes differ (%s on %s, %s on %s)."),
                  title, bs_a, name_a, bs_b, name_b);
    }

  if (a->workload.queue_depth != b->workload.queue_depth)
    warn_about (self, N_("The queue depths differ"), title,
                _("%s: the queue depths differ (%u on %s, %u on %s)."),
          title, a->workload.queue_depth, name_a, b->workload.queue_depth, name_b);

  if (a->workload.numjobs != b->workload.numjobs)
    warn_about (self, N_("The numbers of jobs differ"), title,
                _("%s: the numbers of jobs differ (%u on %s, %u on %s)."),
          title, a->workload.numjobs, name_a, b->workload.numjobs, name_b);

  if (a->workload.read_percent != b->workload.read_percent || a->workload.pattern != b->workload.pattern)
    {
      /* In the words of the figures' labels, not fio's ("randrw"). */
      g_autofree char *mix_a = duel_workload_describe_mix (&a->workload);
      g_autofree char *mix_b = duel_workload_describe_mix (&b->workload);

      warn_about (self, N_("The access patterns differ"), title,
                  /* TRANSLATORS: a test's title, then an access ("random 70/30 read/write") and a drive, twice */
                  _("%s: the access patterns differ (%s on %s, %s on %s)."),
                  title, mix_a, name_a, mix_b, name_b);
    }

  {
    g_autoptr(GPtrArray) passes_a = find_passes (self->results[i], test);
    g_autoptr(GPtrArray) passes_b = find_passes (self->results[j], test);

    /* The best of five against a single run favours the five. */
    if (passes_a->len != passes_b->len)
      warn_about (self, N_("The numbers of passes differ"), title,
                _("%s: the best of %u passes on %s is set against the best of %u on %s."),
            title, passes_a->len, name_a, passes_b->len, name_b);
  }

  if (a->status != DUEL_TEST_STATUS_COMPLETE || b->status != DUEL_TEST_STATUS_COMPLETE)
    warn_about (self, N_("A run did not complete"), title,
                _("%s: the run on %s did not complete (%s)."), title,
          a->status != DUEL_TEST_STATUS_COMPLETE ? name_a : name_b,
          duel_test_status_describe (a->status != DUEL_TEST_STATUS_COMPLETE ? a->status : b->status));
}

/* A file against a block device: the file's filesystem (its cache, its
 * allocation) stands between the test and the drive on one side only. */
static void
check_target_kinds (DuelComparison *self)
{
  const DuelTargetInfo *first = NULL;
  guint f = 0;

  for (guint d = 0; d < self->n_drives; d++)
    {
      const DuelTargetInfo *target = duel_result_get_target (self->results[d]);

      if (target == NULL || target->path == NULL || duel_result_is_published (self->results[d]))
        continue;
      if (first == NULL)
        {
          first = target;
          f = d;
          continue;
        }
      if (target->kind == first->kind)
        continue;
      warn (self,
            /* TRANSLATORS: the drive measured through a file, then the one measured as a block device */
            _("%s was measured through a file and %s as a block device: the file’s filesystem stands "
              "between the test and the drive on one side only."),
            first->kind == DUEL_TARGET_KIND_FILE ? self->names[f] : self->names[d],
            first->kind == DUEL_TARGET_KIND_FILE ? self->names[d] : self->names[f]);
    }
}

/* ---- Notes -------------------------------------------------------------------- */

static void
add_drive_note (DuelComparison *self,
                GPtrArray      *notes,
                guint           drive,
                const char     *note)
{
  if (self->n_drives > 1)
    /* TRANSLATORS: a note on one drive's figures: the drive's name, the note */
    g_ptr_array_add (notes, g_strdup_printf (_("%s: %s"), self->names[drive], note));
  else
    g_ptr_array_add (notes, g_strdup (note));
}

/* The notes on @test's rows: the falls and declines of a fill, and a
 * consistency run whose last interval was cut short and left out of its
 * figures. */
static void
add_notes (DuelComparison *self,
           const char     *test)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);

  for (guint d = 0; d < self->n_drives; d++)
    {
      DuelTestRecord *record = duel_result_find_test (self->results[d], test);
      DuelAnalysisKind kind;
      g_autofree char *note = NULL;

      if (record == NULL)
        continue;
      /* The process was paused: said on the test's rows, and as a warning
       * that the exports (Markdown, PDF) carry. */
      {
        g_autofree char *paused = duel_test_record_dup_pause_note (record);

        if (paused != NULL)
          {
            add_drive_note (self, notes, d, paused);
            /* TRANSLATORS: a warning: the test's title, the drive's name, the sentence about the pause */
            warn (self, _("%s on %s: %s"), duel_comparison_get_section_title (self, test), self->names[d], paused);
          }
      }
      kind = duel_analysis_kind_of_record (record);
      if (kind == DUEL_ANALYSIS_SATURATION)
        {
          /* Each fall and decline of the fill, in a sentence. */
          g_auto(GStrv) falls = duel_saturation_dup_falls_text (duel_json_get_object (record->summary, "details"));

          for (guint i = 0; falls[i] != NULL; i++)
            add_drive_note (self, notes, d, falls[i]);
          continue;
        }
      if (kind != DUEL_ANALYSIS_CONSISTENCY)
        continue;
      note = duel_analysis_consistency_dup_partial_note (record);
      if (note != NULL)
        add_drive_note (self, notes, d, note);
    }
  g_ptr_array_add (notes, NULL);
  g_hash_table_replace (self->notes, g_strdup (test), notes);
}

/* ---- Honest numbers ------------------------------------------------------------ */

/* A throughput above its drive's link ceiling came from a cache; a file on
 * tmpfs, NFS, ZFS… measures more than the drive. Both are said as warnings,
 * so every output that prints them (the window, compare, the exports) does. */
static void
check_honesty (DuelComparison *self)
{
  for (guint d = 0; d < self->n_drives; d++)
    {
      JsonObject *device = duel_result_get_device (self->results[d]);
      JsonObject *fs = duel_json_get_object (device, "filesystem");
      double ceiling = duel_device_link_ceiling_from_json (device);
      const char *note = duel_filesystem_note (duel_json_get_string (fs, "type"),
                                               duel_json_get_string (fs, "options"));

      if (note != NULL && self->n_drives > 1)
        /* TRANSLATORS: a drive's name, then what its file target's filesystem measures */
        warn (self, _("%s: %s"), self->names[d], note);
      else if (note != NULL)
        warn (self, "%s", note);

      for (guint i = 0; ceiling > 0 && i < self->rows->len; i++)
        {
          DuelComparisonRow *row = &g_array_index (self->rows, DuelComparisonRow, i);
          g_autofree char *sentence = NULL;
          const char *title;

          if (row->kind != DUEL_COMPARISON_ROW_FIGURE || g_strcmp0 (row->unit, "MB/s") != 0 ||
              g_strcmp0 (row->test, DUEL_COMPARISON_RATED_SECTION) == 0 || !row->has_value[d] ||
              !duel_link_ceiling_is_exceeded (ceiling, row->value[d] * 1e6))
            continue;
          row->above_ceiling[d] = TRUE;
          /* Marked where it is printed (the window, the tables, the exports);
           * the warning says why. */
          {
            char *marked = g_strconcat (row->text[d] != NULL ? row->text[d] : "", " ⚠", NULL);

            g_free (row->text[d]);
            row->text[d] = marked;
          }
          title = duel_comparison_get_section_title (self, row->test);
          sentence = duel_analysis_dup_ceiling_note (row->label, row->value[d], ceiling);
          /* TRANSLATORS: the test's title, the drive's name, then a sentence
           * ("Sequential read: 2,000.0 MB/s is faster than the link …") */
          warn_about (self, N_("A figure is faster than the drive’s link"), title,
                      _("%s on %s: %s"), title, self->names[d], sentence);
        }
    }
}

/* ---- Construction -------------------------------------------------------------- */

static void
build (DuelComparison *self)
{
  GPtrArray *only[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };   /* borrowed titles */

  for (guint d = 0; d < self->n_drives; d++)
    {
      GPtrArray *tests = duel_result_get_tests (self->results[d]);

      only[d] = g_ptr_array_new ();
      for (guint i = 0; i < tests->len; i++)
        ensure_summary (g_ptr_array_index (tests, i));
    }

  add_identity_rows (self);

  /* The first drive's tests in its order, then those of the others it did
   * not run. A test is compared when two drives or more ran it (a report
   * on one drive: all of them); one drive alone is left out, said once. */
  for (guint d = 0; d < self->n_drives; d++)
    {
      GPtrArray *tests = duel_result_get_tests (self->results[d]);

      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          guint holders = 0, first = d;

          /* A name twice in one file: the first counts, as in duel_result_find_test(). */
          if (duel_result_find_test (self->results[d], record->name) != record)
            continue;
          if (g_ptr_array_find_with_equal_func (self->tests, record->name, g_str_equal, NULL))
            continue;
          for (guint e = 0; e < self->n_drives; e++)
            if (duel_result_find_test (self->results[e], record->name) != NULL)
              {
                if (holders++ == 0)
                  first = e;
              }
          if (first < d)
            continue;   /* an earlier drive ran it, and it was left out there */
          if (self->n_drives > 1 && holders < 2)
            {
              g_ptr_array_add (only[d], (gpointer) duel_comparison_get_section_title (self, record->name));
              continue;
            }
          g_ptr_array_add (self->tests, g_strdup (record->name));
          add_test_rows (self, record->name);
          add_notes (self, record->name);
          for (guint e = d + 1; e < self->n_drives; e++)
            {
              if (duel_result_find_test (self->results[e], record->name) != NULL)
                check_fairness (self, record->name, d, e);
              else
                warn_missing (self, record->name, e);
            }
          for (guint e = 0; e < d; e++)
            warn_missing (self, record->name, e);
        }
    }

  if (self->n_drives > 1)
    {
      /* One sentence per drive, however many tests it alone ran. */
      for (guint d = 0; d < self->n_drives; d++)
        {
          g_autofree char *list = NULL;

          if (only[d]->len == 0)
            continue;
          g_ptr_array_add (only[d], NULL);
          list = g_strjoinv (", ", (char **) only[d]->pdata);
          warn (self, g_dngettext (GETTEXT_PACKAGE,
                                   "%s was run on %s only; it is left out of the comparison.",
                                   "%s were run on %s only; they are left out of the comparison.",
                                   only[d]->len - 1),
                list, self->names[d]);
        }
      if (self->tests->len == 0)
        warn (self, self->n_drives == 2
                    ? _("The two results have no test in common: only their identities can be compared.")
                    : _("No two of the results have a test in common: only their identities can be compared."));
    }
  for (guint d = 0; d < self->n_drives; d++)
    g_ptr_array_unref (only[d]);

  add_rated_rows (self);
  check_honesty (self);
  check_target_kinds (self);

  g_ptr_array_add (self->tests, NULL);
  g_ptr_array_add (self->warnings, NULL);
}

DuelComparison *
duel_comparison_new_for_results (DuelResult * const *results,
                                 guint               n_results,
                                 GError            **error)
{
  g_autoptr(DuelComparison) self = NULL;
  static const char * const default_names[DUEL_COMPARISON_MAX_DRIVES] = {
    N_("Drive A"), N_("Drive B"), N_("Drive C"), N_("Drive D"),
  };
  const char *base[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };   /* the names before "(2)" */

  g_return_val_if_fail (results != NULL, NULL);
  g_return_val_if_fail (n_results >= 1 && n_results <= DUEL_COMPARISON_MAX_DRIVES, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DUEL_TYPE_COMPARISON, NULL);
  self->n_drives = n_results;
  for (guint d = 0; d < n_results; d++)
    {
      g_return_val_if_fail (DUEL_IS_RESULT (results[d]), NULL);
      self->results[d] = g_object_ref (results[d]);
    }

  for (guint d = 0; d < self->n_drives; d++)
    {
      const char *name = duel_result_get_name (self->results[d]);
      guint same = 0;

      if (name == NULL || *name == '\0')
        name = _(default_names[d]);
      base[d] = name;
      if (duel_result_get_tests (self->results[d])->len == 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                       _("%s: the result holds no test, so there is nothing to compare."), name);
          return NULL;
        }
      /* Two drives of one name: "Name", "Name (2)". */
      for (guint e = 0; e < d; e++)
        same += g_strcmp0 (base[e], name) == 0;
      self->names[d] = same > 0 ? g_strdup_printf ("%s (%u)", name, same + 1) : g_strdup (name);
    }

  build (self);
  return g_steal_pointer (&self);
}

DuelComparison *
duel_comparison_new (DuelResult  *a,
                     DuelResult  *b,
                     GError     **error)
{
  DuelResult *results[] = { a, b };

  g_return_val_if_fail (DUEL_IS_RESULT (a), NULL);
  g_return_val_if_fail (b == NULL || DUEL_IS_RESULT (b), NULL);

  return duel_comparison_new_for_results (results, b != NULL ? 2 : 1, error);
}

DuelComparison *
duel_comparison_new_for_paths (const char  *path_a,
                               const char  *path_b,
                               GError     **error)
{
  const char *paths[] = { path_a, path_b };

  g_return_val_if_fail (path_a != NULL, NULL);

  return duel_comparison_new_for_pathv (paths, path_b != NULL ? 2 : 1, error);
}

DuelComparison *
duel_comparison_new_for_pathv (const char * const *paths,
                               guint               n_paths,
                               GError            **error)
{
  DuelResult *results[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  g_autoptr(GError) local_error = NULL;
  DuelComparison *comparison = NULL;

  g_return_val_if_fail (paths != NULL, NULL);
  g_return_val_if_fail (n_paths >= 1 && n_paths <= DUEL_COMPARISON_MAX_DRIVES, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint d = 0; d < n_paths; d++)
    {
      results[d] = duel_result_load (paths[d], error);
      if (results[d] == NULL)
        goto out;
      duel_analysis_update_result (results[d]);
    }

  comparison = duel_comparison_new_for_results (results, n_paths, &local_error);
  if (comparison == NULL)
    {
      /* Name the file rather than the drive. */
      const char *path = paths[0];
      g_autofree char *display = NULL;

      for (guint d = 0; d < n_paths; d++)
        if (duel_result_get_tests (results[d])->len == 0)
          {
            path = paths[d];
            break;
          }
      display = g_filename_display_name (path);
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s: the result holds no test, so there is nothing to compare."), display);
    }

out:
  for (guint d = 0; d < n_paths; d++)
    g_clear_object (&results[d]);
  return comparison;
}

guint
duel_comparison_get_n_drives (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), 0);
  return self->n_drives;
}

DuelResult *
duel_comparison_get_result (DuelComparison *self,
                            guint           drive)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (drive < self->n_drives, NULL);
  return self->results[drive];
}

const char *
duel_comparison_get_drive_name (DuelComparison *self,
                                guint           drive)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (drive < self->n_drives, NULL);
  return self->names[drive];
}

gboolean
duel_comparison_is_published (DuelComparison *self,
                              guint           drive)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), FALSE);
  g_return_val_if_fail (drive < self->n_drives, FALSE);
  return duel_result_is_published (self->results[drive]);
}

guint
duel_comparison_get_n_rows (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), 0);
  return self->rows->len;
}

const DuelComparisonRow *
duel_comparison_get_row (DuelComparison *self,
                         guint           index)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (index < self->rows->len, NULL);
  return &g_array_index (self->rows, DuelComparisonRow, index);
}

const char * const *
duel_comparison_get_tests (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  return (const char * const *) self->tests->pdata;
}

gboolean
duel_comparison_has_rated (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), FALSE);
  return self->has_rated;
}

guint
duel_comparison_get_rated_drives (DuelComparison *self,
                                  guint           out_drives[DUEL_COMPARISON_MAX_DRIVES])
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), 0);

  /* Asked for every row of every table: the rows are walked once. */
  if (self->n_rated_drives < 0)
    {
      self->n_rated_drives = 0;
      for (guint d = 0; self->has_rated && d < self->n_drives; d++)
        {
          gboolean rated = FALSE;

          for (guint r = 0; r < duel_comparison_get_n_rows (self) && !rated; r++)
            rated = duel_comparison_get_row (self, r)->has_rated[d];
          if (rated)
            self->rated_drives[self->n_rated_drives++] = d;
        }
    }
  memcpy (out_drives, self->rated_drives, self->n_rated_drives * sizeof (guint));
  return (guint) self->n_rated_drives;
}

const char * const *
duel_comparison_get_warnings (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

/* How many test titles a grouped line names before "and N more". */
#define GROUP_TITLES_SHOWN 3

/* The warnings of one cause (or one warning with none): where it was first
 * met, and its tests, once each. */
typedef struct
{
  guint       first;
  GPtrArray  *titles;     /* const char*, the comparison's own strings */
} WarningGroup;

static void
warning_group_free (WarningGroup *group)
{
  g_ptr_array_unref (group->titles);
  g_free (group);
}

/* One cause's line: its sentence when it concerns one test, else the cause,
 * how many tests and which. */
static char *
group_line (DuelComparison     *self,
            const WarningGroup *group)
{
  const char *cause = g_array_index (self->origins, WarningOrigin, group->first).cause;
  guint n_tests = group->titles->len;
  g_autoptr(GString) titles = g_string_new (NULL);

  if (n_tests == 1)
    return g_strdup (g_ptr_array_index (self->warnings, group->first));
  for (guint t = 0; t < MIN (n_tests, GROUP_TITLES_SHOWN); t++)
    g_string_append_printf (titles, "%s%s", t > 0 ? _(", ") : "", (const char *) g_ptr_array_index (group->titles, t));
  if (n_tests > GROUP_TITLES_SHOWN)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more", "%s and %u more",
                                                            n_tests - GROUP_TITLES_SHOWN),
                                               titles->str, n_tests - GROUP_TITLES_SHOWN);

      g_string_assign (titles, more);
    }
  /* TRANSLATORS: a cause ("The run lengths differ"), how many tests, which ones */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s on %u test: %s.", "%s on %u tests: %s.", n_tests),
                          g_dgettext (GETTEXT_PACKAGE, cause), n_tests, titles->str);
}

char **
duel_comparison_dup_warning_lines (DuelComparison *self)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autoptr(GHashTable) by_cause = NULL;  /* cause → its group in @groups */
  g_autoptr(GPtrArray) groups = NULL;     /* WarningGroup, in the order met */

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  by_cause = g_hash_table_new (g_str_hash, g_str_equal);
  groups = g_ptr_array_new_with_free_func ((GDestroyNotify) warning_group_free);
  /* One line per cause, where it is first met; a test met twice for it
   * (drives C and D against A) counts once. A warning with no cause is a
   * group of its own. */
  for (guint i = 0; i < self->origins->len; i++)
    {
      const WarningOrigin *origin = &g_array_index (self->origins, WarningOrigin, i);
      WarningGroup *group = origin->cause != NULL ? g_hash_table_lookup (by_cause, origin->cause) : NULL;

      if (group == NULL)
        {
          group = g_new0 (WarningGroup, 1);
          group->first = i;
          group->titles = g_ptr_array_new ();
          g_ptr_array_add (groups, group);
          if (origin->cause != NULL)
            g_hash_table_insert (by_cause, (gpointer) origin->cause, group);
        }
      if (!g_ptr_array_find_with_equal_func (group->titles, origin->title, g_str_equal, NULL))
        g_ptr_array_add (group->titles, (gpointer) origin->title);
    }

  for (guint k = 0; k < groups->len; k++)
    {
      g_autofree char *line = group_line (self, g_ptr_array_index (groups, k));

      g_strv_builder_add (lines, line);
    }
  return g_strv_builder_end (lines);
}

const char * const *
duel_comparison_get_notes (DuelComparison *self,
                           const char     *test)
{
  static const char * const none[] = { NULL };
  GPtrArray *notes;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), none);

  notes = test != NULL ? g_hash_table_lookup (self->notes, test) : NULL;
  return notes != NULL ? (const char * const *) notes->pdata : none;
}

/* ---- Finding the test a chart needs ---------------------------------------- */

static DuelAnalysisKind
summary_kind (const DuelTestRecord *record)
{
  JsonObject *details = duel_json_get_object (record->summary, "details");
  const char *text = duel_json_get_string (details, "analysis");
  DuelAnalysisKind kind;

  if (text != NULL && duel_analysis_kind_from_string (text, &kind))
    return kind;
  return DUEL_ANALYSIS_NONE;
}

GPtrArray *
duel_comparison_find_tests (DuelComparison   *self,
                            guint             drive,
                            DuelAnalysisKind  kind)
{
  GPtrArray *found = g_ptr_array_new ();
  GPtrArray *tests;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), found);
  g_return_val_if_fail (drive < self->n_drives, found);

  tests = duel_result_get_tests (self->results[drive]);
  /* Three tiers, the first that finds something wins: a preset's test name,
   * the analysis a summary names, and (for tests no preset named, such as
   * imported fio jobs) a workload that fits. */
  for (guint tier = 0; tier < 3 && found->len == 0; tier++)
    {
      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          DuelAnalysisKind named = duel_analysis_kind_for_test_name (record->name);
          gboolean match;

          if (tier == 0)
            match = named == kind;
          else if (tier == 1)
            match = named == DUEL_ANALYSIS_NONE && summary_kind (record) == kind;
          else
            match = named == DUEL_ANALYSIS_NONE && duel_analysis_fits (record, kind);
          if (match)
            g_ptr_array_add (found, record);
        }
    }
  return found;
}

DuelTestRecord *
duel_comparison_find_test (DuelComparison   *self,
                           guint             drive,
                           DuelAnalysisKind  kind)
{
  g_autoptr(GPtrArray) found = NULL;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (drive < self->n_drives, NULL);

  found = duel_comparison_find_tests (self, drive, kind);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}
