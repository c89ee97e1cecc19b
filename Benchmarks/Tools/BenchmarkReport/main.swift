// Runs SeatKit and its peers side by side (wlroots on identical trees, bare xkbcommon on
// the same keys, PyYAML on the same recordings), interleaved round by round so that both
// see the same machine noise, and prints the tables of docs/BENCHMARKS.md.
//
//   swift run -c release BenchmarkReport [--rounds N] [--svg path] [--filter "10 nested"]
//       [--only hit-testing,per-event,c-api,keys,replay,replay-speed,replay-warm,memory,replay-memory]
// Replay needs `seatkit` built beside it and the recordings in $SEATKIT_RECORDINGS
// (default ../../shared/recordings, from Benchmarks/).
import ArgumentParser
import Glibc
import ProcessCounters
import ThreadAllocations
import HitTestWorkloads
import RoutingWorkloads
import SeatKit

/// The sections a run can print, in the order it prints them.
enum Section: String, CaseIterable, ExpressibleByArgument {
    case hitTesting = "hit-testing"
    case perEvent = "per-event"
    /// The C API (libCSeatKit.so) against the Swift API on the same scenes.
    case cAPI = "c-api"
    case keys
    case replay
    /// Issue 14: × real time, start-up and parse throughput of replays.
    case replaySpeed = "replay-speed"
    /// Warm `ReplaySession` replays of every shared recording, round-robin, many rounds.
    case replayWarm = "replay-warm"
    case memory
    /// The million-event replay (about five minutes): not part of the default run.
    case replayMemory = "replay-memory"

    static let defaults: [Section] = [.hitTesting, .perEvent, .cAPI, .keys, .replay, .replaySpeed, .memory]
}

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "BenchmarkReport",
        abstract: "Runs SeatKit and its peers (wlroots, xkbcommon, PyYAML) interleaved and prints the tables of docs/BENCHMARKS.md.")

    @Option(help: "Samples per side and case (medians are reported).")
    var rounds = 31

    @Option(help: "Writes the hit-testing plot (SVG) to this path.")
    var svg: String?

    @Option(parsing: .upToNextOption,
            help: "Runs only these sections: \(Section.allCases.map(\.rawValue).joined(separator: ", ")) (space or comma separated).")
    var only: [String] = []

    @Option(help: "Runs only the hit-testing cases whose name (\"1000 nested random\") contains this.")
    var filter: String?

    @Flag(name: .customLong("only-hit-testing"), help: "Same as --only hit-testing.")
    var onlyHitTesting = false

    @Flag(help: "One pass per side and case between callgrind client requests, for callgrind-counts.sh (with --only keys: callgrind-keys.sh; with --only c-api: callgrind-capi.sh); measures no time.")
    var callgrind = false

    func validate() throws {
        for name in requestedSectionNames where Section(rawValue: name) == nil {
            throw ValidationError("unknown section '\(name)'; sections: \(Section.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    private var requestedSectionNames: [String] {
        only.flatMap { $0.split(separator: ",").map(String.init) }
    }

    var sections: Set<Section> {
        if onlyHitTesting || filter != nil { return [.hitTesting] }
        let requested = requestedSectionNames.compactMap(Section.init(rawValue:))
        return Set(requested.isEmpty ? Section.defaults : requested)
    }

    func run() {
        if callgrind {
            // Instructions of the key sides with `--only keys`, else of the hit-testing cases.
            if sections == [.keys] {
                countKeyInstructions()
            } else if sections == [.cAPI] {
                countCAPIInstructions()
            } else {
                countInstructions(filter: filter)
            }
            return
        }
        let sections = self.sections
        if sections.contains(.hitTesting) {
            print("## Hit-testing: SeatKit against wlroots 0.15 `wlr_scene_node_at`\n")
            let hitTesting = measureHitTesting(rounds: rounds, filter: filter)
            printHitTestingTable(hitTesting)
            if let svg { writePlot(hitTesting, to: svg) }
        }
        if sections.contains(.perEvent) {
            print("\n## Per-event path\n")
            printPerEventTable(rounds: rounds)
        }
        if sections.contains(.cAPI) {
            print("\n## The C API against the Swift API\n")
            printCAPITable(rounds: rounds)
        }
        if sections.contains(.keys) {
            print("\n## Key press to text: SeatKit (router + SeatKitXKB) against xkbcommon called directly\n")
            printKeyTextTable(rounds: rounds)
        }
        if sections.contains(.replay) {
            print("\n## Replay through real libinput under umockdev\n")
            printReplayTables(rounds: rounds)
        }
        if sections.contains(.replaySpeed) {
            print("\n## Replay speed against the recordings' own duration\n")
            printReplaySpeedTable(rounds: rounds)
        }
        if sections.contains(.replayWarm) {
            print("\n## Warm replays (one ReplaySession)\n")
            printWarmReplayTable(rounds: rounds)
        }
        if sections.contains(.memory) {
            print("\n## Memory\n")
            printMemoryTable()
        }
        if sections.contains(.replayMemory) {
            print("\n## Memory over a replay of a million libinput events\n")
            printReplayMemoryTable()
        }
        print("\nchecksum \(sink & 0xff)")
    }
}

func nanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Passes over the point set that take about `target` ns, from one timed pass.
func passes(for target: UInt64, _ body: (Int) -> Int) -> Int {
    let start = nanoseconds()
    sink &+= body(1)
    let one = max(nanoseconds() - start, 1)
    return max(1, Int(target / one))
}

nonisolated(unsafe) var sink = 0

struct HitTestResult {
    var workload: String
    var count: Int32
    var shape: HitTestWorkload.Shape
    var points: HitTestWorkload.Points
    var seatKit: Double
    var wlroots: Double
    var disagreements: Int
    var missesBesideOutput: Int32
    /// Instructions per query, where the kernel lets us count them.
    var seatKitInstructions: Double?
    var wlrootsInstructions: Double?
    var ratio: Double { wlroots / seatKit }
}

func measureHitTesting(rounds: Int, filter: String?) -> [HitTestResult] {
    var results: [HitTestResult] = []
    for count in HitTestWorkload.sizes {
        for shape in HitTestWorkload.Shape.allCases {
            for points in HitTestWorkload.Points.allCases {
                if let filter, !"\(count) \(shape.rawValue) \(points.rawValue)".contains(filter) { continue }
                let w = HitTestWorkload(count: count, shape: shape, points: points)
                let perPass = Double(w.queries.count)
                // Warm both, then size each sample to about 1 ms: short enough that many
                // samples fall between the preemptions of a busy machine.
                sink &+= w.runSeatKit(rounds: 2) &+ w.runWlroots(rounds: 2)
                let seatKitPasses = passes(for: 1_000_000, w.runSeatKit)
                let wlrootsPasses = passes(for: 1_000_000, w.runWlroots)
                var seatKitSamples: [Double] = [], wlrootsSamples: [Double] = []
                for round in 0..<rounds {
                    // Alternate which side goes first, so neither always gets the warmer cache.
                    for side in (round & 1 == 0 ? [0, 1] : [1, 0]) {
                        let start = nanoseconds()
                        if side == 0 {
                            sink &+= w.runSeatKit(rounds: seatKitPasses)
                            seatKitSamples.append(Double(nanoseconds() - start) / (perPass * Double(seatKitPasses)))
                        } else {
                            sink &+= w.runWlroots(rounds: wlrootsPasses)
                            wlrootsSamples.append(Double(nanoseconds() - start) / (perPass * Double(wlrootsPasses)))
                        }
                    }
                }
                let result = HitTestResult(workload: w.name, count: count, shape: shape, points: points,
                                           seatKit: median(seatKitSamples), wlroots: median(wlrootsSamples),
                                           disagreements: w.disagreements(), missesBesideOutput: w.missesBesideOutput,
                                           seatKitInstructions: instructionsPerQuery(w.runSeatKit, perPass: perPass),
                                           wlrootsInstructions: instructionsPerQuery(w.runWlroots, perPass: perPass))
                results.append(result)
                FileHandle.standardError.write("\(result.workload): SeatKit \(format(result.seatKit)) ns, wlroots \(format(result.wlroots)) ns\n")
            }
        }
    }
    return results
}

let instructionCounter = instruction_counter_open()

/// Instructions per query over one warm pass, or nil without a counter.
func instructionsPerQuery(_ body: (Int) -> Int, perPass: Double) -> Double? {
    guard instructionCounter >= 0 else { return nil }
    let before = instruction_counter_read(instructionCounter)
    sink &+= body(1)
    return Double(instruction_counter_read(instructionCounter) - before) / perPass
}

func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    if value >= 10 { return String(Double(Int(value * 10)) / 10) }
    return String(Double(Int(value * 100)) / 100)
}

enum FileHandle {
    case standardError
    func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

func printHitTestingTable(_ results: [HitTestResult]) {
    // Instruction counts only where the kernel lets this process count them.
    let counted = results.allSatisfy { $0.seatKitInstructions != nil && $0.wlrootsInstructions != nil }
    print("| rects | tree | points | SeatKit ns/query | wlroots ns/query | wlroots ÷ SeatKit |" + (counted ? " SeatKit instr/query | wlroots instr/query |" : "") + " same answers |")
    print("|---:|---|---|---:|---:|---:|" + (counted ? "---:|---:|" : "") + "---|")
    for r in results {
        let note = r.missesBesideOutput > 0 ? " ¹" : ""
        let agree = r.disagreements == 0 ? "all \(HitTestWorkload.pointCount)" : "\(r.disagreements) differ"
        var row = "| \(r.count) | \(r.shape.rawValue) | \(r.points.rawValue)\(note) | \(format(r.seatKit)) | \(format(r.wlroots)) | \(format(r.ratio))× |"
        if counted, let s = r.seatKitInstructions, let w = r.wlrootsInstructions { row += " \(format(s)) | \(format(w)) |" }
        print(row + " \(agree) |")
    }
    if results.contains(where: { $0.missesBesideOutput > 0 }) {
        print("\n¹ The rectangles cover the whole output, so misses come from the strip beside it.")
    }
}

// MARK: Per-event path

/// Median ns per event over `rounds` batches of 100,000, and heap allocations per event on
/// this thread over all of them, after 10,000 warm-up events.
func timePerEvent(rounds: Int, _ body: (Int) -> Void) -> (ns: Double, allocations: Double) {
    var step = 0
    for _ in 0..<10_000 { body(step); step += 1 }
    // SEATKIT_PER_EVENT_CALLS=N: N calls a round instead of 100,000 (callgrind counts
    // instructions per call exactly with far fewer; Benchmarks/callgrind-per-event.sh).
    let calls = getenv("SEATKIT_PER_EVENT_CALLS").flatMap { Int(String(cString: $0)) } ?? 100_000
    var samples: [Double] = []
    samples.reserveCapacity(rounds)
    var allocations: UInt64 = 0
    for _ in 0..<rounds {
        let before = seatkit_thread_allocations()
        let start = nanoseconds()
        var i = 0
        while i < calls {
            body(step)
            step += 1
            i += 1
        }
        let elapsed = nanoseconds() - start
        allocations += seatkit_thread_allocations() - before
        samples.append(Double(elapsed) / Double(calls))
    }
    return (median(samples), Double(allocations) / Double(rounds * calls))
}

func heapInUse() -> Int { Int(heap_bytes_in_use()) }

func printPerEventTable(rounds: Int) {
    // SEATKIT_ACCESSIBILITY=off or on: the eight accessibility filters in front (issue 28;
    // Benchmarks/callgrind-per-event.sh passes the environment on).
    // SEATKIT_ACCESSIBILITY_ONLY=NAME: that filter alone (RoutingScene.accessibilityFilterNames).
    let accessibility = getenv("SEATKIT_ACCESSIBILITY").map { String(cString: $0) }
    let only = getenv("SEATKIT_ACCESSIBILITY_ONLY").map { String(cString: $0) }
    // SEATKIT_ACCESSIBILITY_UNDERWAY=1: the touch fingers are held by touch accommodations
    // and counted, and the pointer moves with the primary button held (simulated secondary
    // click's hold under way); with no filter, the same fingers and the same held button.
    let underway = getenv("SEATKIT_ACCESSIBILITY_UNDERWAY") != nil
    // SEATKIT_SPIES=cursor: a kiosk's cursor-visibility spy (``CursorVisibility``: touch downs
    // and pointer events) on each scene's router: what a spy costs the events it does not
    // want (issue 25, tenth round).
    let cursorSpy = getenv("SEATKIT_SPIES").map { String(cString: $0) } == "cursor"
    func scene() -> RoutingScene {
        let scene = RoutingScene()
        if let accessibility { scene.addAccessibilityFilters(enabled: accessibility == "on", only: only, underway: underway) }
        if cursorSpy { scene.router.addSpy(CursorVisibility()) }
        return scene
    }
    let touch = scene()
    // SEATKIT_RECOGNIZERS=N: N recognizers in front of the chain instead of two (N − 2 more
    // pans, all possible); SEATKIT_FAILED_RECOGNIZERS=N: N more pans that have failed (issue 30).
    let recognizers = getenv("SEATKIT_RECOGNIZERS").flatMap { Int(String(cString: $0)) } ?? 2
    touch.addPans(max(0, recognizers - 2))
    if let failed = getenv("SEATKIT_FAILED_RECOGNIZERS").flatMap({ Int(String(cString: $0)) }) { touch.addPans(failed, failed: true) }
    // SEATKIT_COMPOSED=1: the two recognizers as one simultaneous composite (issue 30, goal 3).
    if getenv("SEATKIT_COMPOSED") != nil { touch.composeRecognizers() }
    // SEATKIT_READ_VELOCITY=1: the pan's velocity is read after every motion (its fit runs).
    touch.readsVelocity = getenv("SEATKIT_READ_VELOCITY") != nil
    // SEATKIT_ALL_FAILED=1: the scene's two recognizers fail at once (the pan on the second
    // finger, the long press on the first motion), as a long press does once the finger has
    // moved: what a touch whose recognizers have all settled costs per motion (issue 25,
    // twelfth round).
    if getenv("SEATKIT_ALL_FAILED") != nil {
        touch.pan.maximumNumberOfTouches = 1
        touch.longPress.allowableMovement = 0.001
    }
    if underway { touch.holdFingersDown() } else { touch.putTwoFingersDown() }
    let touchResult = timePerEvent(rounds: rounds) { touch.moveFinger(Int32($0 & 1), step: $0) }

    let pointer = scene()
    if underway { pointer.holdPrimaryButton() }
    let pointerResult = timePerEvent(rounds: rounds) { pointer.movePointerAcross(step: $0) }

    let keys = scene()
    keys.focusLeaf()
    let keyResult = timePerEvent(rounds: rounds) { keys.send(.key(keycode: 30, state: $0 & 1 == 0 ? .pressed : .released)) }

    let pen = scene()
    pen.putPenDown()
    let penResult = timePerEvent(rounds: rounds) { pen.movePen(step: $0) }
    precondition(pen.penStrokeIsFollowed, "the pen workload's recognizers or chain did not follow the stroke")

    // A one-finger tap on the leaf (down + frame, up + frame) on a scene with no finger down,
    // through the scene's two recognizers (and the SEATKIT_RECOGNIZERS pans), then again with
    // the Swift kiosk's three-finger window switch on the output (issue 25, fourteenth round:
    // the touchscreen's downs and ups). Warmed by one tap.
    func tapScene(withSwitch: Bool) -> RoutingScene {
        let tap = scene()
        tap.addPans(max(0, recognizers - 2))
        if withSwitch { tap.addWindowSwitch() }
        if withSwitch { tap.tapFingerBesideSwitch(step: 0) } else { tap.tapFinger(step: 0) }
        return tap
    }
    let tap = tapScene(withSwitch: false)
    let tapResult = timePerEvent(rounds: rounds) { tap.tapFinger(step: $0) }
    precondition(tap.tapsReachedTheChain, "the tap workload's touches did not reach the chain")
    let tapSwitch = tapScene(withSwitch: true)
    let tapSwitchResult = timePerEvent(rounds: rounds) { tapSwitch.tapFingerBesideSwitch(step: $0) }
    precondition(tapSwitch.tapsReachedTheChain && tapSwitch.switchCount == 0, "the tap workload's touches did not reach the chain")
    // A short press held by a delaying long press on the leaf (the wlroots kiosk's per app
    // surface): down, a small move and up, each in a frame, the down and move held until the
    // long press fails at the lift (issue 25, eighteenth round: the held path). Warmed by one.
    let held = scene()
    held.addPans(max(0, recognizers - 2))
    held.addDelayingLongPress()
    held.tapFingerHeld(step: 0)
    let heldResult = timePerEvent(rounds: rounds) { held.tapFingerHeld(step: $0) }
    precondition(held.tapsReachedTheChain && held.heldPress?.state == .possible, "the held-tap workload's touches did not reach the chain")

    print("| event | ns/event (median of \(rounds) × 100,000) | allocations/event once warm (this thread) |")
    print("|---|---:|---:|")
    print("| touch motion + frame → bound leaf, two recognizers (pan on d0, long press on the leaf, both possible), five-deep chain | \(format(touchResult.ns)) | \(touchResult.allocations) |")
    print("| pointer motion → hit-test, leave + enter, motion up the chain | \(format(pointerResult.ns)) | \(pointerResult.allocations) |")
    print("| key press or release → first responder (no key interpreter) | \(format(keyResult.ns)) | \(keyResult.allocations) |")
    print("| pen motion in contact → the same two recognizers (following the stroke), bound leaf, five-deep chain | \(format(penResult.ns)) | \(penResult.allocations) |")
    print("| tap (down + frame, up + frame; four events) → bound leaf, the same two recognizers, five-deep chain | \(format(tapResult.ns)) | \(tapResult.allocations) |")
    print("| the same tap with a three-finger window switch on the output | \(format(tapSwitchResult.ns)) | \(tapSwitchResult.allocations) |")
    print("| held tap (down + frame, move + frame, up + frame; six events) → a delaying long press on the leaf holds the down and move until it fails at the lift | \(format(heldResult.ns)) | \(heldResult.allocations) |")
}

// MARK: Memory

func printMemoryTable() {
    // Bytes per surface: 10,000 surfaces in a tree, heap in use before and after.
    let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1920, height: 1080))
    let before = heapInUse()
    var parent = root
    for i in 0..<10_000 {
        let s = Surface(frame: SurfaceRect(x: Double(i % 1900), y: Double(i % 1000), width: 20, height: 20))
        (i % 10 == 0 ? root : parent).addChild(s)
        if i % 10 == 0 { parent = s }
    }
    _ = root.hitTest(SurfacePoint(x: 5, y: 5))  // builds any lazy hit-testing index
    let perSurface = Double(heapInUse() - before) / 10_000

    // Bytes per active touch: ten fingers down on a fresh router, moved once (each touch
    // records who saw it).
    let touches = RoutingScene()
    touches.putTwoFingersDown()
    touches.send(.touchUp(TouchID(0)))
    touches.send(.touchUp(TouchID(1)))
    touches.send(.touchFrame)
    let touchBefore = heapInUse()
    for id in 0..<10 { touches.send(.touchDown(TouchID(Int32(10 + id)), LayoutPoint(x: 60 + Double(id), y: 60))) }
    touches.send(.touchFrame)
    for id in 0..<10 { touches.send(.touchMotion(TouchID(Int32(10 + id)), LayoutPoint(x: 61 + Double(id), y: 60))) }
    touches.send(.touchFrame)
    let perTouch = Double(heapInUse() - touchBefore) / 10

    // Growth over a million events through the router, after one warm cycle.
    let stream = RoutingScene()
    stream.focusLeaf()
    stream.sendMixedCycle(0)
    let streamBefore = heapInUse()
    let allocationsBefore = seatkit_thread_allocations()
    let cycles = 1_000_000 / RoutingScene.eventsPerMixedCycle + 1
    var step = 0
    while step < cycles {
        stream.sendMixedCycle(step)
        step += 1
    }
    let streamAllocations = seatkit_thread_allocations() - allocationsBefore
    let growth = heapInUse() - streamBefore

    print("| measure | bytes |")
    print("|---|---:|")
    print("| heap per surface (10,000 in a tree, 10 children per parent) | \(format(perSurface)) |")
    print("| heap per active touch (10 fingers down and moved, pool empty) | \(format(perTouch)) |")
    print("| heap growth over \(cycles * RoutingScene.eventsPerMixedCycle) injected events (mixed stream) | \(growth) |")
    print("\nAllocations on the router's thread over those events: \(streamAllocations).")
}

// MARK: Plot

/// "10 ns", "1 µs", "100 µs" for the decade 10^exponent ns.
func durationLabel(_ exponent: Double) -> String {
    let e = Int(exponent)
    let units = ["ns", "µs", "ms", "s"]
    let unit = Swift.min(Swift.max(e, 0) / 3, units.count - 1)
    var value = 1
    for _ in 0..<(e - unit * 3) { value *= 10 }
    return "\(value) \(units[unit])"
}

func writePlot(_ results: [HitTestResult], to path: String) {
    let panelWidth = 420.0, panelHeight = 300.0, left = 70.0, top = 40.0, gap = 80.0
    let width = left + 2 * panelWidth + gap + 30, height = top + panelHeight + 110
    let minNs = max(1, results.map { min($0.seatKit, $0.wlroots) }.min() ?? 1)
    let maxNs = results.map { max($0.seatKit, $0.wlroots) }.max() ?? 1
    let lowDecade = floor(log10(minNs)), highDecade = ceil(log10(maxNs))
    func y(_ ns: Double) -> Double { top + panelHeight * (1 - (log10(ns) - lowDecade) / (highDecade - lowDecade)) }
    func x(_ count: Int32, panel: Int) -> Double {
        let origin = left + Double(panel) * (panelWidth + gap)
        return origin + panelWidth * (log10(Double(count)) - 1) / 3
    }
    var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
    <rect width="100%" height="100%" fill="white"/>
    <text x="\(Int(width / 2))" y="20" text-anchor="middle" font-size="14">Hit-test time per query against tree size (log–log; lower is better)</text>

    """
    let colors = ["seatkit": "#1f77b4", "wlroots": "#d62728"]
    let dashes: [HitTestWorkload.Points: String] = [.random: "", .hit: "6,3", .miss: "2,3"]
    for (panel, shape) in HitTestWorkload.Shape.allCases.enumerated() {
        let origin = left + Double(panel) * (panelWidth + gap)
        svg += "<text x=\"\(Int(origin + panelWidth / 2))\" y=\"\(Int(top - 8))\" text-anchor=\"middle\">\(shape.rawValue) trees</text>\n"
        svg += "<rect x=\"\(origin)\" y=\"\(top)\" width=\"\(panelWidth)\" height=\"\(panelHeight)\" fill=\"none\" stroke=\"#888\"/>\n"
        var decade = lowDecade
        while decade <= highDecade {
            let yy = y(pow(10, decade))
            svg += "<line x1=\"\(origin)\" y1=\"\(yy)\" x2=\"\(origin + panelWidth)\" y2=\"\(yy)\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(origin - 6)\" y=\"\(yy + 4)\" text-anchor=\"end\">\(durationLabel(decade))</text>\n"
            decade += 1
        }
        for count in HitTestWorkload.sizes {
            svg += "<text x=\"\(x(count, panel: panel))\" y=\"\(top + panelHeight + 16)\" text-anchor=\"middle\">\(count)</text>\n"
        }
        svg += "<text x=\"\(Int(origin + panelWidth / 2))\" y=\"\(Int(top + panelHeight + 34))\" text-anchor=\"middle\">rectangles</text>\n"
        for points in HitTestWorkload.Points.allCases {
            for side in ["seatkit", "wlroots"] {
                let series = results.filter { $0.shape == shape && $0.points == points }
                let coordinates = series.map { r in
                    "\(x(r.count, panel: panel)),\(y(side == "seatkit" ? r.seatKit : r.wlroots))"
                }.joined(separator: " ")
                svg += "<polyline points=\"\(coordinates)\" fill=\"none\" stroke=\"\(colors[side]!)\" stroke-width=\"2\" stroke-dasharray=\"\(dashes[points]!)\"/>\n"
                for r in series {
                    svg += "<circle cx=\"\(x(r.count, panel: panel))\" cy=\"\(y(side == "seatkit" ? r.seatKit : r.wlroots))\" r=\"2.5\" fill=\"\(colors[side]!)\"/>\n"
                }
            }
        }
    }
    // Legend.
    var legendX = left, legendY = top + panelHeight + 60
    for side in ["seatkit", "wlroots"] {
        for points in HitTestWorkload.Points.allCases {
            svg += "<line x1=\"\(legendX)\" y1=\"\(legendY - 4)\" x2=\"\(legendX + 30)\" y2=\"\(legendY - 4)\" stroke=\"\(colors[side]!)\" stroke-width=\"2\" stroke-dasharray=\"\(dashes[points]!)\"/>\n"
            svg += "<text x=\"\(legendX + 36)\" y=\"\(legendY)\">\(side == "seatkit" ? "SeatKit" : "wlroots 0.15"), \(points.rawValue) points</text>\n"
            legendX += 160
        }
        legendX = left
        legendY += 20
    }
    svg += "</svg>\n"
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    fputs(svg, file)
    fclose(file)
}

// MARK: Instruction counts

/// One warm pass per side and case, each between callgrind client requests named
/// "seatkit <case>" and "wlroots <case>".
func countInstructions(filter: String?) {
    precondition(running_under_valgrind() != 0, "run through Benchmarks/callgrind-counts.sh")
    for count in HitTestWorkload.sizes {
        for shape in HitTestWorkload.Shape.allCases {
            for points in HitTestWorkload.Points.allCases {
                let w = HitTestWorkload(count: count, shape: shape, points: points)
                if let filter, !w.name.contains(filter) { continue }
                sink &+= w.runSeatKit(rounds: 1) &+ w.runWlroots(rounds: 1)  // builds lazy indexes
                callgrind_begin()
                sink &+= w.runSeatKit(rounds: 1)
                callgrind_end("seatkit \(w.name)")
                callgrind_begin()
                sink &+= w.runWlroots(rounds: 1)
                callgrind_end("wlroots \(w.name)")
            }
        }
    }
}

// MARK: Main

Report.main()
