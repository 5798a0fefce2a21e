/* duel-size.h — sizes as people and fio write them: "4k", "8 GiB", "2x"
 *
 * The workload, its option table, the CLI and the app read sizes here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sizes: plain bytes or with a k/m/g/t suffix (powers of 1024, "KiB"/"kb" accepted). */
gboolean     duel_parse_size               (const char          *text,
                                            guint64             *out_bytes,
                                            GError             **error);
/* --size: bytes, or a multiple of the span such as "2x" or "0.5x". */
gboolean     duel_parse_size_or_multiple   (const char          *text,
                                            guint64             *out_bytes,
                                            double              *out_multiple,
                                            GError             **error);
char        *duel_format_size              (guint64              bytes);
/* A size in the unit it was most likely given in: a whole number (under
 * 10000) of KiB, MiB, GiB or TiB as that ("256 MiB", "1 GiB": sizes here
 * are given in powers of 1024), anything else in decimal units as drives
 * are sold ("512 GB", "268.4 MB"). A no-break space before the unit. */
char        *duel_format_size_as_given     (guint64              bytes);

G_END_DECLS
