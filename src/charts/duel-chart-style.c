/* duel-chart-style.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "duel-chart-style.h"

G_DEFINE_BOXED_TYPE (DuelChartStyle, duel_chart_style, duel_chart_style_copy, duel_chart_style_free)

static void
set_rgb (DuelChartColor *color,
         guint32         rgb)
{
  color->red = ((rgb >> 16) & 0xff) / 255.0;
  color->green = ((rgb >> 8) & 0xff) / 255.0;
  color->blue = (rgb & 0xff) / 255.0;
  color->alpha = 1.0;
}

DuelChartStyle *
duel_chart_style_new (DuelChartTheme theme)
{
  DuelChartStyle *style = g_new0 (DuelChartStyle, 1);
  gboolean dark = theme == DUEL_CHART_THEME_DARK;

  style->theme = theme;
  if (dark)
    {
      set_rgb (&style->background, 0x1e1e1e);
      set_rgb (&style->foreground, 0xf0f0f0);
      set_rgb (&style->muted, 0xb0b0b0);
      set_rgb (&style->grid, 0x3a3a3a);
      set_rgb (&style->axis, 0x8a8a8a);
      set_rgb (&style->guide, 0xd0d0d0);
      set_rgb (&style->highlight, 0x1f4d3e);
      set_rgb (&style->stripe, 0x262626);
      /* On a dark ground the light members of each pair lead: sky blue
       * and blue, orange and vermillion. */
      duel_chart_palette_get (DUEL_CHART_PALETTE_SKY_BLUE, &style->drive[0][DUEL_CHART_ROLE_MAIN]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_BLUE, &style->drive[0][DUEL_CHART_ROLE_SECOND]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_ORANGE, &style->drive[1][DUEL_CHART_ROLE_MAIN]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_VERMILLION, &style->drive[1][DUEL_CHART_ROLE_SECOND]);
      /* Drives 3 and 4: bluish green and reddish purple, as in the light
       * style. Yellow and vermillion are too close to orange to tell the
       * drives apart (test-chart's /duel/chart/style/drive-colors); their
       * second colours are paler shades. */
      duel_chart_palette_get (DUEL_CHART_PALETTE_BLUISH_GREEN, &style->drive[2][DUEL_CHART_ROLE_MAIN]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_REDDISH_PURPLE, &style->drive[3][DUEL_CHART_ROLE_MAIN]);
    }
  else
    {
      set_rgb (&style->background, 0xffffff);
      set_rgb (&style->foreground, 0x1a1a1a);
      set_rgb (&style->muted, 0x5e5e5e);
      set_rgb (&style->grid, 0xe4e4e4);
      set_rgb (&style->axis, 0x7a7a7a);
      set_rgb (&style->guide, 0x444444);
      set_rgb (&style->highlight, 0xd8f0e6);
      set_rgb (&style->stripe, 0xf5f5f5);
      duel_chart_palette_get (DUEL_CHART_PALETTE_BLUE, &style->drive[0][DUEL_CHART_ROLE_MAIN]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_SKY_BLUE, &style->drive[0][DUEL_CHART_ROLE_SECOND]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_VERMILLION, &style->drive[1][DUEL_CHART_ROLE_MAIN]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_ORANGE, &style->drive[1][DUEL_CHART_ROLE_SECOND]);
      /* Drives 3 and 4: bluish green and reddish purple, which keep their
       * contrast on white; their second colours are paler shades. */
      duel_chart_palette_get (DUEL_CHART_PALETTE_BLUISH_GREEN, &style->drive[2][DUEL_CHART_ROLE_MAIN]);
      duel_chart_palette_get (DUEL_CHART_PALETTE_REDDISH_PURPLE, &style->drive[3][DUEL_CHART_ROLE_MAIN]);
    }
  for (guint d = 2; d < DUEL_CHART_MAX_DRIVES; d++)
    duel_chart_color_mix (&style->drive[d][DUEL_CHART_ROLE_MAIN], &style->background, 0.45,
                          &style->drive[d][DUEL_CHART_ROLE_SECOND]);

  style->font_family = g_strdup ("Sans");
  style->font_size = 13.0;
  style->line_width = 1.5;
  return style;
}

DuelChartStyle *
duel_chart_style_copy (const DuelChartStyle *style)
{
  DuelChartStyle *copy;

  g_return_val_if_fail (style != NULL, NULL);

  copy = g_memdup2 (style, sizeof *style);
  copy->font_family = g_strdup (style->font_family);
  return copy;
}

void
duel_chart_style_free (DuelChartStyle *style)
{
  if (style == NULL)
    return;
  g_free (style->font_family);
  g_free (style);
}

gboolean
duel_chart_theme_from_string (const char     *text,
                              DuelChartTheme *out_theme)
{
  g_return_val_if_fail (out_theme != NULL, FALSE);

  if (g_strcmp0 (text, "light") == 0 || g_strcmp0 (text, "article") == 0)
    *out_theme = DUEL_CHART_THEME_LIGHT;
  else if (g_strcmp0 (text, "dark") == 0)
    *out_theme = DUEL_CHART_THEME_DARK;
  else
    return FALSE;
  return TRUE;
}

const DuelChartColor *
duel_chart_style_get_drive_color (const DuelChartStyle *style,
                                  guint                 drive,
                                  DuelChartRole         role)
{
  g_return_val_if_fail (style != NULL, NULL);
  g_return_val_if_fail (role < DUEL_CHART_N_ROLES, NULL);

  return &style->drive[MIN (drive, DUEL_CHART_MAX_DRIVES - 1)][role];
}

void
duel_chart_set_source_color (cairo_t              *cr,
                             const DuelChartColor *color)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}

double
duel_chart_style_get_text_size (const DuelChartStyle *style,
                                DuelChartTextRole     role)
{
  double base = style->font_size;

  switch (role)
    {
    case DUEL_CHART_TEXT_TITLE:        return base * 1.45;
    case DUEL_CHART_TEXT_SUBTITLE:     return base * 0.95;
    case DUEL_CHART_TEXT_AXIS_TITLE:   return base;
    case DUEL_CHART_TEXT_TICK:         return base * 0.85;
    case DUEL_CHART_TEXT_LEGEND:       return base;
    case DUEL_CHART_TEXT_ANNOTATION:   return base * 0.85;
    case DUEL_CHART_TEXT_TABLE:        return base;
    case DUEL_CHART_TEXT_TABLE_HEADER: return base;
    default:                           return base;
    }
}

PangoLayout *
duel_chart_style_create_layout (const DuelChartStyle *style,
                                cairo_t              *cr,
                                DuelChartTextRole     role,
                                const char           *text)
{
  g_autoptr(PangoFontDescription) desc = NULL;
  cairo_font_options_t *options;
  PangoContext *context;
  PangoLayout *layout;

  g_return_val_if_fail (style != NULL, NULL);
  g_return_val_if_fail (cr != NULL, NULL);

  layout = pango_cairo_create_layout (cr);
  context = pango_layout_get_context (layout);

  options = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options (context, options);
  cairo_font_options_destroy (options);
  pango_context_set_round_glyph_positions (context, FALSE);
  pango_layout_context_changed (layout);

  desc = pango_font_description_from_string (style->font_family ? style->font_family : "Sans");
  pango_font_description_set_absolute_size (desc, duel_chart_style_get_text_size (style, role) * PANGO_SCALE);
  if (role == DUEL_CHART_TEXT_TITLE || role == DUEL_CHART_TEXT_TABLE_HEADER)
    pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, desc);
  if (text != NULL)
    pango_layout_set_text (layout, text, -1);
  return layout;
}
