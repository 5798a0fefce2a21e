/* duel-chart-palette.h — the colour-blind-safe palette charts draw with
 *
 * Okabe & Ito (2008), "Color Universal Design": eight colours that stay
 * distinct under the common colour-vision deficiencies.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double red;
  double green;
  double blue;
  double alpha;
} DuelChartColor;

typedef enum
{
  DUEL_CHART_PALETTE_BLACK,
  DUEL_CHART_PALETTE_ORANGE,
  DUEL_CHART_PALETTE_SKY_BLUE,
  DUEL_CHART_PALETTE_BLUISH_GREEN,
  DUEL_CHART_PALETTE_YELLOW,
  DUEL_CHART_PALETTE_BLUE,
  DUEL_CHART_PALETTE_VERMILLION,
  DUEL_CHART_PALETTE_REDDISH_PURPLE,
  DUEL_CHART_PALETTE_N_COLORS
} DuelChartPaletteEntry;

void     duel_chart_palette_get      (DuelChartPaletteEntry  entry,
                                      DuelChartColor        *out_color);
/* "#rrggbb" or "#rrggbbaa"; FALSE on anything else. */
gboolean duel_chart_color_parse      (const char            *text,
                                      DuelChartColor        *out_color);
char    *duel_chart_color_to_string  (const DuelChartColor  *color);
/* Mixes @color toward @toward by @amount (0..1): lighter fills, muted shades. */
void     duel_chart_color_mix        (const DuelChartColor  *color,
                                      const DuelChartColor  *toward,
                                      double                 amount,
                                      DuelChartColor        *out_color);

G_END_DECLS
