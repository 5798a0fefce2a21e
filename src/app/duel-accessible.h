/* duel-accessible.h — accessible names for controls that show no text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Watches every widget of the process, once: a control that shows no text
 * of its own (an icon-only button, a menu button, a drop-down, an image that
 * tells something) is named by its tooltip, an expander by its label. GTK
 * 4.8 names such controls by their type ("GtkImage") otherwise. */
void duel_accessible_install  (void);
/* Names @widget as the code that made it knows it ("Delete “Run 3”"),
 * never replaced by the tooltip rule above. */
void duel_accessible_set_name (GtkWidget  *widget,
                               const char *name);
/* Names @widget by its words as shown where they mark a mnemonic (GTK 4.8
 * names it "_Time axis" otherwise): for a control made where the hook's
 * "map" may never come (a page that is never shown). */
void duel_accessible_name_by_words (GtkWidget *widget);

G_END_DECLS
