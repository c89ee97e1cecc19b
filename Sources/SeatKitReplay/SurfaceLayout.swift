import SeatKit
import SeatKitLibinput

/// Outputs and surfaces to replay a recording onto, read from a small text file:
///
/// ```
/// # output NAME WIDTHxHEIGHT [at X,Y] [transform normal|rotated90|…|flipped270] [scale S]
/// #   mode size in pixels (the panel's native orientation), position in layout space
/// output DSI-1 800x480 at 0,0 transform rotated90
/// # surface NAME X,Y,WIDTHxHEIGHT in PARENT   (frame in the parent's space; PARENT is an
/// #   output, meaning its root surface, or an earlier surface)
/// surface panel 0,0,480x800 in DSI-1
/// surface ok-button 300,700,160x60 in panel
/// # touch DEVICE-NAME-PART OUTPUT  maps touch devices whose name contains the part (no spaces)
/// touch Touchscreen DSI-1
/// ```
public struct SurfaceLayout: Sendable {
    public struct OutputSpec: Sendable, Hashable {
        public var name: String
        public var modeSize: Size
        public var position: LayoutPoint
        public var transform: OutputTransform
        public var scale: Double
    }
    public struct SurfaceSpec: Sendable, Hashable {
        public var name: String
        public var frame: SurfaceRect
        /// An output name or an earlier surface's name.
        public var parent: String
    }
    public var outputs: [OutputSpec] = []
    public var surfaces: [SurfaceSpec] = []
    /// (device name part, output name), in file order.
    public var touchMappings: [(device: String, output: String)] = []
    /// Where each of ``touchMappings`` was read: the file and its 1-based line (nil for a
    /// mapping added in code).
    var touchMappingOrigins: [(source: String, line: Int)?] = []

    public init() {}

    static let transforms: [String: OutputTransform] = [
        "normal": .normal, "rotated90": .rotated90, "rotated180": .rotated180, "rotated270": .rotated270,
        "flipped": .flipped, "flipped90": .flipped90, "flipped180": .flipped180, "flipped270": .flipped270,
        "90": .rotated90, "180": .rotated180, "270": .rotated270,
    ]

    public static func parse(contentsOf path: String) throws(RecordingError) -> SurfaceLayout {
        let bytes = try RecordingParser.contents(of: path)
        return try parse(String(decoding: bytes, as: UTF8.self), source: path)
    }

    /// Reads a layout file named relative to the directory of `file` (`#filePath` in a test).
    public static func parse(contentsOf path: String, relativeTo file: String) throws(RecordingError) -> SurfaceLayout {
        try parse(contentsOf: RecordingParser.resolve(path, relativeTo: file))
    }

    public static func parse(_ text: String, source: String) throws(RecordingError) -> SurfaceLayout {
        var layout = SurfaceLayout()
        var names = Set<String>()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            func fail(_ message: String) -> RecordingError { RecordingError(file: source, line: line, message: message) }
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0).trimmingQuotes() }
            guard let keyword = words.first else { continue }
            switch keyword {
            case "output":
                guard words.count >= 3 else { throw fail("expected `output NAME WIDTHxHEIGHT [at X,Y] [transform T] [scale S]`") }
                guard let size = parseSize(words[2]) else { throw fail("`\(words[2])` is not WIDTHxHEIGHT with positive numbers") }
                var spec = OutputSpec(name: words[1], modeSize: size, position: .zero, transform: .normal, scale: 1)
                var i = 3
                while i < words.count {
                    guard i + 1 < words.count else { throw fail("`\(words[i])` needs a value") }
                    let value = words[i + 1]
                    switch words[i] {
                    case "at":
                        guard let p = parsePair(value) else { throw fail("`\(value)` is not X,Y") }
                        spec.position = LayoutPoint(x: p.0, y: p.1)
                    case "transform":
                        guard let t = transforms[value] else { throw fail("unknown transform `\(value)`; use normal, rotated90, rotated180, rotated270, flipped, flipped90, flipped180 or flipped270") }
                        spec.transform = t
                    case "scale":
                        guard let s = Double(value), s > 0, s.isFinite, s <= 16 else { throw fail("scale `\(value)` is not a number in (0, 16]") }
                        spec.scale = s
                    default: throw fail("unknown output setting `\(words[i])`")
                    }
                    i += 2
                }
                guard names.insert(spec.name).inserted else { throw fail("`\(spec.name)` is defined twice") }
                layout.outputs.append(spec)
            case "surface":
                guard words.count == 5, words[3] == "in" else { throw fail("expected `surface NAME X,Y,WIDTHxHEIGHT in PARENT`") }
                let parts = words[2].split(separator: ",")
                guard parts.count == 3, let x = Double(parts[0]), let y = Double(parts[1]), let size = parseSize(String(parts[2])),
                      x.isFinite, y.isFinite else {
                    throw fail("`\(words[2])` is not X,Y,WIDTHxHEIGHT")
                }
                guard names.contains(words[4]) else { throw fail("parent `\(words[4])` is not an output or an earlier surface") }
                guard names.insert(words[1]).inserted else { throw fail("`\(words[1])` is defined twice") }
                layout.surfaces.append(SurfaceSpec(name: words[1], frame: SurfaceRect(x: x, y: y, width: size.width, height: size.height), parent: words[4]))
            case "touch":
                guard words.count == 3 else { throw fail("expected `touch DEVICE-NAME-PART OUTPUT`") }
                guard layout.outputs.contains(where: { $0.name == words[2] }) else { throw fail("`\(words[2])` is not an output defined above") }
                layout.touchMappings.append((words[1], words[2]))
                layout.touchMappingOrigins.append((source, line))
            default:
                throw fail("unknown line `\(keyword)`; expected output, surface or touch")
            }
        }
        guard !layout.outputs.isEmpty else { throw RecordingError(file: source, line: 0, message: "the layout has no output") }
        return layout
    }

    private static func parseSize(_ text: String) -> Size? {
        let p = text.split(separator: "x")
        guard p.count == 2, let w = Double(p[0]), let h = Double(p[1]), w > 0, h > 0, w < 1e6, h < 1e6 else { return nil }
        return Size(width: w, height: h)
    }

    private static func parsePair(_ text: String) -> (Double, Double)? {
        let p = text.split(separator: ",")
        guard p.count == 2, let a = Double(p[0]), let b = Double(p[1]), a.isFinite, b.isFinite else { return nil }
        return (a, b)
    }

    /// One warning per `touch` line whose device name part is in none of `deviceNames` (a
    /// recording's devices): such a line maps nothing, usually because of a typo. Each names
    /// the layout's file and line.
    public func touchMappingsMatchingNothing(deviceNames: [String]) -> [String] {
        touchMappings.indices.compactMap { i in
            let (part, output) = touchMappings[i]
            guard !deviceNames.contains(where: { $0.contains(part) }) else { return nil }
            let origin = i < touchMappingOrigins.count ? touchMappingOrigins[i].map { "\($0.source):\($0.line): " } ?? "" : ""
            return "\(origin)`touch \(part) \(output)` matches no device (the recording has \(deviceNames.map { "\"\($0)\"" }.joined(separator: ", ")))"
        }
    }

    /// The touch mapping the file asks for.
    public var touchMapping: TouchOutputMapping {
        var mapping = TouchOutputMapping()
        for m in touchMappings { mapping.map(m.device, toOutput: m.output) }
        return mapping
    }

    /// Builds the outputs and surfaces in `router`; every surface gets a responder made by
    /// `responder(name)`. Returns the surfaces by name.
    @discardableResult
    public func build(in router: Router, responder: (String) -> any Responder) -> [String: Surface] {
        var parents: [String: Surface] = [:]
        var surfaces: [String: Surface] = [:]
        for o in outputs {
            let output = Output(name: o.name, position: o.position, modeSize: o.modeSize, transform: o.transform, scale: o.scale)
            router.addOutput(output)
            parents[o.name] = output.root
        }
        for s in surfaces_ {
            let surface = Surface(name: s.name, frame: s.frame, responder: responder(s.name))
            parents[s.parent]?.addChild(surface)
            parents[s.name] = surface
            surfaces[s.name] = surface
        }
        return surfaces
    }

    private var surfaces_: [SurfaceSpec] { surfaces }
}

extension String {
    fileprivate func trimmingQuotes() -> String {
        if count >= 2, first == "\"", last == "\"" { return String(dropFirst().dropLast()) }
        return self
    }
}
