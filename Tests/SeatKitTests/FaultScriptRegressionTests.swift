import Testing
@testable import SeatKit

/// Minimal scripts the soak found after the first round of issue 12's fixes, each pinned as
/// it was printed. Each broke the invariant in its name.
@Suite("Fault-script soak: later findings")
struct FaultScriptRegressionTests {
    /// A tap injected from inside a recognizer's target, in the middle of a frame that reuses
    /// an ID: the new began must not overtake the old touch's end.
    @Test func dReuseOrderWithAFrameInjectedByARecognizer() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 800, y: 200, w: 800, h: 600, rootFocusable: false),
            .addRecognizer(0, .pinch, on: .output(0), requireToFail: nil),
            .arm(.recognizer(0), .touch([.down(5, 55, 152), .up(5)])),
            .touch([.up(0), .move(1, 819, 784), .down(4, 826, 741)]),
            .touch([.up(4), .down(4, 850, 728)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A cancel handler that removes its own surface while a pan takes the touch: one cancel.
    @Test func dEventAfterEndWhenACancelHandlerRemovesItsSurface() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(2, to: .root(0), at: 1, frame: R(565, 393, 362, 150), focusable: false),
            .add(9, to: .surface(2), at: 0, frame: R(395, 282, 289, 133), focusable: false),
            .addRecognizer(0, .pan, on: .surface(9), requireToFail: nil),
            .reparent(9, to: .root(0), at: 1),
            .arm(.surface(9, .cancelled), .remove(9)),
            .touch([.move(0, 385, 489), .up(4), .down(1, 665, 308)]),
            .touch([.move(0, 385, 490), .move(1, 607, 362)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A root that saw a touch whose surface then moved to another output is removed with
    /// its output: it is told the touch was cancelled, and the touch goes on.
    @Test func gRemoveNoCancelForALinkLeftBehindByAMove() {
        let script: [FaultScript.Step] = [
            .addOutput(2, x: 1600, y: 0, w: 640, h: 480, rootFocusable: true),
            .add(2, to: .root(2), at: 0, frame: R(371, 361, 114, 257), focusable: false),
            .addOutput(1, x: 0, y: 200, w: 640, h: 600, rootFocusable: true),
            .reparent(2, to: .root(1), at: 0),
            .touch([.move(1, 456, 684), .down(4, 441, 629)]),
            .reparent(2, to: .root(2), at: 2),
            .removeOutput(1),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A tap injected from inside an ended handler: its down and up wait for a frame of their
    /// own, so its end never comes before its began.
    @Test func dPhaseBeforeBeganForATapInjectedFromAnEndedHandler() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .add(1, to: .root(0), at: 1, frame: R(267, -14, 369, 236), focusable: true),
            .arm(.surface(1, .ended), .touch([.down(5, 679, 307), .up(5)])),
            .add(7, to: .surface(1), at: 2, frame: R(78, 154, 254, 147), focusable: false),
            .add(5, to: .surface(7), at: 1, frame: R(199, 20, 170, 296), focusable: false),
            .touch([.up(2), .down(2, 608, 455)]),
            .touch([.up(2), .move(3, 695, 382), .move(4, 667, 380)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// The same, from inside a moved handler, with a tap recognizer on the surface: the
    /// recognizer never keeps the injected touch.
    @Test func ePhantomTouchOfATapInjectedFromAMovedHandler() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 1600, y: 200, w: 800, h: 480, rootFocusable: true),
            .add(5, to: .root(0), at: 1, frame: R(181, 419, 203, 228), focusable: false),
            .reparent(5, to: .root(1), at: 0),
            .touch([.move(1, 1800, 598), .move(3, 1939, 370), .down(4, 1852, 642)]),
            .reparent(5, to: .root(0), at: 1),
            .addRecognizer(7, .tap, on: .surface(5), requireToFail: nil),
            .touch([.move(3, 1958, 341), .move(4, 1835, 611)]),
            .arm(.surface(5, .moved), .touch([.down(5, 337, 586), .up(5)])),
            .touch([.move(4, 1832, 612)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A surface armed to remove itself at its ended, with the same ID reused in the frame.
    @Test func dEventAfterEndWhenAnEndedHandlerRemovesItsSurfaceInAReusingFrame() {
        let script: [FaultScript.Step] = [
            .addOutput(1, x: 400, y: 0, w: 800, h: 480, rootFocusable: false),
            .add(4, to: .root(1), at: 1, frame: R(209, 373, 417, 121), focusable: true),
            .add(3, to: .surface(4), at: 0, frame: R(337, 100, 358, 290), focusable: false),
            .reparent(3, to: .root(1), at: 3),
            .touch([.up(3), .down(3, 783, 149)]),
            .arm(.surface(3, .ended), .remove(3)),
            .touch([.up(1), .up(3)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A popup grab's focus saw a button pressed; a lock screen replaces the popup grab and
    /// the popup's dismiss removes it: the popup is owed that button's cancelled release.
    @Test func gRemoveNoCancelledButtonWhenAPopupGrabIsReplaced() {
        let script: [FaultScript.Step] = [
            .addOutput(2, x: 1600, y: 0, w: 640, h: 600, rootFocusable: true),
            .add(1, to: .root(2), at: 0, frame: R(327, 54, 343, 216), focusable: true),
            .popupGrab(1, closes: true),
            .pointerTo(x: 2252, y: 104),
            .button(1, pressed: true),
            .lockGrab(.pointer),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A lock screen started from inside a leave stops the focus change under way: the
    /// surface that would have been entered is not, and hears no release it never saw.
    @Test func gCancelledButtonNotPressedWhenALockStartsInsideALeave() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: true),
            .addOutput(1, x: 0, y: 200, w: 800, h: 480, rootFocusable: true),
            .add(7, to: .root(1), at: 0, frame: R(41, 123, 402, 234), focusable: false),
            .touch([.up(0), .down(0, 176, 377)]),
            .pointerTo(x: 294, y: 389),
            .arm(.surface(7, .left), .lockGrab(.all)),
            .reparent(7, to: .root(0), at: 2),
            .touch([.move(0, 178, 379), .down(1, 237, 333)]),
            .button(0, pressed: true),
            .removeOutput(1),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A popup grab started by a recognizer's target in the middle of a frame, then ended by
    /// another's: the model and the router agree on which fingers are routed.
    @Test func dActiveTouchCountWhenRecognizersStartAndEndGrabs() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 800, y: 200, w: 800, h: 480, rootFocusable: true),
            .arm(.recognizer(1), .endGrab(.touch)),
            .add(6, to: .root(0), at: 2, frame: R(255, 3, 331, 183), focusable: false),
            .add(7, to: .surface(6), at: 1, frame: R(373, 438, 144, 48), focusable: true),
            .addRecognizer(1, .longPress, on: .output(0), requireToFail: nil),
            .arm(.recognizer(4), .popupGrab(7, closes: false)),
            .addDevice(1, mappedTo: 0),
            .addRecognizer(4, .doubleTap, on: .output(0), requireToFail: 0),
            .touchFrom(1, [.up(3), .down(2, 77, 364)]),
            .touchFrom(1, [.move(2, 96, 374), .move(4, 405, 559)]),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }

    /// A refine that moves the pointer during the pointer's own hit-test: the hit's surface
    /// origin comes from the point the hit-test ran at, so the point carried in the focus
    /// agrees with a walk up the tree (fault-script soak, seed 982, invariant 4 of
    /// `PointerRouting`; the origin was taken from the moved pointer's point before).
    @Test func kPointerCarriedPointWhenARefineMovesThePointer() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .pointerTo(x: 269, y: 327),
            .add(5, to: .root(0), at: 1, frame: R(17, 170, 320, 240), focusable: true),
            .arm(.surface(5, .refine), .pointerTo(x: 355, y: 578)),
            .touchpad(.swipe, .end, fingers: 3),
        ]
        #expect(FaultScriptWorld.run(script) == nil)
    }
}
