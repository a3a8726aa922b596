"""The names of what one byte is in UTF-8 (``ByteRole.label()``)."""

STRINGS = {
    "decoding.byte_role.ascii": "ascii",
    "decoding.byte_role.lead": "lead",
    "decoding.byte_role.continuation": "continuation",
    "decoding.byte_role.invalid": "invalid",
}
