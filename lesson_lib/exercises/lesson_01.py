"""Lesson 01's check-your-understanding questions."""

from . import register

register(
    "01.bytes",
    "How many bytes does '你好🙂' take in UTF-8?",
    "int",
    "3e1948798e02e919913cd1b069a9f1c270d1ec0e7c510b33a385807fe73e930f",
    hint="Count each character's bytes, not the characters: how many does len(c.encode()) give for each "
    "character c of the string?",
    explanation="3 + 3 + 4 = 10 bytes for 3 characters: a read can end after any of them.",
    hints={"3": "3 is the number of characters. The network counts bytes."},
)
register(
    "01.corrupting_cuts",
    "'café' is 5 bytes. Cutting it into two reads at byte 1, 2, 3 or 4: at which cuts does decoding each read on its own corrupt the text? Give a list of cut positions.",
    "ints",
    "2e9e29e7ce88f8c3646b6669acc2395314182ce1cfd5a2e84e873ba713437876",
    hint="Only a cut that falls inside a multi-byte character hurts. Which character of 'café' has more than one byte, and where are its bytes?",
    explanation="Only cut 4 falls inside é (bytes 3 and 4); every other cut is between characters.",
    hints={"3": "Cut 3 is just before é: both of its bytes arrive together in the second read."},
)
register(
    "01.held_max",
    "At most how many bytes can an incremental UTF-8 decoder hold between two reads?",
    "int",
    "c58cbc1e042c3c5c90b148a8dad8fcf21354ed75bf40bab2bd0e2514b155c02f",
    hint="It holds only the start of a character that has not finished. How long is the longest unfinished start?",
    explanation="The longest UTF-8 character has 4 bytes, so an unfinished one has at most 3.",
    hints={
        "4": "Once a character's fourth byte has arrived, is there anything left for the decoder to wait for? "
        "What does it do with a complete character?"
    },
)
register(
    "01.final",
    "A stream's last bytes are F0 9F 99, the first three bytes of 🙂. Which exception does IncrementalUTF8Decoder().close() raise? (its class name)",
    "word",
    "dace81a56c3a42335cd1bc83ed4deb915100cd04af865f6a06aeb482e1c4ebe4",
    hint="close() is final=True: it is the one call that can tell an unfinished character from a finished stream. Try it in a cell.",
    explanation="TruncatedCharacterError, a UnicodeDecodeError that names the offset of the unfinished character.",
    broader=(
        "StreamDecodeError",
        "UnicodeDecodeError",
        "UnicodeError",
        "ValueError",
        "BoundaryError",
        "Exception",
        "BaseException",
    ),
)
register(
    "01.replace",
    "Why is errors='replace' on each read worse than an exception? A) it is slower; B) it turns a cut in the transport into silently wrong text; C) it cannot decode Chinese; D) it raises later",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hint="Think about what the reader of the answer sees, and whether anyone is told that something went wrong.",
    explanation="A U+FFFD in the answer looks like data; nobody is told the bytes were fine and the client was wrong.",
    hints={"C": "It decodes Chinese perfectly when a character arrives whole; the trouble is only at cuts."},
)
