/* duel-chart-palette.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "duel-chart-palette.h"

static const guint32 okabe_ito[DUEL_CHART_PALETTE_N_COLORS] = {
  0x000000,   /* black */
  0xE69F00,   /* orange */
  0x56B4E9,   /* sky blue */
  0x009E73,   /* bluish green */
  0xF0E442,   /* yellow */
  0x0072B2,   /* blue */
  0xD55E00,   /* vermillion */
  0xCC79A7,   /* reddish purple */
};

void
duel_chart_palette_get (DuelChartPaletteEntry  entry,
                        DuelChartColor        *out_color)
{
  guint32 rgb;

  g_return_if_fail (entry < DUEL_CHART_PALETTE_N_COLORS);
  g_return_if_fail (out_color != NULL);

  rgb = okabe_ito[entry];
  out_color->red = ((rgb >> 16) & 0xff) / 255.0;
  out_color->green = ((rgb >> 8) & 0xff) / 255.0;
  out_color->blue = (rgb & 0xff) / 255.0;
  out_color->alpha = 1.0;
}

static int
hex_pair (const char *text)
{
  int hi = g_ascii_xdigit_value (text[0]);
  int lo = g_ascii_xdigit_value (text[1]);

  if (hi < 0 || lo < 0)
    return -1;
  return hi * 16 + lo;
}

gboolean
duel_chart_color_parse (const char     *text,
                        DuelChartColor *out_color)
{
  int parts[4] = { 0, 0, 0, 255 };
  gsize len;

  g_return_val_if_fail (out_color != NULL, FALSE);

  if (text == NULL || text[0] != '#')
    return FALSE;
  len = strlen (text + 1);
  if (len != 6 && len != 8)
    return FALSE;
  for (guint i = 0; i < len / 2; i++)
    {
      parts[i] = hex_pair (text + 1 + 2 * i);
      if (parts[i] < 0)
        return FALSE;
    }

  out_color->red = parts[0] / 255.0;
  out_color->green = parts[1] / 255.0;
  out_color->blue = parts[2] / 255.0;
  out_color->alpha = parts[3] / 255.0;
  return TRUE;
}

char *
duel_chart_color_to_string (const DuelChartColor *color)
{
  g_return_val_if_fail (color != NULL, NULL);

  return g_strdup_printf ("#%02x%02x%02x",
                          (guint) CLAMP (color->red * 255.0 + 0.5, 0, 255),
                          (guint) CLAMP (color->green * 255.0 + 0.5, 0, 255),
                          (guint) CLAMP (color->blue * 255.0 + 0.5, 0, 255));
}

void
duel_chart_color_mix (const DuelChartColor *color,
                      const DuelChartColor *toward,
                      double                amount,
                      DuelChartColor       *out_color)
{
  DuelChartColor result;

  g_return_if_fail (color != NULL && toward != NULL && out_color != NULL);

  amount = CLAMP (amount, 0.0, 1.0);
  result.red = color->red + (toward->red - color->red) * amount;
  result.green = color->green + (toward->green - color->green) * amount;
  result.blue = color->blue + (toward->blue - color->blue) * amount;
  result.alpha = color->alpha + (toward->alpha - color->alpha) * amount;
  *out_color = result;
}
