import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A settle of held phases is skipped when nothing that can release one happened since the
/// last settle began (`GestureCoordinator.settleHeldGestures`: the recognizers' requests,
/// settles, aborts, detachments and withdrawals, the delay settings, a held touch finished or
/// taken). Seeded runs replayed twice, once skipping and once settling every time
/// (`settlesEveryTime`, debug builds), must show responders, recognizers, the delegate and
/// the trace exactly the same calls, points and order.
@Suite struct HeldSettleSkipTests {
    @Test func everySettleThatWouldReleaseStillDoesOnSeededRunsWithMidWalkEdits() {
        var broken: [String] = []
        var skipped = 0
        let failures = LoneMoveLaneTests.seedsWhoseTwoRunsDiffer(seeds: LoneMoveLaneTests.environment("SEATKIT_LANE_SEEDS") ?? 120) { seed, everyTime in
            let world = LoneMoveWorld(seed: seed, generalOnly: false)
            #if DEBUG
            world.router.gestures.unchecked.settlesEveryTime = everyTime
            #endif
            world.run(steps: 160)
            #if DEBUG
            if !everyTime { skipped += world.router.gestures.unchecked.skippedSettles }
            #endif
            let invariants = world.router.unchecked.touches.checkInvariants(treeEditCount: world.router.unchecked.treeEditCount,
                                                                            held: world.router.gestures.unchecked.heldTouches)
            if !invariants.isEmpty { broken.append("seed \(seed): breaks \(invariants)") }
            return world.log.entries
        }
        #expect(broken.isEmpty, "\(broken.prefix(3).joined(separator: "\n"))")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #if DEBUG
        // A skip that never happens would pass the comparison trivially.
        #expect(skipped > 0)
        #endif
    }

    @Test func everySettleThatWouldReleaseStillDoesInTheGestureGraphSoak() {
        var skipped = 0
        let failures = LoneMoveLaneTests.seedsWhoseTwoRunsDiffer(seeds: LoneMoveLaneTests.environment("SEATKIT_LANE_GRAPH_SEEDS") ?? 40) { seed, everyTime in
            LoneMoveLaneTests.graphTranscript(seed: seed, configure: { world in
                #if DEBUG
                world.router.gestures.unchecked.settlesEveryTime = everyTime
                #endif
            }, inspect: { world in
                #if DEBUG
                if !everyTime { skipped += world.router.gestures.unchecked.skippedSettles }
                #endif
            })
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #if DEBUG
        #expect(skipped > 0)
        #endif
    }

    @Test func aHeldDownWithNothingChangedSkipsItsSettleAndTheRecognizersFailureStillReleasesIt() {
        let rig = Self.canvasWithADelayingPress()
        #if DEBUG
        let before = rig.router.gestures.unchecked.skippedSettles
        #endif
        rig.down(2, 200, 200)
        #if DEBUG
        // The press only saw the touch begin: its settle, at the frame's end, is skipped.
        #expect(rig.router.gestures.unchecked.skippedSettles == before + 1)
        #endif
        #expect(rig.log.entries.isEmpty)
        #expect(rig.router.gestures.unchecked.heldTouches.count == 1)
        // Moved past the press's allowable movement: it fails, and the held began goes out.
        rig.move(2, 600, 200)
        #expect(rig.log.entries == ["canvas.began[t2]", "canvas.moved[t2]"])
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
    }

    @Test func aHeldTouchsSmallMoveThatThePressStillDelaysSkipsItsSettleAndTheLiftReleasesEveryPhase() {
        let rig = Self.canvasWithADelayingPress()
        rig.down(2, 200, 200)
        #if DEBUG
        let before = rig.router.gestures.unchecked.skippedSettles
        #endif
        // Within the press's allowable movement: held behind its down, and delayed by the
        // press itself, so nothing could let it go: its frame's settle is skipped.
        rig.move(2, 202, 200)
        #if DEBUG
        #expect(rig.router.gestures.unchecked.skippedSettles == before + 1)
        #endif
        #expect(rig.log.entries.isEmpty)
        #expect(rig.router.gestures.unchecked.heldTouches.count == 2)
        // Another small move collapses into the held one, its settle skipped too.
        rig.move(2, 204, 200)
        #if DEBUG
        #expect(rig.router.gestures.unchecked.skippedSettles == before + 2)
        #endif
        #expect(rig.router.gestures.unchecked.heldTouches.count == 2)
        // Lifted before the deadline: the press fails, and every held phase goes out in
        // order, the move at its latest point, then the end.
        rig.up(2)
        #expect(rig.log.entries == ["canvas.began[t2]", "canvas.moved[t2]", "canvas.ended[t2]"])
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
        #expect(rig.router.activeTouchCount == 0)
    }

    @Test func aHeldEndGoesAtTheNextFrameOnceItsRecognizerNoLongerDelaysEnds() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 500, 1000)
        rig.surface("side", 500, 0, 500, 1000)
        let double = TapGestureRecognizer(name: "double", taps: 2, maximumTapInterval: .milliseconds(300))
        canvas.addGestureRecognizer(double)
        rig.down(1, 100, 100)
        rig.up(1)
        // The double tap waits for its second tap: the end is held (`delaysTouchesEnded`).
        #expect(rig.log.entries == ["canvas.began[t1]"])
        #expect(rig.router.gestures.unchecked.heldTouches.count == 1)
        double.delaysTouchesEnded = false
        // A touch elsewhere, which no recognizer sees: its frame's settle lets the end go.
        rig.down(2, 700, 100)
        #expect(rig.log.entries == ["canvas.began[t1]", "side.began[t2]", "canvas.ended[t1]"])
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
    }

    @Test func aHeldTouchCancelledByTheCompositorDropsItsPhasesAtTheNextSettle() {
        let rig = Self.canvasWithADelayingPress()
        rig.down(2, 200, 200)
        #expect(rig.router.gestures.unchecked.heldTouches.count == 1)
        rig.router.cancelTouches(reason: "compositor") { _ in true }
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
        #expect(rig.log.entries.isEmpty)
        #expect(rig.router.activeTouchCount == 0)
    }

    /// A 1000 × 1000 canvas whose long press (500 ms, 10 mm) delays touches began, after a
    /// first tap that the press let through (began and ended), with the log cleared.
    static func canvasWithADelayingPress() -> GestureRig {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500), allowableMovement: 10)
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(rig.log.entries == ["canvas.began[t1]", "canvas.ended[t1]"])
        rig.log.clear()
        return rig
    }
}
