/* duel-adw-compat.c — one spelling for the dialogs libadwaita renamed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-adw-compat.h"

GtkWidget *
duel_alert_new (const char *heading,
                const char *body)
{
#if DUEL_ADW_DIALOGS
  return GTK_WIDGET (adw_alert_dialog_new (heading, body));
#else
  return adw_message_dialog_new (NULL, heading, body);
#endif
}

void
duel_dialog_present (GtkWidget *dialog,
                     GtkWidget *parent)
{
#if DUEL_ADW_DIALOGS
  adw_dialog_present (ADW_DIALOG (dialog), parent);
#else
  GtkRoot *root = parent != NULL ? gtk_widget_get_root (parent) : NULL;

  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
#endif
}

void
duel_dialog_close (GtkWidget *dialog)
{
#if DUEL_ADW_DIALOGS
  if (ADW_IS_DIALOG (dialog))
    {
      /* Never presented: nothing holds it but its floating reference. */
      if (g_object_is_floating (dialog))
        {
          g_object_ref_sink (dialog);
          g_object_unref (dialog);
        }
      else
        adw_dialog_force_close (ADW_DIALOG (dialog));
      return;
    }
#endif
  if (GTK_IS_WINDOW (dialog))
    gtk_window_destroy (GTK_WINDOW (dialog));
}

void
duel_alert_present (DuelAlert *alert,
                    GtkWidget *parent)
{
  duel_dialog_present (GTK_WIDGET (alert), parent);
}

#if DUEL_ADW_DIALOGS
/* AdwAlertDialog answers only through its buttons (the button's label is the
 * response's): the one way to answer as a click does, closing it once. */
static GtkButton *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return GTK_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkButton *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}
#endif

void
duel_alert_respond (DuelAlert  *alert,
                    const char *response)
{
  g_return_if_fail (DUEL_IS_ALERT (alert));

  if (!duel_alert_has_response (alert, response) || !duel_alert_get_response_enabled (alert, response))
    return;
#if DUEL_ADW_DIALOGS
  {
    const char *label = duel_alert_get_response_label (alert, response);
    GtkButton *button = find_button (GTK_WIDGET (alert), label);

    /* Both layouts (a row, a column) hold the buttons; one of them is shown. */
    if (button != NULL)
      {
        g_signal_emit_by_name (button, "clicked");
        return;
      }
    /* Not laid out yet: answer through the close response, which is emitted once. */
    duel_alert_set_close_response (alert, response);
    adw_dialog_force_close (ADW_DIALOG (alert));
  }
#else
  g_object_ref (alert);
  adw_message_dialog_response (alert, response);
  /* Destroy, not close: closing would answer again with the close response. */
  gtk_window_destroy (GTK_WINDOW (alert));
  g_object_unref (alert);
#endif
}

/* The dialog shown over WINDOW: AdwDialog lives inside it from 1.5 on, a
 * message window is a toplevel transient for it before. */
static GtkWidget *
find_over (GtkWindow *window,
           GType      type)
{
#if DUEL_ADW_DIALOGS
  AdwDialog *dialog = NULL;

  if (ADW_IS_APPLICATION_WINDOW (window))
    dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));
  else if (ADW_IS_WINDOW (window))
    dialog = adw_window_get_visible_dialog (ADW_WINDOW (window));
  if (dialog != NULL && G_TYPE_CHECK_INSTANCE_TYPE (dialog, type))
    return GTK_WIDGET (dialog);
#endif
  if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_visible (GTK_WIDGET (window)))
    return GTK_WIDGET (window);
  return NULL;
}

GtkWidget *
duel_dialog_find_shown (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) top = g_list_model_get_item (toplevels, i);
      GtkWidget *found = find_over (top, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

DuelAlert *
duel_alert_find_shown (GtkWindow *window)
{
#if DUEL_ADW_DIALOGS
  GtkWidget *found = find_over (window, DUEL_TYPE_ALERT);

  return found != NULL ? DUEL_ALERT (found) : NULL;
#else
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) top = g_list_model_get_item (toplevels, i);

      if (DUEL_IS_ALERT (top) && gtk_widget_get_visible (GTK_WIDGET (top)) &&
          gtk_window_get_transient_for (top) == window)
        return DUEL_ALERT (top);
    }
  return NULL;
#endif
}

DuelAlert *
duel_alert_find_any_shown (void)
{
  GtkWidget *found = duel_dialog_find_shown (DUEL_TYPE_ALERT);

  return found != NULL ? DUEL_ALERT (found) : NULL;
}
