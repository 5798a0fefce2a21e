/* duel-chart-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-chart-private.h"
#include "duel-chart-table.h"

#define CELL_PAD_X 8.0
#define CELL_PAD_Y 4.0

typedef enum
{
  LINE_SECTION,    /* "Identity", or a test with its setup */
  LINE_ROW,        /* one comparison row */
} LineKind;

typedef struct
{
  LineKind  kind;
  char     *text;     /* sections */
  guint     row;      /* rows: index into the comparison */
} Line;

struct _DuelChartTable
{
  DuelChart parent_instance;

  GArray   *lines;    /* Line */
  guint     first_figure_line;

  /* One image of a table split for articles (duel_chart_table_set_part()). */
  guint     part_first;
  guint     part_end;
  guint     part;
  guint     n_parts;
};

struct _DuelChartTableClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartTable, duel_chart_table, DUEL_TYPE_CHART)

/* Columns: label, one value per drive, difference (two drives), ratings. */
typedef struct
{
  guint  n_columns;
  double x[12];
  double width[12];
  double line_h;
} Layout;

static void
line_clear (gpointer data)
{
  Line *line = data;
  g_free (line->text);
}

static void
duel_chart_table_rebuild (DuelChart *chart)
{
  DuelChartTable *self = DUEL_CHART_TABLE (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  const char *current_test = NULL;
  gboolean identity_started = FALSE;
  guint n_headline;
  const guint *headline = duel_comparison_get_headline (comparison, &n_headline);

  g_array_set_size (self->lines, 0);
  self->first_figure_line = 0;
  self->n_parts = 0;
  /* The review's figures first: the report's first table page leads with them. */
  if (n_headline > 0)
    {
      Line line = { LINE_SECTION, g_strdup (_("Headline")), 0 };

      g_array_append_val (self->lines, line);
      for (guint i = 0; i < n_headline; i++)
        {
          Line row_line = { LINE_ROW, NULL, headline[i] };

          g_array_append_val (self->lines, row_line);
        }
    }
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);
      Line line = { 0, };

      if (row->kind == DUEL_COMPARISON_ROW_IDENTITY && !identity_started)
        {
          line.kind = LINE_SECTION;
          line.text = g_strdup (_("Drive"));
          g_array_append_val (self->lines, line);
          identity_started = TRUE;
        }
      else if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (row->test, current_test) != 0)
        {
          DuelTestRecord *record = duel_result_find_test (duel_comparison_get_result (comparison, 0), row->test);
          g_autofree char *setup = record ? duel_chart_describe_workload (record) : NULL;

          const char *title = duel_comparison_get_section_title (comparison, row->test);

          line.kind = LINE_SECTION;
          line.text = setup ? g_strdup_printf ("%s — %s", title, setup) : g_strdup (title);
          if (current_test == NULL)
            self->first_figure_line = self->lines->len;
          g_array_append_val (self->lines, line);
          current_test = row->test;
        }

      line.kind = LINE_ROW;
      line.text = NULL;
      line.row = i;
      g_array_append_val (self->lines, line);
    }
}

static gboolean
duel_chart_table_has_data (DuelChart *chart)
{
  return DUEL_CHART_TABLE (chart)->lines->len > 0;
}

/* The lines this draw shows: all, or those of the part set. */
static void
visible_lines (DuelChartTable *self,
               guint          *out_first,
               guint          *out_end)
{
  if (self->n_parts > 1)
    {
      *out_first = MIN (self->part_first, self->lines->len);
      *out_end = MIN (self->part_end, self->lines->len);
    }
  else
    {
      *out_first = 0;
      *out_end = self->lines->len;
    }
}

static char *
duel_chart_table_get_title (DuelChart *chart)
{
  DuelChartTable *self = DUEL_CHART_TABLE (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  g_autofree char *title = NULL;

  if (duel_comparison_get_n_drives (comparison) == 1)
    title = g_strdup_printf (_("Summary: %s"), duel_comparison_get_drive_name (comparison, 0));
  else
    title = g_strdup_printf (_("Summary: %s vs %s"),
                             duel_comparison_get_drive_name (comparison, 0),
                             duel_comparison_get_drive_name (comparison, 1));
  if (self->n_parts <= 1)
    return g_steal_pointer (&title);
  /* TRANSLATORS: the summary table's title when it is split into several
   * images, and which of them this is: "Summary: A vs B (1 of 3)" */
  return g_strdup_printf (_("%s (%u of %u)"), title, self->part + 1, self->n_parts);
}

static char *
difference_text (const DuelComparisonRow *row)
{
  g_autofree char *number = NULL;

  if (row->kind != DUEL_COMPARISON_ROW_FIGURE || !isfinite (row->difference_pct))
    return g_strdup ("");
  number = duel_chart_format_number (fabs (row->difference_pct), 1);
  /* U+2212 MINUS SIGN reads better than a hyphen in a table. */
  return g_strdup_printf ("%s%s %%", row->difference_pct < 0 ? "−" : "+", number);
}


/* The texts of one row, column by column. */
static GPtrArray *
row_cells (DuelComparison          *comparison,
           const DuelComparisonRow *row)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  guint n = duel_comparison_get_n_drives (comparison);

  g_ptr_array_add (cells, g_strdup (row->label));
  for (guint d = 0; d < n; d++)
    g_ptr_array_add (cells, g_strdup (row->text[d]));
  if (n == 2)
    g_ptr_array_add (cells, difference_text (row));
  {
    guint rated[DUEL_COMPARISON_MAX_DRIVES];
    guint n_rated = duel_comparison_get_rated_drives (comparison, rated);

    for (guint i = 0; i < n_rated; i++)
      g_ptr_array_add (cells, duel_comparison_row_format_rated (row, rated[i]));
  }
  return cells;
}

static GPtrArray *
header_cells (DuelChart *chart)
{
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  guint n = duel_comparison_get_n_drives (comparison);

  g_ptr_array_add (cells, g_strdup (""));
  for (guint d = 0; d < n; d++)
    g_ptr_array_add (cells, duel_chart_dup_drive_label (chart, d));
  if (n == 2)
    g_ptr_array_add (cells, duel_comparison_dup_difference_heading (comparison));
  {
    guint rated[DUEL_COMPARISON_MAX_DRIVES];
    guint n_rated = duel_comparison_get_rated_drives (comparison, rated);

    for (guint i = 0; i < n_rated; i++)
      g_ptr_array_add (cells, g_strdup (_("Rated")));
  }
  return cells;
}

/* Natural column widths from the texts, with the table starting at x = 0;
 * returns the natural total width. */
static double
compute_layout (DuelChartTable *self,
                cairo_t        *cr,
                Layout         *layout)
{
  DuelChart *chart = DUEL_CHART (self);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  g_autoptr(GPtrArray) header = header_cells (chart);
  double h, w, total = 0;

  memset (layout, 0, sizeof *layout);
  layout->n_columns = MIN (header->len, G_N_ELEMENTS (layout->width));
  for (guint c = 1; c < layout->n_columns; c++)
    {
      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TABLE_HEADER, g_ptr_array_index (header, c), &w, NULL);
      layout->width[c] = w;
    }
  for (guint i = 0; i < self->lines->len; i++)
    {
      const Line *line = &g_array_index (self->lines, Line, i);
      g_autoptr(GPtrArray) cells = NULL;

      if (line->kind == LINE_SECTION)
        continue;
      cells = row_cells (comparison, duel_comparison_get_row (comparison, line->row));
      for (guint c = 0; c < MIN (cells->len, layout->n_columns); c++)
        {
          /* The winner's cell is bold: measure every cell so. */
          duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TABLE_HEADER, g_ptr_array_index (cells, c), &w, NULL);
          layout->width[c] = MAX (layout->width[c], w);
        }
    }
  for (guint c = 0; c < layout->n_columns; c++)
    {
      layout->width[c] += 2 * CELL_PAD_X;
      total += layout->width[c];
    }
  for (guint c = 1; c < layout->n_columns; c++)
    layout->x[c] = layout->x[c - 1] + layout->width[c - 1];

  duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TABLE, "Ag", NULL, &h);
  layout->line_h = h + 2 * CELL_PAD_Y;
  return total;
}

/* Gives the label column what is left up to @width (when there is room). */
static void
stretch_layout (Layout *layout,
                double  width)
{
  double total = 0;

  for (guint c = 0; c < layout->n_columns; c++)
    total += layout->width[c];
  if (width > total)
    layout->width[0] += width - total;
  for (guint c = 1; c < layout->n_columns; c++)
    layout->x[c] = layout->x[c - 1] + layout->width[c - 1];
}

static void
draw_cell_text (cairo_t              *cr,
                const DuelChartStyle *style,
                DuelChartTextRole     role,
                const DuelChartColor *color,
                const char           *text,
                double                x,
                double                y,
                double                width,
                double                height,
                gboolean              right)
{
  duel_chart_draw_text_in (cr, style, role, color, text,
                           &(DuelChartRect) { x + CELL_PAD_X, y, width - 2 * CELL_PAD_X, height },
                           right ? 1.0 : 0.0, 0.5);
}

static void
draw_header (DuelChartTable *self,
             cairo_t        *cr,
             const Layout   *layout,
             double          y)
{
  const DuelChartStyle *style = duel_chart_get_style (DUEL_CHART (self));
  g_autoptr(GPtrArray) header = header_cells (DUEL_CHART (self));
  DuelComparison *comparison = duel_chart_get_comparison (DUEL_CHART (self));
  guint n = duel_comparison_get_n_drives (comparison);
  guint rated[DUEL_COMPARISON_MAX_DRIVES];
  guint n_rated = duel_comparison_get_rated_drives (comparison, rated);
  double px;

  for (guint c = 1; c < layout->n_columns; c++)
    draw_cell_text (cr, style, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, g_ptr_array_index (header, c),
                    layout->x[c], y, layout->width[c], layout->line_h, TRUE);

  /* A small colour key under each drive's columns ties the table to the charts. */
  for (guint d = 0; d < n; d++)
    {
      guint columns[2] = { 1 + d, 0 };

      /* Its "Rated" column, when it has one. */
      for (guint i = 0; i < n_rated; i++)
        if (rated[i] == d)
          columns[1] = 1 + n + (n == 2 ? 1 : 0) + i;

      duel_chart_set_source_color (cr, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
      for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
        {
          guint c = columns[i];

          if (c == 0 || c >= layout->n_columns)
            continue;
          cairo_rectangle (cr, layout->x[c] + CELL_PAD_X, y + layout->line_h - 3, layout->width[c] - 2 * CELL_PAD_X, 3);
          cairo_fill (cr);
        }
    }

  px = duel_chart_snap_y (cr, y + layout->line_h + 1);
  cairo_save (cr);
  duel_chart_set_source_color (cr, &style->axis);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, layout->x[0], px);
  cairo_line_to (cr, layout->x[layout->n_columns - 1] + layout->width[layout->n_columns - 1], px);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_line (DuelChartTable *self,
           cairo_t        *cr,
           const Layout   *layout,
           const Line     *line,
           double          y,
           gboolean        striped)
{
  DuelChart *chart = DUEL_CHART (self);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  double right = layout->x[layout->n_columns - 1] + layout->width[layout->n_columns - 1];
  const DuelComparisonRow *row;
  g_autoptr(GPtrArray) cells = NULL;

  if (line->kind == LINE_SECTION)
    {
      draw_cell_text (cr, style, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, line->text,
                      layout->x[0], y, right - layout->x[0], layout->line_h, FALSE);
      return;
    }

  row = duel_comparison_get_row (comparison, line->row);
  cells = row_cells (comparison, row);
  if (striped)
    {
      duel_chart_set_source_color (cr, &style->stripe);
      cairo_rectangle (cr, layout->x[0], y, right - layout->x[0], layout->line_h);
      cairo_fill (cr);
    }

  for (guint c = 0; c < MIN (cells->len, layout->n_columns); c++)
    {
      /* Cells 1 to n are the drives'. */
      gboolean winner = c >= 1 && c <= duel_comparison_get_n_drives (comparison) &&
                        duel_comparison_row_is_best (row, c - 1);

      if (winner)
        {
          duel_chart_set_source_color (cr, &style->highlight);
          cairo_rectangle (cr, layout->x[c] + 1, y + 1, layout->width[c] - 2, layout->line_h - 2);
          cairo_fill (cr);
        }
      draw_cell_text (cr, style, winner ? DUEL_CHART_TEXT_TABLE_HEADER : DUEL_CHART_TEXT_TABLE,
                      &style->foreground,
                      g_ptr_array_index (cells, c), layout->x[c], y, layout->width[c], layout->line_h, c > 0);
    }
}

static double
notes_height (DuelChartTable *self,
              cairo_t        *cr,
              double          width)
{
  const DuelChartStyle *style = duel_chart_get_style (DUEL_CHART (self));
  g_auto(GStrv) warnings = duel_comparison_dup_warning_lines (duel_chart_get_comparison (DUEL_CHART (self)));
  double total = 0;

  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_autoptr(PangoLayout) layout = duel_chart_style_create_layout (style, cr, DUEL_CHART_TEXT_ANNOTATION, warnings[i]);
      PangoRectangle logical;

      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_get_extents (layout, NULL, &logical);
      total += (double) logical.height / PANGO_SCALE + 2;
    }
  return total > 0 ? total + CELL_PAD_Y * 2 : 0;
}

static void
draw_notes (DuelChartTable *self,
            cairo_t        *cr,
            double          x,
            double          y,
            double          width)
{
  const DuelChartStyle *style = duel_chart_get_style (DUEL_CHART (self));
  g_auto(GStrv) warnings = duel_comparison_dup_warning_lines (duel_chart_get_comparison (DUEL_CHART (self)));

  y += CELL_PAD_Y * 2;
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_autoptr(PangoLayout) layout = duel_chart_style_create_layout (style, cr, DUEL_CHART_TEXT_ANNOTATION, warnings[i]);
      PangoRectangle logical;

      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_get_extents (layout, NULL, &logical);
      cairo_save (cr);
      duel_chart_set_source_color (cr, &style->muted);
      cairo_move_to (cr, x, y);
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
      y += (double) logical.height / PANGO_SCALE + 2;
    }
}

static void
duel_chart_table_draw_content (DuelChart           *chart,
                               cairo_t             *cr,
                               const DuelChartRect *area)
{
  DuelChartTable *self = DUEL_CHART_TABLE (chart);
  Layout layout;
  double natural_w, natural_h, notes_h, scale, width, y;
  guint first, end, n_visible;

  visible_lines (self, &first, &end);
  n_visible = end - first;

  /* Too wide or too tall for the image: shrink as a whole rather than cut
   * cells or rows off. The notes close the table, so only its last part
   * has them. */
  natural_w = compute_layout (self, cr, &layout);
  notes_h = end == self->lines->len ? notes_height (self, cr, MAX (natural_w, area->width)) : 0;
  natural_h = layout.line_h * (n_visible + 1) + 2 + notes_h;
  scale = MIN (1.0, MIN (area->width / natural_w, area->height / natural_h));
  width = area->width / scale;
  stretch_layout (&layout, width);

  {
    DuelChartRect used = { area->x, area->y, area->width,
                           MIN (area->height, scale * (layout.line_h * (n_visible + 1) + 2)) };
    duel_chart_add_plot_rect (chart, &used);
  }

  cairo_save (cr);
  cairo_translate (cr, area->x, area->y);
  cairo_scale (cr, scale, scale);
  y = 0;
  draw_header (self, cr, &layout, y);
  y += layout.line_h + 2;
  for (guint i = first, k = 0; i < end; i++)
    {
      const Line *line = &g_array_index (self->lines, Line, i);

      draw_line (self, cr, &layout, line, y, line->kind == LINE_ROW && (k++ % 2) == 1);
      if (line->kind == LINE_SECTION)
        k = 0;
      y += layout.line_h;
    }
  if (end == self->lines->len)
    draw_notes (self, cr, 0, y, width);
  cairo_restore (cr);
}

guint
duel_chart_table_get_n_lines (DuelChartTable *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_TABLE (self), 0);
  return self->lines->len;
}

guint
duel_chart_table_get_first_figure_line (DuelChartTable *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_TABLE (self), 0);
  return self->first_figure_line;
}

guint
duel_chart_table_draw_page (DuelChartTable *self,
                            cairo_t        *cr,
                            double          width,
                            double          height,
                            guint           first_line)
{
  return duel_chart_table_draw_page_full (self, cr, width, height, first_line, NULL);
}

guint
duel_chart_table_draw_page_full (DuelChartTable *self,
                                 cairo_t        *cr,
                                 double          width,
                                 double          height,
                                 guint           first_line,
                                 double         *out_used_height)
{
  const DuelChartStyle *style;
  Layout layout;
  double natural_w, scale, y = 0;
  guint i;

  g_return_val_if_fail (DUEL_IS_CHART_TABLE (self), first_line);
  g_return_val_if_fail (cr != NULL, first_line);

  style = duel_chart_get_style (DUEL_CHART (self));
  natural_w = compute_layout (self, cr, &layout);
  scale = MIN (1.0, width / natural_w);
  width /= scale;
  height /= scale;
  stretch_layout (&layout, width);

  cairo_save (cr);
  cairo_scale (cr, scale, scale);
  duel_chart_set_source_color (cr, &style->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  draw_header (self, cr, &layout, y);
  y += layout.line_h + 2;
  for (i = first_line; i < self->lines->len; i++)
    {
      const Line *line = &g_array_index (self->lines, Line, i);

      if (y + layout.line_h > height)
        break;
      /* A section heading alone at the foot of a page goes to the next. */
      if (line->kind == LINE_SECTION && y + 2 * layout.line_h > height && i > first_line)
        break;
      draw_line (self, cr, &layout, line, y, line->kind == LINE_ROW && (i % 2) == 1);
      y += layout.line_h;
    }
  if (i >= self->lines->len)
    {
      double notes_h = notes_height (self, cr, width);

      if (y + notes_h <= height)
        {
          draw_notes (self, cr, 0, y, width);
          y += notes_h;
        }
    }
  cairo_restore (cr);

  if (out_used_height != NULL)
    *out_used_height = MIN (y, height) * scale;
  /* At least one line per page, or paging would never end. */
  return MAX (i, first_line + 1);
}

/* How duel_chart_draw() frames a table @width wide: padding, the title
 * (one line, whatever part it names), then the table at its scale. */
typedef struct
{
  Layout layout;
  double pad;
  double title_h;
  double natural_w;
  double inner_w;
  double scale;
  double notes_h;   /* the notes under the last line, at the table's width */
} Frame;

static void
measure_frame (DuelChartTable *self,
               double          width,
               Frame          *frame)
{
  const DuelChartStyle *style = duel_chart_get_style (DUEL_CHART (self));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autofree char *title = duel_chart_get_title (DUEL_CHART (self));

  frame->pad = style->font_size * 1.25;
  frame->title_h = 0;
  duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TITLE, title, NULL, &frame->title_h);
  frame->inner_w = MAX (width - 2 * frame->pad, 1);
  frame->natural_w = compute_layout (self, cr, &frame->layout);
  frame->scale = MIN (1.0, frame->inner_w / frame->natural_w);
  frame->notes_h = notes_height (self, cr, MAX (frame->natural_w, frame->inner_w));
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

double
duel_chart_table_get_natural_height (DuelChartTable *self,
                                     double          width)
{
  Frame frame;
  guint first, end;
  double notes_h;

  g_return_val_if_fail (DUEL_IS_CHART_TABLE (self), 0);

  visible_lines (self, &first, &end);
  measure_frame (self, width, &frame);
  notes_h = end == self->lines->len ? frame.notes_h : 0;
  return ceil (frame.pad + frame.title_h + frame.pad / 2 + frame.pad +
               frame.scale * (frame.layout.line_h * (end - first + 1) + 2 + notes_h));
}

/* The first line of each part of at most @capacity lines (@room table units
 * under the headings), then the number of lines. */
static GArray *
split_lines (DuelChartTable *self,
             guint           capacity,
             double          room,
             double          line_h,
             double          notes_h)
{
  guint n = self->lines->len, first = 0;
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (guint));

  g_array_append_val (bounds, first);
  while (first < n)
    {
      guint end = MIN (n, first + capacity);

      /* The fairness notes close the last part: make room for them. */
      if (end == n && (n - first) * line_h + notes_h > room && n - first > 1)
        {
          guint fit = (guint) MAX (1.0, floor ((room - notes_h) / line_h));

          end = MIN (first + fit, n - 1);
        }
      if (end < n)
        {
          guint cut = end;

          /* End before a section heading rather than inside a section, when
           * that still fills two thirds of the part. */
          while (cut > first && g_array_index (self->lines, Line, cut).kind != LINE_SECTION)
            cut--;
          if (cut > first && (cut - first) * 3 >= (end - first) * 2)
            end = cut;
          else if (end - 1 > first && g_array_index (self->lines, Line, end - 1).kind == LINE_SECTION)
            end--;   /* not a heading alone at the foot */
        }
      g_array_append_val (bounds, end);
      first = end;
    }
  return bounds;
}

GArray *
duel_chart_table_split (DuelChartTable *self,
                        double          width,
                        double          max_height)
{
  Frame frame;
  GArray *bounds;
  double room, notes_h;
  guint capacity;

  g_return_val_if_fail (DUEL_IS_CHART_TABLE (self), NULL);

  measure_frame (self, width, &frame);
  room = (max_height - (frame.pad + frame.title_h + frame.pad / 2 + frame.pad)) / frame.scale -
         (frame.layout.line_h + 2);
  notes_h = frame.notes_h;
  capacity = (guint) MAX (1.0, floor (room / frame.layout.line_h));

  /* As many parts as full ones take, but as even as they can be: no short
   * tail after long parts. */
  bounds = split_lines (self, capacity, room, frame.layout.line_h, notes_h);
  for (guint c = capacity - 1; c > 0; c--)
    {
      GArray *smaller = split_lines (self, c, room, frame.layout.line_h, notes_h);

      if (smaller->len > bounds->len)
        {
          g_array_unref (smaller);
          break;
        }
      g_array_unref (bounds);
      bounds = smaller;
    }
  return bounds;
}

void
duel_chart_table_set_part (DuelChartTable *self,
                           guint           part,
                           guint           n_parts,
                           guint           first_line,
                           guint           end_line)
{
  g_return_if_fail (DUEL_IS_CHART_TABLE (self));
  g_return_if_fail (n_parts <= 1 || (part < n_parts && first_line < end_line));

  self->part = part;
  self->n_parts = n_parts;
  self->part_first = first_line;
  self->part_end = end_line;
}

static void
duel_chart_table_write_csv (DuelChart *chart,
                            GString   *csv)
{
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  static const char * const better_names[] = { "none", "higher", "lower" };
  static const char * const winner_names[] = { "", "a", "b", "tie" };

  guint n_headline, n_rows = duel_comparison_get_n_rows (comparison);
  const guint *headline = duel_comparison_get_headline (comparison, &n_headline);

  /* A column per drive (two at least, as the format began), letters a to d. */
  guint n_columns = MAX (2, duel_comparison_get_n_drives (comparison));
  static const char letters[] = "abcd";

  g_string_append (csv, "kind,test,key,label,unit,better");
  for (guint d = 0; d < n_columns; d++)
    g_string_append_printf (csv, ",value_%c", letters[d]);
  for (guint d = 0; d < n_columns; d++)
    g_string_append_printf (csv, ",text_%c", letters[d]);
  g_string_append (csv, ",difference_pct,winner");
  for (guint d = 0; d < n_columns; d++)
    g_string_append_printf (csv, ",rated_%c", letters[d]);
  g_string_append_c (csv, '\n');
  /* The headline rows first (kind "headline"), then every row once. */
  for (guint k = 0; k < n_headline + n_rows; k++)
    {
      gboolean in_headline = k < n_headline;
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, in_headline ? headline[k] : k - n_headline);

      g_string_append (csv, in_headline ? "headline," : row->kind == DUEL_COMPARISON_ROW_IDENTITY ? "identity," : "figure,");
      duel_chart_csv_append_field (csv, row->test ? row->test : "");
      g_string_append_c (csv, ',');
      duel_chart_csv_append_field (csv, row->key);
      g_string_append_c (csv, ',');
      duel_chart_csv_append_field (csv, row->label);
      g_string_append_c (csv, ',');
      duel_chart_csv_append_field (csv, row->unit);
      g_string_append_printf (csv, ",%s", better_names[MIN ((guint) row->better, 2u)]);
      for (guint d = 0; d < n_columns; d++)
        {
          g_string_append_c (csv, ',');
          if (row->has_value[d] && isfinite (row->value[d]))
            duel_chart_csv_append_number (csv, "%.10g", row->value[d]);
        }
      for (guint d = 0; d < n_columns; d++)
        {
          g_string_append_c (csv, ',');
          duel_chart_csv_append_field (csv, row->has_value[d] ? row->text[d] : "");
        }
      g_string_append_c (csv, ',');
      if (isfinite (row->difference_pct))
        duel_chart_csv_append_number (csv, "%.4g", row->difference_pct);
      if (duel_comparison_get_n_drives (comparison) <= 2)
        g_string_append_printf (csv, ",%s", winner_names[MIN ((guint) row->winner, 3u)]);
      else
        {
          /* More drives: the letters of those with the best value, "a+c". */
          g_string_append_c (csv, ',');
          for (guint d = 0, shown = 0; d < n_columns; d++)
            if (duel_comparison_row_is_best (row, d))
              g_string_append_printf (csv, "%s%c", shown++ > 0 ? "+" : "", letters[d]);
        }
      for (guint d = 0; d < n_columns; d++)
        {
          g_string_append_c (csv, ',');
          if (row->has_rated[d])
            duel_chart_csv_append_number (csv, "%.10g", row->rated[d]);
        }
      g_string_append_c (csv, '\n');
    }
}

static void
duel_chart_table_finalize (GObject *object)
{
  DuelChartTable *self = DUEL_CHART_TABLE (object);

  g_clear_pointer (&self->lines, g_array_unref);

  G_OBJECT_CLASS (duel_chart_table_parent_class)->finalize (object);
}

static void
duel_chart_table_class_init (DuelChartTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_table_finalize;

  chart_class->id = "summary";
  chart_class->tab_title = N_("Table");
  chart_class->rebuild = duel_chart_table_rebuild;
  chart_class->get_title = duel_chart_table_get_title;
  chart_class->has_data = duel_chart_table_has_data;
  chart_class->draw_content = duel_chart_table_draw_content;
  chart_class->write_csv = duel_chart_table_write_csv;
}

static void
duel_chart_table_init (DuelChartTable *self)
{
  self->lines = g_array_new (FALSE, TRUE, sizeof (Line));
  g_array_set_clear_func (self->lines, line_clear);
}

DuelChart *
duel_chart_table_new (DuelComparison *comparison)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_TABLE, "comparison", comparison, NULL);
}
