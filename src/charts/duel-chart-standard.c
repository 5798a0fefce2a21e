/* duel-chart-standard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-standard.h"
#include "device/duel-device-link.h"
#include "duel-json.h"
#include "duel-number.h"

typedef enum
{
  PANEL_SEQUENTIAL,    /* MB/s */
  PANEL_RANDOM,        /* IOPS */
  N_PANELS
} Panel;

/* What a bar shows: one direction, or the total of a mix. */
enum {
  ACCESS_READ = DUEL_DIRECTION_READ,
  ACCESS_WRITE = DUEL_DIRECTION_WRITE,
  ACCESS_MIXED,
};

typedef struct
{
  Panel   panel;
  guint   access;
  guint32 block_size;       /* 0: a rating's own category */
  guint32 queue_depth;
  guint   numjobs;          /* CrystalDiskMark's T: 1 for one job */
  char   *label;
  char   *test[DUEL_COMPARISON_MAX_DRIVES];
  double  value[DUEL_COMPARISON_MAX_DRIVES];   /* a test run in passes: the best pass */
  double  rated[DUEL_COMPARISON_MAX_DRIVES];
  guint   passes[DUEL_COMPARISON_MAX_DRIVES];  /* its passes with a value; 1: it ran once */
  double  low[DUEL_COMPARISON_MAX_DRIVES];     /* the lowest and the highest pass: the whisker */
  double  high[DUEL_COMPARISON_MAX_DRIVES];
} Category;

struct _DuelChartStandard
{
  DuelChart parent_instance;

  GArray   *categories;                       /* Category */
  double    ceiling_mb_s[DUEL_COMPARISON_MAX_DRIVES];
  guint     n_drives;
};

struct _DuelChartStandardClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartStandard, duel_chart_standard, DUEL_TYPE_CHART)

static void
category_clear (gpointer data)
{
  Category *category = data;

  g_free (category->label);
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    g_free (category->test[d]);
}

static char *
category_label (Panel   panel,
                guint   access,
                guint32 block_size,
                guint32 queue_depth,
                guint   numjobs)
{
  const char *what;

  if (panel == PANEL_SEQUENTIAL)
    what = access == ACCESS_READ ? _("Sequential read") : access == ACCESS_WRITE ? _("Sequential write")
                                                                                 : _("Sequential mixed");
  else
    what = access == ACCESS_READ ? _("Random read") : access == ACCESS_WRITE ? _("Random write")
                                                                             : _("Random mixed");
  if (block_size == 0)
    /* Translators: a category holding only the vendor's rating */
    return g_strdup_printf (_("%s (rated)"), what);
  /* CrystalDiskMark's threads as its T: "1 MiB QD8", "4 KiB QD32 T16". */
  if (numjobs > 1)
    {
      if (block_size % (1024 * 1024) == 0)
        return g_strdup_printf ("%s\n%u MiB QD%u T%u", what, block_size / (1024 * 1024), queue_depth, numjobs);
      if (block_size % 1024 == 0)
        return g_strdup_printf ("%s\n%u KiB QD%u T%u", what, block_size / 1024, queue_depth, numjobs);
      return g_strdup_printf ("%s\n%u B QD%u T%u", what, block_size, queue_depth, numjobs);
    }
  if (block_size % (1024 * 1024) == 0)
    return g_strdup_printf ("%s\n%u MiB QD%u", what, block_size / (1024 * 1024), queue_depth);
  if (block_size % 1024 == 0)
    return g_strdup_printf ("%s\n%u KiB QD%u", what, block_size / 1024, queue_depth);
  return g_strdup_printf ("%s\n%u B QD%u", what, block_size, queue_depth);
}

static Category *
find_category (DuelChartStandard *self,
               Panel              panel,
               guint              access,
               guint32            block_size,
               guint32            queue_depth,
               guint              numjobs,
               gboolean           create)
{
  Category fresh = { 0, };

  for (guint i = 0; i < self->categories->len; i++)
    {
      Category *c = &g_array_index (self->categories, Category, i);

      if (c->panel == panel && c->access == access && c->block_size == block_size &&
          c->queue_depth == queue_depth && c->numjobs == numjobs)
        return c;
    }
  if (!create)
    return NULL;

  fresh.panel = panel;
  fresh.access = access;
  fresh.block_size = block_size;
  fresh.queue_depth = queue_depth;
  fresh.numjobs = numjobs;
  fresh.label = category_label (panel, access, block_size, queue_depth, numjobs);
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    fresh.value[d] = fresh.rated[d] = fresh.low[d] = fresh.high[d] = NAN;
  g_array_append_val (self->categories, fresh);
  return &g_array_index (self->categories, Category, self->categories->len - 1);
}

/* The bar of one test: measured from its totals, or a published figure. */
static double
test_value (const DuelTestRecord *record,
            Panel                 panel,
            guint                 access,
            gboolean              published)
{
  DuelThroughput t;

  if (published)
    {
      g_autofree char *key = NULL;

      if (access == ACCESS_MIXED)
        return NAN;
      key = duel_analysis_standard_key (panel == PANEL_SEQUENTIAL ? DUEL_PATTERN_SEQUENTIAL : DUEL_PATTERN_RANDOM,
                                        access == ACCESS_READ ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE,
                                        record->workload.queue_depth, TRUE);
      return duel_test_record_get_figure_value (record, key);
    }

  duel_analysis_throughput (record->series, record->runtime_ns, &t);
  if (panel == PANEL_SEQUENTIAL)
    return access == ACCESS_MIXED ? t.total_mb_per_s : t.mb_per_s[access];
  return access == ACCESS_MIXED ? t.total_iops : t.iops[access];
}

/* A rating: a positive number. */
static gboolean
json_number (JsonObject *object,
             const char *member,
             double     *out_value)
{
  return duel_json_get_number (object, member, out_value) && *out_value > 0;
}

static void
add_ratings (DuelChartStandard *self,
             guint              drive,
             JsonObject        *rated)
{
  static const struct { const char *key; Panel panel; guint access; } ratings[] = {
    { "seq_read_mb_s",   PANEL_SEQUENTIAL, ACCESS_READ },
    { "seq_write_mb_s",  PANEL_SEQUENTIAL, ACCESS_WRITE },
    { "rand_read_iops",  PANEL_RANDOM,     ACCESS_READ },
    { "rand_write_iops", PANEL_RANDOM,     ACCESS_WRITE },
  };

  for (guint r = 0; r < G_N_ELEMENTS (ratings); r++)
    {
      Category *target = NULL;
      double value;

      if (!json_number (rated, ratings[r].key, &value))
        continue;
      /* The vendor rates the deepest queue: the measured category of that
       * direction with the largest queue depth, else a category of its own. */
      for (guint i = 0; i < self->categories->len; i++)
        {
          Category *c = &g_array_index (self->categories, Category, i);

          if (c->panel != ratings[r].panel || c->access != ratings[r].access || c->block_size == 0)
            continue;
          if (ratings[r].panel == PANEL_RANDOM && c->block_size != 4096)
            continue;
          if (target == NULL || c->queue_depth > target->queue_depth)
            target = c;
        }
      if (target == NULL)
        target = find_category (self, ratings[r].panel, ratings[r].access, 0, 0, 1, TRUE);
      target->rated[drive] = value;
    }
}

static void
duel_chart_standard_rebuild (DuelChart *chart)
{
  DuelChartStandard *self = DUEL_CHART_STANDARD (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_array_set_size (self->categories, 0);
  self->n_drives = duel_comparison_get_n_drives (comparison);

  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autoptr(GPtrArray) tests = duel_comparison_find_tests (comparison, d, DUEL_ANALYSIS_STANDARD);
      gboolean published = duel_comparison_is_published (comparison, d);
      JsonObject *device = duel_result_get_device (duel_comparison_get_result (comparison, d));
      JsonObject *link = duel_json_get_object (device, "link");

      for (guint i = 0; i < tests->len; i++)
        {
          const DuelTestRecord *record = g_ptr_array_index (tests, i);
          const DuelWorkload *w = &record->workload;
          Panel panel = w->pattern == DUEL_PATTERN_SEQUENTIAL ? PANEL_SEQUENTIAL : PANEL_RANDOM;
          guint access = !duel_workload_writes (w) ? ACCESS_READ : !duel_workload_reads (w) ? ACCESS_WRITE : ACCESS_MIXED;
          double value = test_value (record, panel, access, published);
          Category *c;

          if (!isfinite (value))
            continue;
          c = find_category (self, panel, access, w->block_size, w->queue_depth, MAX (w->numjobs, 1), TRUE);
          /* The passes of one test (records of one name): the best as the
           * bar, the lowest and highest as its whisker; as the comparison's
           * rows have it. */
          if (isfinite (c->value[d]) && g_strcmp0 (c->test[d], record->name) == 0)
            {
              c->value[d] = MAX (c->value[d], value);
              c->low[d] = MIN (c->low[d], value);
              c->high[d] = MAX (c->high[d], value);
              c->passes[d]++;
              continue;
            }
          /* Two tests of one kind on one drive: the first counts. */
          if (isfinite (c->value[d]))
            continue;
          c->value[d] = c->low[d] = c->high[d] = value;
          c->passes[d] = 1;
          c->test[d] = g_strdup (record->name);
        }

      self->ceiling_mb_s[d] = NAN;
      if (json_number (link, "ceiling_bytes_per_second", &self->ceiling_mb_s[d]))
        self->ceiling_mb_s[d] /= 1e6;
      else
        self->ceiling_mb_s[d] = NAN;
    }

  for (guint d = 0; d < self->n_drives; d++)
    add_ratings (self, d, duel_result_get_rated (duel_comparison_get_result (comparison, d)));
}

static gboolean
duel_chart_standard_has_data (DuelChart *chart)
{
  DuelChartStandard *self = DUEL_CHART_STANDARD (chart);

  return self->categories->len > 0;
}

static char *
duel_chart_standard_get_title (DuelChart *chart)
{
  /* TRANSLATORS: %s is the rate unit: MB/s, MiB/s or GB/s */
  return g_strdup_printf (_("Standard set: sequential %s and random IOPS"),
                          duel_rate_unit_get_symbol (duel_get_rate_unit ()));
}

static gboolean
any_rated (DuelChartStandard *self)
{
  for (guint i = 0; i < self->categories->len; i++)
    for (guint d = 0; d < self->n_drives; d++)
      if (isfinite (g_array_index (self->categories, Category, i).rated[d]))
        return TRUE;
  return FALSE;
}

static gboolean
any_ceiling (DuelChartStandard *self)
{
  for (guint d = 0; d < self->n_drives; d++)
    if (isfinite (self->ceiling_mb_s[d]))
      return TRUE;
  return FALSE;
}

/* A sequential bar faster than its drive's link: a cache answered. */
static gboolean
above_ceiling (DuelChartStandard *self,
               const Category    *c,
               guint              d)
{
  return c->panel == PANEL_SEQUENTIAL && isfinite (self->ceiling_mb_s[d]) && isfinite (c->value[d]) &&
         duel_link_ceiling_is_exceeded (self->ceiling_mb_s[d] * 1e6, c->value[d] * 1e6);
}

static gboolean
any_above_ceiling (DuelChartStandard *self)
{
  for (guint i = 0; i < self->categories->len; i++)
    for (guint d = 0; d < self->n_drives; d++)
      if (above_ceiling (self, &g_array_index (self->categories, Category, i), d))
        return TRUE;
  return FALSE;
}

/* Diagonal stripes over a bar that is above its ceiling. */
static void
hatch_bar (cairo_t              *cr,
           const DuelChartStyle *style,
           const DuelChartRect  *bar)
{
  double step = 6;

  cairo_save (cr);
  cairo_rectangle (cr, bar->x, bar->y, bar->width, bar->height);
  cairo_clip (cr);
  duel_chart_set_source_color (cr, &style->background);
  cairo_set_line_width (cr, MAX (style->line_width * 1.5, 1.5));
  for (double x = bar->x - bar->height; x < bar->x + bar->width; x += step)
    {
      cairo_move_to (cr, x, bar->y + bar->height);
      cairo_line_to (cr, x + bar->height, bar->y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
duel_chart_standard_fill_legend (DuelChart       *chart,
                                 DuelChartLegend *legend)
{
  DuelChartStandard *self = DUEL_CHART_STANDARD (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);

  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *label = duel_chart_dup_drive_label (chart, d);
      duel_chart_legend_add (legend, DUEL_CHART_MARK_BOX,
                             duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN), label);
    }
  if (any_rated (self))
    duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE, &style->foreground, _("vendor rating"));
  if (any_ceiling (self))
    duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide, _("interface ceiling"));
  if (any_above_ceiling (self))
    /* TRANSLATORS: the legend of striped bars, faster than the drive's interface can carry */
    duel_chart_legend_add (legend, DUEL_CHART_MARK_BOX, &style->muted, _("striped: above the ceiling, a cache, not the drive"));
}

static guint
panel_count (DuelChartStandard *self,
             Panel              panel)
{
  guint n = 0;

  for (guint i = 0; i < self->categories->len; i++)
    n += g_array_index (self->categories, Category, i).panel == panel;
  return n;
}

static PangoLayout *
category_layout (cairo_t              *cr,
                 const DuelChartStyle *style,
                 const char           *text,
                 double                width)
{
  PangoLayout *layout = duel_chart_style_create_layout (style, cr, DUEL_CHART_TEXT_TICK, text);

  pango_layout_set_width (layout, (int) (MAX (width, 10) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  return layout;
}

/* A value as drawn: rates (stored in MB/s) in the reader's unit. */
static inline double
shown (gboolean     rates,
       DuelRateUnit unit,
       double       value)
{
  return rates ? duel_rate_unit_from_mb_s (unit, value) : value;
}

static void
draw_panel (DuelChartStandard   *self,
            cairo_t             *cr,
            const DuelChartRect *area,
            Panel                panel)
{
  DuelChart *chart = DUEL_CHART (self);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  guint n = panel_count (self, panel);
  DuelChartAxis y_axis;
  DuelChartRect plot, inner = *area;
  double y_max = 0, label_h = 0, slot, bar_w;
  /* Rates in the reader's unit (MB/s, MiB/s, GB/s); the data stays in MB/s. */
  DuelRateUnit unit = duel_get_rate_unit ();
  gboolean rates = panel == PANEL_SEQUENTIAL;
  const char *y_title = rates ? duel_rate_unit_get_symbol (unit) : _("IOPS");
  guint k;
  double dashes[] = { 6, 4 };
  g_autoptr(DuelChartLabels) labels = NULL;

  if (n == 0)
    return;

  for (guint i = 0; i < self->categories->len; i++)
    {
      const Category *c = &g_array_index (self->categories, Category, i);

      if (c->panel != panel)
        continue;
      for (guint d = 0; d < self->n_drives; d++)
        {
          if (isfinite (shown (rates, unit, c->value[d])))
            y_max = MAX (y_max, shown (rates, unit, c->value[d]));
          if (isfinite (c->rated[d]))
            y_max = MAX (y_max, shown (rates, unit, c->rated[d]));
        }
    }
  if (panel == PANEL_SEQUENTIAL)
    for (guint d = 0; d < self->n_drives; d++)
      if (isfinite (self->ceiling_mb_s[d]))
        y_max = MAX (y_max, shown (rates, unit, self->ceiling_mb_s[d]));

  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&y_axis, 0, MAX (y_max * 1.1, 1), TRUE);

  /* Room for the category names below the bars. */
  duel_chart_axes_layout (cr, style, NULL, &y_axis, NULL, y_title, area, &plot);
  slot = plot.width / n;
  for (guint i = 0; i < self->categories->len; i++)
    {
      const Category *c = &g_array_index (self->categories, Category, i);
      g_autoptr(PangoLayout) layout = NULL;
      PangoRectangle logical;

      if (c->panel != panel)
        continue;
      layout = category_layout (cr, style, c->label, slot - 6);
      pango_layout_get_extents (layout, NULL, &logical);
      label_h = MAX (label_h, (double) logical.height / PANGO_SCALE);
    }
  inner.height = MAX (area->height - label_h - 4, 20);
  duel_chart_axes_layout (cr, style, NULL, &y_axis, NULL, y_title, &inner, &plot);
  duel_chart_axes_draw_grid (cr, style, NULL, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);
  labels = duel_chart_labels_new (&plot);

  slot = plot.width / n;
  bar_w = MIN (slot * 0.7 / MAX (self->n_drives, 1), style->font_size * 5);
  k = 0;
  for (guint i = 0; i < self->categories->len; i++)
    {
      const Category *c = &g_array_index (self->categories, Category, i);
      double center, group_left;
      g_autoptr(PangoLayout) layout = NULL;
      PangoRectangle logical;

      if (c->panel != panel)
        continue;
      center = plot.x + slot * (k + 0.5);
      group_left = center - bar_w * self->n_drives / 2;

      for (guint d = 0; d < self->n_drives; d++)
        {
          double x = group_left + d * bar_w;
          const DuelChartColor *color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);

          if (isfinite (c->value[d]))
            {
              double value = shown (rates, unit, c->value[d]);
              double top = duel_chart_axis_map (&y_axis, value);
              double bottom = duel_chart_axis_map (&y_axis, 0);
              g_autofree char *text = duel_chart_format_number (value, value < 10 ? 2 : value < 100 ? 1 : 0);
              DuelChartRect bar = { x + 1, top, bar_w - 2, bottom - top };
              double w;

              duel_chart_set_source_color (cr, color);
              cairo_rectangle (cr, bar.x, bar.y, bar.width, bar.height);
              cairo_fill (cr);
              if (above_ceiling (self, c, d))
                hatch_bar (cr, style, &bar);
              /* A test run in passes: a whisker from its lowest to its
               * highest pass (the bar's top), capped at both ends. */
              if (c->passes[d] > 1)
                {
                  double x_mid = duel_chart_snap_x (cr, x + bar_w / 2);
                  double y_low = duel_chart_axis_map (&y_axis, shown (rates, unit, c->low[d]));
                  double y_high = duel_chart_axis_map (&y_axis, shown (rates, unit, c->high[d]));
                  double cap = MIN (bar_w / 4, 6);

                  cairo_save (cr);
                  duel_chart_set_source_color (cr, &style->foreground);
                  cairo_set_line_width (cr, style->line_width);
                  cairo_move_to (cr, x_mid, y_low);
                  cairo_line_to (cr, x_mid, y_high);
                  cairo_move_to (cr, x_mid - cap, y_low);
                  cairo_line_to (cr, x_mid + cap, y_low);
                  cairo_move_to (cr, x_mid - cap, y_high);
                  cairo_line_to (cr, x_mid + cap, y_high);
                  cairo_stroke (cr);
                  cairo_restore (cr);
                }
              /* No label over a bar; "282k" where "281,966" is wider than its bar. */
              duel_chart_labels_avoid (labels, &bar);
              duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_ANNOTATION, text, &w, NULL);
              if (w > bar_w + 4)
                {
                  g_free (text);
                  text = duel_chart_format_compact (value);
                }
              duel_chart_labels_add (labels, text, &style->foreground, x + bar_w / 2, top, DUEL_CHART_LABEL_ABOVE);
            }
          if (isfinite (c->rated[d]))
            {
              double py = duel_chart_axis_map (&y_axis, shown (rates, unit, c->rated[d]));

              cairo_save (cr);
              duel_chart_set_source_color (cr, &style->foreground);
              cairo_set_line_width (cr, style->line_width * 2);
              cairo_move_to (cr, x - 2, py);
              cairo_line_to (cr, x + bar_w + 2, py);
              cairo_stroke (cr);
              cairo_restore (cr);
              duel_chart_draw_mark (cr, style, DUEL_CHART_MARK_MARKER, color, x + bar_w / 2, py, 9);
              duel_chart_labels_avoid (labels, &(DuelChartRect) { x - 2, py - 4.5, bar_w + 4, 9 });
            }
        }

      layout = category_layout (cr, style, c->label, slot - 6);
      pango_layout_get_extents (layout, NULL, &logical);
      cairo_save (cr);
      duel_chart_set_source_color (cr, &style->muted);
      cairo_move_to (cr, center - (slot - 6) / 2, plot.y + plot.height + 4);
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
      k++;
    }

  if (panel == PANEL_SEQUENTIAL)
    {
      DuelComparison *comparison = duel_chart_get_comparison (chart);
      gboolean all_same = TRUE;

      for (guint d = 1; d < self->n_drives; d++)
        all_same &= self->ceiling_mb_s[d] == self->ceiling_mb_s[0];

      /* One line per distinct ceiling, naming its drives when they differ. */
      for (guint d = 0; d < self->n_drives; d++)
        {
          g_autofree char *number = NULL;
          g_autofree char *label = NULL;
          g_autoptr(GString) names = g_string_new (NULL);
          gboolean seen = FALSE;
          double py, w;

          if (!isfinite (self->ceiling_mb_s[d]))
            continue;
          for (guint e = 0; e < d; e++)
            seen |= self->ceiling_mb_s[e] == self->ceiling_mb_s[d];
          if (seen)
            continue;
          for (guint e = d; e < self->n_drives; e++)
            if (self->ceiling_mb_s[e] == self->ceiling_mb_s[d])
              g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "",
                                      duel_comparison_get_drive_name (comparison, e));

          py = duel_chart_snap_y (cr, duel_chart_axis_map (&y_axis, shown (rates, unit, self->ceiling_mb_s[d])));
          cairo_save (cr);
          duel_chart_set_source_color (cr, &style->guide);
          cairo_set_line_width (cr, style->line_width);
          cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
          cairo_move_to (cr, plot.x, py);
          cairo_line_to (cr, plot.x + plot.width, py);
          cairo_stroke (cr);
          cairo_restore (cr);

          /* A round figure, grouped as the chart's other numbers are. */
          {
            g_autofree char *digits = duel_chart_format_number (shown (rates, unit, self->ceiling_mb_s[d]),
                                                                unit == DUEL_RATE_UNIT_GB_S ? 2 : 0);

            number = g_strconcat (digits, " ", duel_rate_unit_get_symbol (unit), NULL);
          }
          if (all_same || self->n_drives == 1)
            label = g_strdup_printf (_("interface ceiling %s"), number);
          else
            label = g_strdup_printf (_("%s: interface ceiling %s"), names->str, number);
          /* Above the line, at the plot's right end. */
          duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_ANNOTATION, label, &w, NULL);
          duel_chart_labels_add (labels, label, &style->guide, plot.x + plot.width - 2 - w / 2, py,
                                 DUEL_CHART_LABEL_ABOVE);
        }
    }

  duel_chart_labels_draw (labels, cr, style);
  duel_chart_add_labels (chart, labels);
  duel_chart_axes_draw (cr, style, NULL, &y_axis, NULL, y_title, &plot);
}

static void
duel_chart_standard_draw_content (DuelChart           *chart,
                                  cairo_t             *cr,
                                  const DuelChartRect *area)
{
  DuelChartStandard *self = DUEL_CHART_STANDARD (chart);
  guint n_seq = panel_count (self, PANEL_SEQUENTIAL);
  guint n_rand = panel_count (self, PANEL_RANDOM);
  double gap = duel_chart_get_style (chart)->font_size * 2;
  DuelChartRect left = *area, right = *area;

  /* Width in proportion to the number of groups, each panel its own axis. */
  if (n_seq > 0 && n_rand > 0)
    {
      double share = (double) n_seq / (n_seq + n_rand);

      share = CLAMP (share, 0.3, 0.7);
      left.width = (area->width - gap) * share;
      right.x = area->x + left.width + gap;
      right.width = area->width - left.width - gap;
    }
  if (n_seq > 0)
    draw_panel (self, cr, n_rand > 0 ? &left : area, PANEL_SEQUENTIAL);
  if (n_rand > 0)
    draw_panel (self, cr, n_seq > 0 ? &right : area, PANEL_RANDOM);
}

static void
duel_chart_standard_write_csv (DuelChart *chart,
                               GString   *csv)
{
  DuelChartStandard *self = DUEL_CHART_STANDARD (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  static const char * const access_names[] = { "read", "write", "mixed" };

  /* value is the best pass of a test run in passes; passes, lowest and
   * highest say how they spread (1 and the value itself for one run). */
  g_string_append (csv, "drive,test,pattern,direction,block_size,queue_depth,numjobs,value,unit,rated,passes,lowest,highest\n");
  for (guint i = 0; i < self->categories->len; i++)
    {
      const Category *c = &g_array_index (self->categories, Category, i);

      for (guint d = 0; d < self->n_drives; d++)
        {
          if (!isfinite (c->value[d]) && !isfinite (c->rated[d]))
            continue;
          duel_chart_csv_append_field (csv, duel_comparison_get_drive_name (comparison, d));
          g_string_append_c (csv, ',');
          duel_chart_csv_append_field (csv, c->test[d] ? c->test[d] : "");
          g_string_append_printf (csv, ",%s,%s,%u,%u,%u,",
                                  c->panel == PANEL_SEQUENTIAL ? "sequential" : "random",
                                  access_names[c->access], c->block_size, c->queue_depth, c->numjobs);
          if (isfinite (c->value[d]))
            duel_chart_csv_append_number (csv, "%.6g", c->value[d]);
          g_string_append_printf (csv, ",%s,", c->panel == PANEL_SEQUENTIAL ? "MB/s" : "IOPS");
          if (isfinite (c->rated[d]))
            duel_chart_csv_append_number (csv, "%.6g", c->rated[d]);
          g_string_append_printf (csv, ",%u,", c->passes[d]);
          if (isfinite (c->low[d]))
            duel_chart_csv_append_number (csv, "%.6g", c->low[d]);
          g_string_append_c (csv, ',');
          if (isfinite (c->high[d]))
            duel_chart_csv_append_number (csv, "%.6g", c->high[d]);
          g_string_append_c (csv, '\n');
        }
    }
}

static void
duel_chart_standard_finalize (GObject *object)
{
  DuelChartStandard *self = DUEL_CHART_STANDARD (object);

  g_clear_pointer (&self->categories, g_array_unref);

  G_OBJECT_CLASS (duel_chart_standard_parent_class)->finalize (object);
}

static void
duel_chart_standard_class_init (DuelChartStandardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_standard_finalize;

  chart_class->id = "standard";
  chart_class->tab_title = N_("Standard Set");
  chart_class->rebuild = duel_chart_standard_rebuild;
  chart_class->get_title = duel_chart_standard_get_title;
  chart_class->has_data = duel_chart_standard_has_data;
  chart_class->fill_legend = duel_chart_standard_fill_legend;
  chart_class->draw_content = duel_chart_standard_draw_content;
  chart_class->write_csv = duel_chart_standard_write_csv;
}

static void
duel_chart_standard_init (DuelChartStandard *self)
{
  self->categories = g_array_new (FALSE, TRUE, sizeof (Category));
  g_array_set_clear_func (self->categories, category_clear);
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    self->ceiling_mb_s[d] = NAN;
}

DuelChart *
duel_chart_standard_new (DuelComparison *comparison)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_STANDARD, "comparison", comparison, NULL);
}
