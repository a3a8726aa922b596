"""What check() says, in English, whatever the question (lesson_lib.exercises): the verdict, the messages for
an unanswered, unreadable, ambiguous, wrongly cased or too general answer, and the form each kind wants."""

STRINGS = {
    "exercises.result.correct": "{key} ✓ correct: {message}",
    "exercises.result.not_yet": "{key} ✗ not yet: {message}",
    "exercises.question": "Question {key}: {prompt}",
    "exercises.unanswered": "write your answer in place of ... and run the cell again. {prompt}",
    "exercises.ambiguous": "{shown} fits more than one option ({letters}): be more specific, or give a letter.",
    "exercises.letters_joiner": " and ",
    "exercises.unreadable": "this question wants {wants}. {hint}",
    "exercises.wrong_whitespace": "the right text with other whitespace or a line ending (around it, after it, or inside): this is compared exactly as it is sent, and on the wire that byte matters (a client compares the bytes).",
    "exercises.wrong_line_ending": "the right text followed by a line ending ({ending}): the line ending is not part of it. This is compared exactly as it is sent, and on the wire that byte matters (a client compares the bytes).",
    "exercises.wrong_width": "you typed full-width characters (such as {shown}): on the wire they are other bytes. This is compared exactly as it is sent; switch the input method to half-width (ASCII) for it.",
    "exercises.wrong_compatibility": "you typed a compatibility form of a character (such as {shown}): on the wire it is other bytes. This is compared exactly as it is sent.",
    "exercises.disagree": "{shown} gives two answers that disagree (the words outside the parentheses and those inside): write one.",
    "exercises.wrong_case": "the right text in the wrong case: this is compared exactly as it is sent, and on the wire case matters (a client compares the bytes).",
    "exercises.too_general": "right family, be more specific: {shown} is true, but too general. {hint}",
    "exercises.kinds.int": "a whole number (an int)",
    "exercises.kinds.ints": "a list of whole numbers (a list of ints)",
    "exercises.kinds.choice": "one option, {options} (its letter, or its words)",
    "exercises.kinds.choices": "a list of options from {options} (letters in a list or separated by commas, or their words)",
    "exercises.kinds.bool": "True or False",
    "exercises.kinds.word": "a word (a string)",
    "exercises.kinds.literal": "an exact string, written as it is sent",
    "exercises.options.range": "{first} to {last}",
    "exercises.options.pair": "{first} or {second}",
    "exercises.options.unlisted": "the letters in the question",
}
