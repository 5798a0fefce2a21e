#!/bin/sh
# Installs everything Drive Duel needs to build, run and test on Debian 12.
# Runs as root, or through sudo when it is available.
set -eu

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

PACKAGES="
  build-essential pkgconf meson ninja-build gettext
  libglib2.0-dev libglib2.0-bin libjson-glib-dev
  liburing-dev libnvme-dev libjson-c-dev libblkid-dev
  libcairo2-dev libpango1.0-dev
  libgtk-4-dev libadwaita-1-dev adwaita-icon-theme librsvg2-common shared-mime-info
  libxml2-utils desktop-file-utils appstream gtk-update-icon-cache
  xvfb xauth dbus-daemon fonts-noto-cjk fonts-dejavu-core ghostscript
  at-spi2-core python3-pyatspi
  util-linux fio e2fsprogs groff-base locales
  qemu-system-x86 busybox-static
  clang libclang-rt-14-dev valgrind dmsetup python3
  libfuse3-dev fuse3
  udisks2 polkitd dbus udev bubblewrap sdparm
"

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $PACKAGES
