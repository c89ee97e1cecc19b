import Testing
import SeatKit

/// Whether `object`'s reference count lives in a side table: the object was ever referenced
/// weakly, and from then on each of its retains and releases takes the Swift runtime's slow
/// path (`incrementSlow`, `doDecrementSlow`). On 64-bit platforms the inline count's two top
/// bits (`UseSlowRC`, `SideTableMark`) are both set exactly then (or for an immortal object,
/// which no recognizer is). The same check as SeatKitWaylandTests' `hasSideTable`.
private func recognizerHasSideTable(_ object: AnyObject) -> Bool {
    let bits = Unmanaged.passUnretained(object).toOpaque().load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self)
    return bits >> 62 == 0b11
}

/// Counts what the probe's timers do, without holding the probe.
private final class TimerProbeLog {
    var deadlinesReached = 0
    var closuresRun = 0
    var freed = 0
}

/// Arms both kinds of timer at its first touch: a deadline of ``GestureRecognizer/schedule(at:)``
/// and a closure of ``GestureRecognizer/schedule(at:_:)``, 100 ms on.
private final class TimedProbe: GestureRecognizer {
    let log: TimerProbeLog
    init(log: TimerProbeLog) {
        self.log = log
        super.init(name: "timed-probe")
    }
    override func touchesBegan(_ event: TouchEvent) {
        guard let now = router?.clock.now else { return }
        schedule(at: now + .milliseconds(100))
        let log = self.log
        schedule(at: now + .milliseconds(100)) { log.closuresRun += 1 }
    }
    override func deadlineReached() { log.deadlinesReached += 1 }
    deinit { log.freed += 1 }
}

/// Notes which recognizers reached a deadline of ``GestureRecognizer/schedule(at:)``.
private final class DeadlineProbe: GestureRecognizer {
    let reached: (String) -> Void
    init(name: String, reached: @escaping (String) -> Void) {
        self.reached = reached
        super.init(name: name)
    }
    override func deadlineReached() { reached(name) }
}

/// Issue 25, goal 5: a recognizer's timer actions refer to it through its
/// ``RecognizerHandle``, not weakly, so that SeatKit never gives a recognizer a side table
/// (the router retains and releases a touch's recognizers at its down, transitions and reset).
@Suite struct RecognizerTimerHandleTests {
    final class Probe {}

    @Test func theSideTableCheckSeesAnObjectThatWasReferencedWeakly() {
        let plain = Probe(), referenced = Probe()
        weak let weakReference = referenced
        #expect(!recognizerHasSideTable(plain))
        #expect(recognizerHasSideTable(referenced))
        withExtendedLifetime(weakReference) {}
    }

    @Test func aLongPressThatArmedItsTimerAndBeganHasNoSideTable() {
        let rig = GestureRig()
        let icon = rig.surface("icon", 0, 0, 500, 500)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500))
        icon.addGestureRecognizer(press)
        rig.down(1, 100, 100)
        #expect(rig.clock.nextDeadline != nil, "the long press armed its timer")
        rig.wait(500)
        #expect(press.state == .began)
        rig.up(1)
        // A second press, lifted early: the timer is armed again and cancelled.
        rig.down(2, 100, 100)
        rig.up(2)
        #expect(press.state == .possible)
        #expect(!recognizerHasSideTable(press))
    }

    @Test func bothKindsOfTimerFireThroughTheHandleAndLeaveNoSideTable() {
        let rig = GestureRig()
        let log = TimerProbeLog()
        let probe = TimedProbe(log: log)
        rig.surface("pad", 0, 0, 500, 500).addGestureRecognizer(probe)
        rig.down(1, 100, 100)
        rig.wait(100)
        #expect(log.deadlinesReached == 1)
        #expect(log.closuresRun == 1)
        #expect(!recognizerHasSideTable(probe))
        rig.up(1)
    }

    /// ``GestureRecognizer/schedule(at:)`` reads the clock through the recognizer's links
    /// (issue 25, seventeenth round): a surface's recognizer in a layout and an output's arm
    /// their router's clock; a detached one, and one on a surface in no layout, arm nothing.
    @Test func aDeadlineArmsTheClockOfTheRouterItsSurfaceOrOutputIsInAndNothingWhenDetached() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let output = Output(name: "OUT", modeSize: Size(width: 1000, height: 1000))
        router.addOutput(output)
        let surface = Surface(name: "pad", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500))
        output.root.addChild(surface)
        let outside = Surface(name: "outside", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500))
        var reached: [String] = []
        let onSurface = DeadlineProbe(name: "on-surface") { reached.append($0) }
        let onOutput = DeadlineProbe(name: "on-output") { reached.append($0) }
        let detached = DeadlineProbe(name: "detached") { reached.append($0) }
        let onOutside = DeadlineProbe(name: "on-outside") { reached.append($0) }
        surface.addGestureRecognizer(onSurface)
        output.addGestureRecognizer(onOutput)
        outside.addGestureRecognizer(onOutside)
        detached.schedule(at: .milliseconds(50))
        onOutside.schedule(at: .milliseconds(60))
        #expect(clock.nextDeadline == nil, "a recognizer in no router's layout arms nothing")
        onSurface.schedule(at: .milliseconds(100))
        #expect(clock.nextDeadline == .milliseconds(100))
        onOutput.schedule(at: .milliseconds(200))
        clock.advance(to: .milliseconds(150))
        #expect(reached == ["on-surface"])
        clock.advance(to: .milliseconds(300))
        #expect(reached == ["on-surface", "on-output"])
        #expect(clock.nextDeadline == nil)
        withExtendedLifetime((router, detached)) {}
    }

    /// The recognizer (with its router, output and surface) goes away while both its timers
    /// are armed on a clock that outlives it: they fire later, find no recognizer through the
    /// detached handle, and do nothing (no call into freed memory).
    @Test func timersOfARecognizerThatWasFreedDoNothing() {
        let clock = VirtualClock()
        let log = TimerProbeLog()
        do {
            let router = Router(clock: clock)
            let output = Output(name: "OUT", modeSize: Size(width: 1000, height: 1000))
            router.addOutput(output)
            let surface = Surface(name: "pad", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500))
            output.root.addChild(surface)
            let probe = TimedProbe(log: log)
            surface.addGestureRecognizer(probe)
            router.inject(InputEvent(time: .milliseconds(10), device: DeviceID(1), .touchDown(TouchID(1), LayoutPoint(x: 100, y: 100))))
            router.inject(InputEvent(time: .milliseconds(10), device: DeviceID(1), .touchFrame))
        }
        #expect(log.freed == 1, "the recognizer went away")
        #expect(clock.nextDeadline != nil, "its timers are still armed")
        clock.advance(to: .milliseconds(1000))
        #expect(log.deadlinesReached == 0)
        #expect(log.closuresRun == 0)
        #expect(clock.nextDeadline == nil)
    }
}
