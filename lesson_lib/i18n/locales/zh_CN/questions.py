"""第 00-10 课的自测题（简体中文）：每道题的题目、提示、针对常见错误答案的提示（``hints.<name>``）和解释
（见 lesson_lib.exercises）。选项写作 ``A) ……；B) ……``，字母与英文版相同；计数题用“多少……”或“几……”发问，
其后的量词和名词就是答案可以带的单位（见 lesson_lib.exercises.answers.count_units）。"""

STRINGS = {
    # 00.held_layer
    "questions.00.held_layer.prompt": "哪一层边界需要保存的状态是“一个未完成字符的 0 到 3 个字节”？A) 分块；B) 字符；C) 行；D) 事件；E) 值；F) 业务完成",
    "questions.00.held_layer.hint": "哪一层把字节变成文本？它在两次读取之间必须记住什么？",
    "questions.00.held_layer.hints.A": "分块边界不需要保存任何状态：一次读取只是一段字节而已。",
    "questions.00.held_layer.explanation": "字符层：UTF-8 解码器会暂存字符开头的几个字节，直到其余字节到达。",
    # 00.closed_socket
    "questions.00.closed_socket.prompt": "判断对错（True 或 False）：连接正常关闭，并不能说明回答已经完整。",
    "questions.00.closed_socket.hint": "由谁来判定一个回答已经结束：传输层，还是服务本身？",
    "questions.00.closed_socket.explanation": "True：只有服务自己的终止信号才能说明回答已经结束；正常关闭可能发生在任何时刻。",
    # 00.openai_done
    "questions.00.openai_done.prompt": "OpenAI Chat Completions 流的最后一个 data 行里发送的是什么？（原样写出字面值，不含前缀 'data: '）",
    "questions.00.openai_done.hint": "它不是 JSON。看看 data/openai-chat/completed.sse 的最后几行。",
    "questions.00.openai_done.hints.data_line": "这是整行，连字段名也带上了。题目问的是 'data: ' 前缀之后的内容：只写那一部分。",
    "questions.00.openai_done.hints.DONE": "很接近了。仔细看 data/openai-chat/completed.sse 最后一个 data 行的每一个字节：这个词是单独出现的，还是前后还有别的字符？",
    "questions.00.openai_done.explanation": "字面值 [DONE]，一字不差：客户端是逐字节比较的。它是 Chat Completions 线上格式的结束标记（兼容 OpenAI 的服务也会发送）；Anthropic、Gemini、Responses 和 Ollama 各有各的结束方式。",
    # 01.bytes
    "questions.01.bytes.prompt": "'你好🙂' 用 UTF-8 编码占多少字节？",
    "questions.01.bytes.hint": "要数的是每个字符占的字节，而不是字符个数：对字符串里的每个字符 c，len(c.encode()) 分别是多少？",
    "questions.01.bytes.hints.3": "3 是字符的个数。网络上计数的单位是字节。",
    "questions.01.bytes.explanation": "3 + 3 + 4 = 10 个字节，对应 3 个字符：一次读取可能在其中任何一个字节之后结束。",
    # 01.corrupting_cuts
    "questions.01.corrupting_cuts.prompt": "'café' 共 5 个字节。在字节偏移 1、2、3 或 4 处把它切成两次读取（切点 k 表示第一次读取含前 k 个字节）：在哪些切点上，把每次读取单独解码会损坏文本？请用列表给出所有这样的切点。",
    "questions.01.corrupting_cuts.hint": "只有落在多字节字符内部的切点才会出问题。'café' 里哪个字符不止一个字节？它的字节在哪些位置？",
    "questions.01.corrupting_cuts.hints.3": "切点 3 正好在 é 之前：é 的两个字节会一起落在第二次读取里。",
    "questions.01.corrupting_cuts.explanation": "只有切点 4 落在 é 内部（é 占字节 3 和 4）；其余切点都在字符之间。",
    # 01.held_max
    "questions.01.held_max.prompt": "增量 UTF-8 解码器在两次读取之间最多会暂存多少字节？",
    "questions.01.held_max.hint": "它只保存一个还没收完的字符的开头部分。这样的开头最长能有多长？",
    "questions.01.held_max.hints.4": "一个字符的第四个字节到达之后，解码器还有什么要等的吗？它会怎么处理一个完整的字符？",
    "questions.01.held_max.explanation": "UTF-8 字符最长 4 个字节，所以未完成的字符最多只有 3 个字节。",
    # 01.final
    "questions.01.final.prompt": "某个流的最后几个字节是 F0 9F 99，即 🙂 的前三个字节。IncrementalUTF8Decoder().close() 会抛出哪个异常？（写出异常的类名）",
    "questions.01.final.hint": "close() 相当于 final=True：只有这次调用知道流已经结束，因而能判断出最后那个字符没收完，而不是还在路上。在单元格里试一下。",
    "questions.01.final.explanation": "TruncatedCharacterError：它是 UnicodeDecodeError 的子类，会指出那个未完成字符的字节偏移。",
    # 01.replace
    "questions.01.replace.prompt": "为什么对每次读取单独用 errors='replace' 解码，比抛出异常更糟？A) 它更慢；B) 它无法解码中文；C) 它会晚一点才报错；D) 它把传输中的一次切分悄无声息地变成了错误的文本",
    "questions.01.replace.hint": "想想读这份回答的人会看到什么，以及有没有人被告知出了问题。",
    "questions.01.replace.hints.B": "字符完整到达时，它解码中文毫无问题；问题只出在切点上。",
    "questions.01.replace.explanation": "回答里的 U+FFFD 看上去就是正常数据；没有任何人知道，其实字节本身没问题，错在客户端。",
    # 02.lines
    "questions.02.lines.prompt": "按照 SSE 的规则，'a\\r\\nb\\rc\\n\\nd' 中有多少个完整的行（d 后面还没有行结束符）？",
    "questions.02.lines.hint": "CRLF、单独的 CR 和单独的 LF 各结束一行。找出每一个行结束符：它前面是什么？最后一个结束符之后的文本有没有自己的结束符？",
    "questions.02.lines.hints.3": "看看 '\\n\\n' 里两个 LF 之间：那里有一行吗？空行算不算？",
    "questions.02.lines.hints.5": "你数了哪些行结束符？你数的每一段都以一个结束符结尾吗？",
    "questions.02.lines.explanation": "a、b、c 和一个空行：4 行。'd' 留在行缓冲区里，等待它的行结束符到达。",
    # 02.cr_lf_across
    "questions.02.cr_lf_across.prompt": "一次读取以 CR 结尾，下一次读取以 LF 开头。这算几个行结束符？",
    "questions.02.cr_lf_across.hint": "如果 CR 和 LF 没有被切开、是在同次读取里到达的，答案是多少？无论读取怎么切分，答案都不能变。",
    "questions.02.cr_lf_across.hints.2": "如果有两个结束符，它们之间会夹着什么？在 SSE 里那意味着什么？这两个字节同时到达时，会得到那样的结果吗？",
    "questions.02.cr_lf_across.explanation": "一个：CR 立即结束这一行，紧随其后的 LF 属于同一个行结束符。",
    # 02.splitlines
    "questions.02.splitlines.prompt": "str.splitlines() 会把下面哪些字符当作换行，而 SSE 和 JSON 只把它们当作普通数据？A) LF；B) U+0085（NEL）；C) U+2028；D) CR。多选：写出所有符合的选项字母。",
    "questions.02.splitlines.hint": "在单元格里把每个选项的字符分别放在两个字母之间，用 str.splitlines() 拆一拆；再和 SSE 认可的行结束符比较。",
    "questions.02.splitlines.explanation": "NEL 和 U+2028（还有 FF、VT、U+2029……）会被 splitlines() 拆开，但在事件里它们只是普通字符。",
    # 02.pending
    "questions.02.pending.prompt": "先执行 LineSplitter().feed('data: 你')，再执行 .feed('好')，这时它的 pending_text 是什么？（写出字符串的内容）",
    "questions.02.pending.hint": "还没有行结束符到达。在结束符到来之前，分行器怎么处理这些文本？",
    "questions.02.pending.hints.empty": "有什么东西被丢掉了吗？还没有行结束符的文本去了哪里？",
    "questions.02.pending.explanation": "'data: 你好'：未完成的行会一直等到它的行结束符到达；在此之前各段分开保存，到时只拼接一次。",
    # 03.events
    "questions.03.events.prompt": "parse_sse 解析 'data: a\\n\\ndata\\n\\n: ping\\n\\nevent: x\\n\\n' 时会派发多少个事件？",
    "questions.03.events.hint": "只有当数据缓冲区不为空时，空行才会派发事件。一行只有字段名、没有冒号时，它就是一个值为空的字段。",
    "questions.03.events.hints.1": "看那个只有 'data' 的块：它是哪个字段？它后面的空行到达时，数据缓冲区里有什么？",
    "questions.03.events.hints.4": "每个空行都会派发事件吗？': ping' 之后的空行到达时，数据缓冲区里有什么？'event: x' 之后呢？",
    "questions.03.events.explanation": "两个：'a'，以及只有 'data' 的那一行带来的 ''（空字符串）。注释块和只有 event 字段的块都没有数据。",
    # 03.space
    "questions.03.space.prompt": "'data:  x'（冒号后有两个空格）后面跟一个空行，派发出的事件的 data 是什么？A) 'x'；B) ' x'（一个空格）；C) '  x'（两个空格）",
    "questions.03.space.hint": "读一读 WHATWG《Interpreting an event stream》里的字段规则：冒号之后的值，确切地说可以去掉什么？或者在单元格里运行 parse_sse([b'data:  x\\n\\n'])。",
    "questions.03.space.hints.A": "这条规则并不会去掉所有前导空白。再读一遍：它到底去掉了什么？",
    "questions.03.space.hints.C": "值并不是原样保留的：规则会从它的开头去掉一些东西。去掉什么，去掉多少？",
    "questions.03.space.explanation": "恰好去掉一个空格，所以还剩一个。",
    # 03.id
    "questions.03.id.prompt": "解析器处理完 'id: 7\\ndata: a\\n\\nid\\ndata: b\\n\\n' 之后，它的 last_event_id 是什么？A) ''（空字符串）；B) None；C) '7'",
    "questions.03.id.hint": "把第二个事件逐行过一遍：没有冒号的行也是一个字段。是哪个字段，值是什么？id 字段拿到这个值之后会做什么？",
    "questions.03.id.hints.C": "第一个事件把它设成了 '7'。看第二个事件的第一行：它是哪个字段，带着什么值？",
    "questions.03.id.hints.B": "last_event_id 从一开始就是字符串，从来不是 None。第二个事件处理完之后，它是什么字符串？",
    "questions.03.id.explanation": "空的 id 会把最后事件 ID（last event ID）重置为空字符串：客户端重连时就不会再发送 Last-Event-ID。",
    # 03.json_when
    "questions.03.json_when.prompt": "客户端什么时候可以对 SSE 流的数据调用 json.loads？A) 每个 data 行到达时；B) 每次读取时；C) 空行派发事件时",
    "questions.03.json_when.hint": "一个 JSON 值能跨多个 data 行吗？能跨多次读取吗？在哪个时刻它一定是完整的？",
    "questions.03.json_when.explanation": "只有派发出来的事件才包含完整的值；一个 data 行或一次读取可能只有其中一部分。",
    # 03.framing
    "questions.03.framing.prompt": "Ollama 的 /api/chat 流用的是哪种分帧方式？A) Server-Sent Events；B) NDJSON；C) 一个不断增长的 JSON 数组",
    "questions.03.framing.hint": "看它的 Content-Type，或者看 data/ollama 里的抓包样本。",
    "questions.03.framing.explanation": "application/x-ndjson：每行一个 JSON 对象，以 LF 结尾。",
    # 04.done_owner
    "questions.04.done_owner.prompt": "哪个服务用 data: [DONE] 来结束流？A) OpenAI Chat Completions；B) OpenAI Responses；C) Anthropic Messages；D) Gemini",
    "questions.04.done_owner.hint": "看第 2 节里每个已完成的抓包样本的最后一个事件。",
    "questions.04.done_owner.hints.B": "Responses 有自己的终止事件类型，没有 [DONE]。",
    "questions.04.done_owner.explanation": "这四个里只有 Chat Completions（兼容 OpenAI 的服务照搬了它的线上格式）。Responses 以 response.completed 结束，Anthropic 以 message_stop 结束，Gemini 以 finishReason 结束。",
    # 04.clean_eof
    "questions.04.clean_eof.prompt": "响应体在一个完整的事件之后正常结束，但始终没有收到终止信号。consume() 报告的判定结果（outcome）是什么？（写出 outcome 的值，一个英文单词）",
    "questions.04.clean_eof.hint": "分帧是完整的；缺的是服务明确表示它已经结束。",
    "questions.04.clean_eof.hints.completed": "字节里没有任何东西表明服务已经结束：连接关闭不等于回答完成。",
    "questions.04.clean_eof.hints.incomplete": "incomplete 需要服务自己的终止信号，并且信号里的原因说明回答没有写完。这里没有终止信号。",
    "questions.04.clean_eof.explanation": "truncated，且 truncated_at='completion'：每一层的单元都是完整的，但服务始终没有表示结束。",
    # 04.length
    "questions.04.length.prompt": "终止信号到达了，finish reason 是 'length'。判定结果是什么？（写出 outcome 的值，一个英文单词）",
    "questions.04.length.hint": "服务确实说了它停下了。它说回答是完整的吗？",
    "questions.04.length.hints.completed": "服务确实结束了流。finish reason 为 'length' 说明了回答的什么：是模型写完了，还是有什么让它停下了？",
    "questions.04.length.explanation": "incomplete：服务结束了流，但回答在 token 上限处被截断了。",
    # 04.anthropic_terminal
    "questions.04.anthropic_terminal.prompt": "Anthropic 的终止事件的 type 是什么？（写出事件类型名）",
    "questions.04.anthropic_terminal.hint": "看 data/anthropic-messages/completed.sse 的最后一个事件。",
    "questions.04.anthropic_terminal.hints.message_delta": "message_delta 携带 stop_reason；它后面还有一个事件。",
    "questions.04.anthropic_terminal.explanation": "message_stop，在携带 stop_reason 的 message_delta 之后。",
    # 04.gemini_cut
    "questions.04.gemini_cut.prompt": "判断对错（True 或 False）：如果 Gemini 模型在每个 chunk 里都带上 finishReason STOP，客户端就能把恰好在两个事件之间被切断的流和已完成的流区分开。",
    "questions.04.gemini_cut.hint": "在第 7 节里试一试：两种情况下，最后一个完整的事件分别说了什么？",
    "questions.04.gemini_cut.explanation": "False：每个事件看起来都像最后一个。分帧本身证明不了更多；只有 JSON 数组格式结尾的 ] 才能证明流已结束。",
    # 05.ping_progress
    "questions.05.ping_progress.prompt": "判断对错（True 或 False）：Anthropic 的 ping 事件会推动字节时钟和事件时钟，但不会推动业务进展时钟。",
    "questions.05.ping_progress.hint": "ping 证明了什么：连接还活着，还是回答在推进？",
    "questions.05.ping_progress.explanation": "True：ping 只推动字节时钟和事件时钟。一个只发 ping 的流是活着的，但没有进展。",
    # 05.which_clock
    "questions.05.which_clock.prompt": "一个代理每秒只吐出一个字节，而且始终没有任何事件完成。上限分别是 30 秒（字节）、60 秒（事件）和 120 秒（进展），哪个上限最先触发？A) byte_idle；B) event_idle；C) progress_idle",
    "questions.05.which_clock.hint": "字节一直在到达，所以有一个时钟不断被刷新。另外两个呢？其中哪个上限更小？",
    "questions.05.which_clock.hints.A": "每秒都有一个字节到达：字节时钟一直在刷新，永远不会过期。",
    "questions.05.which_clock.hints.C": "进展时钟确实卡住了，但它是唯一卡住的吗？找出所有不再被刷新的时钟，再比较它们的上限。",
    "questions.05.which_clock.explanation": "event_idle：字节一直在到，所以字节时钟一直在刷新，但 60 秒内没有任何事件完成。",
    # 05.limit
    "questions.05.limit.prompt": "一行超过了 max_line_chars。consume() 会怎么做？A) 在 max_line_chars 处截断这一行，把事件标记为被截断，然后继续处理后面的流；B) 丢弃包含这一行的整个事件，计入统计，然后继续处理；C) 停止：判定结果为 limit_exceeded，附上是哪个上限和偏移",
    "questions.05.limit.hint": "如果触发上限后丢掉字节继续运行，资源问题就会变成悄无声息的错误数据。",
    "questions.05.limit.explanation": "它会停止：判定结果为 limit_exceeded，指明是哪个上限、在哪个位置触发，并关闭数据源。不会悄悄丢弃任何数据。",
    # 05.closes
    "questions.05.closes.prompt": "调用方提前跳出 stream_updates 循环，并关闭了生成器。分块数据源会被关闭几次？",
    "questions.05.closes.hint": "顺着代码路径看：关闭生成器会在它的 yield 处抛出 GeneratorExit。这时运行的是哪段代码？还有别的代码也会关闭数据源吗？",
    "questions.05.closes.hints.0": "关闭生成器会在它的 yield 处抛出 GeneratorExit。这时生成器的哪个代码块会运行？它对数据源做了什么？",
    "questions.05.closes.hints.2": "把数据源关闭两次本身就是个 bug。是哪段代码关闭了它？在这条路径上，那段代码会运行两次吗？",
    "questions.05.closes.explanation": "恰好一次：无论走哪条路径，都是在生成器的 finally 里关闭的。",
    # 06.replace_count
    "questions.06.replace_count.prompt": "服务器发送 'data: 你好'，切点落在“你”的第一个字节之后：第一次读取以 e4 结尾，第二次读取以 bd a0 开头。客户端对每次读取分别用 errors='replace' 解码。会产生多少个 U+FFFD 字符？",
    "questions.06.replace_count.hint": "按读取逐次来数：在单元格里用 errors='replace' 单独解码每次读取，或者想想每次读取里有哪些非法片段。Python 把每个最长的非法片段替换成一个 U+FFFD：丢了首字节的那些字节，能合起来算作一个片段吗？",
    "questions.06.replace_count.hints.1": "这只数了第一次读取里那个孤立的首字节。再看第二次读取：前面没有首字节，它开头的那些字节会变成什么？",
    "questions.06.replace_count.hints.2": "再按读取逐次数一遍：在单元格里用 errors='replace' 单独解码第二次读取 b'\\xbd\\xa0'。一串非法字节会变成几个替换字符，是由什么决定的？",
    "questions.06.replace_count.explanation": "3 个：第一次读取末尾的 e4 一个，第二次读取开头的 bd 和 a0 各一个。一个字符变成了三个错误的字符，而且没有任何报错。",
    # 06.sdk_truncated
    "questions.06.sdk_truncated.prompt": "抓包样本 openai-chat/truncated_clean_boundary 一次完整发送时，响应体在回答中途的某个事件边界处正常结束，[DONE] 始终没有到达。遍历 openai SDK 的流会怎样？A) 抛出 APIConnectionError；B) 抛出 JSON 错误；C) 一直等待 [DONE]，直到超时；D) 正常结束、不抛异常，只是拿到的文本更短",
    "questions.06.sdk_truncated.hint": "HTTP 响应体正常结束了：传输层没有出任何问题。SDK 会在结尾检查有没有收到 [DONE] 吗？",
    "questions.06.sdk_truncated.hints.A": "APIConnectionError 出现在连接中断时（没有收到 chunked 编码的终止块）。这里响应体是正常结束的。",
    "questions.06.sdk_truncated.hints.C": "服务器已经发完了响应体，没有什么可等的了。",
    "questions.06.sdk_truncated.explanation": "D：SDK 在响应体结束时停止迭代，不抛任何异常。只有像 consume() 那样检查终止信号，才能判定为 truncated。",
    # 06.heartbeat_inside
    "questions.06.heartbeat_inside.prompt": "一个代理把心跳 ': ping' 连同它后面的空行插进了某个事件内部，夹在 'data: a' 和 'data: b' 两行之间：收到的字节是 'data: a\\n: ping\\n\\ndata: b\\n\\n'。符合规范的解析器会派发多少个事件？",
    "questions.06.heartbeat_inside.hint": "注释行本身会被忽略。它后面的空行会对正在构建的事件做什么？",
    "questions.06.heartbeat_inside.hints.1": "注释行会被忽略。它后面的空行也会被忽略吗？空行会对目前构建好的事件做什么？",
    "questions.06.heartbeat_inside.explanation": "2 个：空行提前派发了 'a'，'b' 自成一个事件。这就是回放服务器只在事件边界插入心跳的原因。",
    # 06.resume_without_ids
    "questions.06.resume_without_ids.prompt": "一个 OpenAI Chat Completions 流在回答中途断了。客户端能做什么？A) 带上 Last-Event-ID 重连，接着收剩下的部分；B) SDK 会自己重连并续传；C) 没有办法续传：它的事件不带 id，重新发送请求会生成一个新的回答，费用和副作用都要再来一遍",
    "questions.06.resume_without_ids.hint": "看抓包样本里的事件：重连的客户端要回传哪个字段？它存在吗？",
    "questions.06.resume_without_ids.hints.A": "Last-Event-ID 需要带 id 字段的事件。解析这个抓包样本，看看每个事件的 last_event_id。",
    "questions.06.resume_without_ids.hints.B": "已经返回 200 的流中途断开时，各家 SDK 不会重连：要么直接结束，要么抛异常。",
    "questions.06.resume_without_ids.explanation": "C：没有 id 字段，也就没有 Last-Event-ID 可发。重试就是一个新请求：先报告截断，再决定怎么办；绝不要把两个回答拼接在一起。",
    # 06.requests_crlf
    "questions.06.requests_crlf.prompt": "服务器发送一个事件 'data: 你好\\r\\ndata: 第二行\\r\\n\\r\\n'，作为两个 HTTP 分块发出，第一块结束在 'data: 你好' 后面的 CR 和 LF 之间。客户端用 requests 的 iter_lines() 读取响应体，并把它给出的每一行当作一行 SSE。客户端会派发多少个事件？",
    "questions.06.requests_crlf.hint": "iter_lines() 对 iter_content 的每一段各自分行。这里每一段在哪里结束？它有没有同时看到 CR 和 LF？",
    "questions.06.requests_crlf.hints.1": "规范的解析器处理这些字节会得到这个数，因为它同时看到了 CR 和 LF。iter_lines() 也同时看到了吗？",
    "questions.06.requests_crlf.explanation": "2 个：第一段（第一个 HTTP 分块）以 CR 结尾，所以 iter_lines() 把 'data: 你好' 当作已结束的一行给出；下一段开头的 LF 成了一个空行，单独把这一行派发出去，'data: 第二行' 自成一个事件。应当把 iter_content(chunk_size=None) 给出的字节交给 lesson_lib。",
    # 07.splits
    "questions.07.splits.prompt": "一个 10 字节的响应体有多少种两段切分？",
    "questions.07.splits.hint": "切点位于两个字节之间，并且两边至少各有一个字节。",
    "questions.07.splits.hints.10": "切点可以放在哪里？切在 0 或 10 处，会得到两段都有字节的切分吗？",
    "questions.07.splits.hints.11": "切点可以放在哪里？切在 0 或 10 处，会得到两段都有字节的切分吗？",
    "questions.07.splits.explanation": "9 种：分别切在第 1、2、……、9 个字节之后。",
    # 07.every_boundary
    "questions.07.every_boundary.prompt": "哪种切分方式能让每个字节边界同时成为读取边界？A) 一次读完整个响应体；B) 某一种两段切分；C) 单字节读取；D) 随机划分",
    "questions.07.every_boundary.hint": "每种切分方式分别切了几刀？",
    "questions.07.every_boundary.explanation": "单字节读取一次就在所有位置都切开了：这是最严苛的单一切分方式。",
    # 07.reference
    "questions.07.reference.prompt": "分块解析的结果应该和什么比较？A) 同样的字节一次读完时的解析结果；B) 只和手写的期望列表比较；C) 另一个库的输出",
    "questions.07.reference.hint": "要验证的性质是“切分方式不影响结果”。什么样的解析结果根本不涉及切分？",
    "questions.07.reference.hints.C": "其他库与规范之间存在已知差异；它们可以作参考意见，但不能当作基准。",
    "questions.07.reference.explanation": "不切分的解析结果：任何差异都只能是切分造成的。",
    # 07.proof
    "questions.07.proof.prompt": "判断对错（True 或 False）：通过了所有两段切分和单字节读取的测试，就证明了解析器对任何切成三段及以上的切分都正确。",
    "questions.07.proof.hint": "这些测试从来没有试过哪些切点组合？",
    "questions.07.proof.explanation": "False：它们只试了每个切点单独切和所有切点同时切，并没有覆盖每一种组合。属性测试（property test）会抽样更多组合，但哪一种都算不上证明。",
    # 08.heartbeat_clock
    "questions.08.heartbeat_clock.prompt": "生成过程卡住了，但服务器每 5 秒发一条 ping 注释。客户端设置了 idle_timeout=30 和 progress_timeout=60。哪个时钟会到期？A) progress_timeout；B) idle_timeout；C) 哪个都不会：流会永远等下去",
    "questions.08.heartbeat_clock.hint": "逐个看每个时钟：什么会刷新它？ping 有字节吗？它带着回答的内容吗？",
    "questions.08.heartbeat_clock.hints.B": "ping 每 5 秒到一次，而 ping 也算字节：每来一个，空闲时钟就重置一次。",
    "questions.08.heartbeat_clock.hints.C": "客户端设置上限，是为了让某一类卡住的情况能够结束。这两个上限各自针对哪一类卡住？眼前这种属于其中之一吗？",
    "questions.08.heartbeat_clock.explanation": "progress_timeout：ping 是字节，所以空闲时钟一直在刷新；但没有新的文本或阶段到达，60 秒后进展时钟到期。如果没有这个时钟，流会在 ping 的掩护下一直挂着。",
    # 08.aclosing
    "questions.08.aclosing.prompt": "判断对错（True 或 False）：updates = astream_http_updates(...) 保存在变量里，没有用 aclosing 包装；你在 `async for update in updates:` 里 break 跳出循环，HTTP 连接会在 break 的那一刻关闭。",
    "questions.08.aclosing.hint": "同步生成器被关闭时会运行自己的 finally；那异步生成器由谁来关闭？它的清理代码需要 await，什么时候才有机会运行？",
    "questions.08.aclosing.explanation": "False：异步生成器的清理必须被 await，break 时没有任何代码去执行它。清理要等到对象被回收时（由事件循环的 asyncgen 钩子调度）或事件循环关闭时才会发生。用 `async with contextlib.aclosing(...)` 才能在 break 时关闭它。",
    # 08.cancel
    "questions.08.cancel.prompt": "await aconsume(...) 的任务（task）在读流的中途被取消。执行这个 await 的代码会看到什么？A) 一个 outcome 为 cancelled 的 StreamResult，在数据源被关闭之后返回；B) CancelledError，在数据源被关闭之后；C) 什么都看不到：取消被吞掉，流一直读到结束再关闭",
    "questions.08.cancel.hint": "asyncio.timeout() 和 TaskGroup 就是靠任务取消来停止工作的。如果被取消的代码正常返回了，它们会怎样？",
    "questions.08.cancel.hints.A": "outcome 'cancelled' 是给 cancel= 选项用的。任务取消是 asyncio 的机制：协程必须怎么处理它？",
    "questions.08.cancel.hints.C": "被吞掉的取消会让 asyncio.timeout() 一直等着一个假装什么都没发生的任务。",
    "questions.08.cancel.explanation": "CancelledError，在 finally 关闭数据源之后抛出。outcome 'cancelled' 是给 cancel= 选项（停止按钮）用的；任务取消必须向上传播，否则超时和任务组都会出问题。",
    # 08.mcp_eof
    "questions.08.mcp_eof.prompt": "一个 MCP Streamable HTTP 响应流（2025-11-25 修订版）在一个带 id 的事件之后正常结束，而 JSON-RPC 响应还没有到。这是什么情况？A) completed：响应体在一个完整的事件之后正常结束，所以服务器已经完成；B) 一个丢失的回答：必须从头重新发送请求；C) 在业务完成层被截断，可以用 GET 和 Last-Event-ID 续传",
    "questions.08.mcp_eof.hint": "两个问题：服务说了它已经完成吗？它有没有给客户端留下重新接上的途径？",
    "questions.08.mcp_eof.hints.A": "响应体正常结束从来都不是服务自己说的“完成”。在 MCP 里，什么才算？",
    "questions.08.mcp_eof.hints.B": "看看流结束之前发了什么：一个事件 id。客户端能拿它做什么？",
    "questions.08.mcp_eof.explanation": "在业务完成层被截断，和所有没收到终止信号的流一样；但 MCP 允许服务器提前关闭流，客户端可以凭事件 id 续传。换成 LLM API，同样的 EOF 就意味着回答丢了。",
    # 08.resumable
    "questions.08.resumable.prompt": "下面哪些可以在不重新发送请求的情况下接着读完一个中断的流（多选）？A) 以 background: true 启动的 OpenAI Responses；B) OpenAI Chat Completions；C) Anthropic Messages；D) 2025-11-25 修订版的 MCP Streamable HTTP，且事件带 id",
    "questions.08.resumable.hint": "要接着读，你需要一个服务器认得的位置：SSE 事件 id，或者服务器能从它之后开始重放的序号。哪些流会提供这样的位置，并且把回答保留在服务器端？",
    "questions.08.resumable.explanation": "后台模式的 Responses（starting_after=N 会重放序号 N 之后的事件），以及 2025-11-25 修订版的 MCP（用 GET 加 Last-Event-ID；2026-07-28 修订版移除了它）。Chat Completions 和 Messages 不带位置：重新发送就是开始一个新的回答。",
    # 09.naive_fragments
    "questions.09.naive_fragments.prompt": "在抓包样本 openai-chat/tools_parallel 里，调用 0（index 为 0 的工具调用）的参数分成六个片段到达。其中有多少个片段能单独被 json.loads 成功解析？",
    "questions.09.naive_fragments.hint": "看看每个片段从哪里开始、在哪里结束：在某个键里面、字符串里面，还是数字里面？",
    "questions.09.naive_fragments.hints.1": "你数的是哪一个？在单元格里单独对那个片段运行 json.loads，它报什么？",
    "questions.09.naive_fragments.hints.6": "随便试一个：第一个是 '{{\"ci'。",
    "questions.09.naive_fragments.explanation": "零个：每个片段都是在任意位置被切开的一段 JSON 文本；只有调用关闭之后拼接起来的完整文本，才是一个合法的 JSON 值。",
    # 09.done_missing
    "questions.09.done_missing.prompt": "判断对错（True 或 False）：在 openai-chat/tools_truncated_before_done 里，每个片段都到了，finish reason 也是 tool_calls，但这些调用仍然不算完整。",
    "questions.09.done_missing.hint": "哪个事件才真正标志着 Chat Completions 流的结束？它到了吗？",
    "questions.09.done_missing.explanation": "True：在 Chat Completions 里，没有任何事件会单独关闭某一个调用；只有流自己的结尾（表示整个回答结束的 finish reason 之后的 [DONE]）会一次性关闭所有调用。没收到它，后面就可能还有内容。",
    # 09.anthropic_close
    "questions.09.anthropic_close.prompt": "哪个 Anthropic 事件会关闭一个 tool_use 调用？A) message_stop；B) stop_reason 为 tool_use 的 message_delta；C) 最后一个 input_json_delta；D) content_block_stop",
    "questions.09.anthropic_close.hint": "调用存在于内容块（content block）里。在消息结束之前，是什么结束了一个块？",
    "questions.09.anthropic_close.hints.A": "message_stop 结束的是整条消息：到那时，调用早就关闭了。",
    "questions.09.anthropic_close.hints.C": "如果没有事件明确告诉它，客户端怎么知道哪个 delta 是最后一个？",
    "questions.09.anthropic_close.explanation": "content_block_stop：这个块，连同其中的调用，已经完整了。消息在它之后仍可能被切断，所以这个调用所在的回答还不能算最终结果。",
    # 09.reasoning_where
    "questions.09.reasoning_where.prompt": "lesson_lib 把 delta.reasoning_content（DeepSeek）放到哪个字段？A) text；B) tool_calls；C) reasoning_text；D) 哪里都不放：直接丢弃",
    "questions.09.reasoning_where.hint": "推理过程不是回答，而且收到的任何东西都不会被丢弃。",
    "questions.09.reasoning_where.hints.A": "那样的话，UI 就分不清哪些是思考、哪些是回答了。",
    "questions.09.reasoning_where.hints.D": "lesson_lib 读到的东西一样都不会丢。",
    "questions.09.reasoning_where.explanation": "reasoning_text：保留下来，并且单独存放，这样 UI 可以用不同的方式展示它，也绝不会把它当作回答保存。",
    # 09.surrogate
    "questions.09.surrogate.prompt": "一个片段以 \\ud83d 结尾，下一个片段以 \\ude80 开头。调用关闭后，解析出的值在那个位置是什么？A) 🚀；B) 两个 U+FFFD；C) 什么都没有：这个调用出错了；D) 两个孤立代理项（lone surrogate）",
    "questions.09.surrogate.hint": "这些转义是 JSON 文本：两半拼到一起之后，json.loads 会把它们变成什么？",
    "questions.09.surrogate.hints.D": "单独解码每个片段才会得到那个结果。这里是每个片段单独解码吗？在 json.loads 看到这些片段之前，它们经历了什么？",
    "questions.09.surrogate.hints.B": "这里没有按片段解码，所以也就没有字符被替换。",
    "questions.09.surrogate.explanation": "🚀：片段先作为文本拼接起来，所以解析 JSON 时这对代理项已经是完整的。",
    # 10.eventsource
    "questions.10.eventsource.prompt": "浏览器的 EventSource 能做到下面哪件事？A) 用 POST 请求体发送提示词；B) 解码一个跨两次读取被切开的字符；C) 发送 Authorization 头；D) 区分响应体正常结束和回答已完成",
    "questions.10.eventsource.hint": "它的构造函数只接受一个 URL 和一个选项。这样看，它还能做好哪件事？",
    "questions.10.eventsource.hints.A": "new EventSource(url, {{withCredentials}}) 没有地方放请求体，而且它只发送 GET。",
    "questions.10.eventsource.hints.C": "它只能带上 cookie（withCredentials）；需要在请求头里带 token 的页面得改用 fetch。",
    "questions.10.eventsource.hints.D": "只有明确这么说的事件才能区分：服务的终止事件，或中继的 outcome 事件。",
    "questions.10.eventsource.explanation": "B：HTML 标准把事件流作为一个连续的流来解码，被切开的字符会先保留、等后续字节到达；但 EventSource 只能发送不带自定义请求头的 GET，而响应体正常结束也说明不了回答是否完整。",
    # 10.cancel
    "questions.10.cancel.prompt": "正确实现的中继正在转发流时，浏览器标签页被关闭了。是什么关闭了上游连接？A) 上游发现没人在读，一秒内停止发送；B) 垃圾回收器，在请求的对象被释放后关闭响应；C) 上游的空闲超时，按它平常的等待时间；D) 中继收到 http.disconnect 后取消它的任务，任务随之关闭上游响应",
    "questions.10.cancel.hint": "上游还在给中继发送，中继也还在读：谁必须先停下来？",
    "questions.10.cancel.hints.A": "中继还在从上游读取：在上游看来，读取方一切正常。",
    "questions.10.cancel.hints.C": "上游一直在发送，所以它的空闲超时永远不会触发。",
    "questions.10.cancel.hints.B": "任务还在读取，这些对象都还被引用着，不会被当作垃圾回收。",
    "questions.10.cancel.explanation": "D：ASGI 服务器通知应用客户端已断开；中继取消运行处理流程的那个任务，异步读取器在被取消时关闭上游响应，整个过程不到一秒。",
    # 10.invented
    "questions.10.invented.prompt": "上游在回答中途断开；invent-finish 中继随后自行发出了 finish_reason 为 stop 的事件和 [DONE]。consume() 根据转发过来的事件会得出什么判定结果？A) completed；B) truncated；C) incomplete；D) service_error",
    "questions.10.invented.hint": "consume() 只能看到交给它的字节。这些字节里有断开的迹象吗？",
    "questions.10.invented.hints.B": "那是上游实际发生的事。consume() 只根据转发来的字节做判断：看看它们是怎么结束的，再想想它能从中看出什么。",
    "questions.10.invented.hints.C": "发出的是哪个结束原因？它表示回答被截断了吗？",
    "questions.10.invented.explanation": "completed：在下游看来，伪造的终止信号和真实的无法区分。只有网关知道真相；正确实现的网关会在它的 outcome 事件里报告 truncated。",
    # 10.header_hop
    "questions.10.header_hop.prompt": "上游发送 X-Accel-Buffering: no，以及 126 块、每块 40 字节、间隔 20 毫秒的数据，经过两层 nginx：内层遵守这个头，外层对 text/event-stream 做 gzip。接受 gzip 的客户端要读几次才能拿到整个回答？",
    "questions.10.header_hop.hint": "两台 nginx 里，哪台看到了这个头？又是哪台在压缩？第 8 节里 gzip 那几行，有这个头和没有这个头时各不相同，对照着看看这个头改变了什么。",
    "questions.10.header_hop.hints.2": "这数的是 nginx 服务器的个数，不是读取次数：在提交的矩阵里，lesson_lib 的客户端经过同样这两层，读了好几次。那么，接受 gzip 的客户端读几次，是由跳数决定，还是由外层对这个流做了什么来决定？",
    "questions.10.header_hop.hints.126": "那是内层转发出去的情况。外层拿到那个会让它每块都刷出去的头了吗？",
    "questions.10.header_hop.explanation": "一次：nginx 遵守 X-Accel-Buffering，但不会把它转发出去，所以外层根本看不到它，外层的 gzip 会把整个回答扣到最后（第 8 节的测量）。",
    # 10.caddy_drop
    "questions.10.caddy_drop.prompt": "在使用默认配置的 Caddy 2.6 后面，上游在回答中途断开了连接。客户端会收到什么？A) 部分回答之后是传输错误；B) 没有文本的 502；C) 完整回答；D) 部分回答之后响应体正常结束",
    "questions.10.caddy_drop.hint": "第 8 节测过：把 Caddy 断开那一行的传输列和 nginx 的比一比。",
    "questions.10.caddy_drop.hints.A": "那是 nginx 的客户端收到的。Caddy 的也测过：它的响应体是怎么结束的？",
    "questions.10.caddy_drop.hints.B": "没有内容的 502 是 mitmproxy 缓冲整个响应体时的结果。Caddy 是流式转发的：客户端已经拿到了什么？又是怎么结束的？",
    "questions.10.caddy_drop.explanation": "D：上游中止后，Caddy 会正常结束响应，所以只有契约（没有 [DONE]，没有结束原因）能看出回答被截断了。",
    # 11.exit_status
    "questions.11.exit_status.prompt": "一个 OpenAI Chat 流保存下来的响应体，恰好在 finish_reason 为 \"stop\" 的那个事件之后、data: [DONE] 之前结束：回答的文本全都在。boundary-lab diagnose 对它给出哪个退出状态？A) 0；B) 1；C) 2",
    "questions.11.exit_status.hint": "这个命令能把这份输入当作一个流来读吗？如果能，这些字节证明回答完整了吗？",
    "questions.11.exit_status.hints.A": "0 要求字节能证明回答在哪里结束。OpenAI Chat 的契约把哪个信号当作这个证明（第 04 课）？",
    "questions.11.exit_status.hints.C": "2 表示输入无法当作流来读（文件不存在、为空、没有响应体、识别不出契约）。这一份里有事件。",
    "questions.11.exit_status.explanation": "B，1：没有 data: [DONE]，无论 finish_reason 是不是 stop，判定结果都是在 completion 层被截断（truncated）：文本也许都在，但字节证明不了。",
    # 11.raw_reads
    "questions.11.raw_reads.prompt": "对还是错：对于一份用 curl -N -o 保存的原始响应体，报告会给出朴素客户端（每次读取单独解码一次）产生了多少个 U+FFFD。",
    "questions.11.raw_reads.hint": "朴素客户端的输出取决于什么？只有字节的文件里有这个信息吗？",
    "questions.11.raw_reads.explanation": "错：原始响应体不记录每次读取的边界落在哪里，而朴素客户端的结果正取决于这些边界，所以报告会说读取边界未知，而不是凭空编造。curl --trace 文件记录了这些边界。",
    # 11.capture
    "questions.11.capture.prompt": "一个流在浏览器里中断了，导出的 HAR 中它的条目没有响应体（_failureText: net::ERR_INCOMPLETE_CHUNKED_ENCODING，size 为 -1）。为了诊断它，你应该改为抓取什么？A) 打开 Preserve log 后重新导出同一个 HAR；B) 用 curl -N --trace-time --trace FILE 发同一个请求；C) EventStream 标签页的截图；D) 只要响应头",
    "questions.11.capture.hint": "这几种里，哪一种既保留了响应体的字节，又保留了每次读取的边界？",
    "questions.11.capture.hints.A": "Preserve log 让条目在页面重新加载后仍然保留；中断的那个条目依然没有响应体。",
    "questions.11.capture.hints.C": "一张已解析事件的图片，既没有字节，也没有读取边界。",
    "questions.11.capture.hints.D": "响应头说明响应体应该是什么，而不是实际收到了什么。",
    "questions.11.capture.explanation": "B：curl 跟踪文件按到达的样子记录每次读取、响应头、加上 --trace-time 时还有时间，以及传输是怎样结束的。",
    # 11.guarded_length
    "questions.11.guarded_length.prompt": "一个设置了 http_client=lesson_lib.guard.Client（守卫）的 OpenAI SDK 客户端，流式接收的回答以 finish_reason \"length\" 结束，随后是 data: [DONE]。遍历这个流的循环会得到什么？A) 文本，和单独使用 SDK 时一样；B) outcome 为 incomplete 的 UnprovenStreamError；C) openai.APIError；D) 守卫重新发送请求",
    "questions.11.guarded_length.hint": "这个流是完整的。回答呢？守卫放行哪些结果？",
    "questions.11.guarded_length.hints.A": "守卫只放行结果为最终（is_final）的回答。因为 token 预算用完而被截断的回答是最终的吗？",
    "questions.11.guarded_length.hints.C": "服务端没有发送错误：SDK 没有什么可抛出的。",
    "questions.11.guarded_length.hints.D": "守卫从不自己发送请求。",
    "questions.11.guarded_length.explanation": "B：因长度截断的回答是 incomplete，不是最终结果，所以守卫抛出异常；如果部分回答对你仍然有用，就捕获它并读取 exc.outcome。",

    "questions.12.sdk_after_finish.prompt": "openai SDK 的常见循环（把 delta.content 拼接起来，直到流结束）读取一个响应体：它恰好在 finish_reason 为 \"stop\" 的那个 chunk 之后、data: [DONE] 之前正常结束。这个循环交给用户的是什么？A) 全部文本，没有异常；B) openai.APIError；C) UnicodeDecodeError；D) 空字符串",
    "questions.12.sdk_after_finish.hint": "响应体结束在哪里：一个字符中间、一个事件中间，还是两个事件之间？服务发来过任何错误信息吗？",
    "questions.12.sdk_after_finish.hints.B": "服务既没有发来错误 chunk，也没有返回错误状态码：SDK 拿什么来构造一个 APIError？",
    "questions.12.sdk_after_finish.hints.C": "响应体结束在两个事件之间，此前的字符都是完整的：还有什么会被解码错？",
    "questions.12.sdk_after_finish.hints.D": "带文本的 chunk 在切点之前就到了。循环已经拼接好的那些会怎样？",
    "questions.12.sdk_after_finish.explanation": "A：SDK 在响应体结束处一声不吭地停下，用户无法把这段文本和完整的回答区分开。服务器把这个 completed 判为错误：只有 data: [DONE] 才能证明这个回答是完整的（第 04 课）。",

    "questions.12.verdict_without_text.prompt": "判断对错（True 或 False）：一个判定的判定结果与期望的一致，但没有 \"text\" 字段；把它 POST 给服务器，它会被判为正确。",
    "questions.12.verdict_without_text.hint": "客户端省略文本时，服务器比较的是什么？",
    "questions.12.verdict_without_text.explanation": "True：文本是可选的；省略时只评判判定结果。给出文本时，它必须与期望的文本完全一致。",

    "questions.12.stall.prompt": "某个故障的回答停顿了一段时间，比你的客户端的空闲超时还长，然后继续发送并正常完成。服务器把哪些判定评为正确？A) 只有带完整文本的 completed；B) 只有带着截至当时文本的 timed_out；C) 两者都算对；D) 都不算：期望的是 truncated",
    "questions.12.stall.hint": "设想两个正确的客户端：一个的空闲超时比这次停顿短，另一个没有设空闲超时。它们各自看到了什么？",
    "questions.12.stall.hints.A": "空闲超时比停顿短的客户端，会在回答恢复发送之前放弃。它得出的结论错了吗？",
    "questions.12.stall.hints.B": "没有空闲超时的客户端会一直等下去，每个字节都会到达，终止信号也不例外。它的判定错了吗？",
    "questions.12.stall.hints.D": "服务器提前结束响应体了吗？停顿之后，回答还在继续。",
    "questions.12.stall.explanation": "C：字节证明了回答完整（completed），而不再等待的客户端带着它已有的文本说 timed_out，也是对的：条目在 also 里列出了 timed_out。",

    "questions.12.other_language.prompt": "一个 Go 客户端读完了某个故障的流。它怎样把判定告诉故障服务器？A) 做不到：只有 score() 运行的 Python 函数才会被评判；B) 用 POST /faults/<name>/verdict 发送 JSON {{client, outcome, text}}；C) 把判定打印出来，由 boundary-lab faults 读取它的输出；D) GET /scoreboard?verdict=...",
    "questions.12.other_language.hint": "服务器通过 HTTP 收发，并不运行你的客户端。哪个路由接收判定？",
    "questions.12.other_language.hints.A": "score() 是运行客户端的一种方式；通过 HTTP 发给服务器的判定，不管是谁发的，它都会评判。",
    "questions.12.other_language.hints.C": "服务器从不启动你的程序：它发出字节，接收判定。",
    "questions.12.other_language.hints.D": "计分板是用来读取统计结果的；判定要发送到那个故障自己的路由。",
    "questions.12.other_language.explanation": "B：任何语言都能 POST 一段 JSON；服务器的应答会说明判定是否正确、期望的是什么，而 GET /scoreboard 按客户端名称汇总这些判定。",
}
