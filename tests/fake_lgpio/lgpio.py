"""What lgpio 0.2.2 does to the file system when it is imported, and nothing else (it has no desktop wheel).

Traced in lgpio's source (joan2937/lg): importing the module makes ``_notify_thread = _callback_thread()``, whose
``__init__`` calls the C library's ``lgNotifyOpen()`` and then, in Python, ``open('.lgd-nfy{handle}', 'rb')``.

- ``lguGetWorkDir()`` (lgUtil.c): the work directory is ``$LG_WD`` (relative to the current directory unless it
  starts with ``/``), else the current directory (``/tmp`` only if ``getcwd`` fails); the library then ``chdir``s
  the *whole process* there (a failure is only logged).
- ``lgNotifyOpenWithSize()`` (lgNotify.c): ``unlink`` + ``mkfifo(0664)`` + ``chmod`` of ``WORKDIR/.lgd-nfy0``
  (failures ignored), then ``open(O_RDWR | O_NONBLOCK)``; if that fails it returns ``LG_BAD_PATHNAME`` (-3).
- The Python half never checks that status: it opens ``.lgd-nfy-3`` relative to the current directory, which
  raises ``FileNotFoundError: [Errno 2] No such file or directory: '.lgd-nfy-3'`` -- the failure seen on a Pi whose
  service runs in a read-only directory.
"""

import contextlib
import os

BAD_PATHNAME = -3


def _work_dir() -> str:
    wanted = os.environ.get("LG_WD")
    if wanted:
        work = wanted if wanted.startswith("/") else os.path.join(os.getcwd(), wanted)
    else:
        try:
            work = os.getcwd()
        except OSError:
            work = "/tmp"
    with contextlib.suppress(OSError):  # lgpio only logs "can't set working directory"
        os.chdir(work)
    return work


def _notify_open() -> int:
    handle = 0
    name = f"{_work_dir()}/.lgd-nfy{handle}"
    with contextlib.suppress(OSError):
        os.unlink(name)
    with contextlib.suppress(OSError):
        os.mkfifo(name, 0o664)
    with contextlib.suppress(OSError):
        os.chmod(name, 0o664)
    try:
        fd = os.open(name, os.O_RDWR | os.O_NONBLOCK)
    except OSError:
        return BAD_PATHNAME
    _keep.append(fd)
    return handle


_keep: list[int] = []
_notify = _notify_open()
_file = open(f".lgd-nfy{_notify}", "rb", buffering=0)  # noqa: SIM115 - lgpio keeps it open for its thread
