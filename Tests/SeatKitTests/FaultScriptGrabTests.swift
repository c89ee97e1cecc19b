import SeatKit
import Testing

/// The soak's model of what issue 12 added after the first soak (below-parent stacking,
/// popup and lock-screen grabs, mapped touch devices, focus history), each checked on a
/// short script: the model sees what it claims to see, and every invariant holds.
@Suite("Fault-script soak: grabs, devices, focus history")
struct FaultScriptGrabTests {
    func responder(_ world: FaultScriptWorld, _ s: Int) -> SoakResponder {
        world.surfaces[s]!.responder as! SoakResponder
    }

    /// A child placed below its parent is hit only where the parent's own area is not.
    @Test func aChildBelowItsParentIsHitOnlyOutsideTheParent() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 300, 300), focusable: true),
            .add(2, to: .surface(1), at: 0, frame: R(-50, -50, 100, 100), focusable: true),
            .setBelowParent(2, true),
            .touch([.down(0, 120, 120)]),
            .touch([.up(0)]),
            .touch([.down(1, 60, 60)]),
            .touch([.up(1)]),
            .setBelowParent(2, false),
            .touch([.down(0, 120, 120)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect(world.router.surface(boundTo: TouchID(0)) === world.surfaces[2])
        let s1 = responder(world, 1), s2 = responder(world, 2)
        // Below: the first touch went to the parent, the second (outside it) to the child.
        #expect(s1.touches.values.filter(\.bound).count == 1)
        #expect(s2.touches.values.filter(\.bound).count == 2)
        world.surfaces[2]!.isBelowParent = true
        #expect(world.bruteHit(LayoutPoint(x: 120, y: 120)) === world.surfaces[1])
        #expect(world.bruteHit(LayoutPoint(x: 60, y: 60)) === world.surfaces[2])
    }

    /// A touch inside the popup reaches it; one outside dismisses it once and reaches nobody.
    @Test func aTouchOutsideAPopupDismissesItOnce() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 200, 200), focusable: true),
            .add(2, to: .root(0), at: 1, frame: R(400, 100, 200, 200), focusable: true),
            .popupGrab(1, closes: false),
            .touch([.down(0, 150, 150)]),
            .touch([.up(0)]),
            .touch([.down(1, 450, 150)]),
            .touch([.up(1)]),
            .touch([.down(2, 450, 150)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect(world.popups.count == 1 && world.popups[0].dismissCount == 1)
        #expect(world.router.touchGrab == nil && world.router.pointerGrab == nil)
        #expect(responder(world, 1).touches.count == 1)
        // The dismissing touch reached nobody; the next one, after the grab, reaches s2.
        #expect(responder(world, 2).touches.count == 1)
        #expect(world.router.surface(boundTo: TouchID(2)) === world.surfaces[2])
    }

    /// A popup that closes itself from its dismiss handler, ended by the compositor.
    @Test func endingAPopupGrabDismissesItOnce() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 200, 200), focusable: true),
            .popupGrab(1, closes: true),
            .touch([.down(0, 150, 150)]),
            .endGrab(.popup),
            .touch([.up(0)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect(world.popups[0].dismissCount == 1)
        #expect(world.surfaces[1]!.parent == nil, "the dismiss handler removed the popup")
        let allEnded = responder(world, 1).touches.values.allSatisfy { $0.terminal }
        #expect(allEnded)
    }

    /// A lock screen taking touch mid-touch: the touch is cancelled, later touches reach
    /// nobody, and after the lock ends touches route again.
    @Test func aLockScreenTakesTouchMidTouch() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 200, 200), focusable: true),
            .touch([.down(0, 150, 150)]),
            .lockGrab(.touch),
            .touch([.move(0, 160, 160), .down(1, 170, 170)]),
            .touch([.up(0), .up(1)]),
            .endGrab(.lock),
            .touch([.down(2, 150, 150)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        let s1 = responder(world, 1)
        #expect(s1.touches.count == 2)
        #expect(s1.touches.values.filter(\.terminal).count == 1, "the first touch was cancelled")
        #expect(world.lock.cancels == 1)
        #expect(world.router.surface(boundTo: TouchID(2)) === world.surfaces[1])
    }

    /// A keyboard lock: the first responder hears a cancelled release of the held key, and
    /// no key while the lock holds.
    @Test func aKeyboardLockCancelsHeldKeys() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 200, 200), focusable: true),
            .becomeFirst(.surface(1)),
            .key(0, .press),
            .lockGrab(.keyboard),
            .key(0, .release),
            .key(1, .press),
            .key(1, .release),
            .endGrab(.keyboard),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect(responder(world, 1).keysDown.isEmpty)
        #expect(world.router.keyboardGrab == nil && world.router.firstResponder === world.surfaces[1])
    }

    /// A touch device mapped to an output is hit-tested there, even where another output
    /// lies on top; an unmapped one is not.
    @Test func aMappedDeviceTouchesItsOwnOutput() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .addOutput(1, x: 400, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(500, 100, 200, 200), focusable: true),
            .add(2, to: .root(1), at: 0, frame: R(50, 50, 300, 300), focusable: true),
            .addDevice(1, mappedTo: 0),
            .touchFrom(1, [.down(0, 550, 150)]),
            .touch([.down(1, 560, 160)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect(world.router.surface(boundTo: TouchID(0)) === world.surfaces[1])
        #expect(world.router.surface(boundTo: TouchID(1)) === world.surfaces[2])
        #expect(world.bruteHit(LayoutPoint(x: 550, y: 150), device: 2) === world.surfaces[1])
    }

    /// Focus goes back through the history, skipping surfaces that left, then to the
    /// default rule (nearest ancestor that can take it).
    @Test func focusReturnsThroughItsHistory() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(0, 0, 100, 100), focusable: true),
            .add(2, to: .root(0), at: 1, frame: R(200, 0, 100, 100), focusable: true),
            .add(3, to: .root(0), at: 2, frame: R(400, 0, 100, 100), focusable: true),
            .add(5, to: .root(0), at: 3, frame: R(0, 200, 300, 300), focusable: true),
            .add(6, to: .surface(5), at: 0, frame: R(10, 10, 50, 50), focusable: true),
            .becomeFirst(.surface(1)),
            .becomeFirst(.surface(2)),
            .becomeFirst(.surface(3)),
            .remove(3),  // back to s2
            .becomeFirst(.surface(1)),  // s2 resigns: the top of the history again
            .remove(1),  // back to s2, the most recent
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect(world.router.firstResponder === world.surfaces[2])
        let more: [FaultScript.Step] = script + [
            .becomeFirst(.surface(6)),
            .remove(2),  // s6's history: s2 (gone), s1 (gone): the default rule from s5
            .remove(6),
        ]
        let again = FaultScriptWorld()
        #expect(again.run(more) == nil)
        #expect(again.router.firstResponder === again.surfaces[5])
    }

    /// The generator makes every new kind of step, and removals with a button or key held.
    @Test func theGeneratorMakesEveryNewStep() {
        let lines = (UInt64(1)...30).flatMap { FaultScript.generate(seed: $0, steps: 300) }.map(\.description)
        for kind in [".setBelowParent(", ".popupGrab(", ".nestedPopupGrab(", ".lockGrab(", ".keyboardGrab(", ".endGrab(", ".addDevice(", ".touchFrom("] {
            #expect(lines.contains { $0.hasPrefix(kind) }, "no \(kind) step in 30 scripts")
        }
        #expect(lines.contains { $0.hasPrefix(".arm(") && ($0.contains(".lockGrab(") || $0.contains(".popupGrab(")) },
                "no grab started from inside a callback")
        var heldThenRemoved = 0
        for seed in UInt64(1)...30 {
            let script = FaultScript.generate(seed: seed, steps: 300)
            for i in 2..<script.count {
                if case .remove = script[i], case .button(_, true) = script[i - 1] { heldThenRemoved += 1 }
                if case .remove = script[i], case .key(_, .press) = script[i - 1] { heldThenRemoved += 1 }
            }
        }
        #expect(heldThenRemoved >= 30, "only \(heldThenRemoved) removals right after a press in 30 scripts")
    }
}
