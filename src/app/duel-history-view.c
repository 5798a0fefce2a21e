/* duel-history-view.c — the runs made so far: compare, rename, delete
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-accessible.h"
#include "duel-adw-compat.h"
#include "duel-history-view.h"

struct _DuelHistoryView
{
  AdwBin        parent_instance;

  DuelHistory  *history;
  gulong        items_changed_id;

  /* Template children */
  GtkStack     *stack;
  GtkLabel     *folder_label;
  GtkListBox   *list;
};

G_DEFINE_FINAL_TYPE (DuelHistoryView, duel_history_view, ADW_TYPE_BIN)

enum {
  COMPARE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
report_error (DuelHistoryView *self,
              const GError    *error)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", error->message);
}

static void
compare_clicked_cb (GtkButton       *button,
                    DuelHistoryView *self)
{
  DuelResultItem *item = g_object_get_data (G_OBJECT (button), "duel-result-item");
  guint slot = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "duel-slot"));

  g_signal_emit (self, signals[COMPARE], 0, item, slot);
}

static void
rename_apply (GtkWidget       *widget,
              DuelHistoryView *self)
{
  GtkWidget *popover = gtk_widget_get_ancestor (widget, GTK_TYPE_POPOVER);
  GtkEditable *entry = g_object_get_data (G_OBJECT (popover), "duel-entry");
  DuelResultItem *item = g_object_get_data (G_OBJECT (popover), "duel-result-item");
  g_autoptr(GError) error = NULL;

  if (!duel_history_rename (self->history, item, gtk_editable_get_text (entry), &error))
    report_error (self, error);
  gtk_popover_popdown (GTK_POPOVER (popover));
}

static void
rename_popover_show_cb (GtkPopover *popover,
                        gpointer    user_data)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (popover), "duel-entry");
  DuelResultItem *item = g_object_get_data (G_OBJECT (popover), "duel-result-item");

  gtk_editable_set_text (entry, duel_result_item_get_title (item));
  gtk_widget_grab_focus (GTK_WIDGET (entry));
}

static GtkWidget *
create_rename_button (DuelHistoryView *self,
                      DuelResultItem  *item)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Rename"));

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-edit-symbolic");
  gtk_widget_set_tooltip_text (button, _("Rename"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");

  gtk_widget_add_css_class (apply, "suggested-action");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), FALSE);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), apply);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  g_object_set_data (G_OBJECT (popover), "duel-entry", entry);
  g_object_set_data_full (G_OBJECT (popover), "duel-result-item", g_object_ref (item), g_object_unref);
  g_signal_connect (popover, "show", G_CALLBACK (rename_popover_show_cb), NULL);
  g_signal_connect_object (entry, "activate", G_CALLBACK (rename_apply), self, 0);
  g_signal_connect_object (apply, "clicked", G_CALLBACK (rename_apply), self, 0);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  return button;
}

typedef struct
{
  DuelHistoryView *self;
  DuelResultItem  *item;
} DeleteData;

static void
delete_response_cb (DuelAlert  *dialog,
                    const char *response,
                    gpointer    user_data)
{
  DeleteData *data = user_data;
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "delete") == 0 &&
      !duel_history_delete (data->self->history, data->item, &error))
    report_error (data->self, error);

  g_object_unref (data->self);
  g_object_unref (data->item);
  g_free (data);
}

static void
delete_clicked_cb (GtkButton       *button,
                   DuelHistoryView *self)
{
  DuelResultItem *item = g_object_get_data (G_OBJECT (button), "duel-result-item");
  GtkWidget *dialog;
  DeleteData *data;

  dialog = duel_alert_new (_("Delete This Run?"), NULL);
  duel_alert_format_body (DUEL_ALERT (dialog),
                          _("“%s” and everything it measured will be gone for good."),
                          duel_result_item_get_title (item));
  duel_alert_add_responses (DUEL_ALERT (dialog),
                            "cancel", _("_Cancel"),
                            "delete", _("_Delete"),
                            NULL);
  duel_alert_set_response_appearance (DUEL_ALERT (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  duel_alert_set_default_response (DUEL_ALERT (dialog), "cancel");
  duel_alert_set_close_response (DUEL_ALERT (dialog), "cancel");

  data = g_new0 (DeleteData, 1);
  data->self = g_object_ref (self);
  data->item = g_object_ref (item);
  g_signal_connect (dialog, "response", G_CALLBACK (delete_response_cb), data);
  duel_alert_present (DUEL_ALERT (dialog), GTK_WIDGET (self));
}

static GtkWidget *
create_compare_button (DuelHistoryView *self,
                       DuelResultItem  *item,
                       guint            slot)
{
  /* Translators: compare this run as drive A / drive B */
  GtkWidget *button = gtk_button_new_with_label (slot == 0 ? _("A") : _("B"));

  gtk_widget_set_tooltip_text (button, slot == 0 ? _("Compare as Drive A") : _("Compare as Drive B"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, slot == 0 ? "drive-a" : "drive-b");
  g_object_set_data_full (G_OBJECT (button), "duel-result-item", g_object_ref (item), g_object_unref);
  g_object_set_data (G_OBJECT (button), "duel-slot", GUINT_TO_POINTER (slot));
  g_signal_connect_object (button, "clicked", G_CALLBACK (compare_clicked_cb), self, 0);
  return button;
}

/* When and what, then the run's figures on a second line. */
static void
update_row_subtitle (GtkWidget      *row,
                     GParamSpec     *pspec,
                     DuelResultItem *item)
{
  const char *subtitle = duel_result_item_get_subtitle (item);
  const char *figures = duel_result_item_get_figures (item);
  g_autofree char *text = figures != NULL ? g_strdup_printf ("%s\n%s", subtitle, figures) : g_strdup (subtitle);

  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), text);
  /* All of it, where the row cuts it (below). */
  gtk_widget_set_tooltip_text (row, text);
}

/* Each row's buttons named with its run: a list of six "Delete" tells a
 * screen reader's user nothing. */
static void
name_row_buttons (GtkWidget      *row,
                  GParamSpec     *pspec,
                  DuelResultItem *item)
{
  const char *title = duel_result_item_get_title (item);
  GtkWidget **buttons = g_object_get_data (G_OBJECT (row), "duel-row-buttons");
  /* TRANSLATORS: the accessible names of a history row's buttons; %s is the run's name */
  g_autofree char *as_a = g_strdup_printf (_("Compare “%s” as Drive A"), title);
  g_autofree char *as_b = g_strdup_printf (_("Compare “%s” as Drive B"), title);
  g_autofree char *rename = g_strdup_printf (_("Rename “%s”"), title);
  g_autofree char *delete = g_strdup_printf (_("Delete “%s”"), title);

  duel_accessible_set_name (buttons[0], as_a);
  duel_accessible_set_name (buttons[1], as_b);
  duel_accessible_set_name (buttons[2], rename);
  duel_accessible_set_name (buttons[3], delete);
}

static GtkWidget *
create_row_cb (gpointer object,
               gpointer user_data)
{
  DuelHistoryView *self = user_data;
  DuelResultItem *item = object;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *buttons[4];
  GtkWidget *suffix;
  GtkWidget *delete;

  g_object_bind_property (item, "title", row, "title", G_BINDING_SYNC_CREATE);
  update_row_subtitle (row, NULL, item);
  g_signal_connect_object (item, "notify::subtitle", G_CALLBACK (update_row_subtitle), row, G_CONNECT_SWAPPED);
  g_signal_connect_object (item, "notify::figures", G_CALLBACK (update_row_subtitle), row, G_CONNECT_SWAPPED);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  /* A narrow window wrapped a row into 16 lines beside its four buttons:
   * at most four, "…" past them, the whole text in the tooltip. A wide
   * window shows it on two. */
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 4);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("x-office-document-symbolic"));

  buttons[0] = create_compare_button (self, item, 0);
  buttons[1] = create_compare_button (self, item, 1);
  buttons[2] = create_rename_button (self, item);
  /* The four side by side in one suffix, without the row's spacing
   * between suffixes: the text keeps the width. */
  suffix = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  for (guint i = 0; i < 3; i++)
    gtk_box_append (GTK_BOX (suffix), buttons[i]);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);

  delete = buttons[3] = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_set_tooltip_text (delete, _("Delete"));
  gtk_widget_set_valign (delete, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (delete, "flat");
  g_object_set_data_full (G_OBJECT (delete), "duel-result-item", g_object_ref (item), g_object_unref);
  g_signal_connect_object (delete, "clicked", G_CALLBACK (delete_clicked_cb), self, 0);
  gtk_box_append (GTK_BOX (suffix), delete);

  g_object_set_data_full (G_OBJECT (row), "duel-row-buttons", g_memdup2 (buttons, sizeof buttons), g_free);
  name_row_buttons (row, NULL, item);
  g_signal_connect_object (item, "notify::title", G_CALLBACK (name_row_buttons), row, G_CONNECT_SWAPPED);
  return row;
}

static void
items_changed_cb (DuelHistoryView *self)
{
  GListModel *model = duel_history_get_model (self->history);

  gtk_stack_set_visible_child_name (self->stack,
                                    g_list_model_get_n_items (model) > 0 ? "list" : "empty");
}

void
duel_history_view_set_history (DuelHistoryView *self,
                               DuelHistory     *history)
{
  g_autofree char *folder = NULL;

  g_return_if_fail (DUEL_IS_HISTORY_VIEW (self));
  g_return_if_fail (history == NULL || DUEL_IS_HISTORY (history));

  if (self->history != NULL)
    g_clear_signal_handler (&self->items_changed_id, duel_history_get_model (self->history));
  if (!g_set_object (&self->history, history))
    return;

  if (history == NULL)
    {
      gtk_list_box_bind_model (self->list, NULL, NULL, NULL, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  gtk_list_box_bind_model (self->list, duel_history_get_model (history), create_row_cb, self, NULL);
  self->items_changed_id = g_signal_connect_object (duel_history_get_model (history), "items-changed",
                                                    G_CALLBACK (items_changed_cb), self, G_CONNECT_SWAPPED);
  folder = g_strdup_printf (_("Saved in %s"), duel_history_get_directory (history));
  gtk_label_set_text (self->folder_label, folder);
  items_changed_cb (self);
}

DuelHistory *
duel_history_view_get_history (DuelHistoryView *self)
{
  g_return_val_if_fail (DUEL_IS_HISTORY_VIEW (self), NULL);
  return self->history;
}

static void
duel_history_view_dispose (GObject *object)
{
  DuelHistoryView *self = DUEL_HISTORY_VIEW (object);

  if (self->history != NULL)
    g_clear_signal_handler (&self->items_changed_id, duel_history_get_model (self->history));
  g_clear_object (&self->history);

  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */

  G_OBJECT_CLASS (duel_history_view_parent_class)->dispose (object);
}

static void
duel_history_view_class_init (DuelHistoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_history_view_dispose;

  /**
   * DuelHistoryView::compare:
   * @item: the run
   * @slot: 0 for drive A, 1 for drive B
   */
  signals[COMPARE] =
    g_signal_new ("compare", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, DUEL_TYPE_RESULT_ITEM, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-history-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelHistoryView, stack);
  gtk_widget_class_bind_template_child (widget_class, DuelHistoryView, folder_label);
  gtk_widget_class_bind_template_child (widget_class, DuelHistoryView, list);
}

static void
duel_history_view_init (DuelHistoryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}
