/* duel-formats.c — what a file is, by its first bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "duel-formats.h"

static gsize
read_head (int   fd,
           char *head,
           gsize size)
{
  ssize_t length = pread (fd, head, size - 1, 0);

  if (length < 0)
    length = 0;
  head[length] = '\0';
  return (gsize) length;
}

gboolean
duel_file_is_result (int fd)
{
  /* The writer puts "format" first: {"format": "driveduel-result", … */
  static const char *const tokens[] = { "{", "\"format\"", ":", "\"" DUEL_RESULT_FORMAT "\"" };
  char head[256];
  const char *at = head;

  g_return_val_if_fail (fd >= 0, FALSE);

  if (read_head (fd, head, sizeof head) == 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
    {
      while (g_ascii_isspace (*at))
        at++;
      if (!g_str_has_prefix (at, tokens[i]))
        return FALSE;
      at += strlen (tokens[i]);
    }
  return TRUE;
}

gboolean
duel_file_is_journal (int fd)
{
  char head[64];

  g_return_val_if_fail (fd >= 0, FALSE);

  read_head (fd, head, sizeof head);
  return g_str_has_prefix (head, DUEL_JOURNAL_FORMAT " ");
}

gboolean
duel_file_is_made_record (int fd)
{
  char head[64];

  g_return_val_if_fail (fd >= 0, FALSE);

  read_head (fd, head, sizeof head);
  return g_str_has_prefix (head, DUEL_MADE_FILES_FORMAT " ");
}
