#!/usr/bin/env python3
# Makes a loop device smaller in one step, as a disk whose capacity shrank:
# its size limit (LOOP_SET_STATUS64, lo_sizelimit) is lowered while it is in
# use; the backing file is left alone. Truncating the backing file and then
# running losetup -c would leave a moment in which I/O past the new end
# already fails but the device still reports its old size, and a run's
# writes in that moment grow the file back: how long it lasts is the
# host's, so the run's verdict would be too.
# Usage: loop-shrink.py DEVICE BYTES
import fcntl
import os
import struct
import sys

LOOP_SET_STATUS64 = 0x4C04
LOOP_GET_STATUS64 = 0x4C05
LO_SIZELIMIT_OFFSET = 32                # struct loop_info64: after device, inode, rdevice, offset
LOOP_INFO64_SIZE = 232

fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    info = bytearray(LOOP_INFO64_SIZE)
    fcntl.ioctl(fd, LOOP_GET_STATUS64, info)
    struct.pack_into("=Q", info, LO_SIZELIMIT_OFFSET, int(sys.argv[2]))
    fcntl.ioctl(fd, LOOP_SET_STATUS64, info)
finally:
    os.close(fd)
