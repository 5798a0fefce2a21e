/* duel-chart-style.h — colours, fonts and line widths of a chart
 *
 * Two built-in looks: a light "article" style for publication and a dark one.
 * The GTK app fills a style from its theme (css_changed) and hands it over;
 * the charts never look colours up themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib-object.h>
#include <pango/pangocairo.h>

#include "duel-chart-palette.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_STYLE (duel_chart_style_get_type ())

typedef enum
{
  DUEL_CHART_THEME_LIGHT,
  DUEL_CHART_THEME_DARK,
} DuelChartTheme;

/* The two drives of a comparison; each has a main colour and a second one for
 * its other direction (read and write drawn side by side). */
#define DUEL_CHART_MAX_DRIVES 4

typedef enum
{
  DUEL_CHART_ROLE_MAIN,
  DUEL_CHART_ROLE_SECOND,
  DUEL_CHART_N_ROLES
} DuelChartRole;

typedef enum
{
  DUEL_CHART_TEXT_TITLE,
  DUEL_CHART_TEXT_SUBTITLE,
  DUEL_CHART_TEXT_AXIS_TITLE,
  DUEL_CHART_TEXT_TICK,
  DUEL_CHART_TEXT_LEGEND,
  DUEL_CHART_TEXT_ANNOTATION,
  DUEL_CHART_TEXT_TABLE,
  DUEL_CHART_TEXT_TABLE_HEADER,
} DuelChartTextRole;

typedef struct
{
  DuelChartTheme theme;
  DuelChartColor background;
  DuelChartColor foreground;     /* titles and labels */
  DuelChartColor muted;          /* tick labels, notes */
  DuelChartColor grid;
  DuelChartColor axis;
  DuelChartColor guide;          /* ceilings, cliff and plateau marks */
  DuelChartColor highlight;      /* the winning cell of a table row */
  DuelChartColor stripe;         /* every other table row */
  DuelChartColor drive[DUEL_CHART_MAX_DRIVES][DUEL_CHART_N_ROLES];
  char          *font_family;    /* a Pango family list, e.g. "Sans" */
  double         font_size;      /* base size in user units (px at scale 1) */
  double         line_width;     /* series lines */
} DuelChartStyle;

GType           duel_chart_style_get_type        (void) G_GNUC_CONST;
DuelChartStyle *duel_chart_style_new             (DuelChartTheme        theme);
DuelChartStyle *duel_chart_style_copy            (const DuelChartStyle *style);
void            duel_chart_style_free            (DuelChartStyle       *style);
/* "light" or "dark"; FALSE for anything else. */
gboolean        duel_chart_theme_from_string     (const char           *text,
                                                  DuelChartTheme       *out_theme);

const DuelChartColor *duel_chart_style_get_drive_color (const DuelChartStyle *style,
                                                        guint                 drive,
                                                        DuelChartRole         role);

void            duel_chart_set_source_color      (cairo_t              *cr,
                                                  const DuelChartColor *color);
/* A layout whose size does not depend on the surface's scale (no hinted
 * metrics), so PNG, SVG and PDF exports lay out identically. */
PangoLayout    *duel_chart_style_create_layout   (const DuelChartStyle *style,
                                                  cairo_t              *cr,
                                                  DuelChartTextRole     role,
                                                  const char           *text);
double          duel_chart_style_get_text_size   (const DuelChartStyle *style,
                                                  DuelChartTextRole     role);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelChartStyle, duel_chart_style_free)

G_END_DECLS
