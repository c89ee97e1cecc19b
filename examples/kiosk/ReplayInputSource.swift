import SeatKit
import SeatKitLibinput
import SeatKitReplay
import SeatKitWayland

/// Input from a `libinput record` file, through real libinput: SeatKitReplay runs the
/// recording through libinput under umockdev (no root, no uinput) in lock-step virtual time,
/// and this source plays what libinput reported into the seat at the pace it was recorded.
///
/// Times: an event recorded `t` µs after the first input event reaches the seat `t` µs after
/// ``play(into:clock:)``, stamped with the event loop's clock then, so clients see the
/// recording's rhythm on the compositor's own timeline.
final class ReplayInputSource {
    private let announcements: [DeviceEvent]
    private let input: [DeviceEvent]
    private let translator = DeviceEventTranslator()
    /// Called after the last event.
    var finished: () -> Void = {}

    // While playing.
    private var next = 0
    private var offset: Int64 = 0
    private weak var seat: Seat?
    private var clock: (any Clock)?

    /// Runs libinput over the whole recording now, with `configuration` for every device
    /// (libinput's defaults when nil). Throws, with file and line, for a malformed recording,
    /// and when libinput or umockdev cannot run.
    init(recordingPath: String, configuration: DeviceConfiguration?) throws {
        let recording = try RecordingParser.parse(contentsOf: recordingPath)
        let events = try LibinputReplay(recording: recording, options: ReplayOptions(configuration: configuration)).run().events
        announcements = events.filter { if case .deviceAdded = $0.kind { true } else { false } }
        input = events.filter { if case .deviceAdded = $0.kind { false } else { true } }
    }

    /// Tells the seat about the recording's devices now, so that clients connecting later
    /// see its capabilities (pointer, keyboard, touch) at once.
    func addDevices(to seat: Seat) {
        for event in announcements {
            seat.router.inject(translator.translate(event, router: seat.router, timeOffset: offsetToNow(event, seat.router.clock)))
        }
    }

    /// Plays the input events into `seat` at their recorded pace, on `clock`'s timers.
    func play(into seat: Seat, clock: any Clock) {
        self.seat = seat
        self.clock = clock
        if let first = input.first { offset = offsetToNow(first, clock) }
        playDueEvents()
    }

    private func offsetToNow(_ event: DeviceEvent, _ clock: any Clock) -> Int64 { clock.now.microseconds - event.time }

    private func playDueEvents() {
        guard let seat, let clock else { return }
        while next < input.count, input[next].time + offset <= clock.now.microseconds {
            seat.router.inject(translator.translate(input[next], router: seat.router, timeOffset: offset))
            next += 1
        }
        guard next < input.count else { return finished() }
        let due = Timestamp(microseconds: input[next].time + offset)
        // The pending timer keeps the source alive until the last event.
        _ = clock.schedule(at: due) { self.playDueEvents() }
    }
}
