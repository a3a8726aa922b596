"""The names of what one byte is in UTF-8 (``ByteRole.label()``)."""

STRINGS = {
    "decoding.byte_role.ascii": "ASCII",
    "decoding.byte_role.lead": "首字节",
    "decoding.byte_role.continuation": "后续字节",
    "decoding.byte_role.invalid": "无效",
}
