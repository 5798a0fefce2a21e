/* duel-accessible.c — accessible names for controls that show no text
 *
 * One rule for every control, wherever it is made (a template, a row built
 * at run time, a dialog): an emission hook on "map" names what is mapped
 * and everything under it, with the tooltips and labels as they are then
 * ("notify" takes no hooks). The name set here is marked, so that it is
 * only ever replaced or taken back here, never a name set elsewhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-accessible.h"

#include <glib/gi18n.h>

#define NAMED_HERE "duel-accessible-named"
#define NAMED_BY_CODE "duel-accessible-own"

/* Whether @widget shows words of its own: a visible label under it with
 * text, not in a popover (a menu button's menu is not on screen). */
static gboolean
shows_text (GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget) || GTK_IS_NATIVE (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      return text != NULL && *text != '\0';
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_text (child))
      return TRUE;
  return FALSE;
}

/* The first words shown under @widget, or NULL. */
static const char *
first_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      return text != NULL && *text != '\0' ? text : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *text = first_text (child);

      if (text != NULL)
        return text;
    }
  return NULL;
}

/* Whether a label under @widget marks a mnemonic ("_Cancel"). */
static gboolean
has_mnemonic (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_use_underline (GTK_LABEL (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (!GTK_IS_NATIVE (child) && has_mnemonic (child))
      return TRUE;
  return FALSE;
}

static void
set_name (GtkWidget  *widget,
          const char *name)
{
  if (name != NULL && *name != '\0')
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      g_object_set_data (G_OBJECT (widget), NAMED_HERE, GINT_TO_POINTER (TRUE));
    }
  else if (g_object_get_data (G_OBJECT (widget), NAMED_HERE) != NULL)
    {
      gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
      g_object_set_data (G_OBJECT (widget), NAMED_HERE, NULL);
    }
}

/* GTK 4.8 names a control of a mnemonic label by the label with its mark
 * and then by the label again ("_Cancel Cancel", "_Time axis"): it is
 * named by its words as shown, and by nothing else. */
static void
name_by_words (GtkWidget *widget)
{
  set_name (widget, first_text (widget));
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
}

/* A drop-down's own button is what the keyboard reaches: it takes the
 * same name (a menu button's is labelled by the menu button already). */
static void
name_inner_button (GtkWidget  *widget,
                   const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child))
      set_name (child, name);
}

static void
apply (GtkWidget *widget)
{
  const char *tooltip;

  if (g_object_get_data (G_OBJECT (widget), NAMED_BY_CODE) != NULL)
    return;
  if (GTK_IS_EXPANDER (widget))
    {
      const char *label = gtk_expander_get_label (GTK_EXPANDER (widget));
      GtkWidget *label_widget = gtk_expander_get_label_widget (GTK_EXPANDER (widget));

      /* Its label may be a box of a label and more. */
      if (label == NULL && label_widget != NULL)
        label = first_text (label_widget);
      set_name (widget, label);
      return;
    }
  /* A search field has no label beside it: it says what it is for by its
   * placeholder ("Search preferences"), or that it searches. */
  if (GTK_IS_SEARCH_ENTRY (widget))
    {
      g_autofree char *placeholder = NULL;

      g_object_get (widget, "placeholder-text", &placeholder, NULL);
      if (placeholder != NULL && *placeholder != '\0')
        set_name (widget, placeholder);
      else
        /* TRANSLATORS: the accessible name of a search field that says nothing (libadwaita's preferences search) */
        set_name (widget, _("Search"));
      return;
    }
  if (!GTK_IS_BUTTON (widget) && !GTK_IS_MENU_BUTTON (widget) && !GTK_IS_DROP_DOWN (widget) &&
      !GTK_IS_IMAGE (widget) && !GTK_IS_CHECK_BUTTON (widget))
    return;
  /* A button inside a drop-down or a menu button is named with it. */
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_parent (widget) != NULL &&
      (GTK_IS_DROP_DOWN (gtk_widget_get_parent (widget)) || GTK_IS_MENU_BUTTON (gtk_widget_get_parent (widget))))
    return;

  tooltip = gtk_widget_get_tooltip_text (widget);
  /* A drop-down shows its choice, not what it chooses: its tooltip says that. */
  if (!GTK_IS_DROP_DOWN (widget) && shows_text (widget))
    {
      if (has_mnemonic (widget))
        name_by_words (widget);
      else
        set_name (widget, NULL);
      return;
    }
  set_name (widget, tooltip);
  if (GTK_IS_DROP_DOWN (widget))
    name_inner_button (widget, tooltip);
}

/* @widget and everything under it, mapped or not yet (a stack's other
 * pages, a list's rows to come into view): whatever the window holds when
 * it comes on screen is named, so an assistive technology walking its tree
 * meets no unnamed control on any page. */
static void
apply_tree (GtkWidget *widget)
{
  apply (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    apply_tree (child);
}

static gboolean
widget_hook (GSignalInvocationHint *hint,
             guint                  n_values,
             const GValue          *values,
             gpointer               user_data)
{
  GObject *object = g_value_get_object (&values[0]);

  if (GTK_IS_WIDGET (object))
    apply_tree (GTK_WIDGET (object));
  return TRUE;
}

void
duel_accessible_install (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      GTypeClass *widget_class = g_type_class_ref (GTK_TYPE_WIDGET);

      g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0, widget_hook, NULL, NULL);
      g_type_class_unref (widget_class);
      g_once_init_leave (&installed, 1);
    }
}

void
duel_accessible_set_name (GtkWidget  *widget,
                          const char *name)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (name != NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  /* In newer GTK (4.24 here) a button with a label is labelled by it, and a
   * relation comes before a name in the computation a screen reader gets:
   * a history row's "A" would be every row's "A". */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  g_object_set_data (G_OBJECT (widget), NAMED_BY_CODE, GINT_TO_POINTER (TRUE));
  if (GTK_IS_DROP_DOWN (widget))
    for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
         child = gtk_widget_get_next_sibling (child))
      if (GTK_IS_BUTTON (child))
        duel_accessible_set_name (child, name);
}

void
duel_accessible_name_by_words (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (has_mnemonic (widget))
    name_by_words (widget);
}
