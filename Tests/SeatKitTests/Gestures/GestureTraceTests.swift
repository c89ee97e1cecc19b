import Testing
import SeatKit

/// The trace tells every transition, and why each touch was delayed, delivered or cancelled.
@Suite struct GestureTraceTests {
    @Test func aTapWaitingForADoubleTapExplainsItself() throws {
        let rig = GestureRig()
        let photo = rig.surface("photo", 0, 0, 1000, 1000)
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        try single.require(toFail: double)
        photo.addGestureRecognizer(single)
        photo.addGestureRecognizer(double)
        let log = TraceLog()
        rig.router.trace = log
        rig.down(1, 100, 100)
        rig.up(1)
        rig.wait(300)
        let gestureLines = log.records.compactMap { record -> String? in
            switch record {
            case .gestureSaw, .received, .hitTest, .touchBound, .asked, .dropped: return nil
            default: return record.description.trimmingCharacters(in: " ")
            }
        }
        #expect(gestureLines == [
            "gesture single@photo waits for double@photo to fail",
            "t1 touchesEnded held back by single@photo",
            "gesture double@photo: possible -> failed",
            "gesture single@photo: possible -> recognized",
            "t1 taken by gesture single@photo",
            // Nobody handled the touch, so every link of the chain saw it, and each is told.
            "touchesCancelled -> photo",
            "touchesCancelled -> OUT/root",
            "touchesCancelled -> output:OUT",
            "touchesCancelled -> delegate",
            "gesture single@photo reset",
            "gesture double@photo reset",
            "t1 held touchesEnded dropped: taken by a recognizer",
        ])
    }

    @Test func releasedTouchesAreTraced() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer()
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        let log = TraceLog()
        rig.router.trace = log
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(log.records.contains(.touchDelayed(TouchID(1), .touchesBegan, by: "long-press@canvas")))
        #expect(log.records.contains(.gestureState("long-press@canvas", from: .possible, to: .failed)))
        #expect(log.records.contains(.touchReleased(TouchID(1), .touchesBegan)))
        #expect(log.records.contains(.touchReleased(TouchID(1), .touchesEnded)))
        #expect(log.records.contains(.gestureSaw("long-press@canvas", .touchesBegan)))
    }

    @Test func aRefusedRecognitionSaysWhy() {
        let rig = GestureRig()
        let delegate = SimultaneousDelegate()
        delegate.refusesBegin = true
        let pan = PanGestureRecognizer()
        pan.delegate = delegate
        rig.output.root.addGestureRecognizer(pan)
        let log = TraceLog()
        rig.router.trace = log
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        #expect(log.records.contains(.gestureRefused("pan@OUT/root", .began, reason: "its delegate said no")))
        #expect(log.records.contains(.gestureState("pan@OUT/root", from: .possible, to: .failed)))
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character })
    }
}
