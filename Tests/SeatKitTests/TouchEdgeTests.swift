import AllocationCounter
import Testing
@testable import SeatKit

/// Issue 23's touch edges: surfaces that move under a touch (held by a recognizer, to
/// another output, or under a still finger), ancestors removed while a touch ends, and
/// cancels of touches bound to different surfaces. The rule they all keep: every responder
/// that saw a touch begin gets exactly one end (ended or cancelled), and no responder gets
/// a later phase of a touch it never saw begin.
@Suite("Touch edges")
struct TouchEdgeTests {
    /// Logs "name.method" and each touch's surface-local point and the event's target.
    private func watch(_ s: Surface, _ h: Harness, points: Bool = false) {
        let r = s.recorder
        r.onCall = { method, context in
            guard points, ["began", "moved", "ended", "cancelled"].contains(method) else { return }
            for t in r.lastTouches {
                h.log.add("  t\(t.id.rawValue) at \(Int(t.surfaceLocation.x)),\(Int(t.surfaceLocation.y)) target \(context.target?.name ?? "nil")")
            }
        }
    }

    // MARK: Held touches

    @Test func aTouchHeldByARecognizerIsDeliveredInTheSpaceItsSurfaceHasWhenReleased() {
        let h = Harness()
        let button = h.surface("button", 100, 100, 200, 200)
        watch(button, h, points: true)
        let tap = TapGestureRecognizer()
        tap.delaysTouchesBegan = true
        button.addGestureRecognizer(tap)
        h.down(0, 150, 150)                       // held: the tap may still recognize
        #expect(h.log.entries.isEmpty)
        button.frame.origin = SurfacePoint(x: 50, y: 60)   // the window moves under the still finger
        h.clock.advance(by: .milliseconds(600))   // the tap fails (pressed too long): began goes out
        #expect(tap.state == .possible || tap.state == .failed)
        // 150 - 50, 150 - 60: where the finger is in the button's space now, not 50, 50.
        #expect(h.log.entries == ["button.began", "  t0 at 100,90 target button", "delegate.began"])
        h.log.clear()
        h.up(0)
        #expect(h.log.entries == ["button.ended", "  t0 at 100,90 target button", "delegate.ended"])
    }

    // MARK: Moved to another output

    @Test func aTouchedSurfaceMovedToAnotherOutputEndsOnceAtEveryResponderThatSawItBeginAndNowhereElse() {
        let h = Harness()
        let second = Output(name: "OUT-2", modeSize: Size(width: 1000, height: 1000))
        second.position = LayoutPoint(x: 1000, y: 0)
        h.router.addOutput(second)
        h.output.responder = RecordingResponder("output1", log: h.log)
        h.output.root.responder = RecordingResponder("root1", log: h.log)
        second.responder = RecordingResponder("output2", log: h.log)
        second.root.responder = RecordingResponder("root2", log: h.log)
        let window = h.surface("window", 100, 100, 300, 300)
        h.down(0, 150, 150)
        #expect(h.log.entries == ["window.began", "root1.began", "output1.began", "delegate.began"])
        h.log.clear()
        second.root.addChild(window)              // the window goes to the other screen
        // The old output's root and responder saw it begin and are no longer on its chain.
        #expect(h.log.entries == ["root1.cancelled", "output1.cancelled"])
        h.log.clear()
        h.move(0, 160, 150)
        h.up(0)
        // The new output's root and responder never saw it begin: they hear nothing of it.
        #expect(h.log.entries == ["window.moved", "delegate.moved", "window.ended", "delegate.ended"])
    }

    @Test func aResponderThatPutsAFormerParentOnItsChainItselfKeepsItFollowingTheTouchAfterAMove() {
        let h = Harness()
        let left = h.surface("left", 0, 0, 500, 1000)
        let right = h.surface("right", 500, 0, 500, 1000)
        let redirected = RecordingResponder("card", log: h.log)
        redirected.redirect = .some(.surface(left))   // the card's chain goes to `left` wherever it is
        let card = Surface(name: "card", frame: SurfaceRect(x: 200, y: 10, width: 100, height: 100), responder: redirected)
        left.addChild(card)
        h.down(0, 250, 50)
        #expect(h.log.entries == ["card.began", "left.began", "delegate.began"])
        h.log.clear()
        right.addChild(card)
        // `left` is still on the card's chain, by the card's choice: it keeps following.
        #expect(h.log.entries.isEmpty)
        h.up(0)
        #expect(h.log.entries == ["card.ended", "left.ended", "delegate.ended"])
    }

    // MARK: A moving touch's walk (issue 25, ninth round)

    /// The walk of one moving touch reads its bound surface unretained from the touch's record:
    /// the record keeps the surface for the whole frame, even when the surface's own handler
    /// takes it out of the tree, whose reference was its only other owner in the layout; it
    /// goes with the frame, when the record goes back to the pool.
    @Test func aBoundSurfaceLetGoByItsOwnMoveHandlerLivesThroughTheFrameAndGoesOnceItsTouchIsOver() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800)
        final class Watch {
            weak var surface: Surface?
            var aliveAfterRemoval: Bool?
        }
        let watch = Watch()
        do {
            let button = h.surface("button", 10, 10, 100, 100, in: window)
            watch.surface = button
            button.recorder.onCall = { [watch] method, context in
                guard method == "moved" else { return }
                context.target?.removeFromParent()
                watch.aliveAfterRemoval = watch.surface != nil
            }
        }
        h.down(0, 20, 20)
        #expect(h.log.entries == ["button.began", "window.began", "delegate.began"])
        h.log.clear()
        h.move(0, 30, 30)
        #expect(watch.aliveAfterRemoval == true)
        // Removing cancelled the touch: the walk stops there, and the window, which saw it
        // begin, hears one cancel and no move.
        #expect(h.log.entries.first == "button.moved")
        #expect(h.log.entries.filter { $0 == "window.cancelled" }.count == 1)
        #expect(!h.log.entries.contains("window.moved"))
        // The record was the last owner: once the frame put it back in the pool, nothing keeps
        // the removed surface (the root's flat table, built at the touch-down's hit-test, let
        // go of it as it left the tree).
        #expect(watch.surface == nil, "let go once the touch's record went back to the pool")
    }

    // MARK: Ancestors removed while a touch ends

    @Test func aTouchesEndedHandlerThatRemovesAnAncestorEndsTheTouchOnceAtEveryResponderThatSawItBegin() {
        let h = Harness()
        h.output.responder = RecordingResponder("output", log: h.log)
        h.output.root.responder = RecordingResponder("root", log: h.log)
        let window = h.surface("window", 0, 0, 800, 800)
        let panel = h.surface("panel", 0, 0, 400, 400, in: window)
        let button = h.surface("button", 10, 10, 100, 100, in: panel)
        button.recorder.onCall = { method, _ in if method == "ended" { panel.removeFromParent() } }
        h.down(0, 20, 20)
        #expect(h.log.entries == ["button.began", "panel.began", "window.began", "root.began", "output.began", "delegate.began"])
        h.log.clear()
        h.up(0)
        // The removed panel hears the cancel removing owes; the window, still in the layout but
        // no longer on the detached button's chain, hears a cancel too. Nobody hears it twice.
        #expect(h.log.entries == ["button.ended", "output.ended", "delegate.ended",
                                  "panel.cancelled", "window.cancelled", "root.cancelled"])
    }

    @Test func aTouchesEndedHandlerThatRemovesAnAncestorSendsNoEndToRespondersThatNeverSawTheTouchBegin() {
        let h = Harness()
        h.output.responder = RecordingResponder("output", log: h.log)
        h.output.root.responder = RecordingResponder("root", log: h.log)
        let window = h.surface("window", 0, 0, 800, 800)
        let panel = h.surface("panel", 0, 0, 400, 400, in: window)
        let button = h.surface("button", 10, 10, 100, 100, in: panel, handles: ["began"])
        button.recorder.onCall = { method, _ in if method == "ended" { panel.removeFromParent() } }
        h.down(0, 20, 20)
        #expect(h.log.entries == ["button.began"])
        h.log.clear()
        h.up(0)
        // The button passes the end on, but nobody after it saw the touch begin.
        #expect(h.log.entries == ["button.ended"])
        #expect(h.delegate.dropped == ["ended"])
    }

    @Test func respondersThatSawATouchBeginAndAreNotReachedByItsEndBecauseOneBeforeHandledItAreCancelled() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800)
        h.surface("button", 10, 10, 100, 100, in: window, handles: ["ended"])
        h.down(0, 20, 20)
        #expect(h.log.entries == ["button.began", "window.began", "delegate.began"])
        h.log.clear()
        h.up(0)
        #expect(h.log.entries == ["button.ended", "window.cancelled", "delegate.cancelled"])
    }

    // MARK: Cancels split per target

    @Test func aBatchedCancelOfTouchesOnTwoSurfacesGivesEachSurfaceItsOwnEventAndTarget() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800)
        let a = h.surface("a", 0, 0, 100, 100, in: window)
        let b = h.surface("b", 200, 0, 100, 100, in: window)
        watch(window, h, points: true)
        watch(a, h, points: true)
        watch(b, h, points: true)
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 210, y: 20)))
        h.send(.touchFrame)
        h.log.clear()
        h.router.cancelTouches(reason: "test") { _ in true }
        #expect(h.log.entries == [
            "a.cancelled", "  t0 at 10,10 target a",
            "window.cancelled", "  t0 at 10,10 target a",
            "delegate.cancelled",
            "b.cancelled", "  t1 at 10,20 target b",
            "window.cancelled", "  t1 at 10,20 target b",
            "delegate.cancelled",
        ])
    }

    // MARK: Surfaces moved under a still touch

    @Test func aSurfaceMovedUnderAStillTouchHearsWhereTheTouchNowIsInItsSpace() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 300, 300, handles: ["began", "moved", "ended"])
        watch(window, h, points: true)
        let frames = FrameCounter()
        h.router.addTouchFrameObserver(frames)
        h.down(0, 150, 150)
        h.log.clear()
        let framesBefore = frames.count
        window.frame.origin = SurfacePoint(x: 120, y: 90)
        h.router.refreshTouchLocations()
        #expect(h.log.entries == ["window.moved", "  t0 at 30,60 target window"])
        #expect(window.recorder.lastTouches.first?.location == LayoutPoint(x: 150, y: 150))
        #expect(frames.count == framesBefore + 1)   // a frame of its own: wl_touch.frame follows
        // Nothing moved since: nothing to tell.
        h.log.clear()
        h.router.refreshTouchLocations()
        #expect(h.log.entries.isEmpty)
        #expect(frames.count == framesBefore + 1)
    }

    @Test func theNextTouchFrameTellsAStillTouchThatItsSurfaceMovedUnderIt() {
        let h = Harness()
        let left = h.surface("left", 0, 0, 300, 300, handles: ["began", "moved", "ended"])
        let right = h.surface("right", 500, 0, 300, 300, handles: ["began", "moved", "ended"])
        watch(left, h, points: true)
        watch(right, h, points: true)
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 50, y: 50)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 550, y: 50)))
        h.send(.touchFrame)
        h.log.clear()
        left.frame.origin = SurfacePoint(x: 10, y: 0)
        h.move(1, 560, 50)                        // only the other finger moves
        #expect(h.log.entries == ["left.moved", "  t0 at 40,50 target left",
                                  "right.moved", "  t1 at 60,50 target right"])
    }

    @Test func aTouchARecognizerTookHearsNothingWhenItsSurfaceMoves() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 300, 300, handles: ["began", "moved", "ended"])
        let pan = PanGestureRecognizer()
        window.addGestureRecognizer(pan)
        h.down(0, 150, 150)
        h.move(0, 250, 150)
        #expect(pan.state == .began || pan.state == .changed)
        h.log.clear()
        window.frame.origin = SurfacePoint(x: 0, y: 0)
        h.router.refreshTouchLocations()
        #expect(h.log.entries.isEmpty)
    }

    // MARK: Allocations

    @Test func aWarmRouterAllocatesNothingTellingStillTouchesTheirSurfacesMovedOrCancellingThemPerSurface() {
        let router = Router(clock: VirtualClock())
        let output = Output(name: "o", modeSize: Size(width: 1000, height: 1000))
        router.addOutput(output)
        let window = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 800), responder: QuietResponder())
        output.root.addChild(window)
        let a = Surface(name: "a", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100), responder: QuietResponder())
        let b = Surface(name: "b", frame: SurfaceRect(x: 200, y: 0, width: 100, height: 100), responder: QuietResponder(handlesTouches: true))
        window.addChild(a)
        window.addChild(b)
        var t: Int64 = 0
        func send(_ k: InputEvent.Kind) { t += 1; router.inject(InputEvent(time: .milliseconds(t), k)) }
        // The routing's allocations only: a tree edit itself may allocate (it is not an event).
        var routing: UInt64 = 0
        func routed(_ body: () -> Void) {
            let before = seatkit_thread_allocations()
            body()
            routing += seatkit_thread_allocations() - before
        }
        func round(_ i: Int) {
            routed {
                send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
                send(.touchDown(TouchID(1), LayoutPoint(x: 210, y: 20)))
                send(.touchFrame)
            }
            a.frame.origin = SurfacePoint(x: Double(i % 3), y: 0)
            routed { router.refreshTouchLocations() }
            b.frame.origin = SurfacePoint(x: 200 + Double(i % 5), y: 0)
            routed {
                send(.touchMotion(TouchID(0), LayoutPoint(x: 11, y: 10)))
                send(.touchFrame)
                router.cancelTouches(reason: "round") { _ in true }
                send(.touchUp(TouchID(0)))
                send(.touchUp(TouchID(1)))
                send(.touchFrame)
            }
        }
        for i in 0..<3 { round(i) }
        routing = 0
        let moves = (a.responder as! QuietResponder).calls
        for i in 0..<500 { round(i) }
        #expect(routing == 0)
        // Each round: a began and a move for the surface moved under its still finger, then a
        // cancel of both fingers, each to its own surface's chain.
        #expect((a.responder as! QuietResponder).calls - moves >= 1000)
        #expect((window.responder as! QuietResponder).cancels >= 500)
        #expect((b.responder as! QuietResponder).cancels >= 500)
    }
}

/// Counts the router's finished touch frames.
final class FrameCounter: TouchFrameObserver {
    var count = 0
    func routerDidFinishTouchFrame(_ router: Router) { count += 1 }
}

@Suite("Touch edges, traced")
struct TouchEdgeTraceTests {
    @Test func theTraceDoesNotSayALinkThatNeverSawATouchBeginWasAskedAboutItsEnd() {
        let h = Harness()
        let log = TraceLog()
        h.router.trace = log
        let window = h.surface("window", 0, 0, 800, 800)
        h.surface("button", 10, 10, 100, 100, in: window, handles: ["began"])
        h.down(0, 20, 20)
        h.up(0)
        let description = log.lines.joined(separator: "\n")
        #expect(description.contains("button"))
        #expect(!description.contains("window"), "\(description)")
    }
}
