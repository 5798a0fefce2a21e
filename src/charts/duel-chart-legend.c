/* duel-chart-legend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "duel-chart-axes.h"
#include "duel-chart-legend.h"

#define SWATCH_WIDTH 22.0
#define SWATCH_GAP   6.0
#define ENTRY_GAP    18.0
#define ROW_GAP      4.0

typedef struct
{
  DuelChartMark  mark;
  DuelChartColor color;
  char          *label;
} Entry;

struct _DuelChartLegend
{
  GArray *entries;   /* Entry */
};

static void
entry_clear (gpointer data)
{
  Entry *entry = data;
  g_free (entry->label);
}

DuelChartLegend *
duel_chart_legend_new (void)
{
  DuelChartLegend *legend = g_new0 (DuelChartLegend, 1);

  legend->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (legend->entries, entry_clear);
  return legend;
}

void
duel_chart_legend_free (DuelChartLegend *legend)
{
  if (legend == NULL)
    return;
  g_array_unref (legend->entries);
  g_free (legend);
}

void
duel_chart_legend_add (DuelChartLegend      *legend,
                       DuelChartMark         mark,
                       const DuelChartColor *color,
                       const char           *label)
{
  Entry entry;

  g_return_if_fail (legend != NULL);
  g_return_if_fail (color != NULL);

  entry.mark = mark;
  entry.color = *color;
  entry.label = g_strdup (label ? label : "");
  g_array_append_val (legend->entries, entry);
}

guint
duel_chart_legend_get_n_entries (DuelChartLegend *legend)
{
  g_return_val_if_fail (legend != NULL, 0);
  return legend->entries->len;
}

void
duel_chart_draw_mark (cairo_t              *cr,
                      const DuelChartStyle *style,
                      DuelChartMark         mark,
                      const DuelChartColor *color,
                      double                cx,
                      double                cy,
                      double                size)
{
  cairo_save (cr);
  duel_chart_set_source_color (cr, color);
  switch (mark)
    {
    case DUEL_CHART_MARK_LINE:
      cairo_set_line_width (cr, style->line_width * 1.5);
      cairo_move_to (cr, cx - size / 2, cy);
      cairo_line_to (cr, cx + size / 2, cy);
      cairo_stroke (cr);
      break;

    case DUEL_CHART_MARK_DASH:
      {
        double dashes[] = { 5, 3 };
        cairo_set_line_width (cr, style->line_width);
        cairo_set_dash (cr, dashes, 2, 0);
        cairo_move_to (cr, cx - size / 2, cy);
        cairo_line_to (cr, cx + size / 2, cy);
        cairo_stroke (cr);
      }
      break;

    case DUEL_CHART_MARK_MARKER:
      /* A diamond with a background-coloured rim, readable on top of lines. */
      cairo_move_to (cr, cx, cy - size / 2);
      cairo_line_to (cr, cx + size / 2, cy);
      cairo_line_to (cr, cx, cy + size / 2);
      cairo_line_to (cr, cx - size / 2, cy);
      cairo_close_path (cr);
      cairo_fill_preserve (cr);
      duel_chart_set_source_color (cr, &style->background);
      cairo_set_line_width (cr, 1.0);
      cairo_stroke (cr);
      break;

    case DUEL_CHART_MARK_DOT:
      cairo_arc (cr, cx, cy, size / 4, 0, 2 * G_PI);
      cairo_fill (cr);
      break;

    case DUEL_CHART_MARK_BOX:
    default:
      cairo_rectangle (cr, cx - size / 2, cy - size / 3, size, size * 2 / 3);
      cairo_fill (cr);
      break;
    }
  cairo_restore (cr);
}

/* Calls @func for every entry with its position once wrapped; returns the height. */
static double
layout_entries (DuelChartLegend      *legend,
                cairo_t              *cr,
                const DuelChartStyle *style,
                double                x,
                double                y,
                double                max_width,
                gboolean              draw)
{
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (double));
  double row_h = 0;
  double height = 0;
  guint start = 0;

  if (legend->entries->len == 0)
    return 0;

  for (guint i = 0; i < legend->entries->len; i++)
    {
      Entry *entry = &g_array_index (legend->entries, Entry, i);
      double w, h;

      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_LEGEND, entry->label, &w, &h);
      w += SWATCH_WIDTH + SWATCH_GAP;
      g_array_append_val (widths, w);
      row_h = MAX (row_h, h);
    }

  while (start < legend->entries->len)
    {
      double row_w = 0, cursor;
      guint end = start;

      /* As many entries as fit, at least one. */
      while (end < legend->entries->len)
        {
          double w = g_array_index (widths, double, end) + (end > start ? ENTRY_GAP : 0);
          if (end > start && row_w + w > max_width)
            break;
          row_w += w;
          end++;
        }

      if (draw)
        {
          cursor = x + MAX (0, (max_width - row_w) / 2);
          for (guint i = start; i < end; i++)
            {
              Entry *entry = &g_array_index (legend->entries, Entry, i);
              double cy = y + height + row_h / 2;

              duel_chart_draw_mark (cr, style, entry->mark, &entry->color,
                                    cursor + SWATCH_WIDTH / 2, cy,
                                    entry->mark == DUEL_CHART_MARK_MARKER ? 10 : SWATCH_WIDTH);
              duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_LEGEND, &style->foreground, entry->label,
                                    cursor + SWATCH_WIDTH + SWATCH_GAP, cy, 0, 0.5);
              cursor += g_array_index (widths, double, i) + ENTRY_GAP;
            }
        }

      height += row_h + (end < legend->entries->len ? ROW_GAP : 0);
      start = end;
    }

  return height;
}

double
duel_chart_legend_measure (DuelChartLegend      *legend,
                           cairo_t              *cr,
                           const DuelChartStyle *style,
                           double                max_width)
{
  g_return_val_if_fail (legend != NULL, 0);
  return layout_entries (legend, cr, style, 0, 0, max_width, FALSE);
}

void
duel_chart_legend_draw (DuelChartLegend      *legend,
                        cairo_t              *cr,
                        const DuelChartStyle *style,
                        double                x,
                        double                y,
                        double                max_width)
{
  g_return_if_fail (legend != NULL);
  layout_entries (legend, cr, style, x, y, max_width, TRUE);
}
