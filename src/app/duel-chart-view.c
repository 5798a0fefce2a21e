/* duel-chart-view.c — a widget that draws one DuelChart
 *
 * The chart draws itself with cairo (duel_chart_draw), exactly as in the PNG,
 * SVG and PDF exports. The drawing is kept as a render node and only redone
 * when the size, the style or the chart changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "duel-chart-view.h"

struct _DuelChartView
{
  GtkWidget       parent_instance;

  DuelChart      *chart;
  GSettings      *settings;
  DuelChartStyle *style;
  GskRenderNode  *cache;
  int             cache_width;
  int             cache_height;
};

G_DEFINE_FINAL_TYPE (DuelChartView, duel_chart_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CHART,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
color_from_rgba (DuelChartColor *out,
                 const GdkRGBA  *rgba)
{
  out->red = rgba->red;
  out->green = rgba->green;
  out->blue = rgba->blue;
  out->alpha = rgba->alpha;
}

static void
mix_toward (DuelChartColor       *color,
            const DuelChartColor *toward,
            double                amount)
{
  DuelChartColor mixed;

  duel_chart_color_mix (color, toward, amount, &mixed);
  *color = mixed;
}

/* The style follows the preference: the export looks as they are, or the
 * theme's own colours (light or dark) around the same colour-blind-safe series. */
static void
update_style (DuelChartView *self)
{
  g_autofree char *choice = self->settings != NULL
                            ? g_settings_get_string (self->settings, "chart-style") : g_strdup ("auto");
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  DuelChartStyle *style;

  if (g_strcmp0 (choice, "light") == 0)
    style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  else if (g_strcmp0 (choice, "dark") == 0)
    style = duel_chart_style_new (DUEL_CHART_THEME_DARK);
  else
    {
      GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
      GdkRGBA bg, fg;

      style = duel_chart_style_new (dark ? DUEL_CHART_THEME_DARK : DUEL_CHART_THEME_LIGHT);
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      if (gtk_style_context_lookup_color (context, "view_bg_color", &bg) &&
          gtk_style_context_lookup_color (context, "view_fg_color", &fg))
G_GNUC_END_IGNORE_DEPRECATIONS
        {
          color_from_rgba (&style->background, &bg);
          color_from_rgba (&style->foreground, &fg);
          /* Muted text, grid and axes are the foreground faded into the background. */
          style->muted = style->foreground;
          mix_toward (&style->muted, &style->background, 0.35);
          style->axis = style->foreground;
          mix_toward (&style->axis, &style->background, 0.55);
          style->grid = style->foreground;
          mix_toward (&style->grid, &style->background, 0.88);
          style->stripe = style->foreground;
          mix_toward (&style->stripe, &style->background, 0.96);
        }
      /* The desktop's interface font, as the rest of the window. */
      {
        g_autofree char *font = NULL;

        g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-font-name", &font, NULL);
        if (font != NULL)
          {
            PangoFontDescription *desc = pango_font_description_from_string (font);
            const char *family = pango_font_description_get_family (desc);

            if (family != NULL)
              {
                g_free (style->font_family);
                style->font_family = g_strdup (family);
              }
            pango_font_description_free (desc);
          }
      }
    }

  g_clear_pointer (&self->style, duel_chart_style_free);
  self->style = style;
  if (self->chart != NULL)
    duel_chart_set_style (self->chart, self->style);
  duel_chart_view_invalidate (self);
}

static void
settings_changed_cb (DuelChartView *self)
{
  update_style (self);
}

static void
duel_chart_view_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (duel_chart_view_parent_class)->css_changed (widget, change);
  update_style (DUEL_CHART_VIEW (widget));
}

static void
duel_chart_view_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  DuelChartView *self = DUEL_CHART_VIEW (widget);

  if (width != self->cache_width || height != self->cache_height)
    g_clear_pointer (&self->cache, gsk_render_node_unref);
}

static void
duel_chart_view_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  DuelChartView *self = DUEL_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (self->chart == NULL || width <= 0 || height <= 0)
    return;

  if (self->cache == NULL)
    {
      GtkSnapshot *inner = gtk_snapshot_new ();
      cairo_t *cr = gtk_snapshot_append_cairo (inner, &GRAPHENE_RECT_INIT (0, 0, width, height));

      duel_chart_draw (self->chart, cr, width, height);
      cairo_destroy (cr);
      self->cache = gtk_snapshot_free_to_node (inner);
      self->cache_width = width;
      self->cache_height = height;
    }

  if (self->cache != NULL)
    gtk_snapshot_append_node (snapshot, self->cache);
}

static void
duel_chart_view_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  /* Small enough for a narrow window; large enough to read at its natural size. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 900;
    }
  else
    {
      *minimum = 240;
      *natural = 506;
    }
}

static void
duel_chart_view_dispose (GObject *object)
{
  DuelChartView *self = DUEL_CHART_VIEW (object);

  g_clear_object (&self->chart);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->cache, gsk_render_node_unref);

  G_OBJECT_CLASS (duel_chart_view_parent_class)->dispose (object);
}

static void
duel_chart_view_finalize (GObject *object)
{
  DuelChartView *self = DUEL_CHART_VIEW (object);

  g_clear_pointer (&self->style, duel_chart_style_free);

  G_OBJECT_CLASS (duel_chart_view_parent_class)->finalize (object);
}

static void
duel_chart_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DuelChartView *self = DUEL_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_CHART:
      g_value_set_object (value, self->chart);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  DuelChartView *self = DUEL_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_CHART:
      duel_chart_view_set_chart (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_view_class_init (DuelChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_chart_view_dispose;
  object_class->finalize = duel_chart_view_finalize;
  object_class->get_property = duel_chart_view_get_property;
  object_class->set_property = duel_chart_view_set_property;
  widget_class->snapshot = duel_chart_view_snapshot;
  widget_class->measure = duel_chart_view_measure;
  widget_class->size_allocate = duel_chart_view_size_allocate;
  widget_class->css_changed = duel_chart_view_css_changed;

  properties[PROP_CHART] =
    g_param_spec_object ("chart", NULL, NULL, DUEL_TYPE_CHART,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
duel_chart_view_init (DuelChartView *self)
{
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No data to show yet."),
                                  -1);
}

GtkWidget *
duel_chart_view_new (void)
{
  return g_object_new (DUEL_TYPE_CHART_VIEW, NULL);
}

DuelChart *
duel_chart_view_get_chart (DuelChartView *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

/* The chart's text alternative: its subtitle, then its data as the CSV
 * export has it, a line per row (a screen reader reads every figure the
 * picture shows), at most DESCRIPTION_MAX characters. */
#define DESCRIPTION_MAX 4000

static char *
describe_data (DuelChart *chart)
{
  g_autofree char *subtitle = duel_chart_get_subtitle (chart);
  g_autofree char *csv = duel_chart_has_data (chart) ? duel_chart_to_csv (chart) : NULL;
  GString *text = g_string_new (subtitle != NULL ? subtitle : "");

  if (csv == NULL)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, _("No data to show yet."));
      return g_string_free (text, FALSE);
    }
  if (text->len > 0)
    g_string_append_c (text, '\n');
  /* TRANSLATORS: before a chart's data in the text a screen reader reads */
  g_string_append (text, _("Data:"));
  g_string_append_c (text, '\n');
  g_string_append (text, csv);
  if (text->len > DESCRIPTION_MAX)
    {
      const char *end = g_utf8_find_prev_char (text->str, text->str + DESCRIPTION_MAX);

      g_string_truncate (text, end != NULL ? (gsize) (end - text->str) : DESCRIPTION_MAX);
      g_string_append (text, "…");
    }
  return g_string_free (text, FALSE);
}

void
duel_chart_view_set_chart (DuelChartView *self,
                           DuelChart     *chart)
{
  g_return_if_fail (DUEL_IS_CHART_VIEW (self));
  g_return_if_fail (chart == NULL || DUEL_IS_CHART (chart));

  if (!g_set_object (&self->chart, chart))
    return;

  if (self->chart != NULL)
    {
      g_autofree char *title = duel_chart_get_title (self->chart);
      g_autofree char *text = describe_data (self->chart);

      if (self->style == NULL)
        update_style (self);
      duel_chart_set_style (self->chart, self->style);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                      -1);
    }
  else
    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Chart"),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No data to show yet."),
                                    -1);
  duel_chart_view_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHART]);
}

void
duel_chart_view_set_settings (DuelChartView *self,
                              GSettings     *settings)
{
  g_return_if_fail (DUEL_IS_CHART_VIEW (self));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_func (self->settings, settings_changed_cb, self);
  if (!g_set_object (&self->settings, settings))
    return;
  if (settings != NULL)
    g_signal_connect_object (settings, "changed::chart-style",
                             G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  update_style (self);
}

void
duel_chart_view_invalidate (DuelChartView *self)
{
  g_return_if_fail (DUEL_IS_CHART_VIEW (self));

  g_clear_pointer (&self->cache, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const DuelChartStyle *
duel_chart_view_get_style (DuelChartView *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_VIEW (self), NULL);

  if (self->style == NULL)
    update_style (self);
  return self->style;
}
