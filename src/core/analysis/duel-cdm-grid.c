/* duel-cdm-grid.c — the CrystalDiskMark set as CrystalDiskMark shows it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-analysis.h"
#include "duel-cdm-grid.h"
#include "duel-number.h"
#include "duel-text.h"

/* CrystalDiskMark 8's rows, both profiles in its order; a grid keeps those
 * some drive ran. The record names are the descriptors'
 * (duel-test-crystaldiskmark.c). */
static const struct
{
  const char *label;
  const char *test[DUEL_N_DIRECTIONS];
} all_rows[] = {
  { "SEQ1M Q8T1",    { "cdm-seq1m-q8t1-read",    "cdm-seq1m-q8t1-write" } },
  { "SEQ1M Q1T1",    { "cdm-seq1m-q1t1-read",    "cdm-seq1m-q1t1-write" } },
  { "SEQ128K Q32T1", { "cdm-seq128k-q32t1-read", "cdm-seq128k-q32t1-write" } },
  { "RND4K Q32T16",  { "cdm-rnd4k-q32t16-read",  "cdm-rnd4k-q32t16-write" } },
  { "RND4K Q1T1",    { "cdm-rnd4k-q1t1-read",    "cdm-rnd4k-q1t1-write" } },
};
#define NVME_ROW 2

struct _DuelCdmGrid
{
  guint        n_drives;
  char        *names[DUEL_COMPARISON_MAX_DRIVES];
  gboolean     nvme[DUEL_COMPARISON_MAX_DRIVES];
  guint        n_passes[DUEL_COMPARISON_MAX_DRIVES];
  char        *created[DUEL_COMPARISON_MAX_DRIVES];
  guint        n_rows;
  guint        rows[G_N_ELEMENTS (all_rows)];     /* indices into all_rows */
  DuelCdmCell  cells[DUEL_COMPARISON_MAX_DRIVES][G_N_ELEMENTS (all_rows)][DUEL_N_DIRECTIONS];
};

/* One pass in the three units: from its totals, or for a published
 * reference (figures without rows) from its figures. */
static void
record_values (const DuelTestRecord *record,
               DuelDirection         direction,
               double               *out)
{
  const DuelHistogram *latency = record->latency[direction];
  DuelThroughput t;

  if (duel_series_get_length (record->series) == 0 && record->runtime_ns == 0)
    {
      const DuelWorkload *w = &record->workload;
      g_autofree char *mbps_key = duel_analysis_standard_key (w->pattern, direction, w->queue_depth, FALSE);
      g_autofree char *iops_key = duel_analysis_standard_key (w->pattern, direction, w->queue_depth, TRUE);

      out[DUEL_CDM_UNIT_MB_S] = duel_test_record_get_figure_value (record, mbps_key);
      out[DUEL_CDM_UNIT_IOPS] = w->pattern == DUEL_PATTERN_SEQUENTIAL && w->block_size > 0
                                ? out[DUEL_CDM_UNIT_MB_S] * 1e6 / w->block_size
                                : duel_test_record_get_figure_value (record, iops_key);
      out[DUEL_CDM_UNIT_US] = NAN;
      return;
    }
  duel_analysis_throughput (record->series, record->runtime_ns, &t);
  out[DUEL_CDM_UNIT_MB_S] = t.mb_per_s[direction];
  out[DUEL_CDM_UNIT_IOPS] = t.iops[direction];
  out[DUEL_CDM_UNIT_US] = latency != NULL && latency->count > 0 ? duel_histogram_mean_ns (latency) / 1e3 : NAN;
}

/* The pass the comparison keeps for @test on @drive (1-based), 0 when it
 * has no row of that test (a step only this drive ran). */
static guint
comparison_best_pass (DuelComparison *comparison,
                      guint           drive,
                      const char     *test)
{
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (row->test, test) == 0)
        return row->n_runs[drive] > 1 ? row->best_pass[drive] : 0;
    }
  return 0;
}

static void
fill_cell (DuelCdmCell    *cell,
           DuelComparison *comparison,
           guint           drive,
           const char     *test,
           DuelDirection   direction)
{
  GPtrArray *tests = duel_result_get_tests (duel_comparison_get_result (comparison, drive));
  g_autoptr(GPtrArray) passes = g_ptr_array_new ();
  g_autofree double *values = NULL;   /* passes × units */
  const DuelTestRecord *best;
  guint chosen;

  memset (cell, 0, sizeof *cell);
  for (guint u = 0; u < DUEL_CDM_N_UNITS; u++)
    cell->best[u] = cell->mean[u] = cell->min[u] = cell->max[u] = NAN;
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (g_strcmp0 (record->name, test) == 0)
        g_ptr_array_add (passes, record);
    }
  if (passes->len == 0)
    return;

  values = g_new (double, passes->len * DUEL_CDM_N_UNITS);
  for (guint p = 0; p < passes->len; p++)
    record_values (g_ptr_array_index (passes, p), direction, &values[p * DUEL_CDM_N_UNITS]);

  /* The comparison's pass, so that the grid and the table agree; else the
   * highest MB/s, which is what the comparison ranks these steps by. */
  chosen = comparison_best_pass (comparison, drive, test);
  if (chosen == 0 || chosen > passes->len)
    {
      chosen = 1;
      for (guint p = 1; p < passes->len; p++)
        if (isfinite (values[p * DUEL_CDM_N_UNITS + DUEL_CDM_UNIT_MB_S]) &&
            !(values[p * DUEL_CDM_N_UNITS + DUEL_CDM_UNIT_MB_S] <=
              values[(chosen - 1) * DUEL_CDM_N_UNITS + DUEL_CDM_UNIT_MB_S]))
          chosen = p + 1;
    }
  cell->n_passes = passes->len;
  cell->best_pass = chosen;

  for (guint u = 0; u < DUEL_CDM_N_UNITS; u++)
    {
      guint n = 0;
      double sum = 0;

      cell->best[u] = values[(chosen - 1) * DUEL_CDM_N_UNITS + u];
      for (guint p = 0; p < passes->len; p++)
        {
          double v = values[p * DUEL_CDM_N_UNITS + u];

          if (!isfinite (v))
            continue;
          cell->min[u] = n == 0 ? v : MIN (cell->min[u], v);
          cell->max[u] = n == 0 ? v : MAX (cell->max[u], v);
          sum += v;
          n++;
        }
      cell->mean[u] = n > 0 ? sum / n : NAN;
    }

  best = g_ptr_array_index (passes, chosen - 1);
  cell->bytes = duel_test_record_get_bytes (best, direction);
  cell->ops = duel_test_record_get_ops (best, direction);
  cell->runtime_ns = best->runtime_ns;
  cell->test_bytes = best->span_length;
  cell->runtime_ms = best->workload.runtime_ms;
}

DuelCdmGrid *
duel_cdm_grid_new (DuelComparison *comparison)
{
  g_autoptr(DuelCdmGrid) self = NULL;
  gboolean any = FALSE;

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  self = g_new0 (DuelCdmGrid, 1);
  self->n_drives = duel_comparison_get_n_drives (comparison);
  for (guint d = 0; d < self->n_drives; d++)
    {
      GDateTime *created = duel_result_get_created (duel_comparison_get_result (comparison, d));

      /* Loaded names are printable already; one made in memory may not be. */
      self->names[d] = duel_text_escape (duel_comparison_get_drive_name (comparison, d));
      self->created[d] = created != NULL ? g_date_time_format (created, "%Y/%m/%d %H:%M:%S") : NULL;
    }

  for (guint r = 0; r < G_N_ELEMENTS (all_rows); r++)
    {
      gboolean ran = FALSE;

      for (guint d = 0; d < self->n_drives; d++)
        for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
          {
            DuelCdmCell *cell = &self->cells[d][self->n_rows][dir];

            fill_cell (cell, comparison, d, all_rows[r].test[dir], dir);
            ran |= cell->n_passes > 0;
            self->n_passes[d] = MAX (self->n_passes[d], cell->n_passes);
            if (r == NVME_ROW && cell->n_passes > 0)
              self->nvme[d] = TRUE;
          }
      if (ran)
        self->rows[self->n_rows++] = r;
      any |= ran;
    }
  return any ? g_steal_pointer (&self) : NULL;
}

DuelCdmGrid *
duel_cdm_grid_new_for_result (DuelResult *result)
{
  g_autoptr(DuelComparison) comparison = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  comparison = duel_comparison_new (result, NULL, NULL);
  return comparison != NULL ? duel_cdm_grid_new (comparison) : NULL;
}

void
duel_cdm_grid_free (DuelCdmGrid *self)
{
  if (self == NULL)
    return;
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    {
      g_free (self->names[d]);
      g_free (self->created[d]);
    }
  g_free (self);
}

guint
duel_cdm_grid_get_n_drives (DuelCdmGrid *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_drives;
}

const char *
duel_cdm_grid_get_drive_name (DuelCdmGrid *self,
                              guint        drive)
{
  g_return_val_if_fail (self != NULL && drive < self->n_drives, NULL);
  return self->names[drive];
}

gboolean
duel_cdm_grid_is_nvme (DuelCdmGrid *self,
                       guint        drive)
{
  g_return_val_if_fail (self != NULL && drive < self->n_drives, FALSE);
  return self->nvme[drive];
}

guint
duel_cdm_grid_get_n_rows (DuelCdmGrid *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
}

const char *
duel_cdm_grid_get_row_label (DuelCdmGrid *self,
                             guint        row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, NULL);
  return all_rows[self->rows[row]].label;
}

const char *
duel_cdm_grid_get_row_test (DuelCdmGrid   *self,
                            guint          row,
                            DuelDirection  direction)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows && direction < DUEL_N_DIRECTIONS, NULL);
  return all_rows[self->rows[row]].test[direction];
}

const DuelCdmCell *
duel_cdm_grid_get_cell (DuelCdmGrid   *self,
                        guint          drive,
                        guint          row,
                        DuelDirection  direction)
{
  g_return_val_if_fail (self != NULL && drive < self->n_drives && row < self->n_rows, NULL);
  g_return_val_if_fail (direction < DUEL_N_DIRECTIONS, NULL);
  return &self->cells[drive][row][direction];
}

guint
duel_cdm_grid_get_n_passes (DuelCdmGrid *self,
                            guint        drive)
{
  g_return_val_if_fail (self != NULL && drive < self->n_drives, 0);
  return self->n_passes[drive];
}

gboolean
duel_cdm_grid_has_step (const char *test)
{
  for (guint r = 0; r < G_N_ELEMENTS (all_rows); r++)
    for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
      if (g_strcmp0 (test, all_rows[r].test[dir]) == 0)
        return TRUE;
  return FALSE;
}

/* ---- Units and words ------------------------------------------------------ */

static const struct
{
  const char *symbol;
  const char *nick;
  int         decimals;
} units[DUEL_CDM_N_UNITS] = {
  { "MB/s", "mbps", 2 },
  { "IOPS", "iops", 1 },
  { "µs",   "us",   2 },
};

const char *
duel_cdm_unit_get_symbol (DuelCdmUnit unit)
{
  g_return_val_if_fail (unit < DUEL_CDM_N_UNITS, "");
  return units[unit].symbol;
}

gboolean
duel_cdm_unit_from_nick (const char  *nick,
                         DuelCdmUnit *out_unit)
{
  for (guint u = 0; u < DUEL_CDM_N_UNITS; u++)
    if (g_strcmp0 (nick, units[u].nick) == 0)
      {
        *out_unit = u;
        return TRUE;
      }
  return FALSE;
}

char *
duel_cdm_format_value (double      value,
                       DuelCdmUnit unit)
{
  g_return_val_if_fail (unit < DUEL_CDM_N_UNITS, NULL);
  return duel_number_format (value, units[unit].decimals);
}

char *
duel_cdm_cell_format_passes (const DuelCdmCell *cell,
                             DuelCdmUnit        unit)
{
  g_autofree char *mean = NULL;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  g_autofree char *share = NULL;

  g_return_val_if_fail (cell != NULL && unit < DUEL_CDM_N_UNITS, NULL);

  if (cell->n_passes == 0)
    return g_strdup ("");
  if (cell->n_passes == 1)
    /* TRANSLATORS: under a CrystalDiskMark value: the step ran one pass */
    return g_strdup (_("run once"));
  mean = duel_cdm_format_value (cell->mean[unit], unit);
  low = duel_cdm_format_value (cell->min[unit], unit);
  high = duel_cdm_format_value (cell->max[unit], unit);
  if (!isfinite (cell->mean[unit]) || cell->mean[unit] == 0)
    /* TRANSLATORS: under a CrystalDiskMark value: of how many passes it is
     * the best, which pass, their mean, the lowest and highest pass, the unit */
    return g_strdup_printf (_("best of %u (pass %u), mean %s, spread %s–%s %s"), cell->n_passes,
                            cell->best_pass, mean, low, high, units[unit].symbol);
  share = duel_number_format ((cell->max[unit] - cell->min[unit]) / fabs (cell->mean[unit]) * 100.0, 0);
  /* TRANSLATORS: under a CrystalDiskMark value: of how many passes it is the
   * best, which pass, their mean, the lowest and highest pass, the unit, and
   * the spread's width as a share of the mean */
  return g_strdup_printf (_("best of %u (pass %u), mean %s, spread %s–%s %s (%s %%)"), cell->n_passes,
                          cell->best_pass, mean, low, high, units[unit].symbol, share);
}

/* ---- Text ----------------------------------------------------------------- */

/* The first cell of @drive that ran: the test size and time of its run. */
static const DuelCdmCell *
first_cell (DuelCdmGrid *self,
            guint        drive)
{
  for (guint r = 0; r < self->n_rows; r++)
    for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
      if (self->cells[drive][r][dir].n_passes > 0)
        return &self->cells[drive][r][dir];
  return NULL;
}

static char *
profile_words (DuelCdmGrid *self,
               guint        drive)
{
  const DuelCdmCell *cell = first_cell (self, drive);
  g_autofree char *size = NULL;
  g_autofree char *seconds = NULL;
  const char *profile = self->nvme[drive] ? _("NVMe SSD") : _("Default");

  if (cell == NULL)
    return g_strdup (profile);
  size = g_format_size_full (cell->test_bytes, G_FORMAT_SIZE_IEC_UNITS);
  seconds = duel_number_format (cell->runtime_ms / 1e3, cell->runtime_ms % 1000 == 0 ? 0 : 1);
  /* TRANSLATORS: CrystalDiskMark's profile ("Default", "NVMe SSD"), then
   * the passes, each step's length in seconds and the test size:
   * "Default, best of 5 passes of 5 s, 1.0 GiB" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %u pass of %s s, %s",
                                       "%s, best of %u passes of %s s, %s", self->n_passes[drive]),
                          profile, self->n_passes[drive], seconds, size);
}

static void
append_padded (GString    *out,
               const char *text,
               guint       width)
{
  glong length = g_utf8_strlen (text, -1);

  for (glong i = length; i < (glong) width; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, text);
}

static void
plain_drive (DuelCdmGrid *self,
             guint        drive,
             DuelCdmUnit  unit,
             GString     *out)
{
  static const char rule[] = "------------------------------------------------------------------------------\n";
  g_autofree char *profile = profile_words (self, drive);
  guint label_width = 0;

  for (guint r = 0; r < self->n_rows; r++)
    label_width = MAX (label_width, (guint) strlen (all_rows[self->rows[r]].label));

  g_string_append (out, rule);
  /* TRANSLATORS: the first line of the CrystalDiskMark text: the program, its version, the drive */
  g_string_append_printf (out, _("Drive Duel %s — CrystalDiskMark set — %s\n"), PACKAGE_VERSION, self->names[drive]);
  g_string_append (out, rule);
  /* TRANSLATORS: CrystalDiskMark's note on its units, kept in its words */
  g_string_append (out, _("* MB/s = 1,000,000 bytes/s; µs = mean latency of one I/O\n"));
  g_string_append (out, _("* KB = 1000 bytes, KiB = 1024 bytes\n"));

  for (int dir = DUEL_DIRECTION_READ; dir < DUEL_N_DIRECTIONS; dir++)
    {
      g_string_append_c (out, '\n');
      g_string_append (out, dir == DUEL_DIRECTION_READ ? _("[Read]") : _("[Write]"));
      g_string_append_c (out, '\n');
      for (guint r = 0; r < self->n_rows; r++)
        {
          const DuelCdmCell *cell = &self->cells[drive][r][dir];
          g_autofree char *mbps = duel_cdm_format_value (cell->best[DUEL_CDM_UNIT_MB_S], DUEL_CDM_UNIT_MB_S);
          g_autofree char *iops = duel_cdm_format_value (cell->best[DUEL_CDM_UNIT_IOPS], DUEL_CDM_UNIT_IOPS);
          g_autofree char *us = duel_cdm_format_value (cell->best[DUEL_CDM_UNIT_US], DUEL_CDM_UNIT_US);
          g_autofree char *passes = duel_cdm_cell_format_passes (cell, unit);

          g_string_append (out, "  ");
          g_string_append (out, all_rows[self->rows[r]].label);
          for (guint i = strlen (all_rows[self->rows[r]].label); i < label_width; i++)
            g_string_append_c (out, ' ');
          if (cell->n_passes == 0)
            {
              /* TRANSLATORS: a CrystalDiskMark step this drive did not run */
              g_string_append_printf (out, "  %s\n", _("not run"));
              continue;
            }
          g_string_append (out, " ");
          append_padded (out, mbps, 12);
          g_string_append (out, " MB/s [");
          append_padded (out, iops, 11);
          g_string_append (out, " IOPS] <");
          append_padded (out, us, 10);
          g_string_append (out, " µs>\n");
          g_string_append_printf (out, "  %*s %s\n", (int) label_width, "", passes);
        }
    }
  g_string_append_c (out, '\n');
  /* TRANSLATORS: CrystalDiskMark's closing lines: the profile with its passes and test size, the date */
  g_string_append_printf (out, _("Profile: %s\n"), profile);
  if (self->created[drive] != NULL)
    g_string_append_printf (out, _("   Date: %s UTC\n"), self->created[drive]);
}

/* A drive's name in a Markdown table cell. */
static char *
markdown_escape (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '|' || *p == '\\' || *p == '*' || *p == '_' || *p == '`')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p == '\n' ? ' ' : *p);
    }
  return g_string_free (out, FALSE);
}

static void
markdown_table (DuelCdmGrid *self,
                DuelCdmUnit  unit,
                gboolean     spread,
                GString     *out)
{
  g_string_append_printf (out, "| %s |", units[unit].symbol);
  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *name = markdown_escape (self->names[d]);

      if (self->n_drives > 1)
        /* TRANSLATORS: a column of the CrystalDiskMark table: the drive's name, then Read or Write */
        g_string_append_printf (out, _(" %s Read | %s Write |"), name, name);
      else
        g_string_append_printf (out, " %s | %s |", _("Read"), _("Write"));
    }
  g_string_append (out, "\n|:--|");
  for (guint d = 0; d < self->n_drives; d++)
    g_string_append (out, "--:|--:|");
  g_string_append_c (out, '\n');

  for (guint r = 0; r < self->n_rows; r++)
    {
      g_string_append_printf (out, "| %s |", all_rows[self->rows[r]].label);
      for (guint d = 0; d < self->n_drives; d++)
        for (int dir = DUEL_DIRECTION_READ; dir < DUEL_N_DIRECTIONS; dir++)
          {
            const DuelCdmCell *cell = &self->cells[d][r][dir];
            g_autofree char *text = NULL;

            if (cell->n_passes == 0)
              text = g_strdup ("–");
            else if (!spread)
              {
                g_autofree char *value = duel_cdm_format_value (cell->best[unit], unit);

                text = g_strdup_printf ("**%s**", value);
              }
            else if (cell->n_passes == 1)
              text = g_strdup (_("run once"));
            else
              {
                g_autofree char *mean = duel_cdm_format_value (cell->mean[unit], unit);
                g_autofree char *low = duel_cdm_format_value (cell->min[unit], unit);
                g_autofree char *high = duel_cdm_format_value (cell->max[unit], unit);

                /* TRANSLATORS: a cell of the passes' table: which pass was the best, the mean, the spread */
                text = g_strdup_printf (_("pass %u; mean %s; %s–%s"), cell->best_pass, mean, low, high);
              }
            g_string_append_printf (out, " %s |", text);
          }
      g_string_append_c (out, '\n');
    }
}

static void
markdown (DuelCdmGrid *self,
          DuelCdmUnit  unit,
          GString     *out)
{
  g_string_append_printf (out, "**%s**\n\n", _("CrystalDiskMark set"));
  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *name = markdown_escape (self->names[d]);
      g_autofree char *profile = profile_words (self, d);

      g_string_append_printf (out, "- %s: %s\n", name, profile);
    }
  g_string_append_c (out, '\n');
  markdown_table (self, unit, FALSE, out);
  g_string_append_c (out, '\n');
  /* TRANSLATORS: above the table of the passes behind each CrystalDiskMark value */
  g_string_append_printf (out, "%s\n\n", _("The passes: the best, their mean and the lowest–highest pass"));
  markdown_table (self, unit, TRUE, out);
  g_string_append_c (out, '\n');
  /* TRANSLATORS: CrystalDiskMark's note on its units, under the Markdown table */
  g_string_append_printf (out, "%s\n", _("MB/s = 1,000,000 bytes/s; µs = mean latency of one I/O; made by Drive Duel."));
}

char *
duel_cdm_grid_to_text (DuelCdmGrid       *self,
                       DuelCdmUnit        unit,
                       DuelCdmTextFormat  format)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (unit < DUEL_CDM_N_UNITS, NULL);

  if (format == DUEL_CDM_TEXT_MARKDOWN)
    {
      markdown (self, unit, out);
      return g_string_free (out, FALSE);
    }
  for (guint d = 0; d < self->n_drives; d++)
    {
      if (d > 0)
        g_string_append_c (out, '\n');
      plain_drive (self, d, unit, out);
    }
  return g_string_free (out, FALSE);
}
