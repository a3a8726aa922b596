"""The core: a sans-IO streaming parser, layer by layer, on the standard library alone.

chunk -> character (:mod:`.decoding`) -> line (:mod:`.lines`) -> event (:mod:`.sse`, :mod:`.ndjson`)
-> value (:mod:`.values`) -> business completion (:mod:`.contracts`, :mod:`.completion`); the clocks
(:mod:`.activity`). Nothing here does I/O, imports a language catalogue, httpx or ipywidgets
(``tests/test_layers.py`` holds the package to that). The public names are re-exported by :mod:`lesson_lib`.

The core's types carry data (:mod:`.enums`: the units, clocks and byte roles are ``str`` enums); the words a
learner reads about them (``describe()``, an idle verdict, a provisional guess) come from the wording that
:mod:`lesson_lib.i18n` registers (:mod:`.wording`).
"""
