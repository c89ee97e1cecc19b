/// Bounds a keymap's text must respect before xkbcommon compiles it.
///
/// A keymap uploaded by a client (`zwp_virtual_keyboard_v1.keymap`) or named by
/// configuration is untrusted input, and libxkbcommon 1.5 trusts its input: a keycode of
/// 4294967294 aborts the process on an assertion, keycodes up to about 30 million compile
/// but cost about 50 bytes each, a shift level of two billion aborts or exhausts memory,
/// and a long chain of `1+1+1...` recurses once per operator. ``KeymapValidator`` checks the
/// text against these bounds first, in one pass that allocates nothing per token, and
/// rejects what exceeds them with ``KeymapError/rejected(source:line:reason:)``.
///
/// The defaults admit every keymap xkbcomp, xkbcommon and xkeyboard-config write, and every
/// keymap the common virtual keyboards (wtype, wvkbd, squeekboard) upload.
public struct KeymapLimits: Hashable, Sendable {
    /// The longest text, in bytes (a trailing NUL not counted). xkbcommon's own text of a
    /// four-layout keymap is under 100 KiB.
    public var maximumBytes: Int
    /// The highest XKB keycode (evdev keycode + 8) a keymap may name. Memory for a keymap
    /// grows with its highest keycode, not with how many it names. Evdev's highest key
    /// (`KEY_MAX`, 0x2ff) is XKB keycode 775.
    public var maximumKeycode: UInt32
    /// The highest shift level (1-based) a key type may use. xkeyboard-config uses 8.
    public var maximumLevel: UInt32
    /// The most `include`, `augment`, `override` and `replace` statements. Each one parses
    /// files of the system's XKB data again: the bound keeps a keymap from holding the
    /// compositor's thread for seconds.
    public var maximumIncludes: Int
    /// The most operators (`+ - * / ! ~`) in one statement: xkbcommon resolves an
    /// expression by recursion, one level per operator.
    public var maximumOperatorsPerStatement: Int
    /// The deepest nesting of braces, brackets and parentheses.
    public var maximumNesting: Int

    public init(maximumBytes: Int = 1 << 20, maximumKeycode: UInt32 = 4095, maximumLevel: UInt32 = 64,
                maximumIncludes: Int = 64, maximumOperatorsPerStatement: Int = 256, maximumNesting: Int = 32) {
        self.maximumBytes = maximumBytes
        self.maximumKeycode = maximumKeycode
        self.maximumLevel = maximumLevel
        self.maximumIncludes = maximumIncludes
        self.maximumOperatorsPerStatement = maximumOperatorsPerStatement
        self.maximumNesting = maximumNesting
    }

    /// The bounds described above: what ``Keymap/init(string:limits:context:)`` and the
    /// other text and file initializers apply unless told otherwise.
    public static let `default` = KeymapLimits()
}

/// Checks a keymap's text against ``KeymapLimits`` the way xkbcommon 1.5's scanner reads it
/// (`//` and `#` comments, one-line strings, `<key names>`, decimal, hex and float numbers),
/// tracking which section (`xkb_keycodes`, `xkb_types`...) each token is in.
///
/// What it rejects:
/// - text longer than the limit, NUL bytes inside it, or text that is not UTF-8;
/// - in `xkb_keycodes`, a number above the keycode limit;
/// - in `xkb_types`, a number above the level limit, or arithmetic on a number or a
///   `LevelN` name (a level must be written as it is: `Level3` or `3`);
/// - include file names that are absolute or contain `..`, and more includes than allowed;
/// - more operators in one statement, or deeper nesting, than allowed; unbalanced brackets.
///
/// Everything else (syntax, unknown names, unknown keysyms) is xkbcommon's to judge.
public enum KeymapValidator {
    /// Throws ``KeymapError/rejected(source:line:reason:)`` naming the line and the bound.
    /// `bytes` may end with NULs (a `wl_keyboard.keymap` file ends with one; some clients'
    /// files are padded with more after it).
    public static func validate(_ bytes: UnsafeRawBufferPointer, limits: KeymapLimits = .default,
                                source: String = "keymap string") throws {
        var scanner = Scanner(bytes: bytes, limits: limits)
        if let (line, reason) = scanner.run() {
            throw KeymapError.rejected(source: source, line: line, reason: reason)
        }
    }

    /// ``validate(_:limits:source:)`` on a string's UTF-8 bytes.
    public static func validate(_ text: String, limits: KeymapLimits = .default, source: String = "keymap string") throws {
        var text = text
        try text.withUTF8 { try validate(UnsafeRawBufferPointer($0), limits: limits, source: source) }
    }

    private enum Section { case other, keycodes, types }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        let limits: KeymapLimits
        var position = 0
        var line = 1

        init(bytes: UnsafeRawBufferPointer, limits: KeymapLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        /// The first problem, as (line, reason), or nil when the text is within the limits.
        mutating func run() -> (Int, String)? {
            var count = bytes.count
            // Trailing NULs end the text (a keymap file's terminator, or padding after it:
            // wvkbd's files are 64 bytes longer than their text); a NUL inside it does not.
            while count > 0, bytes[count - 1] == 0 { count -= 1 }
            if count > limits.maximumBytes {
                return (1, "the keymap is \(count) bytes long, more than the limit of \(limits.maximumBytes)")
            }
            if let nul = bytes[..<count].firstIndex(of: 0) {
                return (lineOf(nul), "the keymap contains a NUL byte at offset \(nul)")
            }
            if !isUTF8(UnsafeRawBufferPointer(rebasing: bytes[..<count])) {
                return (1, "the keymap is not UTF-8 text")
            }
            return scan(count)
        }

        private func lineOf(_ offset: Int) -> Int {
            1 + bytes[..<offset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }

        private func isUTF8(_ buffer: UnsafeRawBufferPointer) -> Bool {
            var iterator = buffer.makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }

        // The kinds of token the checks look at.
        private enum Token: Equatable {
            case number(UInt64)           // saturating at UInt64.max
            case float
            case identifier(start: Int, end: Int)
            case string(start: Int, end: Int)
            case keyName
            case open(UInt8), close(UInt8)
            case semicolon
            case `operator`
            case other
        }

        private mutating func scan(_ count: Int) -> (Int, String)? {
            // Sections by nesting depth: what a `{` opens, and what is open.
            var stack: [Section] = []
            stack.reserveCapacity(min(max(limits.maximumNesting, 0), 64))
            var pendingSection: Section? = nil
            var includes = 0
            var operators = 0
            var previous: Token = .other
            var previousIsLevelOrNumberOperand = false
            var expectIncludeName = false
            while true {
                guard let token = next(count) else { return nil }
                if case .string = token {} else { expectIncludeName = false }
                let section = stack.last ?? .other
                switch token {
                case .identifier(let start, let end):
                    let word = Slice(base: bytes, bounds: start..<end)
                    if let kind = sectionKind(word) {
                        pendingSection = kind
                    } else if equalsIgnoringCase(word, "include") || equalsIgnoringCase(word, "augment")
                                || equalsIgnoringCase(word, "override") || equalsIgnoringCase(word, "replace") {
                        expectIncludeName = true
                    }
                    if section == .types, isLevelName(word) {
                        if case .operator = previous {
                            return (line, "arithmetic on a shift level in xkb_types; write the level as LevelN or N")
                        }
                        previousIsLevelOrNumberOperand = true
                    } else {
                        previousIsLevelOrNumberOperand = false
                    }
                case .string(let start, let end):
                    if expectIncludeName {
                        expectIncludeName = false
                        includes += 1
                        if includes > limits.maximumIncludes {
                            return (line, "more than \(limits.maximumIncludes) include statements")
                        }
                        if let reason = includeNameProblem(Slice(base: bytes, bounds: start..<end)) {
                            return (line, reason)
                        }
                    }
                    previousIsLevelOrNumberOperand = false
                case .number(let value):
                    switch section {
                    case .keycodes where value > UInt64(limits.maximumKeycode):
                        return (line, "keycode \(value == .max ? "beyond 2^64" : String(value)) is above the limit of \(limits.maximumKeycode)")
                    case .types:
                        if value > UInt64(limits.maximumLevel) {
                            return (line, "shift level \(value == .max ? "beyond 2^64" : String(value)) is above the limit of \(limits.maximumLevel)")
                        }
                        if case .operator = previous {
                            return (line, "arithmetic on a shift level in xkb_types; write the level as LevelN or N")
                        }
                    default: break
                    }
                    previousIsLevelOrNumberOperand = true
                case .operator:
                    operators += 1
                    if operators > limits.maximumOperatorsPerStatement {
                        return (line, "more than \(limits.maximumOperatorsPerStatement) operators in one statement")
                    }
                    if section == .types, previousIsLevelOrNumberOperand {
                        return (line, "arithmetic on a shift level in xkb_types; write the level as LevelN or N")
                    }
                case .open(let bracket):
                    if stack.count >= limits.maximumNesting {
                        return (line, "brackets nested deeper than \(limits.maximumNesting)")
                    }
                    if bracket == UInt8(ascii: "{") {
                        stack.append(pendingSection ?? section)
                        pendingSection = nil
                        operators = 0
                    } else {
                        stack.append(section)
                    }
                    previousIsLevelOrNumberOperand = false
                case .close:
                    if stack.isEmpty { return (line, "a closing bracket without an opening one") }
                    stack.removeLast()
                    if case .close(let bracket) = token, bracket == UInt8(ascii: "}") { operators = 0 }
                    // A level right before `]` (as in `level_name[Level2]`) is followed by
                    // no arithmetic; a number after `]` is not an operand of what precedes.
                    previousIsLevelOrNumberOperand = false
                case .semicolon:
                    operators = 0
                    previousIsLevelOrNumberOperand = false
                case .float, .keyName, .other:
                    previousIsLevelOrNumberOperand = false
                }
                previous = token
            }
        }

        /// The next token, or nil at the end. Mirrors xkbcommon 1.5's `_xkbcommon_lex`.
        private mutating func next(_ count: Int) -> Token? {
            while position < count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    position += 1
                } else if byte == 0x20 || (byte >= 0x09 && byte <= 0x0d) {
                    position += 1
                } else if byte == UInt8(ascii: "#")
                            || (byte == UInt8(ascii: "/") && position + 1 < count && bytes[position + 1] == UInt8(ascii: "/")) {
                    while position < count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
                } else {
                    break
                }
            }
            guard position < count else { return nil }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                let start = position
                while position < count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\n") {
                    position += bytes[position] == UInt8(ascii: "\\") && position + 1 < count
                        && bytes[position + 1] != UInt8(ascii: "\n") ? 2 : 1
                }
                let end = min(position, count)
                if position < count, bytes[position] == UInt8(ascii: "\"") { position += 1 }
                return .string(start: start, end: end)
            case UInt8(ascii: "<"):
                position += 1
                while position < count, bytes[position] > 0x20, bytes[position] < 0x7f, bytes[position] != UInt8(ascii: ">") {
                    position += 1
                }
                if position < count, bytes[position] == UInt8(ascii: ">") { position += 1 }
                return .keyName
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                position += 1
                return .open(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                position += 1
                return .close(byte)
            case UInt8(ascii: ";"):
                position += 1
                return .semicolon
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"),
                 UInt8(ascii: "!"), UInt8(ascii: "~"):
                position += 1
                return .operator
            default:
                break
            }
            if isAlpha(byte) || byte == UInt8(ascii: "_") {
                let start = position
                while position < count, isAlpha(bytes[position]) || isDigit(bytes[position]) || bytes[position] == UInt8(ascii: "_") {
                    position += 1
                }
                return .identifier(start: start, end: position)
            }
            if isDigit(byte) {
                var value: UInt64 = 0
                func accumulate(_ digit: UInt64, radix: UInt64) {
                    let (product, overflow1) = value.multipliedReportingOverflow(by: radix)
                    let (sum, overflow2) = product.addingReportingOverflow(digit)
                    value = overflow1 || overflow2 ? .max : sum
                }
                if byte == UInt8(ascii: "0"), position + 1 < count, bytes[position + 1] == UInt8(ascii: "x") {
                    position += 2
                    while position < count, let digit = hexDigit(bytes[position]) {
                        accumulate(digit, radix: 16)
                        position += 1
                    }
                    return .number(value)
                }
                while position < count, isDigit(bytes[position]) {
                    accumulate(UInt64(bytes[position] - UInt8(ascii: "0")), radix: 10)
                    position += 1
                }
                if position < count, bytes[position] == UInt8(ascii: ".") {
                    position += 1
                    while position < count, isDigit(bytes[position]) { position += 1 }
                    return .float
                }
                return .number(value)
            }
            position += 1
            return .other
        }

        private func isAlpha(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }
        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        private func hexDigit(_ byte: UInt8) -> UInt64? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        private func equalsIgnoringCase(_ word: Slice<UnsafeRawBufferPointer>, _ keyword: StaticString) -> Bool {
            guard word.count == keyword.utf8CodeUnitCount else { return false }
            var index = word.startIndex
            for i in 0..<keyword.utf8CodeUnitCount {
                let a = word[index] | 0x20, b = keyword.utf8Start[i] | 0x20
                if a != b { return false }
                index += 1
            }
            return true
        }

        private func sectionKind(_ word: Slice<UnsafeRawBufferPointer>) -> Section? {
            if equalsIgnoringCase(word, "xkb_keycodes") { return .keycodes }
            if equalsIgnoringCase(word, "xkb_types") { return .types }
            for other: StaticString in ["xkb_keymap", "xkb_compatibility_map", "xkb_compatibility", "xkb_compat_map",
                                        "xkb_compat", "xkb_symbols", "xkb_geometry", "xkb_semantics", "xkb_layout"]
            where equalsIgnoringCase(word, other) {
                return .other
            }
            return nil
        }

        /// `Level1`...`Level8` (any case) and other `LevelN`: names xkbcommon resolves to a
        /// shift level.
        private func isLevelName(_ word: Slice<UnsafeRawBufferPointer>) -> Bool {
            guard word.count > 5 else { return false }
            let prefix = Slice(base: bytes, bounds: word.startIndex..<(word.startIndex + 5))
            guard equalsIgnoringCase(prefix, "level") else { return false }
            return word[(word.startIndex + 5)...].allSatisfy(isDigit)
        }

        private func includeNameProblem(_ name: Slice<UnsafeRawBufferPointer>) -> String? {
            let text = String(decoding: name, as: UTF8.self)
            // "pc+us(intl)|inet(evdev)": each part names a file under the include paths.
            for part in text.split(whereSeparator: { $0 == "+" || $0 == "|" }) {
                if part.hasPrefix("/") || part.split(separator: "/").contains("..") || part.hasPrefix("%") {
                    return "include name \"\(text)\" leaves the XKB data directories"
                }
            }
            return nil
        }
    }
}
