/* duel-safety.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "engine/duel-block-node.h"
#include "duel-device-mounts.h"
#include "duel-device-private.h"
#include "duel-error.h"
#include "duel-file-writer.h"
#include "result/duel-preflight.h"
#include "result/duel-result.h"
#include "duel-safety.h"
#include "engine/duel-target-lock.h"
#include "engine/duel-target.h"
#include "engine/duel-udisks.h"

const char *
duel_safety_verdict_to_string (DuelSafetyVerdict verdict)
{
  switch (verdict)
    {
    case DUEL_SAFETY_ALLOWED:           return "allowed";
    case DUEL_SAFETY_NEEDS_DESTRUCTIVE: return "needs-destructive";
    case DUEL_SAFETY_HAS_SIGNATURE:     return "has-signature";
    case DUEL_SAFETY_SYSTEM:            return "system";
    case DUEL_SAFETY_MOUNTED:           return "mounted";
    case DUEL_SAFETY_SWAP:              return "swap";
    case DUEL_SAFETY_HELD:              return "held";
    case DUEL_SAFETY_BUSY:              return "busy";
    case DUEL_SAFETY_READ_ONLY:         return "read-only";
    case DUEL_SAFETY_NOT_A_TARGET:      return "not-a-target";
    case DUEL_SAFETY_UNREADABLE:        return "unreadable";
    default:                            return "unknown";
    }
}

void
duel_safety_report_free (DuelSafetyReport *report)
{
  if (report == NULL)
    return;
  g_free (report->path);
  g_free (report->device_name);
  g_free (report->partition);
  g_free (report->model);
  g_free (report->serial);
  g_free (report->transport);
  g_free (report->signature);
  g_free (report->signature_usage);
  g_free (report->signature_label);
  g_free (report->reason);
  g_free (report);
}

static gboolean
refuse (DuelSafetyReport  *report,
        DuelSafetyVerdict  verdict,
        char              *reason)
{
  report->verdict = verdict;
  g_free (report->reason);
  report->reason = reason;
  return FALSE;
}

/* ------------------------------------------------------------ the system */

static void
add_disks_under (const char *dir,
                 GHashTable *disks,
                 guint       depth)
{
  g_autofree char *name = g_path_get_basename (dir);
  g_autofree char *slaves_dir = g_build_filename (dir, "slaves", NULL);
  g_autoptr(GPtrArray) slaves = NULL;
  guint64 partition = 0;

  /* dm over md over partitions: a few levels, never a cycle, but be safe. */
  if (depth > 8)
    return;
  if (_duel_device_sysfs_read_u64 (dir, "partition", &partition))
    {
      g_autofree char *parent = g_path_get_dirname (dir);

      g_hash_table_add (disks, g_path_get_basename (parent));
    }
  else
    g_hash_table_add (disks, g_steal_pointer (&name));

  slaves = _duel_device_list_dir (slaves_dir);
  for (guint i = 0; i < slaves->len; i++)
    {
      g_autofree char *link = g_build_filename ("/sys/class/block", g_ptr_array_index (slaves, i), NULL);
      g_autofree char *slave = _duel_device_resolve ("/", link);

      if (slave != NULL)
        add_disks_under (slave, disks, depth + 1);
    }
}

/* The whole disks under "/" (through dm and md to the physical disks). */
static GHashTable *
find_system_disks (DuelDeviceMounts *mounts)
{
  GHashTable *disks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const DuelDeviceMount *root = NULL;
  guint dev_major, dev_minor;
  g_autofree char *link = NULL;
  g_autofree char *dir = NULL;

  for (guint i = 0; i < duel_device_mounts_get_n_mounts (mounts); i++)
    {
      const DuelDeviceMount *mount = duel_device_mounts_get_mount (mounts, i);

      /* In a sandbox the host's root (from UDisks) is the running system. */
      if (strcmp (mount->mount_point, "/") == 0 && (root == NULL || !root->foreign))
        root = mount;
    }
  if (root == NULL)
    return disks;
  dev_major = root->major;
  dev_minor = root->minor;
  if (dev_major == 0)
    {
      struct stat st;

      /* btrfs, overlay: the source names the device, if any. */
      if (!g_str_has_prefix (root->source, "/dev/") || stat (root->source, &st) != 0 || !S_ISBLK (st.st_mode))
        return disks;
      dev_major = major (st.st_rdev);
      dev_minor = minor (st.st_rdev);
    }
  link = g_strdup_printf ("/sys/dev/block/%u:%u", dev_major, dev_minor);
  dir = _duel_device_resolve ("/", link);
  if (dir != NULL)
    add_disks_under (dir, disks, 0);
  return disks;
}

/* ------------------------------------------------------------ signatures */

static gboolean
probe_signature_buffered (int                fd,
                          DuelSafetyReport  *report,
                          GError           **error)
{
  blkid_probe probe = blkid_new_probe ();
  const char *value = NULL;
  int rc;

  if (probe == NULL || blkid_probe_set_device (probe, fd, 0, 0) != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("Cannot look for signatures on “%s”."), report->path);
      if (probe != NULL)
        blkid_free_probe (probe);
      return FALSE;
    }
  blkid_probe_enable_superblocks (probe, 1);
  blkid_probe_set_superblocks_flags (probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_LABEL);
  blkid_probe_enable_partitions (probe, 1);
  blkid_probe_set_partitions_flags (probe, BLKID_PARTS_MAGIC);

  rc = blkid_do_safeprobe (probe);
  if (rc == -2)
    {
      /* Two signatures that contradict each other: still something to keep. */
      report->signature = g_strdup ("ambiguous");
      report->signature_usage = g_strdup (_("several signatures"));
    }
  else if (rc == 0)
    {
      if (blkid_probe_lookup_value (probe, "TYPE", &value, NULL) == 0)
        {
          report->signature = g_strdup (value);
          if (blkid_probe_lookup_value (probe, "USAGE", &value, NULL) == 0)
            report->signature_usage = g_strdup (value);
          if (blkid_probe_lookup_value (probe, "LABEL", &value, NULL) == 0)
            report->signature_label = g_strdup (value);
        }
      else if (blkid_probe_lookup_value (probe, "PTTYPE", &value, NULL) == 0)
        {
          report->signature = g_strdup (value);
          report->signature_usage = g_strdup ("partition table");
        }
    }
  else if (rc < 0)
    {
      blkid_free_probe (probe);
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("Looking for signatures on “%s” failed."), report->path);
      return FALSE;
    }
  blkid_free_probe (probe);
  return TRUE;
}

/* libblkid reads at unaligned offsets into its own buffers, which an
 * O_DIRECT descriptor (the run's own, from UDisks) refuses with EINVAL: the
 * probe reads through the page cache, then the descriptor is direct again. */
static gboolean
probe_signature (int                fd,
                 DuelSafetyReport  *report,
                 GError           **error)
{
  int status_flags = fcntl (fd, F_GETFL);
  gboolean ok;

  if (status_flags < 0 || (status_flags & O_DIRECT) == 0)
    return probe_signature_buffered (fd, report, error);

  if (fcntl (fd, F_SETFL, status_flags & ~O_DIRECT) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("Cannot look for signatures on “%s”: %s"), report->path, g_strerror (saved_errno));
      return FALSE;
    }
  ok = probe_signature_buffered (fd, report, error);
  if (fcntl (fd, F_SETFL, status_flags) != 0)
    {
      int saved_errno = errno;

      g_clear_error (error);
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("Cannot look for signatures on “%s”: %s"), report->path, g_strerror (saved_errno));
      return FALSE;
    }
  return ok;
}

char *
duel_safety_report_describe_signature (const DuelSafetyReport *report)
{
  const char *usage;

  g_return_val_if_fail (report != NULL && report->signature != NULL, NULL);

  /* The type is a name ("ext4", "xfs", "gpt"): no article may depend on it. */
  usage = report->signature_usage != NULL ? report->signature_usage : _("unknown use");
  if (report->signature_label != NULL && *report->signature_label != '\0')
    /* TRANSLATORS: what a target holds, after "… holds" or "including";
     * the signature's type as libblkid names it ("ext4", "gpt"), its use
     * ("filesystem", "raid", "partition table"), its label */
    return g_strdup_printf (_("a signature of type %s (%s, label “%s”)"), report->signature, usage,
                            report->signature_label);
  /* TRANSLATORS: what a target holds, after "… holds" or "including";
   * the signature's type as libblkid names it ("ext4", "gpt"), its use
   * ("filesystem", "raid", "partition table") */
  return g_strdup_printf (_("a signature of type %s (%s)"), report->signature, usage);
}

/* ------------------------------------------------------------ block devices */

static char *
join_strv (const char * const *strv)
{
  return g_strjoinv (", ", (char **) strv);
}

/* Refuses when the device (@partition NULL) or its partition @partition
 * is mounted or in use as swap: one wording, wherever the facts come from. */
static gboolean
check_not_mounted (DuelSafetyReport   *report,
                   const char         *partition,
                   const char * const *mount_points,
                   gboolean            swap)
{
  const char *path = report->path;

  if (mount_points[0] != NULL)
    {
      g_autofree char *list = join_strv (mount_points);
      return refuse (report, DUEL_SAFETY_MOUNTED,
                     partition == NULL ? g_strdup_printf (_("“%s” is mounted at %s."), path, list)
                                       : g_strdup_printf (_("Partition %s of “%s” is mounted at %s."),
                                                          partition, path, list));
    }
  if (swap)
    return refuse (report, DUEL_SAFETY_SWAP,
                   partition == NULL ? g_strdup_printf (_("“%s” is in use as swap."), path)
                                     : g_strdup_printf (_("Partition %s of “%s” is in use as swap."),
                                                        partition, path));
  return TRUE;
}

static gboolean
check_in_use (DuelDevice       *device,
              const char       *partition_name,
              DuelSafetyReport *report)
{
  GPtrArray *partitions = duel_device_get_partitions (device);
  const char *path = report->path;

  if (partition_name == NULL)
    {
      const char * const *holders = duel_device_get_holders (device);

      if (!check_not_mounted (report, NULL, duel_device_get_mount_points (device), duel_device_get_swap (device)))
        return FALSE;
      if (holders[0] != NULL)
        {
          g_autofree char *list = join_strv (holders);
          return refuse (report, DUEL_SAFETY_HELD,
                         g_strdup_printf (_("“%s” is held by %s (device mapper, RAID or LVM)."), path, list));
        }
    }

  for (guint i = 0; i < partitions->len; i++)
    {
      const DuelDevicePartition *partition = g_ptr_array_index (partitions, i);

      if (partition_name != NULL && strcmp (partition->name, partition_name) != 0)
        continue;
      if (!check_not_mounted (report, partition->name, (const char * const *) partition->mount_points,
                              partition->swap))
        return FALSE;
      if (partition->holders[0] != NULL)
        {
          g_autofree char *list = join_strv ((const char * const *) partition->holders);
          return refuse (report, DUEL_SAFETY_HELD,
                         g_strdup_printf (_("Partition %s of “%s” is held by %s (device mapper, RAID or LVM)."),
                                          partition->name, path, list));
        }
    }
  return TRUE;
}

/* In a sandbox this process's mountinfo shows only the host mounts it was
 * given: UDisks, outside, knows them all. Refuses when it cannot tell. */
static gboolean
check_in_use_udisks (const struct stat *st,
                     DuelSafetyReport  *report)
{
  g_autoptr(GPtrArray) uses = NULL;
  g_autoptr(GError) local_error = NULL;

  uses = duel_udisks_get_uses (major (st->st_rdev), minor (st->st_rdev), NULL, &local_error);
  if (uses == NULL)
    {
      g_autofree char *detail = g_strdup (local_error->message);

      g_strchomp (detail);
      if (g_str_has_suffix (detail, "."))
        detail[strlen (detail) - 1] = '\0';
      /* TRANSLATORS: the device, and why UDisks did not answer (its own words) */
      return refuse (report, DUEL_SAFETY_UNREADABLE,
                     g_strdup_printf (_("Cannot tell whether “%s” is mounted: this sandbox does not see the host's "
                                        "mounts, and UDisks did not answer (%s)."), report->path, detail));
    }

  for (guint i = 0; i < uses->len; i++)
    {
      const DuelUDisksUse *use = g_ptr_array_index (uses, i);

      if (!check_not_mounted (report, use->whole ? NULL : use->name,
                              (const char * const *) use->mount_points, use->swap))
        return FALSE;
    }
  return TRUE;
}

/* @fd: -1 to open @path here (O_EXCL: is it busy?), or a descriptor the
 * caller holds with O_EXCL (from UDisks) to read the signatures through.
 * @hidden: @path's node is not in this sandbox (duel_block_node_stat()). */
static gboolean
check_block (const char        *path,
             const struct stat *st,
             int                given_fd,
             gboolean           hidden,
             DuelSafetyFlags    flags,
             DuelSafetyReport  *report)
{
  g_autoptr(DuelDevice) device = NULL;
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  g_autoptr(GHashTable) system_disks = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *partition = NULL;
  const DuelDevicePartition *part = NULL;
  gboolean ok;
  int fd;
  int saved_errno;

  device = duel_device_new_for_devnum ("/", major (st->st_rdev), minor (st->st_rdev), &partition, &local_error);
  mounts = duel_device_mounts_load ("/", local_error == NULL ? &local_error : NULL);
  if (device == NULL || mounts == NULL)
    return refuse (report, DUEL_SAFETY_UNREADABLE,
                   g_strdup_printf (_("Cannot tell whether “%s” is in use: %s"), path, local_error->message));

  report->device_name = g_strdup (duel_device_get_name (device));
  report->partition = g_strdup (partition);
  report->model = g_strdup (duel_device_get_model (device));
  report->serial = g_strdup (duel_device_get_serial (device));
  report->transport = g_strdup (duel_transport_to_string (duel_device_get_transport (device)));
  report->size_bytes = duel_device_get_size_bytes (device);
  if (partition != NULL)
    {
      part = duel_device_find_partition (device, partition);
      if (part != NULL)
        report->size_bytes = part->size_bytes;
    }

  system_disks = find_system_disks (mounts);
  if (g_hash_table_contains (system_disks, duel_device_get_name (device)))
    return refuse (report, DUEL_SAFETY_SYSTEM,
                   g_strdup_printf (_("“%s” is on the disk that holds the running system (/)."), path));

  if (duel_device_get_read_only (device) || (part != NULL && part->read_only))
    return refuse (report, DUEL_SAFETY_READ_ONLY, g_strdup_printf (_("“%s” is read-only."), path));

  if (!check_in_use (device, partition, report))
    return FALSE;
  report->node_hidden = hidden;
  if ((hidden || duel_block_node_sandboxed ()) && !check_in_use_udisks (st, report))
    return FALSE;

  /* Exclusive: fails while anything else has it open exclusively (a mount,
   * md, dm, another benchmark). The run's target keeps O_EXCL afterwards. */
  if (given_fd >= 0)
    fd = given_fd;
  else if (hidden)
    {
      fd = -1;            /* no node here: only UDisks can open it */
      errno = ENOENT;
    }
  else
    fd = open (path, O_RDONLY | O_EXCL | O_CLOEXEC);
  saved_errno = errno;
  /* A run killed a moment ago: its ring lets go of the device soon (its
   * lock first, then its claim). */
  for (guint tries = 0;
       fd < 0 && saved_errno == EBUSY && given_fd < 0 && tries < 3 && duel_target_lock_wait_for_ended_run (path);
       tries++)
    {
      fd = open (path, O_RDONLY | O_EXCL | O_CLOEXEC);
      saved_errno = errno;
    }
  if (fd < 0 && saved_errno == EBUSY)
    {
      /* Another run's, most likely: it locked the node it holds. */
      char *reason = duel_target_lock_describe_holder (path);

      return refuse (report, DUEL_SAFETY_BUSY,
                     reason != NULL ? reason
                                    : g_strdup_printf (_("“%s” is busy: another program has it open exclusively."), path));
    }
  if (fd < 0)
    {
      /* Checked through a descriptor from UDisks instead, if the caller can
       * get one (duel_safety_check_write_fd). */
      report->access_denied = saved_errno == EACCES || saved_errno == EPERM || hidden;
      return refuse (report, DUEL_SAFETY_UNREADABLE,
                     g_strdup_printf (_("Cannot open “%s”: %s"), path, g_strerror (saved_errno)));
    }
  ok = probe_signature (fd, report, &local_error);
  if (given_fd < 0)
    g_close (fd, NULL);
  if (!ok)
    return refuse (report, DUEL_SAFETY_UNREADABLE, g_strdup (local_error->message));

  if ((flags & DUEL_SAFETY_DESTRUCTIVE) == 0)
    {
      g_autofree char *size = g_format_size_full (report->size_bytes, G_FORMAT_SIZE_DEFAULT);
      g_autofree char *what = NULL;

      if (report->serial != NULL)
        what = g_strdup_printf (_("%s, serial %s"),
                                report->model != NULL ? report->model : report->transport, report->serial);
      else
        what = g_strdup (report->model != NULL ? report->model : report->transport);
      g_autofree char *signature = report->signature != NULL ? duel_safety_report_describe_signature (report) : NULL;

      if (signature != NULL)
        return refuse (report, DUEL_SAFETY_NEEDS_DESTRUCTIVE,
                       g_strdup_printf (_("Writing to “%s” (%s, %s) destroys everything on it, including %s. "
                                          "Give --destructive (and --wipe-signatures) to allow it."),
                                        path, what, size, signature));
      return refuse (report, DUEL_SAFETY_NEEDS_DESTRUCTIVE,
                     g_strdup_printf (_("Writing to “%s” (%s, %s) destroys everything on it. "
                                        "Give --destructive to allow it."),
                                      path, what, size));
    }

  if (report->signature != NULL && (flags & DUEL_SAFETY_WIPE_SIGNATURES) == 0)
    {
      g_autofree char *signature = duel_safety_report_describe_signature (report);

      return refuse (report, DUEL_SAFETY_HAS_SIGNATURE,
                     g_strdup_printf (_("“%s” holds %s. Give --wipe-signatures as well to overwrite it."),
                                      path, signature));
    }

  report->verdict = DUEL_SAFETY_ALLOWED;
  return TRUE;
}

/* ------------------------------------------------------------ files */

/* Filesystems whose server may stop answering: a stat() there can hang
 * for as long as it does, unkillably. */
static gboolean
fstype_may_stall (const char *fstype)
{
  static const char *const prefixes[] = { "fuse", "nfs", "cifs", "smb", "9p", "ceph", "afs", "sshfs", "glusterfs" };

  for (guint i = 0; fstype != NULL && i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (fstype, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* The device and inode of the file behind loop device /dev/@name, whose
 * backing file sysfs names @backing. A file on a network or FUSE
 * filesystem other than the one @target_dev names is not looked at: its
 * server may have stopped answering (a stopped FUSE server under a loop
 * device hung every check here, stat() and LOOP_GET_STATUS64 alike), and
 * such a file cannot be a file on @target_dev anyway. Otherwise from the
 * loop device itself where this process may open it, else by stat() of the
 * path. FALSE when unknown or not looked at. */
static gboolean
loop_backing_id (const char       *name,
                 const char       *backing,
                 DuelDeviceMounts *mounts,
                 dev_t             target_dev,
                 dev_t            *out_dev,
                 ino_t            *out_ino)
{
  g_autofree char *node = g_build_filename ("/dev", name, NULL);
  g_autofree char *clean = NULL;
  const DuelDeviceMount *mount;
  /* Zeroed: valgrind cannot see what LOOP_GET_STATUS64 fills in. */
  struct loop_info64 info = { 0 };
  struct stat st;
  int fd;

  if (backing == NULL)
    return FALSE;
  clean = g_strdup (backing);
  if (g_str_has_suffix (clean, " (deleted)"))
    clean[strlen (clean) - strlen (" (deleted)")] = '\0';
  mount = mounts != NULL && g_path_is_absolute (clean) ? duel_device_mounts_find_for_path (mounts, clean) : NULL;
  if (mount != NULL && fstype_may_stall (mount->fstype) && makedev (mount->major, mount->minor) != target_dev)
    return FALSE;

  fd = open (node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0)
    {
      gboolean ok = ioctl (fd, LOOP_GET_STATUS64, &info) == 0;

      close (fd);
      if (ok)
        {
          *out_dev = (dev_t) info.lo_device;
          *out_ino = (ino_t) info.lo_inode;
          return TRUE;
        }
    }
  if (stat (clean, &st) != 0)
    return FALSE;
  *out_dev = st.st_dev;
  *out_ino = st.st_ino;
  return TRUE;
}

/* A loop device's backing file is somebody's disk image, in use. */
static char *
find_loop_using (const struct stat *st)
{
  g_autoptr(GPtrArray) devices = duel_device_enumerate ("/", NULL);
  g_autoptr(DuelDeviceMounts) mounts = duel_device_mounts_load_here ("/", NULL);

  for (guint i = 0; devices != NULL && i < devices->len; i++)
    {
      DuelDevice *device = g_ptr_array_index (devices, i);
      const char *backing = duel_device_get_backing_file (device);
      dev_t dev;
      ino_t ino;

      if (backing == NULL)
        continue;
      if (loop_backing_id (duel_device_get_name (device), backing, mounts, st->st_dev, &dev, &ino) &&
          dev == st->st_dev && ino == st->st_ino)
        return g_strdup (duel_device_get_device_path (device));
    }
  return NULL;
}

/* How much of a file's data is read to see that it is all zeros: beyond
 * that, it is taken to hold something (and consent is asked). */
#define ZERO_SCAN_BYTES (256 * 1024 * 1024)

/* Is every byte of the file's data zero? Holes are skipped (SEEK_DATA). */
static gboolean
all_zeros (int                fd,
           const struct stat *st)
{
  g_autofree guint8 *buffer = g_malloc (1024 * 1024);
  guint64 budget = ZERO_SCAN_BYTES;
  off_t at = 0;

  while (at < st->st_size)
    {
      off_t data = lseek (fd, at, SEEK_DATA), hole;

      if (data < 0)
        return errno == ENXIO;   /* only holes from here on */
      hole = lseek (fd, data, SEEK_HOLE);
      if (hole < 0)
        hole = st->st_size;
      for (at = data; at < hole; )
        {
          ssize_t n = pread (fd, buffer, (size_t) MIN ((off_t) 1024 * 1024, hole - at), at);

          if (n <= 0 || (guint64) n > budget)
            return FALSE;
          for (ssize_t i = 0; i < n; i++)
            if (buffer[i] != 0)
              return FALSE;
          budget -= (guint64) n;
          at += n;
        }
    }
  return TRUE;
}

/* Does the file hold data Drive Duel did not write? An empty file, a sparse
 * one or one of zeros has nothing to lose; a file Drive Duel wrote carries
 * DUEL_TARGET_MADE_XATTR, which must still describe it (@out_mark). */
static gboolean
holds_foreign_data (int                fd,
                    const struct stat *st,
                    DuelTargetMark    *out_mark)
{
  *out_mark = DUEL_TARGET_MARK_NONE;
  if (st->st_size == 0 || st->st_blocks == 0)
    return FALSE;
  *out_mark = duel_target_check_mark (fd);
  if (*out_mark == DUEL_TARGET_MARK_MATCHES)
    return FALSE;
  return !all_zeros (fd, st);
}

static gboolean
check_file (const char        *path,
            const struct stat *st,
            DuelSafetyFlags    flags,
            DuelSafetyReport  *report)
{
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *loop = NULL;
  DuelTargetMark mark;
  gboolean foreign;
  int fd;

  if (S_ISDIR (st->st_mode))
    return refuse (report, DUEL_SAFETY_NOT_A_TARGET,
                   g_strdup_printf (_("“%s” is a folder; give a file inside it."), path));
  if (S_ISCHR (st->st_mode))
    return refuse (report, DUEL_SAFETY_NOT_A_TARGET,
                   g_strdup_printf (_("“%s” is a character device; use a block device (such as /dev/nvme0n1) or a file."), path));
  if (!S_ISREG (st->st_mode))
    return refuse (report, DUEL_SAFETY_NOT_A_TARGET,
                   g_strdup_printf (_("“%s” is neither a file nor a block device."), path));

  report->size_bytes = st->st_size;

  mounts = duel_device_mounts_load_here ("/", NULL);
  if (mounts != NULL && duel_device_mounts_is_swap_file (mounts, path))
    return refuse (report, DUEL_SAFETY_SWAP, g_strdup_printf (_("“%s” is an active swap file."), path));

  loop = find_loop_using (st);
  if (loop != NULL)
    return refuse (report, DUEL_SAFETY_HELD,
                   g_strdup_printf (_("“%s” is the backing file of %s."), path, loop));

  /* A file that holds a filesystem or a partition table is a disk image. */
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved_errno = errno;
      return refuse (report, DUEL_SAFETY_UNREADABLE,
                     g_strdup_printf (_("Cannot open “%s”: %s"), path, g_strerror (saved_errno)));
    }
  if (st->st_size > 0 && !probe_signature (fd, report, &local_error))
    {
      g_close (fd, NULL);
      return refuse (report, DUEL_SAFETY_UNREADABLE, g_strdup (local_error->message));
    }
  foreign = holds_foreign_data (fd, st, &mark);
  g_close (fd, NULL);

  /* A file someone else wrote is data: the same consent as a device,
   * --destructive, and for a disk image --wipe-signatures as well. */
  if ((foreign || report->signature != NULL) && (flags & DUEL_SAFETY_DESTRUCTIVE) == 0)
    {
      g_autofree char *size = g_format_size_full ((guint64) st->st_blocks * 512, G_FORMAT_SIZE_IEC_UNITS);

      if (report->signature != NULL)
        {
          g_autofree char *signature = duel_safety_report_describe_signature (report);

          return refuse (report, DUEL_SAFETY_NEEDS_DESTRUCTIVE,
                         g_strdup_printf (_("“%s” holds %s: it looks like a disk image. "
                                            "Give --destructive and --wipe-signatures to overwrite it."),
                                          path, signature));
        }
      if (mark == DUEL_TARGET_MARK_STALE)
        /* TRANSLATORS: a file, the size of the data it holds */
        return refuse (report, DUEL_SAFETY_NEEDS_DESTRUCTIVE,
                       g_strdup_printf (_("“%s” changed after Drive Duel last wrote it: it holds %s of data "
                                          "that may not be Drive Duel’s. Give --destructive to overwrite it."),
                                        path, size));
      /* TRANSLATORS: a file, the size of the data it holds */
      return refuse (report, DUEL_SAFETY_NEEDS_DESTRUCTIVE,
                     g_strdup_printf (_("“%s” is a file holding %s of data that Drive Duel did not write. "
                                        "Give --destructive to overwrite it."), path, size));
    }
  if (report->signature != NULL && (flags & DUEL_SAFETY_WIPE_SIGNATURES) == 0)
    {
      g_autofree char *signature = duel_safety_report_describe_signature (report);

      return refuse (report, DUEL_SAFETY_HAS_SIGNATURE,
                     g_strdup_printf (_("“%s” holds %s: it looks like a disk image. "
                                        "Give --wipe-signatures as well to overwrite it."), path, signature));
    }

  report->verdict = DUEL_SAFETY_ALLOWED;
  return TRUE;
}

gboolean
duel_safety_check_write (const char         *path,
                         DuelSafetyFlags     flags,
                         DuelSafetyReport  **out_report,
                         GError            **error)
{
  g_autoptr(DuelSafetyReport) report = NULL;
  struct stat st;
  gboolean hidden = FALSE;
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  report = g_new0 (DuelSafetyReport, 1);
  report->path = g_strdup (path);

  if (duel_block_node_stat (path, &st, &hidden) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        {
          g_autofree char *dir = g_path_get_dirname (path);
          struct stat dir_st;

          /* A new file cannot hold anything of value; its folder must exist.
           * A missing /dev node is a typo, not a file to create; a folder
           * mounted under /dev (/dev/shm) holds files like any other. */
          if (g_str_has_prefix (path, "/dev/") && stat (dir, &dir_st) == 0 &&
              stat ("/dev", &st) == 0 && dir_st.st_dev == st.st_dev)
            {
              ok = refuse (report, DUEL_SAFETY_NOT_A_TARGET,
                           g_strdup_printf (_("There is no device “%s”."), path));
              goto out;
            }
          if (stat (dir, &dir_st) == 0 && S_ISDIR (dir_st.st_mode))
            {
              report->verdict = DUEL_SAFETY_ALLOWED;
              ok = TRUE;
              goto out;
            }
        }
      ok = refuse (report, DUEL_SAFETY_UNREADABLE,
                   g_strdup_printf (_("Cannot look at “%s”: %s"), path, g_strerror (saved_errno)));
      goto out;
    }

  report->is_block = S_ISBLK (st.st_mode);
  if (report->is_block)
    ok = check_block (path, &st, -1, hidden, flags, report);
  else
    ok = check_file (path, &st, flags, report);

out:
  if (!ok && error != NULL && *error == NULL)
    g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, report->reason);
  if (out_report != NULL)
    *out_report = g_steal_pointer (&report);
  return ok;
}

gboolean
duel_safety_check_write_fd (const char         *path,
                            int                 fd,
                            DuelSafetyFlags     flags,
                            DuelSafetyReport  **out_report,
                            GError            **error)
{
  g_autoptr(DuelSafetyReport) report = NULL;
  struct stat st, path_st;
  gboolean hidden = FALSE;
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  report = g_new0 (DuelSafetyReport, 1);
  report->path = g_strdup (path);
  report->is_block = TRUE;

  /* What was opened is what is checked, and it must still be what @path names. */
  if (fstat (fd, &st) != 0 || !S_ISBLK (st.st_mode) ||
      duel_block_node_stat (path, &path_st, &hidden) != 0 || !S_ISBLK (path_st.st_mode) ||
      path_st.st_rdev != st.st_rdev)
    ok = refuse (report, DUEL_SAFETY_UNREADABLE,
                 g_strdup_printf (_("“%s” changed while it was being opened."), path));
  else
    ok = check_block (path, &st, fd, hidden, flags, report);

  if (!ok && error != NULL)
    g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, report->reason);
  if (out_report != NULL)
    *out_report = g_steal_pointer (&report);
  return ok;
}

/* ------------------------------------------------------------ the result file */

/* @path with its folder's links resolved, and the file's own when it
 * exists; NULL when the folder does not exist. */
static char *
canonical_path (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  char *real = realpath (path, NULL);
  char *real_dir;
  char *joined;

  if (real != NULL)
    return real;
  dir = g_path_get_dirname (path);
  name = g_path_get_basename (path);
  real_dir = realpath (dir, NULL);
  if (real_dir == NULL)
    return NULL;
  joined = g_build_filename (real_dir, name, NULL);
  free (real_dir);
  return joined;
}

/* The device number of the filesystem that holds @path (a folder): st_dev,
 * or for btrfs and overlay (anonymous) the mount's source. */
static gboolean
filesystem_device (const char *path,
                   dev_t      *out_devnum)
{
  struct stat st;

  if (stat (path, &st) != 0)
    return FALSE;
  if (major (st.st_dev) == 0)
    return duel_device_mounts_block_source_of (path, out_devnum);
  *out_devnum = st.st_dev;
  return TRUE;
}

/* What a filesystem on the block device at sysfs @dir stands on: its own
 * name, its whole disk's when it is a partition, and through holders
 * (dm, md) everything below, down to the files loop devices are backed by
 * (@backing, their "dev:ino"). */
static void
add_devices_under (const char       *dir,
                   GHashTable       *names,
                   GHashTable       *backing,
                   DuelDeviceMounts *mounts,
                   dev_t             target_dev,
                   guint             depth)
{
  g_autofree char *slaves_dir = g_build_filename (dir, "slaves", NULL);
  g_autofree char *loop_dir = g_build_filename (dir, "loop", NULL);
  g_autofree char *file = NULL;
  g_autoptr(GPtrArray) slaves = NULL;
  guint64 partition = 0;
  dev_t dev;
  ino_t ino;

  if (depth > 8)
    return;
  g_hash_table_add (names, g_path_get_basename (dir));
  if (_duel_device_sysfs_read_u64 (dir, "partition", &partition))
    {
      g_autofree char *parent = g_path_get_dirname (dir);

      g_hash_table_add (names, g_path_get_basename (parent));
    }
  file = _duel_device_sysfs_read (loop_dir, "backing_file");
  if (file != NULL)
    {
      g_autofree char *name = g_path_get_basename (dir);

      if (loop_backing_id (name, file, mounts, target_dev, &dev, &ino))
        g_hash_table_add (backing, g_strdup_printf ("%ju:%ju", (uintmax_t) dev, (uintmax_t) ino));
    }

  slaves = _duel_device_list_dir (slaves_dir);
  for (guint i = 0; i < slaves->len; i++)
    {
      g_autofree char *link = g_build_filename ("/sys/class/block", g_ptr_array_index (slaves, i), NULL);
      g_autofree char *slave = _duel_device_resolve ("/", link);

      if (slave != NULL)
        add_devices_under (slave, names, backing, mounts, target_dev, depth + 1);
    }
}

/* Is the filesystem holding @folder on the target (@target_st): on the
 * device, one of its partitions or something stacked on them, or inside
 * it through a loop device? */
static gboolean
filesystem_on_target (const char        *folder,
                      const struct stat *target_st)
{
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) backing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *link = NULL;
  g_autofree char *dir = NULL;
  dev_t devnum;

  if (!filesystem_device (folder, &devnum))
    return FALSE;
  link = g_strdup_printf ("/sys/dev/block/%u:%u", major (devnum), minor (devnum));
  dir = _duel_device_resolve ("/", link);
  if (dir == NULL)
    return FALSE;
  {
    g_autoptr(DuelDeviceMounts) mounts = duel_device_mounts_load_here ("/", NULL);

    add_devices_under (dir, names, backing, mounts, target_st->st_dev, 0);
  }

  if (S_ISBLK (target_st->st_mode))
    {
      g_autofree char *target_link = g_strdup_printf ("/sys/dev/block/%u:%u",
                                                      major (target_st->st_rdev), minor (target_st->st_rdev));
      g_autofree char *target_dir = _duel_device_resolve ("/", target_link);
      g_autofree char *target_name = target_dir != NULL ? g_path_get_basename (target_dir) : NULL;

      return target_name != NULL && g_hash_table_contains (names, target_name);
    }
  {
    g_autofree char *key = g_strdup_printf ("%ju:%ju", (uintmax_t) target_st->st_dev, (uintmax_t) target_st->st_ino);

    return g_hash_table_contains (backing, key);
  }
}

gboolean
duel_safety_check_output (const char  *result_path,
                          const char  *target_path,
                          gboolean     target_written,
                          gboolean     overwrite,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DuelFolder) folder = NULL;
  g_autofree char *name = NULL;
  g_autofree char *target_real = NULL;
  g_autofree char *folder_path = NULL;
  g_auto(GStrv) beside = NULL;
  struct stat target_st, st;
  gboolean target_exists;
  DuelWriteFlags flags = DUEL_WRITE_REPLACE_RESULT | DUEL_WRITE_REPLACE_EMPTY | DUEL_WRITE_HINT_OVERWRITE;

  g_return_val_if_fail (result_path != NULL, FALSE);
  g_return_val_if_fail (target_path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (*result_path == '\0')
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                           _("The result file has an empty name."));
      return FALSE;
    }
  /* The folder as the save will use it: opened once, the name in it
   * never followed through a link. Refusals from here on are about the
   * files, not the options (the CLI's exit code 1, not 2). */
  folder = duel_folder_open_for_file (result_path, &name, &local_error);
  if (folder == NULL)
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, local_error->message);
      return FALSE;
    }
  if (overwrite)
    flags |= DUEL_WRITE_REPLACE_ANY;

  /* Neither the result nor a file written beside it (journal, lock) may
   * be the target: by name, through links, or as a hard link to the same
   * file. */
  target_exists = duel_block_node_stat (target_path, &target_st, NULL) == 0;
  target_real = canonical_path (target_path);
  folder_path = realpath (duel_folder_get_path (folder), NULL);
  beside = duel_preflight_output_names (name);
  for (guint i = 0; beside[i] != NULL; i++)
    {
      g_autofree char *real = folder_path != NULL ? g_build_filename (folder_path, beside[i], NULL) : NULL;

      if ((real != NULL && target_real != NULL && g_str_equal (real, target_real)) ||
          (target_exists && fstatat (duel_folder_get_fd (folder), beside[i], &st, 0) == 0 &&
           st.st_dev == target_st.st_dev && st.st_ino == target_st.st_ino))
        {
          /* TRANSLATORS: the result file given, then the run's target */
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                       _("The result file “%s” would be written over the target “%s” (the same file, "
                         "or a link to it); give the result a name of its own."),
                       result_path, target_path);
          return FALSE;
        }
    }

  /* A run that writes its target destroys a filesystem on it. */
  if (target_written && target_exists && folder_path != NULL && filesystem_on_target (folder_path, &target_st))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("The result file “%s” is on a filesystem that lives on the target “%s”, "
                     "which the run would overwrite; save the result elsewhere."),
                   result_path, target_path);
      return FALSE;
    }

  /* The writer's rules for every name the run writes: a link, a folder or
   * a file that is not Drive Duel's is not replaced without consent; a
   * result is replaced once the new run has measured something
   * (duel-checkpointer.c). */
  if (!duel_file_writer_check_in (folder, name, flags, &local_error))
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, local_error->message);
      return FALSE;
    }
  {
    g_autofree char *journal = g_strconcat (name, DUEL_PREFLIGHT_JOURNAL_SUFFIX, NULL);

    if (!duel_file_writer_check_in (folder, journal, DUEL_WRITE_REPLACE_JOURNAL | DUEL_WRITE_REPLACE_EMPTY,
                                    &local_error))
      {
        g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, local_error->message);
        return FALSE;
      }
  }
  return TRUE;
}
