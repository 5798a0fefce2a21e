/* duel-comparison-view.c — drive A against drive B: a tab per chart and the table
 *
 * The charts are the exporters' own (duel_chart_new_all), drawn by
 * DuelChartView; the table is built from the comparison model, the winner of
 * each row highlighted, and the fairness warnings shown above every tab.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-accessible.h"
#include "duel-cdm-view.h"
#include "duel-chart-consistency.h"
#include "duel-chart-qos.h"
#include "duel-chart-view.h"
#include "duel-chart-write-curve.h"
#include "duel-comparison-view.h"

struct _DuelComparisonView
{
  AdwBin           parent_instance;

  GListModel      *sources;
  GListModel      *choices;         /* "None", then the sources: what the drop-downs list */
  GSettings       *settings;
  DuelResultItem  *items[DUEL_COMPARISON_MAX_DRIVES];   /* A, B, and the optional C and D */
  char            *wanted_tab;   /* asked for before there was a comparison to show it */
  DuelComparison  *comparison;
  GPtrArray       *charts;          /* DuelChart, shown ones */
  GPtrArray       *chart_views;     /* DuelChartView, same order */
  guint            n_winner_rows;
  guint            n_headline_rows;   /* shown above the detail table */
  gboolean         updating;
  guint            sources_changing;  /* the list changes under the drop-downs */

  /* Template children */
  GtkDropDown     *dropdowns[DUEL_COMPARISON_MAX_DRIVES];
  GtkStack        *stack;
  AdwStatusPage   *empty_page;
  GtkBox          *warnings_box;
  GtkWidget       *reference_note;   /* shown while only published figures are compared */
  GtkStackSwitcher *switcher;
  GtkStack        *charts_stack;
};

G_DEFINE_FINAL_TYPE (DuelComparisonView, duel_comparison_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_COMPARISON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* --- the table -------------------------------------------------------------- */

static GtkWidget *
cell (const char *text,
      float       xalign,
      const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  gtk_widget_add_css_class (label, "table-cell");
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* The notes on @test's figures, under its rows, the whole width of the
 * table; they fold with the group. Returns the next free row. */
static int
attach_notes (DuelComparisonView *self,
              GtkWidget          *grid,
              GPtrArray          *group,
              const char         *test,
              int                 n_columns,
              int                 y)
{
  const char * const *notes = duel_comparison_get_notes (self->comparison, test);

  for (guint i = 0; notes[i] != NULL; i++)
    {
      GtkWidget *note = cell (notes[i], 0, "dim-label");

      gtk_widget_add_css_class (note, "caption");
      gtk_grid_attach (GTK_GRID (grid), note, 0, y++, n_columns, 1);
      if (group != NULL)
        g_ptr_array_add (group, note);
    }
  return y;
}

/* Shows or hides a detail group's cells with its title's arrow. */
static void
group_expanded_cb (GtkExpander *title,
                   GParamSpec  *pspec,
                   gpointer     user_data)
{
  GPtrArray *group = g_object_get_data (G_OBJECT (title), "duel-group-widgets");

  for (guint i = 0; group != NULL && i < group->len; i++)
    gtk_widget_set_visible (g_ptr_array_index (group, i), gtk_expander_get_expanded (title));
}

/* One cell of the table, remembered by its detail group (NULL: none). */
static void
attach (GtkWidget *grid,
        GPtrArray *group,
        GtkWidget *widget,
        int        column,
        int        row)
{
  gtk_grid_attach (GTK_GRID (grid), widget, column, row, 1, 1);
  if (group != NULL)
    g_ptr_array_add (group, widget);
}

static GtkWidget *
build_table (DuelComparisonView *self)
{
  DuelComparison *comparison = self->comparison;
  guint n_drives = duel_comparison_get_n_drives (comparison);
  guint rated_drives[DUEL_COMPARISON_MAX_DRIVES];
  guint n_rated = duel_comparison_get_rated_drives (comparison, rated_drives);
  static const char * const drive_classes[DUEL_COMPARISON_MAX_DRIVES] = { "drive-a", "drive-b", "drive-c", "drive-d" };
  /* Label, a column per drive, B vs A with two, a rating per drive. */
  int difference_column = 1 + (int) n_drives;
  int rated_column = difference_column + (n_drives == 2 ? 1 : 0);
  int n_columns = rated_column + (int) n_rated;
  GtkWidget *scrolled, *clamp, *grid;
  const char *last_test = "";
  GPtrArray *group = NULL;   /* the cells of the current detail group, owned by its title */
  const guint *headline;
  guint n_headline;
  int y = 0;

  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 24);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_add_css_class (grid, "comparison-table");

  /* Header: the drive names in their chart colours. */
  gtk_grid_attach (GTK_GRID (grid), cell ("", 0, NULL), 0, y, 1, 1);
  for (guint d = 0; d < n_drives; d++)
    {
      GtkWidget *header = cell (duel_comparison_get_drive_name (comparison, d), 1, "table-header");

      gtk_widget_add_css_class (header, drive_classes[d]);
      gtk_grid_attach (GTK_GRID (grid), header, 1 + d, y, 1, 1);
    }
  if (n_drives == 2)
    {
      g_autofree char *heading = duel_comparison_dup_difference_heading (comparison);

      gtk_grid_attach (GTK_GRID (grid), cell (heading, 1, "table-header"), difference_column, y, 1, 1);
    }
  for (guint i = 0; i < n_rated; i++)
    {
      char letter[2] = { (char) ('A' + rated_drives[i]), '\0' };
      g_autofree char *text = g_strdup_printf (_("Rated (%s)"), letter);

      gtk_grid_attach (GTK_GRID (grid), cell (text, 1, "table-header"), rated_column + (int) i, y, 1, 1);
    }
  y++;

  self->n_winner_rows = 0;
  headline = duel_comparison_get_headline (comparison, &n_headline);
  self->n_headline_rows = n_headline;
  /* The review's figures at the top, then every row under its test. */
  for (guint k = 0; k < n_headline + duel_comparison_get_n_rows (comparison); k++)
    {
      gboolean in_headline = k < n_headline;
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, in_headline ? headline[k] : k - n_headline);
      g_autofree char *label = NULL;

      if (in_headline && k == 0)
        gtk_grid_attach (GTK_GRID (grid), cell (_("Headline"), 0, "table-section"), 0, y++, n_columns, 1);
      else if (!in_headline &&
               (k == n_headline || g_strcmp0 (row->test, last_test) != 0 ||
                (row->test == NULL && last_test != NULL && *last_test)))
        {
          /* A detail group opens and closes under its title; the one
           * before it ends with its notes. */
          GtkWidget *title = gtk_expander_new (duel_comparison_get_section_title (comparison, row->test));

          if (group != NULL)
            y = attach_notes (self, grid, group, last_test, n_columns, y);

          group = g_ptr_array_new ();
          gtk_expander_set_expanded (GTK_EXPANDER (title), TRUE);
          /* Made after the window is on screen, maybe on a hidden page. */
          duel_accessible_set_name (title, duel_comparison_get_section_title (comparison, row->test));
          gtk_widget_add_css_class (title, "table-section");
          g_object_set_data_full (G_OBJECT (title), "duel-group-widgets", group, (GDestroyNotify) g_ptr_array_unref);
          g_signal_connect (title, "notify::expanded", G_CALLBACK (group_expanded_cb), NULL);
          gtk_grid_attach (GTK_GRID (grid), title, 0, y++, n_columns, 1);
          last_test = row->test;
        }

      /* The values carry their units ("12345 IOPS"), as the exports print them. */
      label = g_strdup (row->label);
      attach (grid, in_headline ? NULL : group, cell (label, 0, "table-label"), 0, y);

      for (guint d = 0; d < n_drives; d++)
        {
          gboolean wins = duel_comparison_row_is_best (row, d);
          GtkWidget *value = cell (row->text[d] != NULL ? row->text[d] : "–", 1,
                                   wins ? "winner" : "numeric");

          if (wins)
            gtk_widget_set_tooltip_text (value, row->better == DUEL_BETTER_LOWER ? _("Lower is better")
                                                                                 : _("Higher is better"));
          attach (grid, in_headline ? NULL : group, value, 1 + d, y);
        }
      if (!in_headline && row->winners != 0)
        self->n_winner_rows++;

      if (n_drives == 2)
        {
          g_autofree char *difference = duel_comparison_row_format_difference (row);
          attach (grid, in_headline ? NULL : group, cell (difference, 1, "dim-label"), difference_column, y);
        }
      for (guint i = 0; i < n_rated; i++)
        {
          guint d = rated_drives[i];
          g_autofree char *text = row->has_rated[d] && row->kind == DUEL_COMPARISON_ROW_FIGURE
                                  ? duel_figure_format (row->key, row->rated[d]) : g_strdup ("");

          attach (grid, in_headline ? NULL : group, cell (text, 1, "dim-label"), rated_column + (int) i, y);
        }
      y++;
    }
  if (group != NULL)
    attach_notes (self, grid, group, last_test, n_columns, y);

  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 1100);
  adw_clamp_set_child (ADW_CLAMP (clamp), grid);
  scrolled = gtk_scrolled_window_new ();
  /* Four drives' columns are wider than a narrow window: it scrolls sideways. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  return scrolled;
}

/* --- chart pages ---------------------------------------------------------------- */

static void
option_toggled_cb (GtkCheckButton *button,
                   DuelChartView  *view)
{
  DuelChart *chart = duel_chart_view_get_chart (view);
  const char *property = g_object_get_data (G_OBJECT (button), "duel-property");

  g_object_set (chart, property, gtk_check_button_get_active (button), NULL);
  duel_chart_view_invalidate (view);
}

static void
add_option (GtkBox        *box,
            DuelChartView *view,
            const char    *label,
            const char    *property)
{
  GtkWidget *check = gtk_check_button_new_with_mnemonic (label);
  gboolean value = FALSE;

  /* Made while its page may never be shown: in GTK 4.8's tree unmapped,
   * where duel-accessible.c's hook does not reach. */
  duel_accessible_name_by_words (check);

  g_object_get (duel_chart_view_get_chart (view), property, &value, NULL);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), value);
  g_object_set_data (G_OBJECT (check), "duel-property", (gpointer) property);
  g_signal_connect_object (check, "toggled", G_CALLBACK (option_toggled_cb), view, 0);
  gtk_box_append (box, check);
}

static void
depth_toggled_cb (GtkToggleButton *button,
                  DuelChartView   *view)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  g_object_set (duel_chart_view_get_chart (view), "queue-depth",
                GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "duel-depth")), NULL);
  duel_chart_view_invalidate (view);
}

/* QD1 | QD32 for the QoS chart, when the comparison measured both (the
 * review's QoS is at both; exports carry a chart for each). */
static void
add_depth_switch (GtkBox        *box,
                  DuelChartView *view)
{
  static const guint depths[] = { 1, 32 };
  DuelChart *chart = duel_chart_view_get_chart (view);
  GtkWidget *linked, *first = NULL;

  for (guint k = 0; k < G_N_ELEMENTS (depths); k++)
    {
      g_autoptr(DuelChart) probe = g_object_new (DUEL_TYPE_CHART_QOS,
                                                 "comparison", duel_chart_get_comparison (chart),
                                                 "queue-depth", depths[k], NULL);

      if (!duel_chart_has_data (probe))
        return;
    }
  linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (linked, "linked");
  gtk_widget_set_tooltip_text (linked, _("Queue depth of the latency percentiles"));
  for (guint k = 0; k < G_N_ELEMENTS (depths); k++)
    {
      g_autofree char *label = g_strdup_printf (_("QD%u"), depths[k]);
      g_autofree char *name = g_strdup_printf ("qos-qd%u", depths[k]);
      GtkWidget *button = gtk_toggle_button_new_with_label (label);

      gtk_widget_set_name (button, name);
      g_object_set_data (G_OBJECT (button), "duel-depth", GUINT_TO_POINTER (depths[k]));
      if (first != NULL)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), GTK_TOGGLE_BUTTON (first));
      else
        first = button;
      g_signal_connect_object (button, "toggled", G_CALLBACK (depth_toggled_cb), view, 0);
      gtk_box_append (GTK_BOX (linked), button);
      /* QD32 first, as the chart opens. */
      if (depths[k] == 32)
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
    }
  gtk_box_append (box, linked);
}

static GtkWidget *
build_chart_page (DuelComparisonView *self,
                  DuelChart          *chart)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *options = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *view = duel_chart_view_new ();

  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_add_css_class (frame, "chart-frame");

  duel_chart_view_set_settings (DUEL_CHART_VIEW (view), self->settings);
  duel_chart_view_set_chart (DUEL_CHART_VIEW (view), chart);
  gtk_frame_set_child (GTK_FRAME (frame), view);
  gtk_widget_set_vexpand (frame, TRUE);

  /* The charts' own options, where they have some. */
  gtk_widget_set_halign (options, GTK_ALIGN_END);
  if (DUEL_IS_CHART_WRITE_CURVE (chart))
    {
      add_option (GTK_BOX (options), DUEL_CHART_VIEW (view), _("_Logarithmic IOPS"), "log-scale");
      add_option (GTK_BOX (options), DUEL_CHART_VIEW (view), _("_Time axis"), "time-axis");
    }
  else if (DUEL_IS_CHART_CONSISTENCY (chart))
    add_option (GTK_BOX (options), DUEL_CHART_VIEW (view), _("_Read and write apart"), "split-directions");
  else if (DUEL_IS_CHART_QOS (chart))
    add_depth_switch (GTK_BOX (options), DUEL_CHART_VIEW (view));

  gtk_widget_set_visible (options, gtk_widget_get_first_child (options) != NULL);
  gtk_box_append (GTK_BOX (box), options);
  gtk_box_append (GTK_BOX (box), frame);

  g_ptr_array_add (self->chart_views, view);
  return box;
}

static void
clear_pages (DuelComparisonView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->charts_stack))) != NULL)
    gtk_stack_remove (self->charts_stack, child);
  g_ptr_array_set_size (self->chart_views, 0);
  g_ptr_array_set_size (self->charts, 0);
  self->n_winner_rows = 0;
  self->n_headline_rows = 0;
}

/* A warning with its icon: a summary line (@compact) keeps to one line,
 * its whole text in the tooltip and in the list behind "Show all"; a
 * sentence of that list wraps. */
static GtkWidget *
warning_row (const char *text,
             gboolean    compact)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (icon, "warning");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  if (compact)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
      gtk_widget_set_tooltip_text (label, text);
      gtk_widget_set_hexpand (label, TRUE);
    }
  else
    gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (row), icon);
  gtk_box_append (GTK_BOX (row), label);
  return row;
}

/* How many lines of warnings show before the person opens the rest. */
#define WARNING_LINES_SHOWN 3

static void
all_warnings_toggled_cb (GtkToggleButton *button,
                         GtkRevealer     *revealer)
{
  gtk_revealer_set_reveal_child (revealer, gtk_toggle_button_get_active (button));
}

/* One line per cause, at most three of one line each, so the charts keep
 * their height with four drives too; every
 * sentence under a plain toggle button (a keyboard walks past it: an
 * expander here used to keep Tab from reaching the chart tabs). */
static void
show_warnings (DuelComparisonView *self)
{
  const char * const *warnings = self->comparison != NULL ? duel_comparison_get_warnings (self->comparison) : NULL;
  g_auto(GStrv) lines = self->comparison != NULL ? duel_comparison_dup_warning_lines (self->comparison) : NULL;
  guint n = warnings != NULL ? g_strv_length ((char **) warnings) : 0;
  guint n_lines = lines != NULL ? g_strv_length (lines) : 0;
  g_autofree char *label = NULL;
  GtkWidget *child, *button, *revealer, *list, *scrolled;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->warnings_box))) != NULL)
    gtk_box_remove (self->warnings_box, child);

  gtk_widget_set_visible (GTK_WIDGET (self->warnings_box), n > 0);
  if (n == 0)
    return;

  for (guint i = 0; i < MIN (n_lines, WARNING_LINES_SHOWN); i++)
    gtk_box_append (self->warnings_box, warning_row (lines[i], TRUE));
  /* Every sentence whole, on demand: the lines above may be cut. */
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show the fairness warning", "Show all %u fairness warnings", n),
                           n);
  button = gtk_toggle_button_new_with_label (label);
  revealer = gtk_revealer_new ();
  list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_name (button, "all-fairness-warnings");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "caption");
  for (guint i = 0; i < n; i++)
    gtk_box_append (GTK_BOX (list), warning_row (warnings[i], FALSE));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 160);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_revealer_set_child (GTK_REVEALER (revealer), scrolled);
  g_signal_connect_object (button, "toggled", G_CALLBACK (all_warnings_toggled_cb), revealer, 0);
  gtk_box_append (self->warnings_box, button);
  gtk_box_append (self->warnings_box, revealer);
}

/* A chart page with nothing to draw for these drives (a plain run has no
 * write curve) gives way to the first one that has something; a page the
 * person asked for by name (--tab) is left as asked. */
static void
show_page_with_data (DuelComparisonView *self)
{
  const char *shown = gtk_stack_get_visible_child_name (self->charts_stack);
  gboolean empty = FALSE;

  for (guint i = 0; i < self->charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (self->charts, i);

      if (g_strcmp0 (duel_chart_get_id (chart), shown) == 0)
        empty = !duel_chart_has_data (chart);
    }
  if (!empty)
    return;
  for (guint i = 0; i < self->charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (self->charts, i);

      if (duel_chart_has_data (chart))
        {
          gtk_stack_set_visible_child_full (self->charts_stack, duel_chart_get_id (chart),
                                            GTK_STACK_TRANSITION_TYPE_NONE);
          return;
        }
    }
}

static void
rebuild (DuelComparisonView *self)
{
  DuelResult *results[DUEL_COMPARISON_MAX_DRIVES];
  guint n_results = 0;
  g_autofree char *visible = g_strdup (gtk_stack_get_visible_child_name (self->charts_stack));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = NULL;
  GtkWidget *cdm;

  clear_pages (self);
  g_clear_object (&self->comparison);

  /* The chosen drives in their slots' order; one alone is a report on it. */
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    if (self->items[d] != NULL && duel_result_item_get_result (self->items[d]) != NULL)
      results[n_results++] = duel_result_item_get_result (self->items[d]);
  if (n_results > 0)
    self->comparison = duel_comparison_new_for_results (results, n_results, &error);

  if (self->comparison == NULL)
    {
      if (error != NULL)
        {
          adw_status_page_set_title (self->empty_page, _("Cannot Compare These Results"));
          adw_status_page_set_description (self->empty_page, error->message);
        }
      else
        {
          adw_status_page_set_title (self->empty_page, _("Choose Two Drives"));
          adw_status_page_set_description (self->empty_page,
                                           _("Pick drive A and drive B from the history or the published "
                                             "reference results, or open result files — dropping them on "
                                             "the window works too."));
        }
      gtk_stack_set_visible_child_name (self->stack, "empty");
      show_warnings (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
      return;
    }

  /* The CrystalDiskMark set first, as CrystalDiskMark shows it. */
  cdm = duel_cdm_view_new (self->comparison);
  if (cdm != NULL)
    {
      /* Scrolled: the grid may be taller than the page the window gives it
       * (GTK 4.24 warned of a grid measured under its minimum height). */
      GtkWidget *scroller = gtk_scrolled_window_new ();

      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), cdm);
      gtk_stack_add_titled (self->charts_stack, scroller, "crystaldiskmark", _("CrystalDiskMark"));
    }

  all = duel_chart_new_all (self->comparison, NULL);
  for (guint i = 0; i < all->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (all, i);
      const char *id = duel_chart_get_id (chart);

      /* The summary table is an export image; the window shows a live table instead. */
      if (g_strcmp0 (id, "summary") == 0)
        continue;
      if (!duel_chart_shows_without_data (chart) && !duel_chart_has_data (chart))
        continue;
      g_ptr_array_add (self->charts, g_object_ref (chart));
      gtk_stack_add_titled (self->charts_stack, build_chart_page (self, chart), id, duel_chart_get_tab_title (chart));
    }
  gtk_stack_add_titled (self->charts_stack, build_table (self), "table", _("Table"));

  if (self->wanted_tab != NULL && gtk_stack_get_child_by_name (self->charts_stack, self->wanted_tab) != NULL)
    {
      /* No cross-fade: the page is new, and a screenshot may follow. */
      gtk_stack_set_visible_child_full (self->charts_stack, self->wanted_tab, GTK_STACK_TRANSITION_TYPE_NONE);
      g_clear_pointer (&self->wanted_tab, g_free);
    }
  else
    {
      if (visible != NULL && gtk_stack_get_child_by_name (self->charts_stack, visible) != NULL)
        gtk_stack_set_visible_child_full (self->charts_stack, visible, GTK_STACK_TRANSITION_TYPE_NONE);
      show_page_with_data (self);
    }

  show_warnings (self);
  /* The first start shows the review's drives: say so, and where to go. */
  {
    gboolean only_references = TRUE;

    for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
      if (self->items[d] != NULL && duel_result_item_get_origin (self->items[d]) != DUEL_RESULT_ORIGIN_REFERENCE)
        only_references = FALSE;
    gtk_widget_set_visible (self->reference_note, only_references);
  }
  gtk_stack_set_visible_child_name (self->stack, "compare");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
}

/* --- choosers --------------------------------------------------------------- */

/* The position in the drop-downs; 0 is "None". */
static guint
find_position (DuelComparisonView *self,
               DuelResultItem     *item)
{
  guint n;

  if (item == NULL || self->choices == NULL)
    return 0;

  n = g_list_model_get_n_items (self->choices);
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GObject) other = g_list_model_get_item (self->choices, i);

      if (other == (GObject *) item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
sync_dropdowns (DuelComparisonView *self)
{
  self->updating = TRUE;
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    gtk_drop_down_set_selected (self->dropdowns[d], find_position (self, self->items[d]));
  self->updating = FALSE;
}

/* What the person picks, None included, is what the slot holds. */
static void
dropdown_selected_cb (DuelComparisonView *self,
                      GParamSpec         *pspec,
                      GtkDropDown        *dropdown)
{
  guint slot = 0;
  gpointer selected = gtk_drop_down_get_selected_item (dropdown);
  DuelResultItem *item = DUEL_IS_RESULT_ITEM (selected) ? selected : NULL;

  /* A list changing under the drop-down moves its selection: no choice of
   * the person's (sources_changed_cb puts the chosen items back). */
  if (self->updating || self->sources_changing > 0)
    return;
  while (slot + 1 < DUEL_COMPARISON_MAX_DRIVES && self->dropdowns[slot] != dropdown)
    slot++;
  if (item == self->items[slot])
    return;
  g_set_object (&self->items[slot], item);
  rebuild (self);
}

/* The item of the sources for @file, or NULL: the same result file loaded
 * again (the history reloaded) is a new item. */
static DuelResultItem *
find_item_for_file (DuelComparisonView *self,
                    GFile              *file)
{
  guint n = self->sources != NULL ? g_list_model_get_n_items (self->sources) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelResultItem) item = g_list_model_get_item (self->sources, i);

      if (g_file_equal (duel_result_item_get_file (item), file))
        return item;   /* the list keeps its reference */
    }
  return NULL;
}

static void
sources_changing_cb (DuelComparisonView *self)
{
  self->sources_changing++;
}

/* After every drop-down followed the change: each slot keeps its item, or
 * the item for the same file; one whose file left the lists (deleted from
 * the history) is empty. */
static void
sources_changed_cb (DuelComparisonView *self)
{
  gboolean changed = FALSE;

  /* Connected both before and after the drop-downs: a change they heard
   * began with sources_changing_cb. */
  if (self->sources_changing > 0 && --self->sources_changing > 0)
    return;

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    if (self->items[d] != NULL && find_position (self, self->items[d]) == GTK_INVALID_LIST_POSITION)
      {
        DuelResultItem *again = find_item_for_file (self, duel_result_item_get_file (self->items[d]));

        g_set_object (&self->items[d], again);
        changed = TRUE;
      }
  sync_dropdowns (self);
  if (changed)
    rebuild (self);
}

static void
setup_item_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  gboolean detailed = GPOINTER_TO_INT (user_data);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  /* A long name asks for no more than this: the four pickers share a
   * line where the window is wide enough for 4 × 24 characters. */
  gtk_label_set_max_width_chars (GTK_LABEL (title), 24);
  gtk_box_append (GTK_BOX (box), title);
  /* The button is as tall as the drive's badge beside it: its name sits
   * in the middle, not at the top. */
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  if (detailed)
    {
      GtkWidget *subtitle = gtk_label_new (NULL);

      /* The list is as wide as its names, not as the narrow button that
       * opens it: "Falcon 750" and "Falcon 750 Pro" must read apart. */
      gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_NONE);
      gtk_widget_set_name (box, "drive-choice");
      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_width_chars (GTK_LABEL (subtitle), 32);
      gtk_label_set_max_width_chars (GTK_LABEL (subtitle), 48);
      gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (subtitle, "caption");
      gtk_widget_add_css_class (subtitle, "dim-label");
      gtk_box_append (GTK_BOX (box), subtitle);
    }
  gtk_list_item_set_child (list_item, box);
}

static void
bind_item_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  gboolean detailed = GPOINTER_TO_INT (user_data);
  gpointer object = gtk_list_item_get_item (list_item);
  DuelResultItem *item;
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *title = gtk_widget_get_first_child (box);

  if (!DUEL_IS_RESULT_ITEM (object))
    {
      /* The "None" choice. */
      gtk_label_set_text (GTK_LABEL (title), _("None"));
      if (detailed)
        gtk_label_set_text (GTK_LABEL (gtk_widget_get_next_sibling (title)),
                            _("Show one drive alone"));
      return;
    }
  item = object;

  gtk_label_set_text (GTK_LABEL (title), detailed ? duel_result_item_get_title (item)
                                                  : duel_result_item_get_label (item));
  /* The button may cut the name short: its whole name on hover. */
  gtk_widget_set_tooltip_text (box, duel_result_item_get_label (item));
  if (detailed)
    {
      GtkWidget *subtitle = gtk_widget_get_next_sibling (title);
      g_autofree char *text = NULL;

      switch (duel_result_item_get_origin (item))
        {
        case DUEL_RESULT_ORIGIN_REFERENCE:
          text = g_strdup_printf (_("Reference · %s"), duel_result_item_get_subtitle (item));
          break;
        case DUEL_RESULT_ORIGIN_HISTORY:
          text = g_strdup_printf (_("History · %s"), duel_result_item_get_subtitle (item));
          break;
        case DUEL_RESULT_ORIGIN_FILE:
        default:
          text = g_strdup_printf (_("File · %s"), duel_result_item_get_subtitle (item));
          break;
        }
      gtk_label_set_text (GTK_LABEL (subtitle), text);
    }
}

static void
setup_dropdown (GtkDropDown *dropdown)
{
  g_autoptr(GtkListItemFactory) button = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list = gtk_signal_list_item_factory_new ();

  g_signal_connect (button, "setup", G_CALLBACK (setup_item_cb), GINT_TO_POINTER (FALSE));
  g_signal_connect (button, "bind", G_CALLBACK (bind_item_cb), GINT_TO_POINTER (FALSE));
  g_signal_connect (list, "setup", G_CALLBACK (setup_item_cb), GINT_TO_POINTER (TRUE));
  g_signal_connect (list, "bind", G_CALLBACK (bind_item_cb), GINT_TO_POINTER (TRUE));
  gtk_drop_down_set_factory (dropdown, button);
  gtk_drop_down_set_list_factory (dropdown, list);
}

/* --- public ----------------------------------------------------------------- */

void
duel_comparison_view_set_sources (DuelComparisonView *self,
                                  GListModel         *sources)
{
  GListStore *parts;
  GListStore *none;
  g_autoptr(GtkStringObject) placeholder = NULL;

  g_return_if_fail (DUEL_IS_COMPARISON_VIEW (self));

  if (self->sources == sources)
    return;
  if (self->sources != NULL)
    g_signal_handlers_disconnect_by_data (self->sources, self);
  g_set_object (&self->sources, sources);
  /* Before the drop-downs hear of a change, and after all of them did. */
  if (sources != NULL)
    {
      g_signal_connect_object (sources, "items-changed", G_CALLBACK (sources_changing_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (sources, "items-changed", G_CALLBACK (sources_changed_cb), self,
                               G_CONNECT_SWAPPED | G_CONNECT_AFTER);
    }

  /* "None" first: a drop-down always selects something, and that is the
   * honest choice until the user (or the window) picks a drive. */
  none = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  placeholder = gtk_string_object_new ("");
  g_list_store_append (none, placeholder);
  parts = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (parts, none);
  if (sources != NULL)
    g_list_store_append (parts, sources);
  g_object_unref (none);
  g_clear_object (&self->choices);
  self->choices = G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (parts)));

  self->updating = TRUE;
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    gtk_drop_down_set_model (self->dropdowns[d], self->choices);
  self->updating = FALSE;
  sync_dropdowns (self);
}

void
duel_comparison_view_set_settings (DuelComparisonView *self,
                                   GSettings          *settings)
{
  g_return_if_fail (DUEL_IS_COMPARISON_VIEW (self));

  if (self->settings == settings)
    return;
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_func (self->settings, rebuild, self);
  g_set_object (&self->settings, settings);
  for (guint i = 0; i < self->chart_views->len; i++)
    duel_chart_view_set_settings (g_ptr_array_index (self->chart_views, i), settings);
  /* The table's texts and the charts' rates are made in the unit of the moment. */
  if (settings != NULL)
    g_signal_connect_object (settings, "changed::rate-unit", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
}

void
duel_comparison_view_set_item (DuelComparisonView *self,
                               guint               slot,
                               DuelResultItem     *item)
{
  g_return_if_fail (DUEL_IS_COMPARISON_VIEW (self));
  g_return_if_fail (slot < DUEL_COMPARISON_MAX_DRIVES);
  g_return_if_fail (item == NULL || DUEL_IS_RESULT_ITEM (item));

  if (!g_set_object (&self->items[slot], item))
    return;
  sync_dropdowns (self);
  rebuild (self);
}

DuelResultItem *
duel_comparison_view_get_item (DuelComparisonView *self,
                               guint               slot)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON_VIEW (self), NULL);
  g_return_val_if_fail (slot < DUEL_COMPARISON_MAX_DRIVES, NULL);
  return self->items[slot];
}

void
duel_comparison_view_swap (DuelComparisonView *self)
{
  DuelResultItem *a;

  g_return_if_fail (DUEL_IS_COMPARISON_VIEW (self));

  a = self->items[0];
  self->items[0] = self->items[1];
  self->items[1] = a;
  sync_dropdowns (self);
  rebuild (self);
}

DuelComparison *
duel_comparison_view_get_comparison (DuelComparisonView *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON_VIEW (self), NULL);
  return self->comparison;
}

void
duel_comparison_view_set_visible_tab (DuelComparisonView *self,
                                      const char         *name)
{
  g_return_if_fail (DUEL_IS_COMPARISON_VIEW (self));

  if (gtk_stack_get_child_by_name (self->charts_stack, name) != NULL)
    gtk_stack_set_visible_child_name (self->charts_stack, name);
  else
    {
      /* Shown once a comparison has that tab (files still loading). */
      g_free (self->wanted_tab);
      self->wanted_tab = g_strdup (name);
    }
}

const char *
duel_comparison_view_get_visible_tab (DuelComparisonView *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->charts_stack);
}

GPtrArray *
duel_comparison_view_get_charts (DuelComparisonView *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON_VIEW (self), NULL);
  return self->charts;
}

guint
duel_comparison_view_get_n_winner_rows (DuelComparisonView *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON_VIEW (self), 0);
  return self->n_winner_rows;
}

guint
duel_comparison_view_get_n_headline_rows (DuelComparisonView *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON_VIEW (self), 0);
  return self->n_headline_rows;
}

/* --- GObject ---------------------------------------------------------------- */

static void
duel_comparison_view_dispose (GObject *object)
{
  DuelComparisonView *self = DUEL_COMPARISON_VIEW (object);

  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    g_clear_object (&self->items[d]);
  g_clear_pointer (&self->wanted_tab, g_free);
  g_clear_object (&self->comparison);
  if (self->sources != NULL)
    g_signal_handlers_disconnect_by_data (self->sources, self);
  g_clear_object (&self->sources);
  g_clear_object (&self->choices);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (duel_comparison_view_parent_class)->dispose (object);
}

static void
duel_comparison_view_finalize (GObject *object)
{
  DuelComparisonView *self = DUEL_COMPARISON_VIEW (object);

  g_clear_pointer (&self->charts, g_ptr_array_unref);
  g_clear_pointer (&self->chart_views, g_ptr_array_unref);

  G_OBJECT_CLASS (duel_comparison_view_parent_class)->finalize (object);
}

static void
duel_comparison_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  DuelComparisonView *self = DUEL_COMPARISON_VIEW (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_comparison_view_class_init (DuelComparisonViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_comparison_view_dispose;
  object_class->finalize = duel_comparison_view_finalize;
  object_class->get_property = duel_comparison_view_get_property;

  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL, DUEL_TYPE_COMPARISON,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-comparison-view.ui");
  gtk_widget_class_bind_template_child_full (widget_class, "a_dropdown", FALSE,
                                             G_STRUCT_OFFSET (DuelComparisonView, dropdowns[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "b_dropdown", FALSE,
                                             G_STRUCT_OFFSET (DuelComparisonView, dropdowns[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "c_dropdown", FALSE,
                                             G_STRUCT_OFFSET (DuelComparisonView, dropdowns[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "d_dropdown", FALSE,
                                             G_STRUCT_OFFSET (DuelComparisonView, dropdowns[3]));
  gtk_widget_class_bind_template_child (widget_class, DuelComparisonView, stack);
  gtk_widget_class_bind_template_child (widget_class, DuelComparisonView, empty_page);
  gtk_widget_class_bind_template_child (widget_class, DuelComparisonView, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, DuelComparisonView, reference_note);
  gtk_widget_class_bind_template_child (widget_class, DuelComparisonView, switcher);
  gtk_widget_class_bind_template_child (widget_class, DuelComparisonView, charts_stack);
}

static void
duel_comparison_view_init (DuelComparisonView *self)
{
  self->charts = g_ptr_array_new_with_free_func (g_object_unref);
  self->chart_views = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    {
      setup_dropdown (self->dropdowns[d]);
      g_signal_connect_object (self->dropdowns[d], "notify::selected",
                               G_CALLBACK (dropdown_selected_cb), self, G_CONNECT_SWAPPED);
    }
  gtk_stack_set_visible_child_name (self->stack, "empty");
}
