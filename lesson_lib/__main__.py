"""``python -m lesson_lib``: the ``boundary-lab`` command (:mod:`lesson_lib.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
