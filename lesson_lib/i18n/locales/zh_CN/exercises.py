"""check() 的说法（简体中文），与具体题目无关（lesson_lib.exercises）：判定，以及未作答、读不懂、有歧义、大小写不对、
太宽泛的答案各自得到的消息，和每种题型要的答案形式。"""

STRINGS = {
    "exercises.result.correct": "{key} ✓ 正确：{message}",
    "exercises.result.not_yet": "{key} ✗ 还不对：{message}",
    "exercises.question": "问题 {key}：{prompt}",
    "exercises.unanswered": "把 ... 换成你的答案，然后重新运行这个单元格。{prompt}",
    "exercises.ambiguous": "{shown} 同时符合多个选项（{letters}）：请写得更具体些，或者直接写字母。",
    "exercises.letters_joiner": "、",
    "exercises.unreadable": "这道题要的是{wants}。{hint}",
    "exercises.wrong_whitespace": "内容对了，但空白或行结束符不一样（在前后、末尾或中间）：这里按发送时的原样逐字比较，而在传输格式里这个字节是有区别的（客户端比较的是字节）。",
    "exercises.wrong_line_ending": "内容对了，但末尾多了行结束符（{ending}）：它不属于答案。这里按发送时的原样逐字比较，而在传输格式里这个字节是有区别的（客户端比较的是字节）。",
    "exercises.wrong_width": "你输入了全角字符（如 {shown}）：在传输格式里它们是另外的字节。这里按发送时的原样逐字比较，请把输入法切换到半角再输入。",
    "exercises.wrong_compatibility": "你输入了某个字符的兼容形式（如 {shown}）：在传输格式里它是另外的字节。这里按发送时的原样逐字比较。",
    "exercises.disagree": "{shown} 给出了两个不一致的答案（括号外和括号内说的不一样）：只写一个。",
    "exercises.wrong_case": "内容对了，但大小写不对：这里按发送时的原样逐字比较，而在传输格式里大小写是有区别的（客户端比较的是字节）。",
    "exercises.too_general": "方向对了，但还不够具体：{shown} 没错，只是太宽泛了。{hint}",
    "exercises.kinds.int": "一个整数（int）",
    "exercises.kinds.ints": "一个整数列表（由 int 组成的 list）",
    "exercises.kinds.choice": "一个选项，{options}（写字母或选项的文字都可以）",
    "exercises.kinds.choices": "若干选项，从 {options} 中选（字母放在 list 里或用逗号分隔，也可以写选项的文字）",
    "exercises.kinds.bool": "布尔值 True 或 False（也可以写“对”或“错”）",
    "exercises.kinds.word": "一个词（字符串）",
    "exercises.kinds.literal": "一个字符串，必须与按传输格式发送的内容完全一致",
    "exercises.options.range": "{first} 到 {last}",
    "exercises.options.pair": "{first} 或 {second}",
    "exercises.options.unlisted": "题目里给出的字母",
}
