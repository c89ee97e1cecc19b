import Testing
@testable import SeatKit

@Suite("Pointer routing")
struct PointerRoutingTests {
    @Test func focusFollowsHitTestingWithLeaveBeforeEnter() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100)
        let b = h.surface("b", 200, 0, 100, 100)
        h.pointer(to: 50, 50)
        #expect(h.router.pointerFocus === a)
        h.log.clear()
        h.pointer(to: 250, 50)
        #expect(h.router.pointerFocus === b)
        #expect(Array(h.log.entries.prefix(2)) == ["a.leave", "b.enter"])
        #expect(b.recorder.lastMotion?.surfaceLocation == SurfacePoint(x: 50, y: 50))
    }

    @Test func implicitGrabKeepsFocusUntilTheLastButtonIsReleased() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, handles: ["button", "motion"])
        let b = h.surface("b", 200, 0, 100, 100, handles: ["button", "motion"])
        h.pointer(to: 50, 50)
        h.press(0x110)
        h.press(0x111)
        h.pointer(to: 250, 50)              // over b, but a holds the grab
        #expect(h.router.pointerFocus === a)
        #expect(a.recorder.lastMotion?.surfaceLocation == SurfacePoint(x: 250, y: 50))
        h.release(0x110)
        #expect(h.router.pointerFocus === a)  // one button still down
        h.log.clear()
        h.release(0x111)
        #expect(h.log.entries == ["a.button", "a.leave", "b.enter"])
        #expect(h.router.pointerFocus === b)
        #expect(!h.router.isPointerGrabbed)
    }

    @Test func buttonsAxesAndGesturesWalkUpFromTheFocus() {
        let h = Harness()
        let parent = h.surface("parent", 0, 0, 500, 500, handles: ["axis", "gesture"])
        h.surface("child", 0, 0, 100, 100, in: parent)
        h.pointer(to: 10, 10)
        h.log.clear()
        h.send(.pointerAxis(AxisMotion(source: .wheel, vertical: 15, verticalV120: 120)))
        h.send(.touchpadGesture(TouchpadGesture(kind: .swipe, phase: .begin, fingers: 3)))
        h.press()
        #expect(h.log.entries == ["child.axis", "parent.axis", "child.gesture", "parent.gesture",
                                  "child.button", "parent.button", "delegate.button"])
        #expect(h.delegate.dropped.contains("button"))
    }

    @Test func enterAndLeaveStayBalancedOverRandomMotion() {
        final class Balance: Responder {
            var depth = 0
            var violations = 0
            var enters = 0
            func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
                depth += 1
                enters += 1
                if depth != 1 { violations += 1 }
            }
            func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
                depth -= 1
                if depth != 0 { violations += 1 }
            }
        }
        let h = Harness()
        var rng = SeededGenerator(seed: 7)
        var responders: [Balance] = []
        var surfaces: [Surface] = [h.output.root]
        let rootBalance = Balance()
        h.output.root.responder = rootBalance
        responders.append(rootBalance)
        for i in 0..<40 {
            let r = Balance()
            responders.append(r)
            let s = Surface(name: "s\(i)", frame: SurfaceRect(
                x: Double.random(in: 0...900, using: &rng), y: Double.random(in: 0...900, using: &rng),
                width: Double.random(in: 10...300, using: &rng), height: Double.random(in: 10...300, using: &rng)),
                responder: r)
            surfaces.randomElement(using: &rng)!.addChild(s)
            surfaces.append(s)
        }
        for step in 0..<5000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: h.press()
            case 1: h.release()
            case 2: h.send(.pointerMotion(delta: Vector(dx: Double.random(in: -400...400, using: &rng),
                                                         dy: Double.random(in: -400...400, using: &rng)),
                                          unaccelerated: .zero))
            default: h.pointer(to: Double.random(in: -50...1050, using: &rng), Double.random(in: -50...1050, using: &rng))
            }
            if step % 500 == 0 { surfaces.dropFirst().randomElement(using: &rng)!.isHidden.toggle(); h.router.refreshPointerFocus() }
        }
        h.release()
        let focused = responders.filter { $0.depth == 1 }
        #expect(responders.allSatisfy { $0.violations == 0 })
        #expect(focused.count == (h.router.pointerFocus == nil ? 0 : 1))
        #expect(responders.reduce(0) { $0 + $1.enters } > 50)
    }

    @Test func thePointerStaysInsideTheLayout() {
        let h = Harness()
        h.pointer(to: 500, 500)
        h.send(.pointerMotion(delta: Vector(dx: 10_000, dy: -10_000), unaccelerated: .zero))
        #expect(h.router.pointerLocation.x < 1000 && h.router.pointerLocation.x > 999)
        #expect(h.router.pointerLocation.y == 0)
    }

    @Test func removingTheFocusSurfaceTellsItTheLeaveAndNothingMore() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100)
        h.pointer(to: 50, 50)
        h.log.clear()
        a.removeFromParent()
        #expect(h.router.pointerFocus === h.output.root)
        #expect(h.log.entries == ["a.leave"])
        h.log.clear()
        h.pointer(to: 51, 51)
        #expect(!h.log.entries.contains { $0.hasPrefix("a.") })
    }

    // MARK: Removed surfaces are let go

    final class Watch { weak var surface: Surface? }

    /// The hit-test that put the pointer on a surface built the root's flat table, which owns
    /// every surface in it: a surface removed under a still pointer is let go at once, not
    /// at the next hit-test (which may never come).
    @Test func aSurfaceRemovedUnderAStillPointerIsLetGoAtOnce() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800)
        let watch = Watch()
        do {
            let button = h.surface("button", 10, 10, 100, 100, in: window)
            watch.surface = button
            h.pointer(to: 20, 20)
            #expect(h.router.pointerFocus === button)
            button.removeFromParent()
        }
        // Focus went at once to what is under the pointer now.
        #expect(h.router.pointerFocus === window)
        #expect(watch.surface == nil, "let go as it left the tree")
        #expect(h.log.entries.contains("button.leave"))
    }

    /// The same when the surface's own motion handler removes it: it lives through the walk
    /// and goes when the motion is over.
    @Test func aSurfaceRemovedByItsOwnMotionHandlerIsLetGoOnceTheMotionIsOver() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800)
        let watch = Watch()
        do {
            let button = h.surface("button", 10, 10, 100, 100, in: window)
            watch.surface = button
            button.recorder.onCall = { method, context in
                if method == "motion" { context.target?.removeFromParent() }
            }
        }
        h.pointer(to: 20, 20)
        h.pointer(to: 30, 30)
        #expect(h.log.entries.contains("button.leave"))
        #expect(watch.surface == nil, "let go once the motion was routed")
    }
}
