/* duel-chart-matrix.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-matrix.h"
#include "duel-size.h"
#include "analysis/duel-rounds.h"
#include "review/duel-review-test.h"

typedef struct
{
  char    *section;
  guint32  block_size;
  guint    read_percent;
  guint    n_rounds;
  double   iops;
  double   mbps;
  double   latency_mean_us;
  double   latency_p9999_us;
  double   latency_max_us;
} Cell;

typedef struct
{
  GArray *cells;                /* Cell, every test the chart shows */
} Drive;

/* A group of bars: one value per drive, and a mark above it (latency's maximum). */
typedef struct
{
  char   *label;
  double  value[DUEL_COMPARISON_MAX_DRIVES];
  double  mark[DUEL_COMPARISON_MAX_DRIVES];
} Group;

typedef struct
{
  guint32  block_size;          /* the one asked for */
  guint32  shown_block_size;    /* it, or the smallest run where no drive ran it */
  Drive    drives[DUEL_COMPARISON_MAX_DRIVES];
  guint    n_drives;
  GArray  *block_sizes;         /* guint32, ascending, over every drive */
  GArray  *mixes;               /* guint read percent, descending (100/0 first, as SNIA) */
  char    *first_section;
} DuelChartMatrixPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (DuelChartMatrix, duel_chart_matrix, DUEL_TYPE_CHART)

enum {
  PROP_0,
  PROP_BLOCK_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Lines of the mixes: the palette without its black (the background of a
 * dark chart), yellow last, as it reads worst on white. */
static const DuelChartPaletteEntry mix_colors[] = {
  DUEL_CHART_PALETTE_BLUE, DUEL_CHART_PALETTE_VERMILLION, DUEL_CHART_PALETTE_BLUISH_GREEN,
  DUEL_CHART_PALETTE_REDDISH_PURPLE, DUEL_CHART_PALETTE_SKY_BLUE, DUEL_CHART_PALETTE_ORANGE,
  DUEL_CHART_PALETTE_YELLOW,
};

static void
cell_clear (gpointer data)
{
  g_free (((Cell *) data)->section);
}

static void
group_clear (gpointer data)
{
  g_free (((Group *) data)->label);
}

static void
clear_data (DuelChartMatrixPrivate *priv)
{
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    g_clear_pointer (&priv->drives[d].cells, g_array_unref);
  g_clear_pointer (&priv->block_sizes, g_array_unref);
  g_clear_pointer (&priv->mixes, g_array_unref);
  g_clear_pointer (&priv->first_section, g_free);
  priv->n_drives = 0;
}

static int
compare_block_sizes (gconstpointer a,
                     gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_mixes (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x > y ? -1 : x < y;
}

static void
add_unique_u32 (GArray  *array,
                guint32  value)
{
  for (guint i = 0; i < array->len; i++)
    if (g_array_index (array, guint32, i) == value)
      return;
  g_array_append_val (array, value);
}

static void
duel_chart_matrix_rebuild (DuelChart *chart)
{
  DuelChartMatrix *self = DUEL_CHART_MATRIX (chart);
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);
  DuelChartMatrixClass *klass = DUEL_CHART_MATRIX_GET_CLASS (self);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  clear_data (priv);
  priv->block_sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  priv->mixes = g_array_new (FALSE, FALSE, sizeof (guint));
  priv->n_drives = duel_comparison_get_n_drives (comparison);
  for (guint d = 0; d < priv->n_drives; d++)
    {
      DuelResult *result = duel_comparison_get_result (comparison, d);
      g_auto(GStrv) sections = duel_rounds_list_sections (result);

      priv->drives[d].cells = g_array_new (FALSE, FALSE, sizeof (Cell));
      g_array_set_clear_func (priv->drives[d].cells, cell_clear);
      for (guint s = 0; sections[s] != NULL; s++)
        {
          g_autoptr(DuelRoundsReport) report = NULL;

          if (!g_str_has_prefix (sections[s], klass->section_prefix))
            continue;
          report = duel_rounds_report_new (result, sections[s]);
          if (report == NULL)
            continue;
          if (priv->first_section == NULL)
            priv->first_section = g_strdup (sections[s]);
          for (guint c = 0; c < report->cells->len; c++)
            {
              const DuelRoundsCell *from = g_ptr_array_index (report->cells, c);
              Cell cell = {
                g_strdup (sections[s]), from->block_size, from->read_percent, from->n_rounds,
                from->iops, from->mbps, from->latency_mean_us, from->latency_p9999_us, from->latency_max_us,
              };

              /* Preconditioning is a step of the test, not a cell of its matrix. */
              if (from->n_rounds == 0 || from->block_size == 0)
                {
                  g_free (cell.section);
                  continue;
                }
              g_array_append_val (priv->drives[d].cells, cell);
              add_unique_u32 (priv->block_sizes, from->block_size);
              add_unique_u32 (priv->mixes, from->read_percent);
            }
        }
    }
  g_array_sort (priv->block_sizes, compare_block_sizes);
  g_array_sort (priv->mixes, compare_mixes);
  /* A matrix run without 4 KiB (scaled down to 64 KiB, say) still compares. */
  priv->shown_block_size = priv->block_size;
  if (priv->block_sizes->len > 0)
    {
      gboolean ran = FALSE;

      for (guint b = 0; b < priv->block_sizes->len; b++)
        ran = ran || g_array_index (priv->block_sizes, guint32, b) == priv->block_size;
      if (!ran)
        priv->shown_block_size = g_array_index (priv->block_sizes, guint32, 0);
    }
}

static const Cell *
find_cell (DuelChartMatrixPrivate *priv,
           guint                   drive,
           guint32                 block_size,
           guint                   read_percent)
{
  GArray *cells = priv->drives[drive].cells;

  for (guint i = 0; cells != NULL && i < cells->len; i++)
    {
      const Cell *cell = &g_array_index (cells, Cell, i);

      if (cell->block_size == block_size && cell->read_percent == read_percent)
        return cell;
    }
  return NULL;
}

/* The drives that ran the chart's tests, in comparison order: the bars
 * leave no gap for a drive without them (its legend entry neither). */
static guint
list_drives_with_cells (DuelChartMatrixPrivate *priv,
                        guint                  *out_drives)
{
  guint n = 0;

  for (guint d = 0; d < priv->n_drives; d++)
    if (priv->drives[d].cells != NULL && priv->drives[d].cells->len > 0)
      out_drives[n++] = d;
  return n;
}

/* The figure a plot shows of @cell: IOPS, MB/s, or the mean latency (µs). */
static double
cell_value (DuelChartMatrixKind kind,
            const Cell         *cell)
{
  if (cell == NULL)
    return NAN;
  switch (kind)
    {
    case DUEL_CHART_MATRIX_IOPS:
      return cell->iops;
    case DUEL_CHART_MATRIX_LATENCY:
      return cell->latency_mean_us;
    case DUEL_CHART_MATRIX_THROUGHPUT:
    default:
      return cell->mbps;
    }
}

static gboolean
as_lines (DuelChartMatrix *self)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);

  return DUEL_CHART_MATRIX_GET_CLASS (self)->kind != DUEL_CHART_MATRIX_THROUGHPUT && priv->n_drives == 1;
}

static gboolean
duel_chart_matrix_has_data (DuelChart *chart)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (DUEL_CHART_MATRIX (chart));
  DuelChartMatrixKind kind = DUEL_CHART_MATRIX_GET_CLASS (chart)->kind;

  for (guint d = 0; d < priv->n_drives; d++)
    for (guint i = 0; i < priv->drives[d].cells->len; i++)
      if (isfinite (cell_value (kind, &g_array_index (priv->drives[d].cells, Cell, i))))
        return TRUE;
  return FALSE;
}

static char *
dup_mix_label (guint read_percent)
{
  /* TRANSLATORS: a read/write mix of SNIA's matrix in percent: "65/35 R/W" */
  return g_strdup_printf (_("%u/%u R/W"), read_percent, 100 - read_percent);
}

static char *
duel_chart_matrix_get_title (DuelChart *chart)
{
  DuelChartMatrix *self = DUEL_CHART_MATRIX (chart);
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);
  const DuelReviewTest *test = duel_review_test_find (priv->first_section != NULL ? priv->first_section
                                                      : DUEL_CHART_MATRIX_GET_CLASS (self)->section_prefix);
  const char *name = test != NULL ? duel_review_test_get_title (test) : _("SNIA PTS");
  g_autofree char *size = duel_format_size_as_given (priv->shown_block_size);

  switch (DUEL_CHART_MATRIX_GET_CLASS (self)->kind)
    {
    case DUEL_CHART_MATRIX_IOPS:
      if (as_lines (self))
        /* TRANSLATORS: the SNIA test's title: "SNIA IOPS: IOPS by block size and read/write mix" */
        return g_strdup_printf (_("%s: IOPS by block size and read/write mix"), name);
      /* TRANSLATORS: the SNIA test's title, a block size: "SNIA IOPS: IOPS at 4 KiB by read/write mix" */
      return g_strdup_printf (_("%s: IOPS at %s by read/write mix"), name, size);
    case DUEL_CHART_MATRIX_LATENCY:
      if (as_lines (self))
        /* TRANSLATORS: the SNIA test's title */
        return g_strdup_printf (_("%s: mean and maximum latency by block size"), name);
      /* TRANSLATORS: the SNIA test's title, a block size */
      return g_strdup_printf (_("%s: mean and maximum latency at %s"), name, size);
    case DUEL_CHART_MATRIX_THROUGHPUT:
    default:
      /* TRANSLATORS: SNIA's throughput test (its two block sizes together) */
      return g_strdup (_("SNIA throughput: MB/s by block size, read and write"));
    }
}

static char *
duel_chart_matrix_get_subtitle (DuelChart *chart)
{
  return g_strdup (_("Each cell: its mean over its test's measurement window (the steady-state rounds, "
                     "or the last rounds where the test did not reach steady state)"));
}

static const char *
y_title (DuelChartMatrixKind kind)
{
  switch (kind)
    {
    case DUEL_CHART_MATRIX_IOPS:
      return _("IOPS");
    case DUEL_CHART_MATRIX_LATENCY:
      return _("Latency (µs)");
    case DUEL_CHART_MATRIX_THROUGHPUT:
    default:
      return _("MB/s");
    }
}

static void
duel_chart_matrix_fill_legend (DuelChart       *chart,
                               DuelChartLegend *legend)
{
  DuelChartMatrix *self = DUEL_CHART_MATRIX (chart);
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);
  const DuelChartStyle *style = duel_chart_get_style (chart);

  if (!as_lines (self))
    {
      guint drives[DUEL_COMPARISON_MAX_DRIVES];
      guint n = list_drives_with_cells (priv, drives);

      for (guint i = 0; i < n; i++)
        {
          guint d = drives[i];
          g_autofree char *name = duel_chart_dup_drive_label (chart, d);

          duel_chart_legend_add (legend, DUEL_CHART_MARK_BOX,
                                 duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN), name);
        }
      if (DUEL_CHART_MATRIX_GET_CLASS (self)->kind == DUEL_CHART_MATRIX_LATENCY)
        duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->foreground, _("maximum"));
      return;
    }
  for (guint m = 0; m < priv->mixes->len; m++)
    {
      g_autofree char *label = dup_mix_label (g_array_index (priv->mixes, guint, m));
      DuelChartColor color;

      duel_chart_palette_get (mix_colors[m % G_N_ELEMENTS (mix_colors)], &color);
      duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE, &color, label);
    }
  if (DUEL_CHART_MATRIX_GET_CLASS (self)->kind == DUEL_CHART_MATRIX_LATENCY)
    {
      duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE, &style->foreground, _("mean"));
      duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->foreground, _("maximum"));
    }
}

/* A log y axis over [lo, hi], in whole decades. */
static void
fit_log_axis (DuelChartAxis *axis,
              double         lo,
              double         hi)
{
  if (!(lo > 0) || !isfinite (lo))
    lo = 1;
  if (!(hi > lo))
    hi = lo * 10;
  duel_chart_axis_init (axis, DUEL_CHART_SCALE_LOG, DUEL_CHART_FORMAT_NUMBER, 1, 10);
  duel_chart_axis_fit (axis, lo, hi, FALSE);
}

/* SNIA's 2D plot: a line per mix across the block sizes, both axes log. */
static void
draw_lines (DuelChartMatrix     *self,
            cairo_t             *cr,
            const DuelChartRect *area)
{
  DuelChart *chart = DUEL_CHART (self);
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);
  DuelChartMatrixKind kind = DUEL_CHART_MATRIX_GET_CLASS (self)->kind;
  const DuelChartStyle *style = duel_chart_get_style (chart);
  const char *x_title = _("Block size");
  DuelChartAxis x_axis, y_axis;
  DuelChartRect plot, inner = *area;
  double lo = INFINITY, hi = 0, tick_h = 0, title_h = 0, dashes[] = { 6, 4 };
  guint32 first_bs = g_array_index (priv->block_sizes, guint32, 0);
  guint32 last_bs = g_array_index (priv->block_sizes, guint32, priv->block_sizes->len - 1);

  for (guint i = 0; i < priv->drives[0].cells->len; i++)
    {
      const Cell *cell = &g_array_index (priv->drives[0].cells, Cell, i);
      double values[] = { cell_value (kind, cell), kind == DUEL_CHART_MATRIX_LATENCY ? cell->latency_max_us : NAN };

      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        if (isfinite (values[k]) && values[k] > 0)
          {
            lo = MIN (lo, values[k]);
            hi = MAX (hi, values[k]);
          }
    }
  fit_log_axis (&y_axis, lo, hi);

  /* The x axis in log2 of the block size, labelled at each block size run. */
  duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, "1 MiB", NULL, &tick_h);
  duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, x_title, NULL, &title_h);
  inner.height = MAX (area->height - tick_h - title_h - 8, 20);
  duel_chart_axes_layout (cr, style, NULL, &y_axis, NULL, y_title (kind), &inner, &plot);
  duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER,
                        log2 (first_bs) - 0.5, log2 (MAX (last_bs, first_bs)) + 0.5);
  x_axis.start = plot.x;
  x_axis.end = plot.x + plot.width;
  duel_chart_axes_draw_grid (cr, style, NULL, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);

  for (guint b = 0; b < priv->block_sizes->len; b++)
    {
      guint32 bs = g_array_index (priv->block_sizes, guint32, b);
      g_autofree char *label = duel_format_size_as_given (bs);
      double px = duel_chart_snap_x (cr, duel_chart_axis_map (&x_axis, log2 (bs)));

      cairo_save (cr);
      cairo_set_line_width (cr, 1);
      duel_chart_set_source_color (cr, &style->grid);
      cairo_move_to (cr, px, plot.y);
      cairo_line_to (cr, px, plot.y + plot.height);
      cairo_stroke (cr);
      cairo_restore (cr);
      duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_TICK, &style->muted, label,
                            px, plot.y + plot.height + 4, 0.5, 0);
    }
  duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, &style->foreground, x_title,
                        plot.x + plot.width / 2, plot.y + plot.height + 6 + tick_h, 0.5, 0);

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  for (guint m = 0; m < priv->mixes->len; m++)
    {
      guint mix = g_array_index (priv->mixes, guint, m);
      DuelChartColor color;

      duel_chart_palette_get (mix_colors[m % G_N_ELEMENTS (mix_colors)], &color);
      for (guint series = 0; series < (kind == DUEL_CHART_MATRIX_LATENCY ? 2u : 1u); series++)
        {
          g_autoptr(DuelChartLine) line = duel_chart_line_new ();

          for (guint b = 0; b < priv->block_sizes->len; b++)
            {
              guint32 bs = g_array_index (priv->block_sizes, guint32, b);
              const Cell *cell = find_cell (priv, 0, bs, mix);
              double value = series == 0 ? cell_value (kind, cell) : cell != NULL ? cell->latency_max_us : NAN;

              if (isfinite (value) && value > 0)
                duel_chart_line_append (line, log2 (bs), value);
            }
          if (duel_chart_line_get_length (line) == 0)
            continue;
          cairo_save (cr);
          duel_chart_set_source_color (cr, &color);
          if (series == 1)
            cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
          duel_chart_line_draw (line, cr, &x_axis, &y_axis, &plot, style->line_width * 1.5);
          cairo_restore (cr);
          /* A dot per cell, where it is: the cells are few, each a measurement. */
          for (guint i = 0; i < duel_chart_line_get_length (line); i++)
            duel_chart_draw_mark (cr, style, DUEL_CHART_MARK_DOT, &color,
                                  duel_chart_axis_map (&x_axis, duel_chart_line_get_x (line)[i]),
                                  duel_chart_axis_map (&y_axis, duel_chart_line_get_y (line)[i]), 14);
        }
    }
  cairo_restore (cr);
  duel_chart_axes_draw (cr, style, NULL, &y_axis, NULL, y_title (kind), &plot);
}

/* The groups of bars the comparison shows. */
static GArray *
build_groups (DuelChartMatrix *self)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);
  DuelChartMatrixKind kind = DUEL_CHART_MATRIX_GET_CLASS (self)->kind;
  GArray *groups = g_array_new (FALSE, TRUE, sizeof (Group));

  g_array_set_clear_func (groups, group_clear);
  if (kind == DUEL_CHART_MATRIX_THROUGHPUT)
    {
      for (guint b = 0; b < priv->block_sizes->len; b++)
        for (guint m = 0; m < priv->mixes->len; m++)
          {
            guint32 bs = g_array_index (priv->block_sizes, guint32, b);
            guint mix = g_array_index (priv->mixes, guint, m);
            g_autofree char *size = duel_format_size_as_given (bs);
            Group group = { NULL };

            if (mix == 100)
              /* TRANSLATORS: a block size's sequential read: "1 MiB read" */
              group.label = g_strdup_printf (_("%s read"), size);
            else if (mix == 0)
              /* TRANSLATORS: a block size's sequential write: "1 MiB write" */
              group.label = g_strdup_printf (_("%s write"), size);
            else
              {
                g_autofree char *mix_label = dup_mix_label (mix);
                group.label = g_strdup_printf ("%s %s", size, mix_label);
              }
            for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
              {
                group.value[d] = d < priv->n_drives ? cell_value (kind, find_cell (priv, d, bs, mix)) : NAN;
                group.mark[d] = NAN;
              }
            g_array_append_val (groups, group);
          }
      return groups;
    }
  for (guint m = 0; m < priv->mixes->len; m++)
    {
      guint mix = g_array_index (priv->mixes, guint, m);
      Group group = { dup_mix_label (mix) };

      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          const Cell *cell = d < priv->n_drives ? find_cell (priv, d, priv->shown_block_size, mix) : NULL;

          group.value[d] = cell_value (kind, cell);
          group.mark[d] = kind == DUEL_CHART_MATRIX_LATENCY && cell != NULL ? cell->latency_max_us : NAN;
        }
      g_array_append_val (groups, group);
    }
  return groups;
}

/* The comparison: a group per mix (or per block size and direction), a bar
 * per drive, its value above it. */
static void
draw_bars (DuelChartMatrix     *self,
           cairo_t             *cr,
           const DuelChartRect *area)
{
  DuelChart *chart = DUEL_CHART (self);
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);
  DuelChartMatrixKind kind = DUEL_CHART_MATRIX_GET_CLASS (self)->kind;
  const DuelChartStyle *style = duel_chart_get_style (chart);
  g_autoptr(GArray) groups = build_groups (self);
  g_autoptr(DuelChartLabels) labels = NULL;
  gboolean log_y = kind == DUEL_CHART_MATRIX_LATENCY;
  DuelChartAxis y_axis;
  DuelChartRect plot, inner = *area;
  double lo = INFINITY, hi = 0, tick_h = 0, slot, bar_w;
  guint drives[DUEL_COMPARISON_MAX_DRIVES];
  guint n_shown = list_drives_with_cells (priv, drives);

  for (guint g = 0; g < groups->len; g++)
    {
      const Group *group = &g_array_index (groups, Group, g);

      for (guint d = 0; d < priv->n_drives; d++)
        for (guint k = 0; k < 2; k++)
          {
            double v = k == 0 ? group->value[d] : group->mark[d];

            if (isfinite (v) && v > 0)
              {
                lo = MIN (lo, v);
                hi = MAX (hi, v);
              }
          }
    }
  if (log_y)
    fit_log_axis (&y_axis, lo, hi);
  else
    {
      duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
      duel_chart_axis_fit (&y_axis, 0, MAX (hi * 1.1, 1), TRUE);
    }
  duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, "65/35 R/W", NULL, &tick_h);
  inner.height = MAX (area->height - tick_h - 6, 20);
  duel_chart_axes_layout (cr, style, NULL, &y_axis, NULL, y_title (kind), &inner, &plot);
  duel_chart_axes_draw_grid (cr, style, NULL, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);
  labels = duel_chart_labels_new (&plot);

  slot = plot.width / MAX (groups->len, 1);
  bar_w = MIN (slot * 0.8 / MAX (n_shown, 1), style->font_size * 5);
  for (guint g = 0; g < groups->len; g++)
    {
      const Group *group = &g_array_index (groups, Group, g);
      double center = plot.x + slot * (g + 0.5);
      double left = center - bar_w * n_shown / 2;
      double bottom = plot.y + plot.height;

      for (guint i = 0; i < n_shown; i++)
        {
          guint d = drives[i];
          double x = left + i * bar_w;

          if (isfinite (group->value[d]) && group->value[d] > 0)
            {
              double top = duel_chart_axis_map (&y_axis, group->value[d]);
              DuelChartRect bar = { x + 1, top, bar_w - 2, bottom - top };
              g_autofree char *text = duel_chart_format_compact (group->value[d]);

              duel_chart_set_source_color (cr, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
              cairo_rectangle (cr, bar.x, bar.y, bar.width, MAX (bar.height, 0));
              cairo_fill (cr);
              duel_chart_labels_avoid (labels, &bar);
              duel_chart_labels_add (labels, text, &style->foreground, x + bar_w / 2, top, DUEL_CHART_LABEL_ABOVE);
            }
          if (isfinite (group->mark[d]) && group->mark[d] > 0)
            {
              double py = duel_chart_axis_map (&y_axis, group->mark[d]);
              double dashes[] = { 3, 2 };

              cairo_save (cr);
              duel_chart_set_source_color (cr, &style->foreground);
              cairo_set_line_width (cr, style->line_width * 1.5);
              cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
              cairo_move_to (cr, x, py);
              cairo_line_to (cr, x + bar_w, py);
              cairo_stroke (cr);
              cairo_restore (cr);
            }
        }
      duel_chart_draw_text_in (cr, style, DUEL_CHART_TEXT_TICK, &style->muted, group->label,
                               &(DuelChartRect) { center - slot / 2 + 2, bottom + 4, slot - 4, 0 }, 0.5, 0);
    }
  duel_chart_labels_draw (labels, cr, style);
  duel_chart_add_labels (chart, labels);
  duel_chart_axes_draw (cr, style, NULL, &y_axis, NULL, y_title (kind), &plot);
}

static void
duel_chart_matrix_draw_content (DuelChart           *chart,
                                cairo_t             *cr,
                                const DuelChartRect *area)
{
  DuelChartMatrix *self = DUEL_CHART_MATRIX (chart);

  if (as_lines (self))
    draw_lines (self, cr, area);
  else
    draw_bars (self, cr, area);
}

static void
append_number_or_empty (GString *csv,
                        double   value)
{
  g_string_append_c (csv, ',');
  if (isfinite (value))
    duel_chart_csv_append_number (csv, "%.6g", value);
}

static void
duel_chart_matrix_write_csv (DuelChart *chart,
                             GString   *csv)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (DUEL_CHART_MATRIX (chart));
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_string_append (csv, "drive,test,block_size,read_percent,window_rounds,iops,mbps,"
                        "latency_mean_us,latency_p9999_us,latency_max_us\n");
  for (guint d = 0; d < priv->n_drives; d++)
    for (guint b = 0; b < priv->block_sizes->len; b++)
      for (guint m = 0; m < priv->mixes->len; m++)
        {
          const Cell *cell = find_cell (priv, d, g_array_index (priv->block_sizes, guint32, b),
                                        g_array_index (priv->mixes, guint, m));

          if (cell == NULL)
            continue;
          duel_chart_csv_append_field (csv, duel_comparison_get_drive_name (comparison, d));
          g_string_append_c (csv, ',');
          duel_chart_csv_append_field (csv, cell->section);
          g_string_append_printf (csv, ",%u,%u,%u", cell->block_size, cell->read_percent, cell->n_rounds);
          append_number_or_empty (csv, cell->iops);
          append_number_or_empty (csv, cell->mbps);
          append_number_or_empty (csv, cell->latency_mean_us);
          append_number_or_empty (csv, cell->latency_p9999_us);
          append_number_or_empty (csv, cell->latency_max_us);
          g_string_append_c (csv, '\n');
        }
}

static void
duel_chart_matrix_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (DUEL_CHART_MATRIX (object));

  switch (prop_id)
    {
    case PROP_BLOCK_SIZE:
      g_value_set_uint (value, priv->block_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_matrix_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (DUEL_CHART_MATRIX (object));

  switch (prop_id)
    {
    case PROP_BLOCK_SIZE:
      priv->block_size = g_value_get_uint (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_matrix_finalize (GObject *object)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (DUEL_CHART_MATRIX (object));

  clear_data (priv);

  G_OBJECT_CLASS (duel_chart_matrix_parent_class)->finalize (object);
}

static void
duel_chart_matrix_class_init (DuelChartMatrixClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_matrix_finalize;
  object_class->get_property = duel_chart_matrix_get_property;
  object_class->set_property = duel_chart_matrix_set_property;

  chart_class->only_with_data = TRUE;
  chart_class->rebuild = duel_chart_matrix_rebuild;
  chart_class->get_title = duel_chart_matrix_get_title;
  chart_class->get_subtitle = duel_chart_matrix_get_subtitle;
  chart_class->has_data = duel_chart_matrix_has_data;
  chart_class->fill_legend = duel_chart_matrix_fill_legend;
  chart_class->draw_content = duel_chart_matrix_draw_content;
  chart_class->write_csv = duel_chart_matrix_write_csv;

  properties[PROP_BLOCK_SIZE] =
    g_param_spec_uint ("block-size", NULL, NULL, 512, G_MAXUINT32, 4096,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_matrix_init (DuelChartMatrix *self)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);

  priv->block_size = 4096;
}

guint32
duel_chart_matrix_get_block_size (DuelChartMatrix *self)
{
  DuelChartMatrixPrivate *priv = duel_chart_matrix_get_instance_private (self);

  g_return_val_if_fail (DUEL_IS_CHART_MATRIX (self), 4096);
  return priv->shown_block_size;
}
