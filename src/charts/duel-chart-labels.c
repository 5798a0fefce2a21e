/* duel-chart-labels.c — value labels that never overlap and never leave the plot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-chart-labels.h"

#define GAP        8.0   /* between a label and its point: clear of a 13 px mark */
#define PAD        2.0   /* the halo around the text */
#define MAX_STEPS  12    /* steps away from the point before giving up */

typedef struct
{
  char               *text;
  DuelChartColor      color;
  double              x, y;
  DuelChartLabelSide  side;
} Label;

struct _DuelChartLabels
{
  DuelChartRect  bounds;
  GArray        *labels;    /* Label */
  GArray        *avoid;     /* DuelChartRect */
  GArray        *placed;    /* DuelChartRect: the labels drawn, halo included */
  guint          n_dropped;
};

static void
label_clear (gpointer data)
{
  g_free (((Label *) data)->text);
}

DuelChartLabels *
duel_chart_labels_new (const DuelChartRect *bounds)
{
  DuelChartLabels *labels = g_new0 (DuelChartLabels, 1);

  g_return_val_if_fail (bounds != NULL, NULL);

  labels->bounds = *bounds;
  labels->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  g_array_set_clear_func (labels->labels, label_clear);
  labels->avoid = g_array_new (FALSE, FALSE, sizeof (DuelChartRect));
  labels->placed = g_array_new (FALSE, FALSE, sizeof (DuelChartRect));
  return labels;
}

void
duel_chart_labels_free (DuelChartLabels *labels)
{
  if (labels == NULL)
    return;
  g_array_unref (labels->labels);
  g_array_unref (labels->avoid);
  g_array_unref (labels->placed);
  g_free (labels);
}

void
duel_chart_labels_avoid (DuelChartLabels     *labels,
                         const DuelChartRect *area)
{
  g_return_if_fail (labels != NULL && area != NULL);

  g_array_append_val (labels->avoid, *area);
}

void
duel_chart_labels_add (DuelChartLabels      *labels,
                       const char           *text,
                       const DuelChartColor *color,
                       double                x,
                       double                y,
                       DuelChartLabelSide    side)
{
  Label label = { g_strdup (text), *color, x, y, side };

  g_return_if_fail (labels != NULL && text != NULL && color != NULL);

  g_array_append_val (labels->labels, label);
}

static gboolean
intersects (const DuelChartRect *a,
            const DuelChartRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

static gboolean
inside (const DuelChartRect *box,
        const DuelChartRect *bounds)
{
  return box->x >= bounds->x && box->y >= bounds->y &&
         box->x + box->width <= bounds->x + bounds->width &&
         box->y + box->height <= bounds->y + bounds->height;
}

static gboolean
is_free (DuelChartLabels     *labels,
         const DuelChartRect *box)
{
  if (!inside (box, &labels->bounds))
    return FALSE;
  for (guint i = 0; i < labels->placed->len; i++)
    if (intersects (box, &g_array_index (labels->placed, DuelChartRect, i)))
      return FALSE;
  for (guint i = 0; i < labels->avoid->len; i++)
    if (intersects (box, &g_array_index (labels->avoid, DuelChartRect, i)))
      return FALSE;
  return TRUE;
}

/* The box (halo included) of a w x h label on @side of (x, y), @step
 * label-heights further out along that side. */
static DuelChartRect
box_at (double             x,
        double             y,
        double             w,
        double             h,
        DuelChartLabelSide side,
        guint              step)
{
  double bw = w + 2 * PAD, bh = h + 2 * PAD, out = GAP + step * (bh + 1);

  switch (side)
    {
    case DUEL_CHART_LABEL_ABOVE:
      return (DuelChartRect) { x - bw / 2, y - out - bh, bw, bh };
    case DUEL_CHART_LABEL_BELOW:
      return (DuelChartRect) { x - bw / 2, y + out, bw, bh };
    case DUEL_CHART_LABEL_LEFT:
      return (DuelChartRect) { x - GAP - bw, y - bh / 2 - step * (bh + 1), bw, bh };
    case DUEL_CHART_LABEL_RIGHT:
    default:
      return (DuelChartRect) { x + GAP, y - bh / 2 - step * (bh + 1), bw, bh };
    }
}

/* Slides @box sideways into the bounds (a label by the plot's edge moves
 * along, not off). */
static void
clamp_x (DuelChartRect       *box,
         const DuelChartRect *bounds)
{
  if (box->x < bounds->x)
    box->x = bounds->x;
  if (box->x + box->width > bounds->x + bounds->width)
    box->x = bounds->x + bounds->width - box->width;
}

static gboolean
place (DuelChartLabels *labels,
       const Label     *label,
       double           w,
       double           h,
       DuelChartRect   *out,
       gboolean        *out_moved)
{
  static const DuelChartLabelSide opposite[] = {
    [DUEL_CHART_LABEL_ABOVE] = DUEL_CHART_LABEL_BELOW,
    [DUEL_CHART_LABEL_BELOW] = DUEL_CHART_LABEL_ABOVE,
    [DUEL_CHART_LABEL_LEFT] = DUEL_CHART_LABEL_RIGHT,
    [DUEL_CHART_LABEL_RIGHT] = DUEL_CHART_LABEL_LEFT,
  };
  DuelChartLabelSide sides[4] = { label->side, opposite[label->side],
                                  label->side <= DUEL_CHART_LABEL_BELOW ? DUEL_CHART_LABEL_RIGHT : DUEL_CHART_LABEL_ABOVE,
                                  label->side <= DUEL_CHART_LABEL_BELOW ? DUEL_CHART_LABEL_LEFT : DUEL_CHART_LABEL_BELOW };

  for (guint step = 0; step <= MAX_STEPS; step++)
    for (guint s = 0; s < (step == 0 ? 4u : 2u); s++)
      {
        DuelChartRect box = box_at (label->x, label->y, w, h, sides[s], step);

        if (sides[s] <= DUEL_CHART_LABEL_BELOW)
          clamp_x (&box, &labels->bounds);
        if (is_free (labels, &box))
          {
            *out = box;
            *out_moved = step > 0;
            return TRUE;
          }
      }
  return FALSE;
}

void
duel_chart_labels_draw (DuelChartLabels      *labels,
                        cairo_t              *cr,
                        const DuelChartStyle *style)
{
  g_return_if_fail (labels != NULL && cr != NULL && style != NULL);

  g_array_set_size (labels->placed, 0);
  labels->n_dropped = 0;
  for (guint i = 0; i < labels->labels->len; i++)
    {
      const Label *label = &g_array_index (labels->labels, Label, i);
      DuelChartRect box;
      gboolean moved = FALSE;
      double w, h;

      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_ANNOTATION, label->text, &w, &h);
      if (!place (labels, label, w, h, &box, &moved))
        {
          labels->n_dropped++;
          continue;
        }
      g_array_append_val (labels->placed, box);

      cairo_save (cr);
      if (moved)
        {
          /* A leader from the point to the nearest edge of the label. */
          double ex = CLAMP (label->x, box.x, box.x + box.width);
          double ey = CLAMP (label->y, box.y, box.y + box.height);

          duel_chart_set_source_color (cr, &label->color);
          cairo_set_line_width (cr, 1);
          cairo_move_to (cr, label->x, label->y);
          cairo_line_to (cr, ex, ey);
          cairo_stroke (cr);
        }
      /* A halo in the background colour keeps the label readable over lines. */
      duel_chart_set_source_color (cr, &style->background);
      cairo_rectangle (cr, box.x, box.y, box.width, box.height);
      cairo_fill (cr);
      cairo_restore (cr);
      duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_ANNOTATION, &label->color, label->text,
                            box.x + PAD, box.y + PAD, 0, 0);
    }
}

GArray *
duel_chart_labels_get_boxes (DuelChartLabels *labels)
{
  g_return_val_if_fail (labels != NULL, NULL);

  return labels->placed;
}

guint
duel_chart_labels_get_n_dropped (DuelChartLabels *labels)
{
  g_return_val_if_fail (labels != NULL, 0);

  return labels->n_dropped;
}
