/// The YAML subset that `libinput record` writes, parsed into a tree whose every node knows
/// its line.
///
/// This is not a general YAML parser. It takes block mappings and sequences by indentation,
/// `- ` items that open a mapping on their own line, flow sequences (which may span lines, as
/// the `hid:` descriptor does) and one-line flow mappings (`--with-libinput` events), plain,
/// single- and double-quoted scalars, and `#` comments. Anything else is an error naming the
/// line. Chosen over Yams by measurement; see `RecordingParser`.
struct RecordNode {
    enum Value {
        case null
        /// A scalar's text; `quoted` when it was written in quotes (then it is never a number).
        case scalar(String, quoted: Bool)
        case sequence([RecordNode])
        case mapping([(key: String, value: RecordNode)])
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

/// A syntax error: the line and what is wrong. `RecordingParser` adds the file name.
struct RecordSyntaxError: Error {
    var line: Int
    var message: String
}

/// One non-blank, non-comment line: its indentation and its content with the comment cut off.
private struct SourceLine {
    var number: Int
    var indent: Int
    var text: Substring
}

struct RecordDocumentParser {
    private var lines: [SourceLine] = []
    private var index = 0
    /// Deeper nesting than this is not a recording: refuse it rather than recurse without end.
    private let maximumDepth = 32

    static func parse(_ text: String) throws(RecordSyntaxError) -> RecordNode {
        var parser = RecordDocumentParser()
        parser.split(text)
        guard let first = parser.lines.first else {
            throw RecordSyntaxError(line: 1, message: "the file is empty")
        }
        if first.indent != 0 {
            throw RecordSyntaxError(line: first.number, message: "the document must start at column 1")
        }
        let root = try parser.parseBlock(indent: 0, depth: 0)
        if parser.index < parser.lines.count {
            let line = parser.lines[parser.index]
            throw RecordSyntaxError(line: line.number, message: "unexpected indentation or content: \(line.text.prefix(60))")
        }
        return root
    }

    private mutating func split(_ text: String) {
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var indent = 0
            var start = raw.startIndex
            while start < raw.endIndex, raw[start] == " " {
                indent += 1
                start = raw.index(after: start)
            }
            var content = raw[start...]
            if content.last == "\r" { content = content.dropLast() }
            if content.isEmpty || content.first == "#" { continue }
            content = Self.strippingComment(content)
            if content.isEmpty { continue }
            lines.append(SourceLine(number: number, indent: indent, text: content))
        }
    }

    /// Cuts a ` #` comment that is outside quotes, and trailing blanks.
    private static func strippingComment(_ text: Substring) -> Substring {
        var inDouble = false
        var inSingle = false
        var previous: Character = " "
        var escaped = false
        var end = text.endIndex
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if inDouble {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inDouble = false }
            } else if inSingle {
                if c == "'" { inSingle = false }
            } else if c == "\"" {
                inDouble = true
            } else if c == "'" && (previous == " " || previous == "[" || previous == "{" || previous == ",") {
                inSingle = true
            } else if c == "#" && (previous == " " || previous == "\t") {
                end = i
                break
            }
            previous = c
            i = text.index(after: i)
        }
        var result = text[text.startIndex..<end]
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }

    private func isSequenceItem(_ text: Substring) -> Bool {
        text == "-" || text.hasPrefix("- ")
    }

    private mutating func parseBlock(indent: Int, depth: Int) throws(RecordSyntaxError) -> RecordNode {
        guard index < lines.count else { return RecordNode(value: .null, line: lines.last?.number ?? 1) }
        let line = lines[index]
        if depth > maximumDepth {
            throw RecordSyntaxError(line: line.number, message: "nesting deeper than \(maximumDepth) levels")
        }
        if isSequenceItem(line.text) { return try parseSequence(indent: line.indent, depth: depth + 1) }
        if Self.keySplit(line.text) != nil { return try parseMapping(indent: line.indent, depth: depth + 1) }
        index += 1
        var text = line.text
        return try parseInline(&text, line: line.number, depth: depth + 1, continuing: true)
    }

    private mutating func parseSequence(indent: Int, depth: Int) throws(RecordSyntaxError) -> RecordNode {
        let startLine = lines[index].number
        var items: [RecordNode] = []
        while index < lines.count, lines[index].indent == indent, isSequenceItem(lines[index].text) {
            let line = lines[index]
            var rest = line.text.dropFirst(1)
            var inner = indent + 1
            while rest.first == " " {
                rest = rest.dropFirst()
                inner += 1
            }
            if rest.isEmpty {
                index += 1
                if index < lines.count, lines[index].indent > indent {
                    items.append(try parseBlock(indent: lines[index].indent, depth: depth))
                } else {
                    items.append(RecordNode(value: .null, line: line.number))
                }
            } else if Self.keySplit(rest) != nil {
                // `- key: value` opens a mapping whose keys sit at the column after "- ".
                lines[index] = SourceLine(number: line.number, indent: inner, text: rest)
                items.append(try parseMapping(indent: inner, depth: depth))
            } else {
                index += 1
                items.append(try parseInline(&rest, line: line.number, depth: depth, continuing: true))
            }
            // libinput 1.18-1.20 printed an event item's `libinput:` key at the column of the
            // item's dash, which is not YAML: it belongs to the evdev item just before it.
            if index < lines.count, lines[index].indent == indent, lines[index].text == "libinput:",
               var last = items.last, case .mapping(var entries) = last.value, last["evdev"] != nil {
                lines[index] = SourceLine(number: lines[index].number, indent: indent + 2, text: lines[index].text)
                guard case .mapping(let extra) = try parseMapping(indent: indent + 2, depth: depth).value else { continue }
                entries += extra
                last.value = .mapping(entries)
                items[items.count - 1] = last
            }
        }
        return RecordNode(value: .sequence(items), line: startLine)
    }

    private mutating func parseMapping(indent: Int, depth: Int) throws(RecordSyntaxError) -> RecordNode {
        let startLine = lines[index].number
        var entries: [(key: String, value: RecordNode)] = []
        while index < lines.count, lines[index].indent == indent, !isSequenceItem(lines[index].text) {
            let line = lines[index]
            guard let (key, rest) = Self.keySplit(line.text) else {
                throw RecordSyntaxError(line: line.number, message: "expected `key: value`, found \(line.text.prefix(60))")
            }
            index += 1
            var value: RecordNode
            if rest.isEmpty {
                if index < lines.count, lines[index].indent > indent {
                    value = try parseBlock(indent: lines[index].indent, depth: depth)
                } else if index < lines.count, lines[index].indent == indent, isSequenceItem(lines[index].text) {
                    // YAML lets a sequence under a key sit at the key's own column.
                    value = try parseSequence(indent: indent, depth: depth + 1)
                } else {
                    value = RecordNode(value: .null, line: line.number)
                }
            } else {
                var text = rest
                value = try parseInline(&text, line: line.number, depth: depth, continuing: true)
            }
            entries.append((String(key), value))
        }
        return RecordNode(value: .mapping(entries), line: startLine)
    }

    /// Splits `key: value` (or `key:` at the end of the line) where the key is plain.
    static func keySplit(_ text: Substring) -> (Substring, Substring)? {
        guard let first = text.first, first != "[", first != "{", first != "\"", first != "'" else { return nil }
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == ":" {
                let next = text.index(after: i)
                if next == text.endIndex { return (text[..<i], text[next...]) }
                if text[next] == " " {
                    var rest = text[next...]
                    while rest.first == " " { rest = rest.dropFirst() }
                    return (text[..<i], rest)
                }
            }
            i = text.index(after: i)
        }
        return nil
    }

    /// Parses a value written inline: a flow collection (which may continue on the following
    /// lines when `continuing`), a quoted string or a plain scalar.
    private mutating func parseInline(_ text: inout Substring, line: Int, depth: Int, continuing: Bool) throws(RecordSyntaxError) -> RecordNode {
        guard let first = text.first else { return RecordNode(value: .null, line: line) }
        if first == "[" || first == "{" {
            var flow = FlowScanner(text: text, line: line, maximumDepth: maximumDepth)
            while true {
                do throws(RecordSyntaxError) {
                    let node = try flow.parseValue(depth: depth)
                    flow.skipBlanks()
                    if !flow.atEnd {
                        throw RecordSyntaxError(line: flow.line, message: "unexpected text after a closing bracket: \(flow.remaining.prefix(40))")
                    }
                    return node
                } catch {
                    // A flow sequence left open at the end of the line continues on the next.
                    guard error.message == FlowScanner.unterminated, continuing, index < lines.count else {
                        if error.message == FlowScanner.unterminated {
                            throw RecordSyntaxError(line: line, message: "a bracket opened here is never closed (is the file truncated?)")
                        }
                        throw error
                    }
                    flow = FlowScanner(text: flow.text + " " + lines[index].text, line: line, maximumDepth: maximumDepth)
                    index += 1
                }
            }
        }
        var scanner = FlowScanner(text: text, line: line, maximumDepth: maximumDepth)
        return try scanner.parseBlockScalar()
    }
}

/// Reads flow collections and scalars from one (possibly joined) run of text.
private struct FlowScanner {
    static let unterminated = "unterminated flow collection"

    var text: Substring
    var position: Substring.Index
    var line: Int
    let maximumDepth: Int

    init(text: Substring, line: Int, maximumDepth: Int) {
        self.text = text
        self.position = text.startIndex
        self.line = line
        self.maximumDepth = maximumDepth
    }

    var atEnd: Bool { position >= text.endIndex }
    var remaining: Substring { text[position...] }

    mutating func skipBlanks() {
        while position < text.endIndex, text[position] == " " || text[position] == "\t" {
            position = text.index(after: position)
        }
    }

    mutating func parseValue(depth: Int) throws(RecordSyntaxError) -> RecordNode {
        if depth > maximumDepth {
            throw RecordSyntaxError(line: line, message: "nesting deeper than \(maximumDepth) levels")
        }
        skipBlanks()
        guard position < text.endIndex else { throw RecordSyntaxError(line: line, message: Self.unterminated) }
        switch text[position] {
        case "[":
            position = text.index(after: position)
            var items: [RecordNode] = []
            while true {
                skipBlanks()
                guard position < text.endIndex else { throw RecordSyntaxError(line: line, message: Self.unterminated) }
                if text[position] == "]" {
                    position = text.index(after: position)
                    return RecordNode(value: .sequence(items), line: line)
                }
                items.append(try parseValue(depth: depth + 1))
                skipBlanks()
                guard position < text.endIndex else { throw RecordSyntaxError(line: line, message: Self.unterminated) }
                if text[position] == "," {
                    position = text.index(after: position)
                } else if text[position] != "]" {
                    throw RecordSyntaxError(line: line, message: "expected `,` or `]` in a list, found `\(text[position])`")
                }
            }
        case "{":
            position = text.index(after: position)
            var entries: [(key: String, value: RecordNode)] = []
            while true {
                skipBlanks()
                guard position < text.endIndex else { throw RecordSyntaxError(line: line, message: Self.unterminated) }
                if text[position] == "}" {
                    position = text.index(after: position)
                    return RecordNode(value: .mapping(entries), line: line)
                }
                let keyStart = position
                while position < text.endIndex, text[position] != ":", text[position] != ",", text[position] != "}" {
                    position = text.index(after: position)
                }
                guard position < text.endIndex else { throw RecordSyntaxError(line: line, message: Self.unterminated) }
                guard text[position] == ":" else {
                    throw RecordSyntaxError(line: line, message: "expected `key: value` in a mapping")
                }
                let key = text[keyStart..<position].trimmingBlanks()
                position = text.index(after: position)
                skipBlanks()
                let value: RecordNode
                if position < text.endIndex, text[position] == "," || text[position] == "}" {
                    value = RecordNode(value: .null, line: line)
                } else {
                    value = try parseValue(depth: depth + 1)
                }
                entries.append((String(key), value))
                skipBlanks()
                guard position < text.endIndex else { throw RecordSyntaxError(line: line, message: Self.unterminated) }
                if text[position] == "," {
                    position = text.index(after: position)
                } else if text[position] != "}" {
                    throw RecordSyntaxError(line: line, message: "expected `,` or `}` in a mapping, found `\(text[position])`")
                }
            }
        case "\"", "'":
            return try parseQuoted()
        default:
            let start = position
            while position < text.endIndex, text[position] != ",", text[position] != "]", text[position] != "}" {
                position = text.index(after: position)
            }
            let scalar = text[start..<position].trimmingBlanks()
            return RecordNode(value: scalar.isEmpty ? .null : .scalar(String(scalar), quoted: false), line: line)
        }
    }

    /// A scalar that fills the rest of a block line.
    mutating func parseBlockScalar() throws(RecordSyntaxError) -> RecordNode {
        skipBlanks()
        guard position < text.endIndex else { return RecordNode(value: .null, line: line) }
        if text[position] == "\"" || text[position] == "'" {
            let node = try parseQuoted()
            skipBlanks()
            if !atEnd {
                throw RecordSyntaxError(line: line, message: "unexpected text after a quoted string: \(remaining.prefix(40))")
            }
            return node
        }
        let scalar = remaining.trimmingBlanks()
        position = text.endIndex
        return RecordNode(value: .scalar(String(scalar), quoted: false), line: line)
    }

    private mutating func parseQuoted() throws(RecordSyntaxError) -> RecordNode {
        let quote = text[position]
        position = text.index(after: position)
        var result = ""
        while position < text.endIndex {
            let c = text[position]
            position = text.index(after: position)
            if c == quote {
                if quote == "'", position < text.endIndex, text[position] == "'" {
                    result.append("'")
                    position = text.index(after: position)
                    continue
                }
                return RecordNode(value: .scalar(result, quoted: true), line: line)
            }
            if quote == "\"" && c == "\\" {
                guard position < text.endIndex else { break }
                let e = text[position]
                position = text.index(after: position)
                switch e {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "0": result.append("\0")
                default: result.append(e)
                }
                continue
            }
            result.append(c)
        }
        throw RecordSyntaxError(line: line, message: "a quoted string is never closed")
    }
}

extension Substring {
    fileprivate func trimmingBlanks() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
