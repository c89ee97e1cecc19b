import SeatKit
import Testing

/// The minimal scripts the fault-script soak (FaultScriptSoakTests) shrank its failures to,
/// one per invariant, on the core as it was when issue 12 was filed: each pins one bug of
/// the issue down. Each comment quotes the violation the script produced then.
@Suite("Fault-script soak: minimal scripts")
struct FaultScriptMinimalScriptTests {
    /// Broke `b.enter-twice` before issue 12's fix:
    /// s5 got pointerEntered while entered (no pointerLeft between)
    @Test func bEnterTwice() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(6, to: .root(0), at: 3, frame: R(395, 258, 62, 243), focusable: false),
            .add(5, to: .surface(6), at: 0, frame: R(321, 25, 392, 243), focusable: true),
            .pointerTo(x: 750, y: 313),
            .reparent(5, to: .root(0), at: 0),
            .pointerTo(x: 450, y: 113),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `b.entered-not-focus` before issue 12's fix:
    /// s6 is entered but pointerFocus is nil
    @Test func bEnteredNotFocus() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(6, to: .root(0), at: 3, frame: R(50, 419, 300, 325), focusable: true),
            .pointerTo(x: 105, y: 556),
            .removeOutput(0),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `b.focus-detached` before issue 12's fix:
    /// pointerFocus s0 is not in the layout
    @Test func bFocusDetached() {
        let script: [FaultScript.Step] = [
            .addOutput(1, x: 0, y: 0, w: 640, h: 480, rootFocusable: true),
            .add(0, to: .root(1), at: 1, frame: R(517, 99, 125, 288), focusable: true),
            .arm(.surface(0, .refine), .remove(0)),
            .setFrame(0, R(12, 211, 305, 260)),
            .pointerTo(x: 136, y: 256),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `b.focus-not-entered` before issue 12's fix:
    /// pointerFocus is s0 but s0 was never sent pointerEntered
    @Test func bFocusNotEntered() {
        let script: [FaultScript.Step] = [
            .addOutput(1, x: 0, y: 0, w: 640, h: 480, rootFocusable: true),
            .add(0, to: .root(1), at: 1, frame: R(517, 99, 125, 288), focusable: true),
            .arm(.surface(0, .refine), .remove(0)),
            .setFrame(0, R(12, 211, 305, 260)),
            .pointerTo(x: 136, y: 256),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `b.leave-without-enter` before issue 12's fix:
    /// root0 got pointerLeft without pointerEntered
    @Test func bLeaveWithoutEnter() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .addOutput(1, x: 400, y: 200, w: 640, h: 600, rootFocusable: true),
            .add(3, to: .root(0), at: 1, frame: R(420, 109, 124, 305), focusable: true),
            .arm(.surface(3, .left), .pointerTo(x: 1652, y: 376)),
            .reparent(3, to: .root(1), at: 2),
            .setFrame(3, R(59, 55, 250, 113)),
            .becomeFirst(.surface(3)),
            .pointerTo(x: 683, y: 278),
            .pointerTo(x: 337, y: 324),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `b.two-entered` before issue 12's fix:
    /// root0 got pointerEntered while s6 is still entered
    @Test func bTwoEntered() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 1600, y: 200, w: 800, h: 480, rootFocusable: true),
            .add(6, to: .root(0), at: 3, frame: R(50, 419, 300, 325), focusable: true),
            .pointerTo(x: 105, y: 556),
            .reparent(6, to: .root(1), at: 2),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.became-not-first-responder` before issue 12's fix:
    /// s7 got didBecome but firstResponder is nil
    @Test func cBecameNotFirstResponder() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 0, y: 0, w: 800, h: 480, rootFocusable: false),
            .add(7, to: .root(0), at: 1, frame: R(534, 313, 270, 128), focusable: true),
            .arm(.surface(7, .ended), .remove(7)),
            .reparent(7, to: .root(1), at: 1),
            .touch([.down(0, 547, 423)]),
            .becomeFirst(.surface(7)),
            .touch([.up(0), .down(0, 564, 419)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.become-twice` before issue 12's fix:
    /// s7 got didBecomeFirstResponder twice without didResign
    @Test func cBecomeTwice() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 0, y: 0, w: 800, h: 480, rootFocusable: false),
            .add(7, to: .root(0), at: 3, frame: R(294, 207, 341, 284), focusable: true),
            .becomeFirst(.surface(7)),
            .reparent(7, to: .root(1), at: 1),
            .becomeFirst(.surface(7)),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.become-while-removed` before issue 12's fix:
    /// root0 became first responder while not in the layout (removed surface or output)
    @Test func cBecomeWhileRemoved() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .removeOutput(0),
            .becomeFirst(.root(0)),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.first-responder-removed` before issue 12's fix:
    /// firstResponder OUT-0/root is not in the layout (removed surface or output)
    @Test func cFirstResponderRemoved() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .removeOutput(0),
            .becomeFirst(.root(0)),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.key-to-removed-output-root` before issue 12's fix:
    /// keyUp delivered to root2, the root of a removed output
    @Test func cKeyToRemovedOutputRoot() {
        let script: [FaultScript.Step] = [
            .addOutput(2, x: 400, y: 0, w: 800, h: 480, rootFocusable: true),
            .becomeFirst(.root(2)),
            .removeOutput(2),
            .key(2, .release),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.resign-without-become` before issue 12's fix:
    /// root2 got didResignFirstResponder without didBecome
    @Test func cResignWithoutBecome() {
        let script: [FaultScript.Step] = [
            .addOutput(1, x: 0, y: 0, w: 800, h: 480, rootFocusable: true),
            .addOutput(2, x: 1600, y: 0, w: 640, h: 600, rootFocusable: true),
            .add(9, to: .root(1), at: 1, frame: R(585, 55, 358, 92), focusable: true),
            .add(6, to: .surface(9), at: 3, frame: R(460, 315, 246, 120), focusable: true),
            .arm(.surface(6, .resign), .becomeFirst(.surface(6))),
            .becomeFirst(.surface(6)),
            .becomeFirst(.root(2)),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `c.two-first-responders` before issue 12's fix:
    /// root0 got didBecomeFirstResponder while s7 has not resigned
    @Test func cTwoFirstResponders() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 800, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(7, to: .root(0), at: 1, frame: R(534, 313, 270, 128), focusable: true),
            .arm(.surface(7, .become), .remove(7)),
            .becomeFirst(.surface(7)),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `d.active-touch-count` before issue 12's fix:
    /// activeTouchCount is 0; the model has 1 routed fingers down (+0 uncertain)
    @Test func dActiveTouchCount() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 400, y: 0, w: 800, h: 480, rootFocusable: false),
            .add(1, to: .root(0), at: 2, frame: R(516, 178, 326, 226), focusable: true),
            .add(3, to: .surface(1), at: 2, frame: R(138, 105, 50, 254), focusable: false),
            .add(4, to: .root(1), at: 1, frame: R(209, 373, 417, 121), focusable: true),
            .setFrame(4, R(196, -16, 407, 355)),
            .touch([.up(3), .down(3, 783, 149)]),
            .reparent(4, to: .surface(3), at: 2),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `d.event-after-end` before issue 12's fix:
    /// s5 got touchesended of t3@1ms after its ended or cancelled
    @Test func dEventAfterEnd() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(1, to: .root(0), at: 1, frame: R(267, -14, 369, 236), focusable: true),
            .arm(.surface(1, .ended), .touch([.down(5, 679, 307), .up(5)])),
            .add(7, to: .surface(1), at: 2, frame: R(78, 154, 254, 147), focusable: false),
            .add(5, to: .surface(7), at: 1, frame: R(199, 20, 170, 296), focusable: false),
            .touch([.up(3), .down(3, 685, 390)]),
            .touch([.up(3), .down(3, 699, 379)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `d.phase-before-began` before issue 12's fix:
    /// s2 (bound) got touchesended of t3@1ms before its touchesBegan
    @Test func dPhaseBeforeBegan() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(2, to: .root(0), at: 2, frame: R(335, 162, 205, 313), focusable: true),
            .setFrame(2, R(375, 365, 284, 352)),
            .arm(.surface(2, .refine), .remove(2)),
            .addOutput(2, x: 1600, y: 200, w: 640, h: 480, rootFocusable: true),
            .touch([.down(3, 635, 527)]),
            .add(2, to: .root(2), at: 1, frame: R(199, 335, 247, 51), focusable: false),
            .touch([.up(3), .down(3, 638, 529)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `d.reuse-order` before issue 12's fix:
    /// touchesBegan of t1@4ms came before root1 got the end of t1@1ms (same ID up and down in one frame)
    @Test func dReuseOrder() {
        let script: [FaultScript.Step] = [
            .addOutput(1, x: 0, y: 0, w: 800, h: 480, rootFocusable: false),
            .touch([.up(3), .down(1, 412, 428)]),
            .touch([.up(1), .down(1, 385, 404)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `d.reuse-order-held` before issue 12's fix:
    /// touchesBegan of t0@5ms came before root0 got the end of t0@1ms, lifted in an earlier frame (same ID reused)
    @Test func dReuseOrderHeld() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 480, rootFocusable: true),
            .addRecognizer(6, .doubleTap, on: .output(0), requireToFail: 2),
            .addOutput(2, x: 0, y: 200, w: 800, h: 600, rootFocusable: false),
            .touch([.down(0, 531, 137)]),
            .touch([.up(0), .up(1)]),
            .touch([.up(2), .down(0, 464, 556)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `d.touch-never-ended` before issue 12's fix:
    /// s6 saw t4@1ms as its bound surface and never got touchesEnded or touchesCancelled
    @Test func dTouchNeverEnded() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(6, to: .root(0), at: 0, frame: R(185, 305, 342, 258), focusable: false),
            .touch([.move(0, 305, 552), .down(4, 338, 507)]),
            .remove(6),
            .touch([.up(4)]),
            .advance(ms: 1200),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `e.in-progress-without-touches` before issue 12's fix:
    /// r2 is began with no touches
    @Test func eInProgressWithoutTouches() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .addRecognizer(2, .pan, on: .output(0), requireToFail: nil),
            .touch([.down(4, 532, 394)]),
            .touch([.move(4, 581, 408)]),
            .touch([.up(4), .down(4, 601, 395)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `e.phantom-touch` before issue 12's fix:
    /// r6 (possible) still holds t3@1ms, which is no longer down
    @Test func ePhantomTouch() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addRecognizer(4, .pan, on: .output(0), requireToFail: 1),
            .add(8, to: .root(0), at: 2, frame: R(444, 53, 268, 296), focusable: true),
            .addRecognizer(6, .pinch, on: .output(0), requireToFail: 5),
            .touch([.down(3, 476, 65)]),
            .add(5, to: .root(0), at: 3, frame: R(35, 310, 175, 291), focusable: false),
            .arm(.recognizer(4), .reparent(8, to: .surface(5), at: 0)),
            .cancelTouches,
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `f.move-lost-first-responder` before issue 12's fix:
    /// s7 was first responder and was moved; now OUT-0/root is
    @Test func fMoveLostFirstResponder() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 0, y: 0, w: 800, h: 480, rootFocusable: false),
            .add(7, to: .root(0), at: 3, frame: R(294, 207, 341, 284), focusable: true),
            .becomeFirst(.surface(7)),
            .reparent(7, to: .root(1), at: 1),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `g.remove-no-cancel` before issue 12's fix:
    /// s1 was removed while it followed t1@1ms and got no touchesCancelled
    @Test func gRemoveNoCancel() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 2, frame: R(222, 346, 331, 100), focusable: true),
            .arm(.surface(1, .began), .remove(1)),
            .touch([.move(2, 239, 397), .move(3, 206, 382), .up(4), .down(1, 297, 389)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `g.remove-no-leave` before issue 12's fix:
    /// s6 was removed while entered and got no pointerLeft
    @Test func gRemoveNoLeave() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(6, to: .root(0), at: 3, frame: R(50, 419, 300, 325), focusable: true),
            .pointerTo(x: 105, y: 556),
            .removeOutput(0),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `g.remove-no-resign` before issue 12's fix:
    /// s7 was removed while first responder and got no didResign
    @Test func gRemoveNoResign() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 800, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(7, to: .root(0), at: 1, frame: R(534, 313, 270, 128), focusable: true),
            .arm(.surface(7, .become), .remove(7)),
            .becomeFirst(.surface(7)),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// Broke `h.event-to-detached` before issue 12's fix:
    /// keyDown delivered to s1, which is not in the layout
    @Test func hEventToDetached() {
        let script: [FaultScript.Step] = [
            .addOutput(1, x: 0, y: 0, w: 800, h: 480, rootFocusable: false),
            .removeOutput(1),
            .add(1, to: .root(1), at: 1, frame: R(250, 86, 223, 302), focusable: true),
            .becomeFirst(.surface(1)),
            .key(1, .press),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }
}
