"""The teaching layer: the explorers a learner drives (:mod:`.widgets`) and the pictures (:mod:`.viz`).

Built on :mod:`lesson_lib.core` and :mod:`lesson_lib.net`; needs the ``lessons`` extra (ipywidgets,
matplotlib). Importing this package imports neither: import :mod:`.widgets` or :mod:`.viz` by name.
"""
