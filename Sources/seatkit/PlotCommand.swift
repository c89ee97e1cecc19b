import ArgumentParser
import SeatKit
import SeatKitLibinput
import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// `seatkit plot`: the layout's surfaces with the touch and pointer paths of a replay drawn
/// over them, each path coloured like the surface that received it.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw the surfaces and the touch and pointer paths of a replay as SVG."
    )

    @Argument(help: "A recording made with `libinput record`.") var recording: String
    @Option(help: "Outputs and surfaces to route onto.") var layout: String
    @Option(name: .shortAndLong, help: "The SVG file to write.") var output: String
    @Flag(help: "Use the libinput events stored in a --with-libinput recording.") var recordedEvents = false
    @Flag(help: "On a libinput failure, print libinput's log too.") var verbose = false

    func run() throws {
        // An output that cannot be written fails now, not after a long replay.
        if let problem = unwritable(output) { throw CommandFailure("cannot write \(output): \(problem)") }
        let parsed = try parseRecording(recording)
        let surfaceLayout = try SurfaceLayout.parse(contentsOf: layout)
        warnAboutTouchMappings(surfaceLayout, parsed)
        let harness = ReplayHarness(layout: surfaceLayout)
        // Routed as libinput reports each event, keeping only what the drawing needs.
        var plot = PlotData()
        let keep: ([TraceRecord], (location: LayoutPoint, focus: String?)?) -> Void = { records, pointer in
            plot.add(records, pointer: pointer)
        }
        if recordedEvents {
            harness.route(try RecordedLibinputEvents.events(of: parsed), streaming: keep)
        } else {
            let bar = ProgressBar()
            _ = try libinputOrExit(harness, parsed, options: ReplayOptions(progress: { bar.update($0, of: $1) }), verbose: verbose, streaming: keep)
            bar.finish()
        }
        let svg = SVGPlot(router: harness.router, surfaces: surfaceLayout.surfaces.map(\.name), surfaceMap: harness.surfaces, plot: plot).render()
        guard writeText(output, svg) else { throw CommandFailure("cannot write \(output): \(String(cString: strerror(errno)))") }
        print("wrote \(output): \(plot.touchPaths.count) touches, \(plot.pointerPath.count) pointer events, \(plot.gestures.count) touchpad gestures, \(plot.penStrokes.count) pen strokes")
    }
}

/// What a plot draws, gathered event by event from the routing's trace records: each touch's
/// points and surface, the pointer's path with its focus and where buttons went down, and
/// each touchpad gesture from where the pointer was. Nothing else of a replay is kept.
struct PlotData {
    private var touches = TouchPathCollector()
    var touchPaths: [(touch: TouchID, surface: String?, points: [LayoutPoint])] { touches.paths }
    /// The pointer's layout-space location after each pointer motion or button, and the
    /// surface that had pointer focus.
    private(set) var pointerPath: [(location: LayoutPoint, focus: String?)] = []
    /// Indexes into ``pointerPath`` of button presses.
    private(set) var presses: Set<Int> = []
    private(set) var gestures: [SVGPlot.Gesture] = []
    private var currentGesture: SVGPlot.Gesture?

    /// Takes the records of one routed event (and any before it), with the pointer's step
    /// when the event was pointer motion or a button.
    mutating func add(_ records: [TraceRecord], pointer: (location: LayoutPoint, focus: String?)?) {
        for record in records {
            touches.add(record)
            guard case .received(let e) = record else { continue }
            switch e.kind {
            case .pointerButton(_, .pressed): presses.insert(pointerPath.count)
            case .touchpadGesture(let g): add(g)
            case .tablet(let t) where t.isToolEvent: addPen(t)
            default: break
            }
        }
        if let pointer { pointerPath.append(pointer) }
    }

    /// One pen stroke, tip down to tip up: layout-space points with the pressure at each.
    struct PenStroke {
        var eraser: Bool
        var points: [(location: LayoutPoint, pressure: Double)]
    }
    private(set) var penStrokes: [PenStroke] = []
    private var currentStroke: PenStroke?

    /// A tablet-tool event: the tip starts a stroke, motion while down extends it, the tip's
    /// up ends it.
    private mutating func addPen(_ t: TabletEvent) {
        guard let p = t.position else { return }
        switch t.kind {
        case .toolTip where t.value == 1:
            currentStroke = PenStroke(eraser: t.tool.isEraser, points: [(p, t.axes.pressure)])
        case .toolAxis:
            currentStroke?.points.append((p, t.axes.pressure))
        case .toolTip, .toolProximity:
            if var stroke = currentStroke {
                stroke.points.append((p, t.axes.pressure))
                penStrokes.append(stroke)
                currentStroke = nil
            }
        default: break
        }
    }

    /// A touchpad gesture phase: a gesture starts where the pointer was and follows the
    /// fingers' unaccelerated motion from there.
    private mutating func add(_ g: TouchpadGesture) {
        let pointer = pointerPath.last?.location ?? LayoutPoint(x: 0, y: 0)
        switch g.phase {
        case .begin:
            currentGesture = SVGPlot.Gesture(kind: g.kind, fingers: g.fingers, start: pointer, path: [pointer], scale: g.scale, cancelled: false)
        case .update:
            if var c = currentGesture, let last = c.path.last {
                c.path.append(LayoutPoint(x: last.x + g.unacceleratedDelta.dx, y: last.y + g.unacceleratedDelta.dy))
                c.scale = g.scale
                currentGesture = c
            }
        case .end(let cancelled):
            if var c = currentGesture {
                c.cancelled = cancelled
                gestures.append(c)
            }
            currentGesture = nil
        }
    }
}

struct SVGPlot {
    let router: Router
    let surfaces: [String]
    let surfaceMap: [String: Surface]
    let plot: PlotData

    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]
    static let nobody = "#7f7f7f"

    func color(_ surface: String?) -> String {
        guard let surface, let i = surfaces.firstIndex(of: surface) else { return Self.nobody }
        return Self.palette[i % Self.palette.count]
    }

    func number(_ v: Double) -> String { "\((v * 10).rounded() / 10)" }

    func render() -> String {
        let b = router.layout.bounds
        // The legend stands to the right of the outputs, outside the drawing, so that it
        // covers nothing (the pointer starts at the top-left corner).
        let width = b.size.width + 20 + Self.legendGap + Self.legendWidth + 10
        let height = max(b.size.height, legendHeight) + 20
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(number(b.minX - 10)) \(number(b.minY - 10)) \(number(width)) \(number(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"\(Self.gestureColor)\"/></marker></defs>\n"
        for output in router.layout.outputs {
            let f = output.layoutFrame
            out += "<rect x=\"\(number(f.minX))\" y=\"\(number(f.minY))\" width=\"\(number(f.size.width))\" height=\"\(number(f.size.height))\" fill=\"#fafafa\" stroke=\"#000\"/>\n"
            out += "<text x=\"\(number(f.minX + 4))\" y=\"\(number(f.maxY - 4))\">\(escape(output.name)) \(output.transform)</text>\n"
        }
        for name in surfaces {
            guard let s = surfaceMap[name], let origin = s.layoutOrigin else { continue }
            let c = color(name)
            out += "<rect x=\"\(number(origin.x))\" y=\"\(number(origin.y))\" width=\"\(number(s.frame.size.width))\" height=\"\(number(s.frame.size.height))\" fill=\"\(c)\" fill-opacity=\"0.12\" stroke=\"\(c)\"/>\n"
            out += "<text x=\"\(number(origin.x + 4))\" y=\"\(number(origin.y + 14))\" fill=\"\(c)\">\(escape(name))</text>\n"
        }
        for path in plot.touchPaths {
            let c = color(path.surface)
            let points = path.points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
            out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"3\"/>\n"
            if let first = path.points.first {
                out += "<circle cx=\"\(number(first.x))\" cy=\"\(number(first.y))\" r=\"6\" fill=\"\(c)\"><title>\(path.touch) → \(escape(path.surface ?? "nothing"))</title></circle>\n"
            }
        }
        // The pointer: one polyline per run of the same focus, dashed, with a dot where it
        // was when a button went down.
        var segment: [LayoutPoint] = []
        var segmentFocus: String?? = .none
        func flushPointer() {
            if segment.count > 1 {
                let points = segment.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
                out += "<polyline class=\"pointer\" points=\"\(points)\" fill=\"none\" stroke=\"\(color(segmentFocus ?? nil))\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n"
            }
        }
        let presses = plot.presses
        for (index, step) in plot.pointerPath.enumerated() {
            if segmentFocus == nil || segmentFocus! != step.focus {
                flushPointer()
                segment = segment.last.map { [$0] } ?? []
                segmentFocus = .some(step.focus)
            }
            segment.append(step.location)
            if presses.contains(index) {
                out += "<circle class=\"press\" cx=\"\(number(step.location.x))\" cy=\"\(number(step.location.y))\" r=\"4\" fill=\"none\" stroke=\"\(color(step.focus))\" stroke-width=\"2\"/>\n"
            }
        }
        flushPointer()
        // Touchpad gestures: where the pointer was, then the fingers' unaccelerated motion
        // (swipes) or a ring per scale step (pinches); holds are a square.
        for var g in plot.gestures {
            g.fit(in: b)
            let c = Self.gestureColor
            if g.kind == .swipe || g.kind == .pinch, g.path.count > 1 {
                let points = g.path.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
                out += "<polyline class=\"gesture\" points=\"\(points)\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"3\" marker-end=\"url(#arrow)\"/>\n"
            }
            if g.kind == .pinch {
                out += "<circle class=\"gesture\" cx=\"\(number(g.start.x))\" cy=\"\(number(g.start.y))\" r=\"\(number(20 * g.scale))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2\"/>\n"
            }
            if g.kind == .hold {
                out += "<rect class=\"gesture\" x=\"\(number(g.start.x - 6))\" y=\"\(number(g.start.y - 6))\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2\"/>\n"
            }
            // The label above the start, or below it where that would leave the drawing.
            let labelY = g.start.y - 8 >= b.minY + 14 ? g.start.y - 8 : g.start.y + 20
            out += "<text class=\"gesture\" x=\"\(number(g.start.x + 8))\" y=\"\(number(labelY))\" fill=\"\(c)\">\(g.fingers)-finger \(g.kind)\(g.cancelled ? " (cancelled)" : "")</text>\n"
        }
        // Pen strokes: one segment per step, as wide as the pressure at its end (1 to 10).
        for stroke in plot.penStrokes {
            let c = stroke.eraser ? "#e377c2" : "#000000"
            for (a, b) in zip(stroke.points, stroke.points.dropFirst()) {
                out += "<line class=\"pen\" x1=\"\(number(a.location.x))\" y1=\"\(number(a.location.y))\" x2=\"\(number(b.location.x))\" y2=\"\(number(b.location.y))\" stroke=\"\(c)\" stroke-width=\"\(number(1 + 9 * max(0, min(1, b.pressure))))\" stroke-linecap=\"round\"/>\n"
            }
        }
        return out + legend() + "</svg>\n"
    }

    static let gestureColor = "#6a3d9a"

    struct Gesture {
        var kind: TouchpadGesture.Kind
        var fingers: Int
        var start: LayoutPoint
        var path: [LayoutPoint]
        var scale: Double
        var cancelled: Bool

        /// Keeps the drawing inside `bounds` (layout space), 12 points from its edges: a path
        /// that would leave it (a touchpad's unaccelerated motion from the pointer's place is
        /// in device units, not layout points) is moved in, keeping its shape, and shrunk
        /// toward its start only if it is larger than the bounds.
        mutating func fit(in bounds: LayoutRect) {
            let inset = 12.0
            let minX = bounds.minX + inset, maxX = bounds.maxX - inset, minY = bounds.minY + inset, maxY = bounds.maxY - inset
            guard minX < maxX, minY < maxY else { return }
            let dxs = path.map { $0.x - start.x } + [0], dys = path.map { $0.y - start.y } + [0]
            let (loX, hiX, loY, hiY) = (dxs.min()!, dxs.max()!, dys.min()!, dys.max()!)
            let factor = min(1, (maxX - minX) / max(hiX - loX, 1e-9), (maxY - minY) / max(hiY - loY, 1e-9))
            let x = min(max(start.x, minX - loX * factor), maxX - hiX * factor)
            let y = min(max(start.y, minY - loY * factor), maxY - hiY * factor)
            let origin = start
            start = LayoutPoint(x: x, y: y)
            path = path.map { LayoutPoint(x: x + ($0.x - origin.x) * factor, y: y + ($0.y - origin.y) * factor) }
        }
    }

    static let legendWidth = 190.0
    static let legendGap = 20.0
    var legendRows: [(String, String)] { surfaces.map { (color($0), $0) } + [(Self.nobody, "no surface")] }
    var legendHeight: Double { Double(legendRows.count + 4) * 16 + 8 }

    /// What each colour and mark means, to the right of the outputs.
    func legend() -> String {
        let b = router.layout.bounds
        let rows = legendRows
        var out = "<g class=\"legend\" transform=\"translate(\(number(b.maxX + Self.legendGap)),\(number(b.minY)))\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(number(Self.legendWidth))\" height=\"\(number(legendHeight))\" fill=\"#ffffff\" stroke=\"#999\"/>\n"
        var y = 16.0
        for (c, name) in rows {
            out += "<rect x=\"8\" y=\"\(number(y - 10))\" width=\"12\" height=\"12\" fill=\"\(c)\"/><text x=\"26\" y=\"\(number(y))\">\(escape(name))</text>\n"
            y += 16
        }
        out += "<line x1=\"8\" y1=\"\(number(y - 4))\" x2=\"20\" y2=\"\(number(y - 4))\" stroke=\"#000\" stroke-width=\"3\"/><text x=\"26\" y=\"\(number(y))\">touch (dot: down)</text>\n"
        y += 16
        out += "<line x1=\"8\" y1=\"\(number(y - 4))\" x2=\"20\" y2=\"\(number(y - 4))\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/><text x=\"26\" y=\"\(number(y))\">pointer (ring: press)</text>\n"
        y += 16
        out += "<line x1=\"8\" y1=\"\(number(y - 4))\" x2=\"20\" y2=\"\(number(y - 4))\" stroke=\"\(Self.gestureColor)\" stroke-width=\"3\"/><text x=\"26\" y=\"\(number(y))\">touchpad gesture</text>\n"
        y += 16
        out += "<text x=\"8\" y=\"\(number(y))\" fill=\"#555\">colour: who received it</text>\n"
        return out + "</g>\n"
    }

    func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// Why `path` cannot be written, or nil if it can (an existing file writable, or a new one
/// in a writable directory). Checked before a replay.
/// Why `path` cannot be written, or nil: checked before any work. The file is opened for
/// writing (and removed again if it did not exist), so that whatever would refuse the final
/// write (permissions, a read-only or virtual file system, a missing directory) refuses now.
func unwritable(_ path: String) -> String? {
    var status = stat()
    let existed = stat(path, &status) == 0
    if existed && (status.st_mode & S_IFMT) == S_IFDIR { return "it is a directory" }
    let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    let dir = directory.isEmpty ? "/" : directory
    if access(dir, F_OK) != 0 { return "the directory \(dir) does not exist" }
    // No O_TRUNC: an existing file keeps its contents until the result replaces them.
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    close(fd)
    if !existed { unlink(path) }
    return nil
}

/// A failure the tool reports as one line, `Error: <description>`, with exit status 1 and
/// without the usage text (which is for mistakes in the command line itself).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func writeText(_ path: String, _ text: String) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    return fclose(f) == 0 && n == bytes.count
}
