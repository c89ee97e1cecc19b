/// The YAML subset that `libinput record` writes, parsed into a tree whose every node knows
/// its line.
///
/// This is not a general YAML parser. It takes block mappings and sequences by indentation,
/// `- ` items that open a mapping on their own line, flow sequences (which may span lines, as
/// the `hid:` descriptor does) and one-line flow mappings (`--with-libinput` events), plain,
/// single- and double-quoted scalars, and `#` comments. Anything else is an error naming the
/// line. Chosen over Yams by measurement; see `RecordingParser`.
///
/// It reads UTF-8 bytes in one pass, line by line (CRLF or LF, an optional byte order mark),
/// and keeps no copy of the lines: its cost is linear in the file, also for a bracket that is
/// never closed. A flow list of plain integers (every evdev event line) becomes one
/// ``RecordNode/Value/integers(_:)`` node without a string per number.
struct RecordNode {
    enum Value {
        case null
        /// A scalar's text; `quoted` when it was written in quotes (then it is never a number).
        case scalar(String, quoted: Bool)
        /// A flow list of plain decimal integers, `[0, 12, 3, 0, 1]`.
        case integers(IntegerList)
        case sequence([RecordNode])
        case mapping([(key: String, value: RecordNode)])
        /// A run of `- evdev:` items of a device's `events:` list, each holding only event
        /// lines, packed as they were parsed (see ``PackedEvents``).
        case packedEvents(PackedEvents)
    }

    var value: Value
    /// 1-based line where the node starts.
    var line: Int

    subscript(key: String) -> RecordNode? {
        if case .mapping(let entries) = value {
            for entry in entries where entry.key == key { return entry.value }
        }
        return nil
    }
}

/// The numbers of a flow list of integers. An evdev event line (`[sec, usec, type, code,
/// value]`, nearly every line of a recording) whose numbers fit their kernel types is kept in
/// the node itself, with no array of its own: the parsed tree of a recording is then about
/// half the size it would be with an array per line.
struct IntegerList: RandomAccessCollection, Equatable {
    private enum Storage: Equatable {
        case event(seconds: UInt32, microseconds: UInt32, type: UInt16, code: UInt16, value: Int32)
        case array([Int64])
    }
    private let storage: Storage

    init(_ numbers: [Int64]) {
        if numbers.count == 5, let s = UInt32(exactly: numbers[0]), let u = UInt32(exactly: numbers[1]),
           let t = UInt16(exactly: numbers[2]), let c = UInt16(exactly: numbers[3]), let v = Int32(exactly: numbers[4]) {
            storage = .event(seconds: s, microseconds: u, type: t, code: c, value: v)
        } else {
            storage = .array(numbers)
        }
    }

    /// Five numbers without an array, when they fit an event line's kernel types.
    init(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64, _ e: Int64) {
        if let s = UInt32(exactly: a), let u = UInt32(exactly: b), let t = UInt16(exactly: c), let k = UInt16(exactly: d), let v = Int32(exactly: e) {
            storage = .event(seconds: s, microseconds: u, type: t, code: k, value: v)
        } else {
            storage = .array([a, b, c, d, e])
        }
    }

    /// The five numbers in their kernel types, when they fit them.
    var compact: (seconds: UInt32, microseconds: UInt32, type: UInt16, code: UInt16, value: Int32)? {
        if case .event(let s, let u, let t, let c, let v) = storage { return (s, u, t, c, v) }
        return nil
    }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .event: return 5
        case .array(let numbers): return numbers.count
        }
    }
    subscript(position: Int) -> Int64 {
        switch storage {
        case .event(let s, let u, let t, let c, let v):
            switch position {
            case 0: return Int64(s)
            case 1: return Int64(u)
            case 2: return Int64(t)
            case 3: return Int64(c)
            case 4: return Int64(v)
            default: preconditionFailure("index \(position) of a five-number list")
            }
        case .array(let numbers): return numbers[position]
        }
    }
}

/// The `- evdev:` items at the start of a device's `events:` list whose every line is an
/// event in its kernel types, packed as the parser goes: 20 bytes a line instead of a node
/// and an item mapping per frame, so that a long recording's parse holds little more than
/// its text. The items keep their boundaries (a frame must end inside its item) and every
/// line its number. The first item that is anything else (`libinput:` events, a `hid:`
/// report, a number out of range) and all after it stay nodes, so the reader meets every
/// item in file order.
struct PackedEvents {
    struct Line {
        var seconds: UInt32
        var microseconds: UInt32
        var type: UInt16
        var code: UInt16
        var value: Int32
        var line: Int32
    }
    var lines: [Line] = []
    /// Where each item's lines end in ``lines``.
    var itemEnds: [Int] = []
}

/// A syntax error: the line and what is wrong. `RecordingParser` adds the file name.
struct RecordSyntaxError: Error {
    var line: Int
    var message: String
}

/// Limits a parse checks as it goes, so that a hostile file fails before it is all read.
struct RecordDocumentLimits {
    /// Items of the top-level `devices:` list.
    var maximumDevices = Int.max
    /// Called with (bytes read, bytes in all) about every megabyte, and once at the end.
    var progress: ((Int, Int) -> Void)?
}

/// One non-blank, non-comment line: its indentation and its content (byte offsets into the
/// text) with the comment and trailing blanks cut off.
private struct SourceLine {
    var number: Int
    var indent: Int
    var start: Int
    var end: Int
}

private let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
private let hash = UInt8(ascii: "#"), dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":"), comma = UInt8(ascii: ",")
private let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]"), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
private let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")

struct RecordDocumentParser {
    private let text: UnsafeBufferPointer<UInt8>
    /// Byte offset of the next physical line not yet read.
    private var position = 0
    /// Number of the last physical line read.
    private var physicalLine = 0
    /// The content line being looked at; nil at the end of the text.
    private var current: SourceLine?
    private let limits: RecordDocumentLimits
    /// Deeper nesting than this is not a recording: refuse it rather than recurse without end.
    private let maximumDepth = 32

    private init(text: UnsafeBufferPointer<UInt8>, limits: RecordDocumentLimits) {
        self.text = text
        self.limits = limits
    }

    static func parse(_ string: String, limits: RecordDocumentLimits = RecordDocumentLimits()) throws(RecordSyntaxError) -> RecordNode {
        try parse(bytes: Array(string.utf8), limits: limits)
    }

    static func parse(bytes: [UInt8], limits: RecordDocumentLimits = RecordDocumentLimits()) throws(RecordSyntaxError) -> RecordNode {
        let result: Result<RecordNode, RecordSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = RecordDocumentParser(text: buffer, limits: limits)
            do throws(RecordSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func parseDocument() throws(RecordSyntaxError) -> RecordNode {
        // A UTF-8 byte order mark is not content.
        if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF { position = 3 }
        try advance()
        guard let first = current else {
            // A file whose lines end in CR alone reads as one comment line.
            if text.contains(0x0D) && !text.contains(0x0A) {
                throw RecordSyntaxError(line: 1, message: "the lines end in CR alone; a recording's lines end in LF or CR LF (convert with `tr '\\r' '\\n'`)")
            }
            throw RecordSyntaxError(line: 1, message: text.isEmpty ? "the file is empty" : "the file holds only comments and blank lines")
        }
        if first.indent != 0 {
            throw RecordSyntaxError(line: first.number, message: "the document must start at column 1")
        }
        let root = try parseBlock(indent: 0, depth: 0)
        limits.progress?(text.count, text.count)
        if let line = current {
            throw RecordSyntaxError(line: line.number, message: "unexpected indentation or content: \(string(line.start, min(line.end, line.start + 60)))")
        }
        return root
    }

    // MARK: Lines

    /// Moves to the next line with content, checking each physical line on the way.
    private var nextProgress = 1 << 20

    private mutating func advance() throws(RecordSyntaxError) {
        current = nil
        if position >= nextProgress, let progress = limits.progress {
            progress(position, text.count)
            nextProgress = position + (1 << 20)
        }
        while position < text.count {
            physicalLine += 1
            let lineStart = position
            var end = lineStart
            var nonASCII = false
            // A comment or a quote on the line: only then is it scanned again for a comment.
            var commentOrQuote = false
            while end < text.count, text[end] != newline {
                let b = text[end]
                if b >= 0x80 {
                    nonASCII = true
                } else if b < 0x20 && b != tab && b != carriageReturn || b == 0x7F {
                    throw RecordSyntaxError(line: physicalLine, message: "control character 0x\(String(b, radix: 16)) in the text")
                } else if b == hash || b == doubleQuote || b == singleQuote {
                    commentOrQuote = true
                }
                end += 1
            }
            position = end < text.count ? end + 1 : end
            if end > lineStart, text[end - 1] == carriageReturn { end -= 1 }
            if nonASCII, let column = Self.invalidUTF8(text, lineStart, end) {
                throw RecordSyntaxError(line: physicalLine, message: "invalid UTF-8 at column \(column - lineStart + 1)")
            }
            var start = lineStart
            while start < end, text[start] == space { start += 1 }
            if start == end || text[start] == hash { continue }
            if commentOrQuote {
                end = strippingComment(start, end)
            } else {
                while end > start, text[end - 1] == space || text[end - 1] == tab { end -= 1 }
            }
            if start == end { continue }
            current = SourceLine(number: physicalLine, indent: start - lineStart, start: start, end: end)
            return
        }
    }

    /// The offset of the first byte of `start..<end` that is not well-formed UTF-8, if any.
    static func invalidUTF8(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        while i < end {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let count: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; high = 0x9F
            case 0xF0: count = 3; low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; high = 0x8F
            default: return i
            }
            for k in 1...count {
                guard i + k < end else { return i }
                let d = b[i + k]
                if k == 1 { guard d >= low && d <= high else { return i } } else { guard d >= 0x80 && d <= 0xBF else { return i } }
            }
            i += count + 1
        }
        return nil
    }

    /// The end of the line's content: a ` #` comment outside quotes and trailing blanks cut.
    private func strippingComment(_ start: Int, _ end: Int) -> Int {
        var inDouble = false, inSingle = false, escaped = false
        var previous = space
        var cut = end
        var i = start
        while i < end {
            let c = text[i]
            if inDouble {
                if escaped { escaped = false } else if c == backslash { escaped = true } else if c == doubleQuote { inDouble = false }
            } else if inSingle {
                if c == singleQuote { inSingle = false }
            } else if c == doubleQuote {
                inDouble = true
            } else if c == singleQuote && (previous == space || previous == openBracket || previous == openBrace || previous == comma) {
                inSingle = true
            } else if c == hash && (previous == space || previous == tab) {
                cut = i
                break
            }
            previous = c
            i += 1
        }
        while cut > start, text[cut - 1] == space || text[cut - 1] == tab { cut -= 1 }
        return cut
    }

    private func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
    }

    private func isSequenceItem(_ line: SourceLine) -> Bool {
        text[line.start] == dash && (line.end == line.start + 1 || text[line.start + 1] == space)
    }

    private func equals(_ line: SourceLine, _ literal: StaticString) -> Bool {
        guard line.end - line.start == literal.utf8CodeUnitCount else { return false }
        let p = literal.utf8Start
        for i in 0..<literal.utf8CodeUnitCount where text[line.start + i] != p[i] { return false }
        return true
    }

    /// Splits `key: value` (or `key:` at the end of the line) where the key is plain: the key's
    /// end and where the value starts.
    private func keySplit(_ start: Int, _ end: Int) -> (keyEnd: Int, valueStart: Int)? {
        guard start < end else { return nil }
        let first = text[start]
        guard first != openBracket, first != openBrace, first != doubleQuote, first != singleQuote else { return nil }
        var i = start
        while i < end {
            if text[i] == colon {
                if i + 1 == end { return (i, end) }
                if text[i + 1] == space {
                    var v = i + 1
                    while v < end, text[v] == space { v += 1 }
                    return (i, v)
                }
            }
            i += 1
        }
        return nil
    }

    // MARK: Blocks

    private mutating func parseBlock(indent: Int, depth: Int, packsEvents: Bool = false) throws(RecordSyntaxError) -> RecordNode {
        guard let line = current else { return RecordNode(value: .null, line: physicalLine) }
        if depth > maximumDepth {
            throw RecordSyntaxError(line: line.number, message: "nesting deeper than \(maximumDepth) levels")
        }
        if isSequenceItem(line) { return try parseSequence(indent: line.indent, depth: depth + 1, packsEvents: packsEvents) }
        if keySplit(line.start, line.end) != nil { return try parseMapping(indent: line.indent, depth: depth + 1) }
        try advance()
        return try parseInline(line.start, line.end, line: line.number, depth: depth + 1)
    }

    /// `packsEvents`: the list is a device's `events:`; its leading pure `- evdev:` items are
    /// packed (``PackedEvents``), each once the next item has begun (the 1.18-1.20 quirk
    /// below may still add to it until then).
    private mutating func parseSequence(indent: Int, depth: Int, packsEvents: Bool = false) throws(RecordSyntaxError) -> RecordNode {
        let startLine = current?.number ?? physicalLine
        var items: [RecordNode] = []
        var packed = PackedEvents()
        var packing = packsEvents
        func pack(_ items: inout [RecordNode]) {
            guard packing, let last = items.last else { return }
            if Self.appendPacked(last, to: &packed) { items.removeLast() } else { packing = false }
        }
        while let line = current, line.indent == indent, isSequenceItem(line) {
            pack(&items)
            if indent == 0, items.count >= limits.maximumDevices {
                throw RecordSyntaxError(line: line.number, message: "more than \(limits.maximumDevices) devices, the most a replay takes")
            }
            var rest = line.start + 1
            var inner = indent + 1
            while rest < line.end, text[rest] == space {
                rest += 1
                inner += 1
            }
            if rest == line.end {
                try advance()
                if let next = current, next.indent > indent {
                    items.append(try parseBlock(indent: next.indent, depth: depth))
                } else {
                    items.append(RecordNode(value: .null, line: line.number))
                }
            } else if keySplit(rest, line.end) != nil {
                // `- key: value` opens a mapping whose keys sit at the column after "- ".
                current = SourceLine(number: line.number, indent: inner, start: rest, end: line.end)
                items.append(try parseMapping(indent: inner, depth: depth))
            } else {
                try advance()
                items.append(try parseInline(rest, line.end, line: line.number, depth: depth))
            }
            // libinput 1.18-1.20 printed an event item's `libinput:` key at the column of the
            // item's dash, which is not YAML: it belongs to the evdev item just before it.
            if let next = current, next.indent == indent, equals(next, "libinput:"),
               var last = items.last, case .mapping(var entries) = last.value, last["evdev"] != nil {
                current = SourceLine(number: next.number, indent: indent + 2, start: next.start, end: next.end)
                guard case .mapping(let extra) = try parseMapping(indent: indent + 2, depth: depth).value else { continue }
                for entry in extra where entries.contains(where: { $0.key == entry.key }) {
                    throw RecordSyntaxError(line: entry.value.line, message: "duplicate key `\(entry.key)`")
                }
                entries += extra
                last.value = .mapping(entries)
                items[items.count - 1] = last
            }
        }
        pack(&items)
        if !packed.itemEnds.isEmpty {
            // The packed items come first: every item after them is a node.
            items.insert(RecordNode(value: .packedEvents(packed), line: startLine), at: 0)
        }
        return RecordNode(value: .sequence(items), line: startLine)
    }

    /// Appends `item` to `packed` if it is an `evdev:` item of event lines only, every one in
    /// its kernel types; false (and nothing appended) otherwise.
    static func appendPacked(_ item: RecordNode, to packed: inout PackedEvents) -> Bool {
        guard case .mapping(let entries) = item.value, entries.count == 1, entries[0].key == "evdev",
              case .sequence(let lines) = entries[0].value.value, !lines.isEmpty else { return false }
        let start = packed.lines.count
        for node in lines {
            guard case .integers(let numbers) = node.value, let e = numbers.compact, let number = Int32(exactly: node.line) else {
                packed.lines.removeSubrange(start...)
                return false
            }
            packed.lines.append(PackedEvents.Line(seconds: e.seconds, microseconds: e.microseconds, type: e.type, code: e.code,
                                                  value: e.value, line: number))
        }
        packed.itemEnds.append(packed.lines.count)
        return true
    }

    private mutating func parseMapping(indent: Int, depth: Int) throws(RecordSyntaxError) -> RecordNode {
        let startLine = current?.number ?? physicalLine
        var entries: [(key: String, value: RecordNode)] = []
        var keys: Set<String> = []
        while let line = current, line.indent == indent, !isSequenceItem(line) {
            guard let (keyEnd, valueStart) = keySplit(line.start, line.end) else {
                throw RecordSyntaxError(line: line.number, message: "expected `key: value`, found \(string(line.start, min(line.end, line.start + 60)))")
            }
            let key = string(line.start, keyEnd)
            // A second `events:` would silently replace the first: say so instead. Small
            // mappings are searched, big ones hashed.
            let duplicate = entries.count < 16 ? entries.contains { $0.key == key } : !keys.insert(key).inserted
            if entries.count == 15 { keys = Set(entries.map(\.key) + [key]) }
            if duplicate {
                let first = entries.first { $0.key == key }?.value.line ?? 0
                throw RecordSyntaxError(line: line.number, message: "duplicate key `\(key)` (first on line \(first))")
            }
            try advance()
            var value: RecordNode
            if valueStart == line.end {
                if let next = current, next.indent > indent {
                    value = try parseBlock(indent: next.indent, depth: depth, packsEvents: key == "events")
                } else if let next = current, next.indent == indent, isSequenceItem(next) {
                    // YAML lets a sequence under a key sit at the key's own column.
                    value = try parseSequence(indent: indent, depth: depth + 1, packsEvents: key == "events")
                } else {
                    value = RecordNode(value: .null, line: line.number)
                }
            } else {
                value = try parseInline(valueStart, line.end, line: line.number, depth: depth)
            }
            entries.append((key, value))
        }
        return RecordNode(value: .mapping(entries), line: startLine)
    }

    // MARK: Inline values

    /// Parses a value written inline: a flow collection (which may continue on the following
    /// lines), a quoted string or a plain scalar. The line holding `start..<end` has been
    /// consumed already.
    private mutating func parseInline(_ start: Int, _ end: Int, line: Int, depth: Int) throws(RecordSyntaxError) -> RecordNode {
        guard start < end else { return RecordNode(value: .null, line: line) }
        let first = text[start]
        if first == openBracket, let numbers = integerList(start, end) {
            return RecordNode(value: .integers(numbers), line: line)
        }
        if first == openBracket || first == openBrace {
            // Where does the collection close? Count brackets outside quotes, line after line:
            // each line is looked at once, so a bracket never closed costs linear time.
            var depthCount = 0
            var segments: [(Int, Int)] = [(start, end)]
            var closed = try bracketBalance(start, end, &depthCount, line: line)
            while !closed {
                guard let next = current else {
                    throw RecordSyntaxError(line: line, message: "a bracket opened here is never closed (is the file truncated?)")
                }
                segments.append((next.start, next.end))
                closed = try bracketBalance(next.start, next.end, &depthCount, line: line)
                try advance()
            }
            var joined: [UInt8] = []
            for (i, segment) in segments.enumerated() {
                if i > 0 { joined.append(space) }
                joined.append(contentsOf: UnsafeBufferPointer(rebasing: text[segment.0..<segment.1]))
            }
            return try joined.withUnsafeBufferPointer { buffer throws(RecordSyntaxError) -> RecordNode in
                var flow = FlowScanner(text: buffer, line: line, maximumDepth: maximumDepth)
                let node = try flow.parseValue(depth: depth)
                flow.skipBlanks()
                if !flow.atEnd {
                    throw RecordSyntaxError(line: line, message: "unexpected text after a closing bracket: \(flow.remaining(40))")
                }
                return node
            }
        }
        if first == doubleQuote || first == singleQuote {
            var flow = FlowScanner(text: UnsafeBufferPointer(rebasing: text[start..<end]), line: line, maximumDepth: maximumDepth)
            let node = try flow.parseQuoted()
            flow.skipBlanks()
            if !flow.atEnd {
                throw RecordSyntaxError(line: line, message: "unexpected text after a quoted string: \(flow.remaining(40))")
            }
            return node
        }
        return RecordNode(value: .scalar(string(start, end), quoted: false), line: line)
    }

    /// Adds the brackets of `start..<end` to `depth`; true once the outermost one has closed.
    private func bracketBalance(_ start: Int, _ end: Int, _ depth: inout Int, line: Int) throws(RecordSyntaxError) -> Bool {
        var i = start
        var quote: UInt8 = 0
        while i < end {
            let c = text[i]
            if quote != 0 {
                if quote == doubleQuote && c == backslash { i += 1 } else if c == quote { quote = 0 }
            } else if c == doubleQuote || c == singleQuote {
                quote = c
            } else if c == openBracket || c == openBrace {
                depth += 1
                if depth > maximumDepth {
                    throw RecordSyntaxError(line: line, message: "nesting deeper than \(maximumDepth) levels")
                }
            } else if c == closeBracket || c == closeBrace {
                depth -= 1
                if depth <= 0 { return true }
            }
            i += 1
        }
        return false
    }

    /// `[1, -2, 3]` on one line, every item a plain decimal integer: the numbers. Nil for
    /// anything else (which the general flow parser then reads or refuses).
    private func integerList(_ start: Int, _ end: Int) -> IntegerList? {
        guard text[end - 1] == closeBracket else { return nil }
        // The first five numbers in place; an array only for a longer list.
        var first: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        var count = 0
        var more: [Int64] = []
        func finish() -> IntegerList {
            if count == 5 && more.isEmpty { return IntegerList(first.0, first.1, first.2, first.3, first.4) }
            return IntegerList(Array([first.0, first.1, first.2, first.3, first.4].prefix(min(count, 5))) + more)
        }
        var i = start + 1
        let last = end - 1
        func skip() { while i < last, text[i] == space || text[i] == tab { i += 1 } }
        skip()
        if i == last { return nil }
        while true {
            skip()
            var negative = false
            if i < last, text[i] == dash { negative = true; i += 1 }
            var value: Int64 = 0
            var digits = 0
            while i < last, text[i] >= 0x30, text[i] <= 0x39 {
                guard digits < 18 else { return nil }
                value = value * 10 + Int64(text[i] - 0x30)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            let number = negative ? -value : value
            switch count {
            case 0: first.0 = number
            case 1: first.1 = number
            case 2: first.2 = number
            case 3: first.3 = number
            case 4: first.4 = number
            default: more.append(number)
            }
            count += 1
            skip()
            if i == last { return finish() }
            guard text[i] == comma else { return nil }
            i += 1
        }
    }
}

/// Reads flow collections and quoted scalars from one (possibly joined) run of bytes.
private struct FlowScanner {
    let text: UnsafeBufferPointer<UInt8>
    var position = 0
    var line: Int
    let maximumDepth: Int

    init(text: UnsafeBufferPointer<UInt8>, line: Int, maximumDepth: Int) {
        self.text = text
        self.line = line
        self.maximumDepth = maximumDepth
    }

    var atEnd: Bool { position >= text.count }
    func remaining(_ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[position..<min(text.count, position + count)]), as: UTF8.self)
    }

    mutating func skipBlanks() {
        while position < text.count, text[position] == space || text[position] == tab { position += 1 }
    }

    private func unterminated() -> RecordSyntaxError {
        RecordSyntaxError(line: line, message: "a bracket opened here is never closed (is the file truncated?)")
    }

    private func trimmed(_ start: Int, _ end: Int) -> String {
        var s = start, e = end
        while s < e, text[s] == space || text[s] == tab { s += 1 }
        while e > s, text[e - 1] == space || text[e - 1] == tab { e -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: text[s..<e]), as: UTF8.self)
    }

    mutating func parseValue(depth: Int) throws(RecordSyntaxError) -> RecordNode {
        if depth > maximumDepth {
            throw RecordSyntaxError(line: line, message: "nesting deeper than \(maximumDepth) levels")
        }
        skipBlanks()
        guard position < text.count else { throw unterminated() }
        switch text[position] {
        case openBracket:
            position += 1
            var items: [RecordNode] = []
            while true {
                skipBlanks()
                guard position < text.count else { throw unterminated() }
                if text[position] == closeBracket {
                    position += 1
                    return RecordNode(value: .sequence(items), line: line)
                }
                items.append(try parseValue(depth: depth + 1))
                skipBlanks()
                guard position < text.count else { throw unterminated() }
                if text[position] == comma {
                    position += 1
                } else if text[position] != closeBracket {
                    throw RecordSyntaxError(line: line, message: "expected `,` or `]` in a list, found `\(remaining(1))`")
                }
            }
        case openBrace:
            position += 1
            var entries: [(key: String, value: RecordNode)] = []
            while true {
                skipBlanks()
                guard position < text.count else { throw unterminated() }
                if text[position] == closeBrace {
                    position += 1
                    return RecordNode(value: .mapping(entries), line: line)
                }
                let keyStart = position
                while position < text.count, text[position] != colon, text[position] != comma, text[position] != closeBrace {
                    position += 1
                }
                guard position < text.count else { throw unterminated() }
                guard text[position] == colon else {
                    throw RecordSyntaxError(line: line, message: "expected `key: value` in a mapping")
                }
                let key = trimmed(keyStart, position)
                if entries.contains(where: { $0.key == key }) {
                    throw RecordSyntaxError(line: line, message: "duplicate key `\(key)`")
                }
                position += 1
                skipBlanks()
                let value: RecordNode
                if position < text.count, text[position] == comma || text[position] == closeBrace {
                    value = RecordNode(value: .null, line: line)
                } else {
                    value = try parseValue(depth: depth + 1)
                }
                entries.append((key, value))
                skipBlanks()
                guard position < text.count else { throw unterminated() }
                if text[position] == comma {
                    position += 1
                } else if text[position] != closeBrace {
                    throw RecordSyntaxError(line: line, message: "expected `,` or `}` in a mapping, found `\(remaining(1))`")
                }
            }
        case doubleQuote, singleQuote:
            return try parseQuoted()
        default:
            let start = position
            while position < text.count, text[position] != comma, text[position] != closeBracket, text[position] != closeBrace {
                position += 1
            }
            let scalar = trimmed(start, position)
            return RecordNode(value: scalar.isEmpty ? .null : .scalar(scalar, quoted: false), line: line)
        }
    }

    mutating func parseQuoted() throws(RecordSyntaxError) -> RecordNode {
        let quote = text[position]
        position += 1
        var result: [UInt8] = []
        while position < text.count {
            let c = text[position]
            position += 1
            if c == quote {
                if quote == singleQuote, position < text.count, text[position] == singleQuote {
                    result.append(singleQuote)
                    position += 1
                    continue
                }
                return RecordNode(value: .scalar(String(decoding: result, as: UTF8.self), quoted: true), line: line)
            }
            if quote == doubleQuote && c == backslash {
                guard position < text.count else { break }
                let e = text[position]
                position += 1
                switch e {
                case UInt8(ascii: "n"): result.append(newline)
                case UInt8(ascii: "t"): result.append(tab)
                case UInt8(ascii: "0"): result.append(0)
                default: result.append(e)
                }
                continue
            }
            result.append(c)
        }
        throw RecordSyntaxError(line: line, message: "a quoted string is never closed")
    }
}
