import ArgumentParser
import SeatKit
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
        let parsed = try RecordingParser.parse(contentsOf: recording)
        let surfaceLayout = try SurfaceLayout.parse(contentsOf: layout)
        let harness = ReplayHarness(layout: surfaceLayout)
        let run: ReplayRun
        if recordedEvents {
            run = harness.route(try RecordedLibinputEvents.events(of: parsed))
        } else {
            let bar = ProgressBar()
            run = try replayOrExit(harness, parsed, options: ReplayOptions(progress: { bar.update($0, of: $1) }), verbose: verbose)
            bar.finish()
        }
        let svg = SVGPlot(router: harness.router, surfaces: surfaceLayout.surfaces.map(\.name), surfaceMap: harness.surfaces, run: run).render()
        guard writeText(output, svg) else { throw ValidationError("cannot write \(output)") }
        print("wrote \(output): \(run.touchPaths.count) touches, \(run.pointerPath.count) pointer events")
    }
}

struct SVGPlot {
    let router: Router
    let surfaces: [String]
    let surfaceMap: [String: Surface]
    let run: ReplayRun

    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]
    static let nobody = "#7f7f7f"

    func color(_ surface: String?) -> String {
        guard let surface, let i = surfaces.firstIndex(of: surface) else { return Self.nobody }
        return Self.palette[i % Self.palette.count]
    }

    func number(_ v: Double) -> String { "\((v * 10).rounded() / 10)" }

    func render() -> String {
        let b = router.layout.bounds
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(number(b.minX - 10)) \(number(b.minY - 10)) \(number(b.size.width + 20)) \(number(b.size.height + 20))\" font-family=\"sans-serif\" font-size=\"12\">\n"
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
        for path in run.touchPaths {
            let c = color(path.surface)
            let points = path.points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
            out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"3\"/>\n"
            if let first = path.points.first {
                out += "<circle cx=\"\(number(first.x))\" cy=\"\(number(first.y))\" r=\"6\" fill=\"\(c)\"><title>\(path.touch) → \(escape(path.surface ?? "nothing"))</title></circle>\n"
            }
        }
        var previous: (location: LayoutPoint, focus: String?)?
        for step in run.pointerPath {
            if let p = previous {
                out += "<line x1=\"\(number(p.location.x))\" y1=\"\(number(p.location.y))\" x2=\"\(number(step.location.x))\" y2=\"\(number(step.location.y))\" stroke=\"\(color(step.focus))\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>\n"
            }
            previous = step
        }
        return out + "</svg>\n"
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

func writeText(_ path: String, _ text: String) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    return fclose(f) == 0 && n == bytes.count
}
