import SeatKit
import SeatKitLibinput

/// Writes touchscreen recordings at layout points: taps, swipes and pinches where a test
/// wants them, without a recorded file.
///
/// ```swift
/// let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface ok 600,380,160x60 in DSI-1\n", source: "kiosk")
/// var touch = TouchScript(layout: layout)
/// touch.tap(at: LayoutPoint(x: 680, y: 410))
/// touch.swipe(from: LayoutPoint(x: 100, y: 400), to: LayoutPoint(x: 100, y: 100))
/// touch.pinch(center: LayoutPoint(x: 400, y: 240), fromDistance: 100, toDistance: 300)
/// let run = try ReplayHarness(layout: layout).replay(touch.recording())
/// ```
///
/// Points are in layout space. They become raw coordinates of a synthetic 10-finger
/// touchscreen (``SyntheticDevice/touchscreen(name:width:height:resolution:node:)``) mapped
/// to the output the layout's `touch` lines give it (else the first output), inverting the
/// output's position, transform and scale, so that libinput and the router bring them back to
/// the same layout points (to a fraction of a pixel: the device has 4096 steps per side).
/// Everything goes through real libinput when replayed.
public struct TouchScript {
    public private(set) var device: RecordedDevice
    /// Recording microseconds of the next frame.
    public var time: Int64
    private var script: FrameScript
    private var nextTrackingID: Int32 = 1
    /// Layout point → normalized device point (inverse of the output's mapping).
    private let toNormalized: (LayoutPoint) -> (Double, Double)

    /// `layout` places the outputs; `device` is the touchscreen to write (its name decides
    /// which output it maps to). Starts at `time` µs.
    public init(layout: SurfaceLayout, device: RecordedDevice = SyntheticDevice.touchscreen(), startingAt time: Int64 = 100_000) {
        self.device = device
        self.time = time
        self.script = FrameScript(startingAt: time)
        let router = Router(clock: VirtualClock())
        layout.build(in: router) { _ in ReplayHarness.SurfaceRecorder() }
        let description = DeviceDescription(name: device.name, systemName: "event0", capabilities: .touch)
        let output = layout.touchMapping.outputName(for: description).flatMap { router.layout.output(named: $0) } ?? router.layout.outputs.first
        if let output {
            // The output's mapping is affine: invert it from the images of three points.
            let o = output.layoutPoint(fromNormalized: 0, 0)
            let ex = output.layoutPoint(fromNormalized: 1, 0)
            let ey = output.layoutPoint(fromNormalized: 0, 1)
            let a = ex.x - o.x, b = ey.x - o.x, c = ex.y - o.y, d = ey.y - o.y
            let det = a * d - b * c
            toNormalized = { p in
                let px = p.x - o.x, py = p.y - o.y
                return ((d * px - b * py) / det, (-c * px + a * py) / det)
            }
        } else {
            toNormalized = { p in (p.x, p.y) }
        }
    }

    /// Raw device coordinates for a layout point (libinput: normalized = (v - min) / (max - min + 1)).
    func raw(_ p: LayoutPoint) -> (Int32, Int32) {
        let (nx, ny) = toNormalized(p)
        func axis(_ n: Double, _ code: UInt16) -> Int32 {
            let info = device.absoluteAxes[code] ?? AbsoluteAxisInfo(minimum: 0, maximum: 4095)
            let v = (n * Double(Int64(info.maximum) - Int64(info.minimum) + 1) + Double(info.minimum)).rounded()
            return Int32(max(Double(info.minimum), min(Double(info.maximum), v)))
        }
        return (axis(nx, EvdevCodes.ABS_MT_POSITION_X), axis(ny, EvdevCodes.ABS_MT_POSITION_Y))
    }

    private mutating func frame(_ events: [EvdevEvent], advance: Int64) {
        script.time = time
        script.frame(events, advance: advance)
        time = script.time
    }

    /// Fingers down at `points` (slots 0, 1, ...) in one frame.
    private mutating func down(_ points: [LayoutPoint], advance: Int64) {
        var events: [EvdevEvent] = []
        for (slot, p) in points.enumerated() {
            let (x, y) = raw(p)
            events += [FrameScript.abs(EvdevCodes.ABS_MT_SLOT, Int32(slot)), FrameScript.abs(EvdevCodes.ABS_MT_TRACKING_ID, nextTrackingID),
                       FrameScript.abs(EvdevCodes.ABS_MT_POSITION_X, x), FrameScript.abs(EvdevCodes.ABS_MT_POSITION_Y, y)]
            nextTrackingID += 1
        }
        let (x0, y0) = raw(points[0])
        frame(events + [FrameScript.key(0x14a, 1), FrameScript.abs(0, x0), FrameScript.abs(1, y0)], advance: advance)
    }

    private mutating func move(_ points: [LayoutPoint], advance: Int64) {
        var events: [EvdevEvent] = []
        for (slot, p) in points.enumerated() {
            let (x, y) = raw(p)
            events += [FrameScript.abs(EvdevCodes.ABS_MT_SLOT, Int32(slot)), FrameScript.abs(EvdevCodes.ABS_MT_POSITION_X, x), FrameScript.abs(EvdevCodes.ABS_MT_POSITION_Y, y)]
        }
        let (x0, y0) = raw(points[0])
        frame(events + [FrameScript.abs(0, x0), FrameScript.abs(1, y0)], advance: advance)
    }

    private mutating func up(fingers: Int, advance: Int64) {
        var events: [EvdevEvent] = []
        for slot in 0..<fingers { events += [FrameScript.abs(EvdevCodes.ABS_MT_SLOT, Int32(slot)), FrameScript.abs(EvdevCodes.ABS_MT_TRACKING_ID, -1)] }
        frame(events + [FrameScript.key(0x14a, 0)], advance: advance)
    }

    /// One finger down at `point`, held `hold` µs, lifted; then `pause` µs before the next.
    public mutating func tap(at point: LayoutPoint, hold: Int64 = 60_000, pause: Int64 = 300_000) {
        down([point], advance: hold)
        up(fingers: 1, advance: pause)
    }

    /// One finger from `start` to `end` in `steps` moves over `duration` µs.
    public mutating func swipe(from start: LayoutPoint, to end: LayoutPoint, duration: Int64 = 250_000, steps: Int = 25, pause: Int64 = 300_000) {
        let steps = max(1, steps)
        let step = duration / Int64(steps)
        down([start], advance: step)
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            move([LayoutPoint(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)], advance: step)
        }
        up(fingers: 1, advance: pause)
    }

    /// One finger down at the first point (layout space), through every other point, then
    /// lifted: point `k + 1` comes `intervals[k % intervals.count]` µs after point `k`, and
    /// the lift `intervals[(points.count - 1) % intervals.count]` after the last point, so
    /// uneven frames and a rest before the lift can be written; then `pause` µs before the
    /// next. For tracks whose speed changes (a fling that slows, a drag that rests).
    /// Non-positive intervals are replaced by 8 ms.
    public mutating func drag(through points: [LayoutPoint], intervals: [Int64] = [8_000], pause: Int64 = 300_000) {
        guard let first = points.first else { return }
        let intervals = intervals.isEmpty || intervals.contains { $0 <= 0 } ? [8_000] : intervals
        var i = 0
        down([first], advance: intervals[0])
        for p in points.dropFirst() {
            i += 1
            move([p], advance: intervals[i % intervals.count])
        }
        up(fingers: 1, advance: pause)
    }

    /// Two fingers on a horizontal line through `center`, `fromDistance` apart, moving to
    /// `toDistance` apart (layout units) in `steps` moves over `duration` µs.
    public mutating func pinch(center: LayoutPoint, fromDistance: Double, toDistance: Double, duration: Int64 = 300_000, steps: Int = 30, pause: Int64 = 300_000) {
        func fingers(_ distance: Double) -> [LayoutPoint] {
            [LayoutPoint(x: center.x - distance / 2, y: center.y), LayoutPoint(x: center.x + distance / 2, y: center.y)]
        }
        let steps = max(1, steps)
        let step = duration / Int64(steps)
        down(fingers(fromDistance), advance: step)
        for i in 1...steps {
            move(fingers(fromDistance + (toDistance - fromDistance) * Double(i) / Double(steps)), advance: step)
        }
        up(fingers: 2, advance: pause)
    }

    /// Nothing for `microseconds`.
    public mutating func wait(_ microseconds: Int64) { time += microseconds }

    /// The recording so far, as `libinput record` would have written it (through the writer
    /// and the parser, so it replays exactly as a file would).
    public func recording(name: String = "touch-script.yml") throws(RecordingError) -> Recording {
        var d = device
        d.frames = script.frames
        return try RecordingParser.parse(RecordingWriter.text(of: Recording(source: name, declaredDeviceCount: 1, devices: [d])), source: name)
    }
}
