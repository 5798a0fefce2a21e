#!/usr/bin/env python3
# Shuts an ext4 filesystem down as a dying disk would (EXT4_IOC_SHUTDOWN,
# without flushing the journal): every later read or write of a file on it
# fails with EIO, including those of a loop device backed by such a file.
# Usage: fs-shutdown.py MOUNTPOINT
import fcntl
import os
import struct
import sys

EXT4_IOC_SHUTDOWN = 0x8004587D          # _IOR('X', 125, __u32)
EXT4_GOING_FLAGS_NOLOGFLUSH = 2

fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack("I", EXT4_GOING_FLAGS_NOLOGFLUSH))
finally:
    os.close(fd)
