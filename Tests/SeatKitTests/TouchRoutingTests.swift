import Testing
@testable import SeatKit

@Suite("Touch routing")
struct TouchRoutingTests {
    @Test func touchStaysWithItsSurfaceAfterLeavingIt() {
        let h = Harness()
        let button = h.surface("button", 100, 100, 50, 50, handles: ["began", "moved", "ended"])
        h.surface("other", 300, 300, 100, 100, handles: ["began", "moved", "ended"])
        h.down(0, 120, 120)
        h.move(0, 350, 350)  // now over "other"
        #expect(button.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 250, y: 250))
        h.up(0)
        #expect(h.log.entries == ["button.began", "button.moved", "button.ended"])
        #expect(h.router.activeTouchCount == 0)
    }

    @Test func twoFingersOnTwoSurfacesGoToTheirOwnSurfaces() {
        let h = Harness()
        let left = h.surface("left", 0, 0, 500, 1000, handles: ["began", "moved", "ended"])
        let right = h.surface("right", 500, 0, 500, 1000, handles: ["began", "moved", "ended"])
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 700, y: 100)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["left.began", "right.began"])
        #expect(left.recorder.lastTouches.map(\.id) == [TouchID(0)])
        #expect(right.recorder.lastTouches.map(\.id) == [TouchID(1)])
        #expect(right.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 200, y: 100))
        #expect(h.router.surface(boundTo: TouchID(1)) === right)
    }

    @Test func pointsChangedInOneFrameArriveAsOneEvent() {
        let h = Harness()
        let pad = h.surface("pad", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 20, y: 20)))
        h.send(.touchDown(TouchID(2), LayoutPoint(x: 30, y: 30)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["pad.began"])
        #expect(pad.recorder.lastTouches.map(\.id) == [TouchID(0), TouchID(1), TouchID(2)])
        h.log.clear()
        h.send(.touchMotion(TouchID(0), LayoutPoint(x: 11, y: 11)))
        h.send(.touchMotion(TouchID(2), LayoutPoint(x: 31, y: 31)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["pad.moved"])
        #expect(pad.recorder.lastTouches.map(\.id) == [TouchID(0), TouchID(2)])
        // Nothing is delivered before the frame ends.
        h.log.clear()
        h.send(.touchUp(TouchID(1)))
        #expect(h.log.entries.isEmpty)
        h.send(.touchFrame)
        #expect(h.log.entries == ["pad.ended"])
    }

    @Test func downAndUpInOneFrameDeliverBeganThenEnded() {
        let h = Harness()
        h.surface("tap", 0, 0, 100, 100, handles: ["began", "ended"])
        h.send(.touchDown(TouchID(5), LayoutPoint(x: 10, y: 10)))
        h.send(.touchUp(TouchID(5)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["tap.began", "tap.ended"])
    }

    /// An up injected from a began handler, in a down frame with no end pending when it began,
    /// ends the touch in that frame (its ended pass must not be skipped on the strength of the
    /// frame's scan alone: only the up's `dueEdits` bump says an end became pending), and the
    /// record is let go after it.
    @Test func anUpInjectedFromABeganHandlerEndsInTheSameFrame() {
        let h = Harness()
        let tap = h.surface("tap", 0, 0, 100, 100, handles: ["began", "ended"])
        (tap.responder as? RecordingResponder)?.onCall = { method, context in
            if method == "began" {
                context.router.inject(InputEvent(time: .milliseconds(1), device: DeviceID(1), .touchUp(TouchID(3))))
            }
        }
        h.send(.touchDown(TouchID(3), LayoutPoint(x: 10, y: 10)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["tap.began", "tap.ended"])
        #expect(h.router.activeTouchCount == 0)
        // The next finger down starts afresh.
        h.log.clear()
        (tap.responder as? RecordingResponder)?.onCall = nil
        h.down(3, 20, 20)
        #expect(h.log.entries == ["tap.began"])
        #expect(h.router.activeTouchCount == 1)
    }

    @Test func unhandledTouchesWalkSurfaceParentRootOutputDelegateAndAreReportedDropped() {
        let h = Harness()
        h.output.responder = RecordingResponder("output", log: h.log)
        h.output.root.responder = RecordingResponder("root", log: h.log)
        let parent = h.surface("parent", 0, 0, 500, 500)
        h.surface("child", 10, 10, 100, 100, in: parent)
        h.down(0, 20, 20)
        #expect(h.log.entries == ["child.began", "parent.began", "root.began", "output.began", "delegate.began"])
        #expect(h.delegate.dropped == ["began"])
    }

    @Test func cancelReachesEveryResponderThatSawTheTouchBeginAndNoOther() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800)
        let parent = h.surface("parent", 0, 0, 500, 500, in: window, handles: ["began", "moved"])
        h.surface("child", 10, 10, 100, 100, in: parent)
        h.surface("bystander", 600, 600, 100, 100)
        h.down(0, 20, 20)      // child passes began, parent takes it: the window never sees it
        h.move(0, 30, 30)      // child passes, parent takes moved
        h.log.clear()
        h.send(.touchCancel(TouchID(0)))
        h.send(.touchFrame)
        #expect(Set(h.log.entries) == ["child.cancelled", "parent.cancelled"])
        #expect(h.log.entries.count == 2)
        // Later events for the cancelled touch go nowhere.
        h.log.clear()
        h.up(0)
        #expect(h.log.entries.isEmpty)
    }

    @Test func aResponderRemovingItsOwnSurfaceMidDeliveryEndsTheTouchSafely() {
        let h = Harness()
        let parent = h.surface("parent", 0, 0, 500, 500)
        let child = h.surface("child", 10, 10, 100, 100, in: parent)
        child.recorder.onCall = { method, context in
            if method == "moved" { context.surface?.removeFromParent() }
        }
        h.down(0, 20, 20)      // child and parent see began
        h.log.clear()
        h.move(0, 25, 25)      // child removes itself while handling moved
        // Removing tells: the removed child, the parent and the delegate all saw the touch,
        // and each is told once that it was cancelled; the moved event does not go on
        // after the cancel.
        #expect(h.log.entries == ["child.moved", "child.cancelled", "parent.cancelled", "delegate.cancelled"])
        #expect(h.router.activeTouchCount == 0)
        h.log.clear()
        h.move(0, 30, 30)
        h.up(0)
        #expect(h.log.entries.isEmpty)
    }

    @Test func removingAnotherSurfaceCancelsItsTouchesButNotOthers() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, handles: ["began", "moved", "ended"])
        let b = h.surface("b", 200, 0, 100, 100, handles: ["began", "moved", "ended"])
        a.recorder.onCall = { method, _ in
            if method == "moved" { b.removeFromParent() }
        }
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 210, y: 10)))
        h.send(.touchFrame)
        h.log.clear()
        h.send(.touchMotion(TouchID(0), LayoutPoint(x: 11, y: 11)))
        h.send(.touchMotion(TouchID(1), LayoutPoint(x: 211, y: 11)))
        h.send(.touchFrame)
        // b is removed before its moved event: it gets no moved, but the cancel it is owed.
        #expect(h.log.entries == ["a.moved", "b.cancelled"])
        #expect(h.router.activeTouchCount == 1)
        h.up(0)
        #expect(h.log.entries.last == "a.ended")
    }

    @Test func removingADeviceCancelsItsTouches() {
        let h = Harness()
        h.surface("s", 0, 0, 100, 100, handles: ["began"])
        h.send(.deviceAdded(DeviceInfo(name: "screen", capabilities: .touch)), device: 7)
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)), device: 7)
        h.send(.touchFrame, device: 7)
        h.send(.deviceRemoved, device: 7)
        #expect(h.log.entries == ["s.began", "s.cancelled"])
        #expect(h.router.capabilities.isEmpty)
        #expect(h.delegate.capabilityChanges == [.touch, []])
    }

    @Test func aTouchOutsideEveryOutputGoesToTheDelegate() {
        let h = Harness()
        h.down(0, 5000, 5000)
        #expect(h.log.entries == ["delegate.began"])
    }

    @Test func aDuplicateTouchIDIsIgnoredAndTraced() {
        let h = Harness()
        let trace = TraceLog()
        h.router.trace = trace
        h.surface("s", 0, 0, 100, 100, handles: ["began"])
        h.down(0, 10, 10)
        h.down(0, 20, 20)
        #expect(h.log.entries == ["s.began"])
        #expect(trace.records.contains { if case .ignored(_, let why) = $0 { return why == "touch id already down" } else { return false } })
    }

    @Test func aRotatedOutputIsTouchedWhereTheFingerIs() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        // A 800x480 panel mounted in portrait: content turned a quarter.
        let output = Output(name: "DSI-1", modeSize: Size(width: 800, height: 480), transform: .rotated90)
        router.addOutput(output)
        #expect(output.logicalSize == Size(width: 480, height: 800))
        let log = CallLog()
        let top = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 480, height: 100),
                          responder: RecordingResponder("top", log: log, handles: ["began"]))
        output.root.addChild(top)
        // Content is turned a quarter counter-clockwise onto the panel: the middle of the
        // panel's native left edge shows the middle of the logical top edge.
        let point = output.layoutPoint(fromNormalized: 0.05, 0.5)
        #expect(point == LayoutPoint(x: 240, y: 40))
        #expect(output.layoutPoint(fromNormalized: 0, 0) == LayoutPoint(x: 480, y: 0))
        router.inject(InputEvent(time: .zero, .touchDown(TouchID(0), point)))
        router.inject(InputEvent(time: .zero, .touchFrame))
        #expect(log.entries == ["top.began"])
    }
}
