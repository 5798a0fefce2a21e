/* duel-cdm-view.c — the CrystalDiskMark set as CrystalDiskMark shows it
 *
 * Built in code, as the comparison's table is: its rows and columns depend
 * on the drives and the profiles they ran.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-cdm-view.h"

struct _DuelCdmView
{
  GtkWidget       parent_instance;

  DuelComparison *comparison;
  DuelCdmGrid    *grid;
  DuelCdmUnit     unit;

  GtkWidget      *toolbar;
  GtkWidget      *scrolled;
  GtkDropDown    *units;
  GtkLabel       *corner;     /* the unit above the step labels */
  GPtrArray      *values;     /* GtkLabel, drive × row × direction */
  GPtrArray      *passes;     /* GtkLabel, the same cells' best-of-N lines */
};

G_DEFINE_FINAL_TYPE (DuelCdmView, duel_cdm_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint
cell_index (DuelCdmView  *self,
            guint         drive,
            guint         row,
            DuelDirection direction)
{
  return (drive * duel_cdm_grid_get_n_rows (self->grid) + row) * DUEL_N_DIRECTIONS + direction;
}

static void
update_values (DuelCdmView *self)
{
  gtk_label_set_text (self->corner, duel_cdm_unit_get_symbol (self->unit));
  for (guint d = 0; d < duel_cdm_grid_get_n_drives (self->grid); d++)
    for (guint r = 0; r < duel_cdm_grid_get_n_rows (self->grid); r++)
      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          const DuelCdmCell *cell = duel_cdm_grid_get_cell (self->grid, d, r, dir);
          guint i = cell_index (self, d, r, dir);
          g_autofree char *value = duel_cdm_format_value (cell->best[self->unit], self->unit);
          g_autofree char *passes = duel_cdm_cell_format_passes (cell, self->unit);

          gtk_label_set_text (g_ptr_array_index (self->values, i), cell->n_passes > 0 ? value : "–");
          gtk_label_set_text (g_ptr_array_index (self->passes, i), passes);
          gtk_widget_set_tooltip_text (g_ptr_array_index (self->values, i), passes[0] != '\0' ? passes : NULL);
        }
}

static void
units_selected_cb (GtkDropDown *units,
                   GParamSpec  *pspec,
                   DuelCdmView *self)
{
  guint selected = gtk_drop_down_get_selected (units);

  if (selected < DUEL_CDM_N_UNITS)
    duel_cdm_view_set_unit (self, selected);
}

static void
copy (DuelCdmView       *self,
      DuelCdmTextFormat  format)
{
  g_autofree char *text = duel_cdm_grid_to_text (self->grid, self->unit, format);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
copy_text_cb (GtkButton   *button,
              DuelCdmView *self)
{
  copy (self, DUEL_CDM_TEXT_PLAIN);
}

static void
copy_markdown_cb (GtkButton   *button,
                  DuelCdmView *self)
{
  copy (self, DUEL_CDM_TEXT_MARKDOWN);
}

static GtkWidget *
heading (const char *text,
         const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, css_class);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  return label;
}

static void
build_toolbar (DuelCdmView *self)
{
  static const char * const symbols[] = { "MB/s", "IOPS", "µs", NULL };
  GtkWidget *text_button, *markdown_button, *units_label;

  G_STATIC_ASSERT (G_N_ELEMENTS (symbols) == DUEL_CDM_N_UNITS + 1);

  self->toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  units_label = gtk_label_new_with_mnemonic (_("_Units"));
  self->units = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (symbols));
  gtk_widget_set_name (GTK_WIDGET (self->units), "cdm-units");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->units),
                               _("MB/s: 1,000,000 bytes per second; IOPS: I/Os per second; "
                                 "µs: the mean latency of one I/O"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (units_label), GTK_WIDGET (self->units));
  g_signal_connect_object (self->units, "notify::selected", G_CALLBACK (units_selected_cb), self, 0);

  text_button = gtk_button_new_with_mnemonic (_("_Copy as Text"));
  gtk_widget_set_name (text_button, "cdm-copy-text");
  gtk_widget_set_tooltip_text (text_button, _("Copy the grid in the shape of CrystalDiskMark’s own text, to paste in a forum"));
  g_signal_connect_object (text_button, "clicked", G_CALLBACK (copy_text_cb), self, 0);
  markdown_button = gtk_button_new_with_mnemonic (_("Copy as _Markdown"));
  gtk_widget_set_name (markdown_button, "cdm-copy-markdown");
  gtk_widget_set_tooltip_text (markdown_button, _("Copy the grid as a Markdown table"));
  g_signal_connect_object (markdown_button, "clicked", G_CALLBACK (copy_markdown_cb), self, 0);

  gtk_box_append (GTK_BOX (self->toolbar), units_label);
  gtk_box_append (GTK_BOX (self->toolbar), GTK_WIDGET (self->units));
  gtk_widget_set_hexpand (markdown_button, TRUE);
  gtk_widget_set_halign (markdown_button, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (self->toolbar), markdown_button);
  gtk_box_append (GTK_BOX (self->toolbar), text_button);
  gtk_widget_set_parent (self->toolbar, GTK_WIDGET (self));
}

static GtkWidget *
value_cell (DuelCdmView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *value = gtk_label_new (NULL);
  GtkWidget *passes = gtk_label_new (NULL);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "cdm-value");
  gtk_widget_add_css_class (value, "title-1");
  gtk_widget_add_css_class (value, "numeric");
  gtk_label_set_xalign (GTK_LABEL (value), 1);
  gtk_widget_add_css_class (passes, "caption");
  gtk_widget_add_css_class (passes, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (passes), 1);
  gtk_label_set_wrap (GTK_LABEL (passes), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (passes), 34);
  gtk_label_set_justify (GTK_LABEL (passes), GTK_JUSTIFY_RIGHT);
  gtk_widget_set_margin_start (value, 12);
  gtk_widget_set_margin_end (value, 12);
  gtk_widget_set_margin_top (value, 6);
  gtk_widget_set_margin_start (passes, 12);
  gtk_widget_set_margin_end (passes, 12);
  gtk_widget_set_margin_bottom (passes, 6);
  gtk_box_append (GTK_BOX (box), value);
  gtk_box_append (GTK_BOX (box), passes);
  g_ptr_array_add (self->values, value);
  g_ptr_array_add (self->passes, passes);
  return box;
}

static void
build_grid (DuelCdmView *self)
{
  guint n_drives = duel_cdm_grid_get_n_drives (self->grid);
  guint n_rows = duel_cdm_grid_get_n_rows (self->grid);
  GtkWidget *grid = gtk_grid_new ();
  guint top = n_drives > 1 ? 1 : 0;
  GtkWidget *corner;

  gtk_widget_add_css_class (grid, "cdm-grid");
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_halign (grid, GTK_ALIGN_CENTER);

  corner = heading (NULL, "title-4");
  self->corner = GTK_LABEL (corner);
  gtk_grid_attach (GTK_GRID (grid), corner, 0, top, 1, 1);
  g_ptr_array_set_size (self->values, 0);
  g_ptr_array_set_size (self->passes, 0);

  for (guint d = 0; d < n_drives; d++)
    {
      g_autofree char *drive_class = g_strdup_printf ("drive-%c", 'a' + d);

      if (n_drives > 1)
        {
          GtkWidget *name = heading (duel_cdm_grid_get_drive_name (self->grid, d), "heading");

          gtk_widget_add_css_class (name, drive_class);
          gtk_grid_attach (GTK_GRID (grid), name, 1 + 2 * d, 0, 2, 1);
        }
      gtk_grid_attach (GTK_GRID (grid), heading (_("Read"), "title-4"), 1 + 2 * d, top, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), heading (_("Write"), "title-4"), 2 + 2 * d, top, 1, 1);
    }
  /* In the order cell_index() reads them back. */
  for (guint d = 0; d < n_drives; d++)
    for (guint r = 0; r < n_rows; r++)
      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        gtk_grid_attach (GTK_GRID (grid), value_cell (self), 1 + 2 * d + (dir == DUEL_DIRECTION_WRITE),
                         top + 1 + r, 1, 1);
  for (guint r = 0; r < n_rows; r++)
    {
      GtkWidget *step = heading (duel_cdm_grid_get_row_label (self->grid, r), "title-3");

      /* Whole: "RND4K Q32T16" cut to "RND4…" would drop what it says. */
      gtk_label_set_ellipsize (GTK_LABEL (step), PANGO_ELLIPSIZE_NONE);
      gtk_widget_add_css_class (step, "cdm-step");
      gtk_label_set_xalign (GTK_LABEL (step), 0);
      gtk_widget_set_margin_end (step, 12);
      gtk_grid_attach (GTK_GRID (grid), step, 0, top + 1 + r, 1, 1);
    }

  self->scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), grid);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

static void
duel_cdm_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DuelCdmView *self = DUEL_CDM_VIEW (object);

  switch (prop_id)
    {
    case PROP_UNIT:
      g_value_set_uint (value, self->unit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_cdm_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  DuelCdmView *self = DUEL_CDM_VIEW (object);

  switch (prop_id)
    {
    case PROP_UNIT:
      duel_cdm_view_set_unit (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_cdm_view_dispose (GObject *object)
{
  DuelCdmView *self = DUEL_CDM_VIEW (object);

  g_clear_pointer (&self->toolbar, gtk_widget_unparent);
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_object (&self->comparison);
  G_OBJECT_CLASS (duel_cdm_view_parent_class)->dispose (object);
}

static void
duel_cdm_view_finalize (GObject *object)
{
  DuelCdmView *self = DUEL_CDM_VIEW (object);

  g_clear_pointer (&self->grid, duel_cdm_grid_free);
  g_clear_pointer (&self->values, g_ptr_array_unref);
  g_clear_pointer (&self->passes, g_ptr_array_unref);
  G_OBJECT_CLASS (duel_cdm_view_parent_class)->finalize (object);
}

static void
duel_cdm_view_class_init (DuelCdmViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = duel_cdm_view_get_property;
  object_class->set_property = duel_cdm_view_set_property;
  object_class->dispose = duel_cdm_view_dispose;
  object_class->finalize = duel_cdm_view_finalize;

  /* A DuelCdmUnit. */
  properties[PROP_UNIT] = g_param_spec_uint ("unit", NULL, NULL, 0, DUEL_CDM_N_UNITS - 1, DUEL_CDM_UNIT_MB_S,
                                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "cdmview");
}

static void
duel_cdm_view_init (DuelCdmView *self)
{
  self->values = g_ptr_array_new ();
  self->passes = g_ptr_array_new ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 12);
}

GtkWidget *
duel_cdm_view_new (DuelComparison *comparison)
{
  g_autoptr(DuelCdmGrid) grid = NULL;
  DuelCdmView *self;

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  grid = duel_cdm_grid_new (comparison);
  if (grid == NULL)
    return NULL;
  self = g_object_new (DUEL_TYPE_CDM_VIEW, NULL);
  self->comparison = g_object_ref (comparison);
  self->grid = g_steal_pointer (&grid);
  build_toolbar (self);
  build_grid (self);
  update_values (self);
  return GTK_WIDGET (self);
}

DuelCdmGrid *
duel_cdm_view_get_grid (DuelCdmView *self)
{
  g_return_val_if_fail (DUEL_IS_CDM_VIEW (self), NULL);
  return self->grid;
}

DuelCdmUnit
duel_cdm_view_get_unit (DuelCdmView *self)
{
  g_return_val_if_fail (DUEL_IS_CDM_VIEW (self), DUEL_CDM_UNIT_MB_S);
  return self->unit;
}

void
duel_cdm_view_set_unit (DuelCdmView *self,
                        DuelCdmUnit  unit)
{
  g_return_if_fail (DUEL_IS_CDM_VIEW (self));
  g_return_if_fail (unit < DUEL_CDM_N_UNITS);

  if (self->unit == unit)
    return;
  self->unit = unit;
  if (gtk_drop_down_get_selected (self->units) != unit)
    gtk_drop_down_set_selected (self->units, unit);
  update_values (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}
