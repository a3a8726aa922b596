"""The exercise checkers' strings (lesson_lib/exercises/checkers*.py): verdicts, failure explanations,
hints and the descriptions of cuts and counterexamples."""

STRINGS = {
    # -- checkers_core: what every checker shares -------------------------------------------------------
    "checkers.core.kind.character": "inside a multi-byte UTF-8 character",
    "checkers.core.kind.between_characters": "between two characters",
    "checkers.core.kind.crlf": "between a CR and the LF after it",
    "checkers.core.kind.line": "inside a line",
    "checkers.core.kind.in_event": "between two lines of one event",
    "checkers.core.kind.inside_event": "inside an event",
    "checkers.core.kind.between_events": "between two events",
    "checkers.core.kind.line_boundary": "just after a line ending",
    "checkers.core.kind.empty": "with an empty read",
    "checkers.core.kinds_separator": " and ",
    "checkers.core.unit.byte": "byte",
    "checkers.core.unit.character": "character",
    "checkers.core.not_attempted": (
        "not attempted yet: {what} still raises NotImplementedError. Write your code in its place and run "
        "this cell again."
    ),
    "checkers.core.raised": "raised {error}",
    "checkers.core.returned": "returned {value}",
    "checkers.core.diff.text_at": "at character {index}: got {got} where the truth has {truth}",
    "checkers.core.diff.texts": "the texts differ",
    "checkers.core.diff.item_at": "at item {index}: got {got} where the truth has {truth}",
    "checkers.core.diff.nothing": "nothing",
    "checkers.core.diff.lists": "the lists differ",
    "checkers.core.diff.value": "got {got} where the truth is {truth}",
    "checkers.core.label.whole": "with the whole stream in one read",
    "checkers.core.label.two_piece": "with two reads cut at {unit} {cut}",
    "checkers.core.label.one_unit": "with one-{unit} reads",
    "checkers.core.label.random": "with the seeded random partition #{seed} ({reads} reads)",
    "checkers.core.label.empty_reads": "with one-{unit} reads and an empty read before each",
    "checkers.core.summary.whole": "one whole read",
    "checkers.core.summary.two_piece": "{n} two-piece splits",
    "checkers.core.summary.one_unit": "one-{unit} reads",
    "checkers.core.summary.random": "{n} seeded random partitions",
    "checkers.core.summary.empty_reads": "empty reads",
    "checkers.core.summary.separator": ", ",
    "checkers.core.where.two_piece": "{label}, {kinds}",
    "checkers.core.where.empty": "{label} (the same reads without the empty ones pass)",
    "checkers.core.where.shrunk_one": (
        "{label}; it still fails with only {n} of those cut, at {unit} {offsets}: {kinds}"
    ),
    "checkers.core.where.shrunk_many": (
        "{label}; it still fails with only {n} of those cuts, at {unit} {offsets}: {kinds}"
    ),
    "checkers.core.compare.raised": "your code {did}",
    "checkers.core.compare.differs": "the result differs from the truth {difference}",
    "checkers.core.failure": "{where}: {mismatch}. Hint: {hint}",
    # -- checkers_adversarial: the learner chooses the cuts ----------------------------------------------
    "checkers.adversarial.title.character": "Make the per-read decoder corrupt the text",
    "checkers.adversarial.title.line": "Make the client split one event in two, or lose its type",
    "checkers.adversarial.title.event": "Make the client lose text, cutting only at line endings",
    "checkers.adversarial.title.completion": "Make the client call a finished stream unfinished",
    "checkers.adversarial.rule.character": "exactly one cut",
    "checkers.adversarial.rule.line": "exactly one cut",
    "checkers.adversarial.rule.event": "one or two cuts, each just after an LF",
    "checkers.adversarial.rule.completion": "exactly one cut",
    "checkers.adversarial.hint.character": (
        "this client decodes each read alone. Where must a read end for it to hold part of something?"
    ),
    "checkers.adversarial.hint.line_crlf": (
        "your cut is between a CR and its LF, the right kind of place, but here the empty line the client "
        "invents lands where an empty line changes nothing. Try another CRLF."
    ),
    "checkers.adversarial.hint.line": (
        "this client keeps unfinished lines and decodes correctly; what it forgets is at the very end of a "
        "read. Which line ending is two characters long?"
    ),
    "checkers.adversarial.hint.event_between": (
        "your cuts fall between two events, and this client handles that. A cut just after an LF can also "
        "fall inside an event."
    ),
    "checkers.adversarial.hint.event": (
        "this client survives that: each event's data lines still arrive together in one read. Where could "
        "a cut at a line ending separate lines that belong together?"
    ),
    "checkers.adversarial.hint.completion": (
        "this client looks for the terminal marker inside each read. How could a read boundary hide it?"
    ),
    "checkers.adversarial.invalid.single_number": "give a list of byte offsets, e.g. [{cut}], not a single number.",
    "checkers.adversarial.invalid.not_whole_numbers": "give a list of byte offsets (whole numbers), e.g. [5]; got {got}.",
    "checkers.adversarial.invalid.outside": (
        "cut {cut} is outside 0 < cut < {size}: a cut must leave bytes on both sides."
    ),
    "checkers.adversarial.invalid.count_one": "this challenge allows {rule}; you gave {count} distinct cut.",
    "checkers.adversarial.invalid.count_many": "this challenge allows {rule}; you gave {count} distinct cuts.",
    "checkers.adversarial.invalid.not_after_lf": "cut {cut} does not fall just after an LF: byte {offset} is {before}.",
    "checkers.adversarial.not_attempted": "not attempted yet: put your cut offsets in place of ... ({rule}).",
    "checkers.adversarial.where": "with cuts {cuts} ({kinds})",
    "checkers.adversarial.lesson_lib_bug": "{where}, lesson_lib gives {right}, not the truth: a bug.",
    "checkers.adversarial.still_the_truth": "{where}, the naive client still gives the truth. Hint: {hint}",
    "checkers.adversarial.broken": (
        "{where}, the naive client gives {naive}; the truth, and lesson_lib on the same reads, give {truth}."
    ),
    "checkers.adversarial.show.header": "{title}. Rule: {rule}.",
    "checkers.adversarial.show.offsets": "A cut at offset n ends the first read after byte n - 1.",
    "checkers.adversarial.show.char_row": "  bytes {start:2}-{end:<2}  {char:6} {hex}",
    "checkers.adversarial.show.line_row": "  bytes {start:3}-{end:<3}  {line}",
}
