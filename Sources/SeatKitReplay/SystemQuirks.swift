#if canImport(Glibc)
import Glibc
#endif

/// libinput's system quirks, as a replay's new libinput context reads them: the files of
/// `/usr/share/libinput`, each without the sections that cannot apply under the replay's DMI.
///
/// libinput matches *every* section of every quirks file against a device at *every* quirk
/// look-up (about 18 for each device it adds), without stopping at the first field that
/// differs: that was 69 % of the worker's instructions in a warm replay of a short
/// recording. A section with `MatchDMIModalias` applies only where that pattern matches the
/// machine's DMI modalias, which a context reads once, when it starts, and which is the
/// replay's (the testbed's `/sys/devices/virtual/dmi/id`). Under another DMI such a section
/// never applies, so leaving it out changes nothing libinput decides; its debug log (shown
/// with `--verbose`) names fewer sections.
///
/// A section goes only when its `MatchDMIModalias` pattern does not match the DMI under
/// `fnmatch` (the function libinput calls, in the same process), and only from a file that
/// libinput's parser would accept line by line (its state machine: a section's matches, then
/// its properties; `Key=value` lines with known prefixes; no stray blanks). A file it would
/// reject, or that this cannot read as libinput does (a line longer than libinput's 511-byte
/// buffer, a NUL byte), or that would be left with no section (libinput rejects an empty
/// file), is served unchanged, so libinput fails on it as it would on the original.
/// Values are not checked against libinput's lists of keys: an unknown `Attr` in a section
/// for another machine would make libinput reject the real file and not the filtered one.
///
/// The worker reads the files once, filters them for each new context's DMI and hands them to
/// the preload shim (`seatkit_shim_serve_quirks`), which answers libinput's `fopen` of them
/// from memory while that context starts.
enum SystemQuirks {
    /// Where Debian's libinput reads its quirks (`LIBINPUT_QUIRKS_DIR`). On a libinput built
    /// with another directory nothing is served and libinput reads its own files.
    static let directory = "/usr/share/libinput"

    struct File: Equatable {
        let name: String
        let bytes: [UInt8]
    }

    /// The `*.quirks` files of `directory` (nil if it cannot be read).
    static func read(directory: String = directory) -> [File]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var files: [File] = []
        while let entry = readdir(dir) {
            let name = DirectoryEntry.name(entry)
            guard name.hasSuffix(".quirks"), name.utf8.count > ".quirks".utf8.count else { continue }
            guard let bytes = RecordingParser.readBytes(directory + "/" + name) else { return nil }
            files.append(File(name: name, bytes: bytes))
        }
        return files
    }

    /// `text` without the sections whose one `MatchDMIModalias` pattern does not match `dmi`,
    /// or `text` itself when it cannot be sure (see the type's comment). `matches` is
    /// `fnmatch(pattern, dmi, 0) == 0`.
    static func filtered(_ text: [UInt8], dmi: String, matches: (String, String) -> Bool = fnmatchMatches) -> [UInt8] {
        // Each file is walked as libinput's parser walks it. Anything that parser would reject
        // (or read otherwise than here) leaves the whole file as it is, so that libinput fails
        // on it exactly as it would on the real one: only the sections of a file libinput
        // accepts are ever left out.
        struct Section {
            var start: Int
            var end: Int
            var dmiPattern: String?
            var hasMatch = false
            var hasProperty = false
        }
        enum State { case match, matchOrValue, valueOrSection }
        // libinput's line functions stop at a NUL byte; this reading does not.
        guard !text.contains(0) else { return text }
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), equals = UInt8(ascii: "=")
        var prefixEnd = text.count
        var sections: [Section] = []
        var state = State.match
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count && text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let next = lineEnd < text.count ? lineEnd + 1 : lineEnd
            defer { lineStart = next }
            // libinput reads lines with fgets into 512 bytes: a longer one is read in pieces.
            if next - lineStart > 511 { return text }
            // What libinput looks at: up to a '#' less the blanks before it, else the line.
            var effectiveEnd = lineEnd
            if let hash = text[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: "#")) {
                effectiveEnd = hash
                while effectiveEnd > lineStart && (text[effectiveEnd - 1] == space || text[effectiveEnd - 1] == tab) {
                    effectiveEnd -= 1
                }
            }
            let line = text[lineStart..<effectiveEnd]
            guard let first = line.first, let last = line.last else { continue }
            if last == space || last == tab { return text }
            if first == UInt8(ascii: "[") {
                guard last == UInt8(ascii: "]") else { return text }
                if let previous = sections.last {
                    guard previous.hasMatch, previous.hasProperty, state == .valueOrSection else { return text }
                    sections[sections.count - 1].end = lineStart
                } else {
                    prefixEnd = lineStart
                }
                sections.append(Section(start: lineStart, end: text.count))
                state = .match
                continue
            }
            guard first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z"), !sections.isEmpty,
                  let split = line.firstIndex(of: equals), !line[(split + 1)...].contains(equals) else { return text }
            let key = String(decoding: line[..<split], as: UTF8.self)
            let value = line[(split + 1)...]
            guard !value.isEmpty, value.first != UInt8(ascii: "\"") else { return text }
            let isMatch = key.hasPrefix("Match")
            guard isMatch || key.hasPrefix("Model") || key.hasPrefix("Attr") else { return text }
            switch state {
            case .match: guard isMatch else { return text }; state = .matchOrValue
            case .matchOrValue: if !isMatch { state = .valueOrSection }
            case .valueOrSection: guard !isMatch else { return text }
            }
            let current = sections.count - 1
            if isMatch { sections[current].hasMatch = true } else { sections[current].hasProperty = true }
            if key == "MatchDMIModalias" {
                // libinput takes one per section, and only a modalias.
                guard sections[current].dmiPattern == nil, value.starts(with: Array("dmi:".utf8)) else { return text }
                sections[current].dmiPattern = String(decoding: value, as: UTF8.self)
            }
        }
        guard let final = sections.last, final.hasMatch, final.hasProperty else { return text }
        let dropped = sections.map { s in s.dmiPattern.map { !matches($0, dmi) } ?? false }
        guard dropped.contains(true), dropped.contains(false) else { return text }
        var out = Array(text[0..<prefixEnd])
        for (section, drop) in zip(sections, dropped) where !drop {
            out += text[section.start..<section.end]
        }
        return out
    }

    static func fnmatchMatches(_ pattern: String, _ string: String) -> Bool {
        fnmatch(pattern, string, 0) == 0
    }

    /// Hands `files`, filtered for `dmi`, to the preload shim, which serves them to libinput
    /// until `stopServing()`. Does nothing without the shim (not under the preload). Returns
    /// whether the shim has them.
    @discardableResult
    static func serve(_ files: [File], dmi: String) -> Bool {
        guard let serve = shimServe, !files.isEmpty else { return false }
        let texts = files.map { filtered($0.bytes, dmi: dmi) }
        let names = files.map { strdup($0.name) }
        defer { for n in names { free(n) } }
        let buffers = texts.map { bytes -> UnsafeMutablePointer<CChar>? in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            return p
        }
        defer { for b in buffers { b?.deallocate() } }
        let lengths = texts.map { $0.count }
        names.map { UnsafePointer($0) }.withUnsafeBufferPointer { n in
            buffers.map { UnsafePointer($0) }.withUnsafeBufferPointer { t in
                lengths.withUnsafeBufferPointer { l in
                    serve(directory, Int32(files.count), n.baseAddress, t.baseAddress, l.baseAddress)
                }
            }
        }
        return true
    }

    static func stopServing() {
        shimServe?(nil, 0, nil, nil, nil)
    }

    typealias ServeFunction = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
                                               UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int>?) -> Void
    /// The shim's `seatkit_shim_serve_quirks`, when the shim is loaded (the worker's preload).
    static let shimServe: ServeFunction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "seatkit_shim_serve_quirks") else { return nil }
        return unsafeBitCast(symbol, to: ServeFunction.self)
    }()
}
