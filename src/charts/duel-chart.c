/* duel-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-chart.h"
#include "duel-chart-private.h"
#include "duel-chart-consistency.h"
#include "duel-chart-pts-iops.h"
#include "duel-chart-pts-latency.h"
#include "duel-chart-pts-throughput.h"
#include "duel-chart-qos.h"
#include "duel-chart-rounds.h"
#include "duel-chart-sequential-write.h"
#include "duel-chart-standard.h"
#include "duel-chart-table.h"
#include "duel-chart-write-curve.h"

typedef struct
{
  DuelComparison *comparison;
  DuelChartStyle *style;
  DuelChartRect   plot;
  gboolean        has_plot;
  char           *id;           /* a report's own id for this chart ("qos-qd1"); NULL: the class's */
  GArray         *label_boxes;  /* DuelChartRect: the value labels the last draw placed */
  guint           labels_dropped;
} DuelChartPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (DuelChart, duel_chart, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_COMPARISON,
  PROP_STYLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
duel_chart_constructed (GObject *object)
{
  DuelChart *self = DUEL_CHART (object);
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  G_OBJECT_CLASS (duel_chart_parent_class)->constructed (object);

  g_assert (priv->comparison != NULL);
  if (priv->style == NULL)
    priv->style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  duel_chart_rebuild (self);
}

static void
duel_chart_finalize (GObject *object)
{
  DuelChart *self = DUEL_CHART (object);
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_clear_object (&priv->comparison);
  g_clear_pointer (&priv->style, duel_chart_style_free);
  g_free (priv->id);
  g_clear_pointer (&priv->label_boxes, g_array_unref);

  G_OBJECT_CLASS (duel_chart_parent_class)->finalize (object);
}

static void
duel_chart_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  DuelChart *self = DUEL_CHART (object);
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, priv->comparison);
      break;

    case PROP_STYLE:
      g_value_set_boxed (value, priv->style);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  DuelChart *self = DUEL_CHART (object);
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      priv->comparison = g_value_dup_object (value);
      break;

    case PROP_STYLE:
      duel_chart_set_style (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
duel_chart_real_has_data (DuelChart *self)
{
  return TRUE;
}

static void
duel_chart_class_init (DuelChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = duel_chart_constructed;
  object_class->finalize = duel_chart_finalize;
  object_class->get_property = duel_chart_get_property;
  object_class->set_property = duel_chart_set_property;

  klass->has_data = duel_chart_real_has_data;

  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL,
                         DUEL_TYPE_COMPARISON,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_STYLE] =
    g_param_spec_boxed ("style", NULL, NULL,
                        DUEL_TYPE_CHART_STYLE,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_init (DuelChart *self)
{
}

DuelComparison *
duel_chart_get_comparison (DuelChart *self)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);
  return priv->comparison;
}

const DuelChartStyle *
duel_chart_get_style (DuelChart *self)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);
  return priv->style;
}

void
duel_chart_set_style (DuelChart            *self,
                      const DuelChartStyle *style)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_if_fail (DUEL_IS_CHART (self));

  if (style == priv->style)
    return;
  g_clear_pointer (&priv->style, duel_chart_style_free);
  priv->style = style ? duel_chart_style_copy (style) : duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STYLE]);
}

const char *
duel_chart_get_id (DuelChart *self)
{
  DuelChartPrivate *priv;

  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);

  priv = duel_chart_get_instance_private (self);
  return priv->id != NULL ? priv->id : DUEL_CHART_GET_CLASS (self)->id;
}

gboolean
duel_chart_shows_without_data (DuelChart *self)
{
  g_return_val_if_fail (DUEL_IS_CHART (self), TRUE);

  return !DUEL_CHART_GET_CLASS (self)->only_with_data;
}

const char *
duel_chart_get_tab_title (DuelChart *self)
{
  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);

  return g_dgettext (GETTEXT_PACKAGE, DUEL_CHART_GET_CLASS (self)->tab_title);
}

/* Every kind of chart, in the report's order: each registers here once. */
static GType *
chart_types (guint *out_n)
{
  static GType types[10];

  if (types[0] == 0)
    {
      types[0] = DUEL_TYPE_CHART_WRITE_CURVE;
      types[1] = DUEL_TYPE_CHART_SEQUENTIAL_WRITE;
      types[2] = DUEL_TYPE_CHART_CONSISTENCY;
      types[3] = DUEL_TYPE_CHART_QOS;
      types[4] = DUEL_TYPE_CHART_STANDARD;
      types[5] = DUEL_TYPE_CHART_ROUNDS;
      types[6] = DUEL_TYPE_CHART_PTS_IOPS;
      types[7] = DUEL_TYPE_CHART_PTS_THROUGHPUT;
      types[8] = DUEL_TYPE_CHART_PTS_LATENCY;
      types[9] = DUEL_TYPE_CHART_TABLE;
    }
  *out_n = G_N_ELEMENTS (types);
  return types;
}

const char * const *
duel_chart_get_kind_ids (void)
{
  static const char *ids[11];

  if (ids[0] == NULL)
    {
      guint n;
      GType *types = chart_types (&n);

      for (guint i = 0; i < n; i++)
        {
          DuelChartClass *klass = g_type_class_ref (types[i]);

          ids[i] = klass->id;
          g_type_class_unref (klass);
        }
    }
  return ids;
}

char *
duel_chart_get_title (DuelChart *self)
{
  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);

  if (DUEL_CHART_GET_CLASS (self)->get_title)
    return DUEL_CHART_GET_CLASS (self)->get_title (self);
  return g_strdup ("");
}

char *
duel_chart_get_subtitle (DuelChart *self)
{
  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);

  if (DUEL_CHART_GET_CLASS (self)->get_subtitle)
    return DUEL_CHART_GET_CLASS (self)->get_subtitle (self);
  return NULL;
}

gboolean
duel_chart_has_data (DuelChart *self)
{
  g_return_val_if_fail (DUEL_IS_CHART (self), FALSE);
  return DUEL_CHART_GET_CLASS (self)->has_data (self);
}

void
duel_chart_rebuild (DuelChart *self)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_if_fail (DUEL_IS_CHART (self));

  /* Options set at construction come before the comparison: constructed() rebuilds. */
  if (priv->comparison == NULL)
    return;
  if (DUEL_CHART_GET_CLASS (self)->rebuild)
    DUEL_CHART_GET_CLASS (self)->rebuild (self);
}

char *
duel_chart_dup_drive_label (DuelChart *self,
                            guint      drive)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);
  const char *name = duel_comparison_get_drive_name (priv->comparison, drive);

  if (duel_comparison_is_published (priv->comparison, drive))
    /* Translators: a drive whose figures come from a published review */
    return g_strdup_printf (_("%s (published)"), name);
  return g_strdup (name);
}

void
duel_chart_draw_message (DuelChart           *self,
                         cairo_t             *cr,
                         const DuelChartRect *area,
                         const char          *message)
{
  const DuelChartStyle *style = duel_chart_get_style (self);

  duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, &style->muted, message,
                        area->x + area->width / 2, area->y + area->height / 2, 0.5, 0.5);
}

void
duel_chart_draw (DuelChart *self,
                 cairo_t   *cr,
                 double     width,
                 double     height)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);
  DuelChartClass *klass;
  const DuelChartStyle *style;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autoptr(DuelChartLegend) legend = NULL;
  DuelChartRect area;
  double pad, y, h;

  g_return_if_fail (DUEL_IS_CHART (self));
  g_return_if_fail (cr != NULL);

  klass = DUEL_CHART_GET_CLASS (self);
  style = priv->style;
  pad = style->font_size * 1.25;

  priv->has_plot = FALSE;
  g_clear_pointer (&priv->label_boxes, g_array_unref);
  priv->labels_dropped = 0;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  duel_chart_set_source_color (cr, &style->background);
  cairo_paint (cr);

  y = pad;
  title = duel_chart_get_title (self);
  /* Wrapped where the chart is narrower than they are (a narrow window:
   * "4K random write: IOPS w…" told nothing), "…" only past their lines. */
  if (title && *title)
    y += duel_chart_draw_lines_in (cr, style, DUEL_CHART_TEXT_TITLE, &style->foreground, title,
                                   &(DuelChartRect) { pad, y, width - 2 * pad, 0 }, 0, 0, 3);
  subtitle = duel_chart_get_subtitle (self);
  if (subtitle && *subtitle)
    y += 2 + duel_chart_draw_lines_in (cr, style, DUEL_CHART_TEXT_SUBTITLE, &style->muted, subtitle,
                                       &(DuelChartRect) { pad, y + 2, width - 2 * pad, 0 }, 0, 0, 4);
  y += pad / 2;

  legend = duel_chart_legend_new ();
  if (klass->fill_legend && klass->has_data (self))
    klass->fill_legend (self, legend);
  if (duel_chart_legend_get_n_entries (legend) > 0)
    {
      h = duel_chart_legend_measure (legend, cr, style, width - 2 * pad);
      duel_chart_legend_draw (legend, cr, style, pad, y, width - 2 * pad);
      y += h + pad / 2;
    }

  area.x = pad;
  area.y = y;
  area.width = MAX (width - 2 * pad, 1);
  area.height = MAX (height - y - pad, 1);

  if (!klass->has_data (self))
    duel_chart_draw_message (self, cr, &area, _("These results hold no data for this chart."));
  else if (klass->draw_content)
    klass->draw_content (self, cr, &area);

  cairo_restore (cr);
}

char *
duel_chart_describe_workload (const DuelTestRecord *record)
{
  const DuelWorkload *w;
  g_autofree char *access = NULL;
  GString *text;

  g_return_val_if_fail (record != NULL, NULL);

  w = &record->workload;
  access = duel_workload_describe_access (w);
  text = g_string_new (NULL);
  /* Translators: the block size and access, then the queue depth: "4 KiB random write, QD32" */
  g_string_append_printf (text, _("%s, QD%u"), access, w->queue_depth);
  if (w->numjobs > 1)
    /* Translators: after the queue depth, the jobs running at once (each with that depth) */
    g_string_append_printf (text, _(", %u jobs"), w->numjobs);
  if (w->size_multiple > 0)
    g_string_append_printf (text, _(", to %g× the span"), w->size_multiple);
  else if (w->runtime_ms > 0)
    g_string_append_printf (text, _(", %g s"), w->runtime_ms / 1000.0);
  if (record->trimmed)
    g_string_append (text, _(", trimmed first"));
  return g_string_free (text, FALSE);
}

void
duel_chart_add_plot_rect (DuelChart           *self,
                          const DuelChartRect *rect)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_if_fail (DUEL_IS_CHART (self));
  g_return_if_fail (rect != NULL);

  if (!priv->has_plot)
    {
      priv->plot = *rect;
      priv->has_plot = TRUE;
      return;
    }
  {
    double x0 = MIN (priv->plot.x, rect->x);
    double y0 = MIN (priv->plot.y, rect->y);
    double x1 = MAX (priv->plot.x + priv->plot.width, rect->x + rect->width);
    double y1 = MAX (priv->plot.y + priv->plot.height, rect->y + rect->height);

    priv->plot = (DuelChartRect) { x0, y0, x1 - x0, y1 - y0 };
  }
}

void
duel_chart_add_labels (DuelChart       *self,
                       DuelChartLabels *labels)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);
  GArray *boxes;

  g_return_if_fail (DUEL_IS_CHART (self));
  g_return_if_fail (labels != NULL);

  boxes = duel_chart_labels_get_boxes (labels);
  if (priv->label_boxes == NULL)
    priv->label_boxes = g_array_new (FALSE, FALSE, sizeof (DuelChartRect));
  g_array_append_vals (priv->label_boxes, boxes->data, boxes->len);
  priv->labels_dropped += duel_chart_labels_get_n_dropped (labels);
}

const DuelChartRect *
duel_chart_get_label_boxes (DuelChart *self,
                            guint     *out_n_boxes,
                            guint     *out_n_dropped)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);

  if (out_n_boxes != NULL)
    *out_n_boxes = priv->label_boxes != NULL ? priv->label_boxes->len : 0;
  if (out_n_dropped != NULL)
    *out_n_dropped = priv->labels_dropped;
  return priv->label_boxes != NULL ? (const DuelChartRect *) (gconstpointer) priv->label_boxes->data : NULL;
}

gboolean
duel_chart_get_plot_rect (DuelChart     *self,
                          DuelChartRect *out_rect)
{
  DuelChartPrivate *priv = duel_chart_get_instance_private (self);

  g_return_val_if_fail (DUEL_IS_CHART (self), FALSE);
  g_return_val_if_fail (out_rect != NULL, FALSE);

  if (!priv->has_plot)
    return FALSE;
  *out_rect = priv->plot;
  return TRUE;
}

void
duel_chart_csv_append_number (GString    *csv,
                              const char *format,
                              double      value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE + 32];

  g_string_append (csv, g_ascii_formatd (buffer, sizeof buffer, format, value));
}

void
duel_chart_csv_append_field (GString    *csv,
                             const char *text)
{
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (csv, text);
      return;
    }
  g_string_append_c (csv, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  g_string_append_c (csv, '"');
}

char *
duel_chart_to_csv (DuelChart *self)
{
  GString *csv;

  g_return_val_if_fail (DUEL_IS_CHART (self), NULL);

  csv = g_string_new (NULL);
  if (DUEL_CHART_GET_CLASS (self)->write_csv)
    DUEL_CHART_GET_CLASS (self)->write_csv (self, csv);
  return g_string_free (csv, FALSE);
}

GPtrArray *
duel_chart_new_all (DuelComparison       *comparison,
                    const DuelChartStyle *style)
{
  GPtrArray *charts = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;
  GType *types = chart_types (&n);

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), charts);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (charts, g_object_new (types[i],
                                           "comparison", comparison,
                                           "style", style,
                                           NULL));
  return charts;
}

GPtrArray *
duel_chart_new_report (DuelComparison       *comparison,
                       const DuelChartStyle *style)
{
  GPtrArray *charts = duel_chart_new_all (comparison, style);

  for (guint i = 0; i < charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (charts, i);
      /* The review's QoS is at QD1 and at QD32: both, where either was measured. */
      static const guint depths[] = { 1, 32 };
      guint inserted = 0;

      if (!DUEL_IS_CHART_QOS (chart))
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (depths); k++)
        {
          DuelChart *at_depth = g_object_new (DUEL_TYPE_CHART_QOS,
                                              "comparison", comparison,
                                              "style", style,
                                              "queue-depth", depths[k],
                                              NULL);

          if (duel_chart_has_data (at_depth))
            {
              DuelChartPrivate *priv = duel_chart_get_instance_private (at_depth);

              /* Its own file names: qos-qd1.png, qos-qd32.svg, … */
              priv->id = g_strdup_printf ("qos-qd%u", depths[k]);
              g_ptr_array_insert (charts, (int) (i + 1 + inserted++), at_depth);
            }
          else
            g_object_unref (at_depth);
        }
      /* Neither depth (an imported QD4 run): the automatic chart stays. */
      if (inserted > 0)
        g_ptr_array_remove_index (charts, i);
      break;
    }
  return charts;
}
