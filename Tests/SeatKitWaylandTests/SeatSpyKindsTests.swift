import SeatKit
@testable import SeatKitWayland
import Testing

/// The seat's spies declare the kinds they are told (``InputSpy/observedKinds``): the router
/// calls them for no other, so a kind left out is an event they never see.
@Suite struct SeatSpyKindsTests {
    /// Idle notification counts input as activity, but not a touch frame alone (the frame's
    /// touch events, in the same dispatch, count) nor device announcements.
    @Test func theIdleSpyIsToldInputButNotTouchFramesOrDeviceAnnouncements() {
        let kinds = IdleSpy.kinds
        for kind in [InputEventKind.touchDown, .touchMotion, .touchUp, .touchCancel, .pointerMotion,
                     .pointerMotionAbsolute, .pointerButton, .pointerAxis, .touchpadSwipe, .touchpadPinch,
                     .touchpadHold, .key, .switchToggled, .tablet] {
            #expect(kinds.contains(kind: kind), "\(kind)")
        }
        for kind in [InputEventKind.touchFrame, .deviceAdded, .deviceRemoved] {
            #expect(!kinds.contains(kind: kind), "\(kind)")
        }
    }

    /// The tablet-pad spy needs pads arriving and leaving and their events, nothing else.
    @Test func theTabletDeviceSpyIsToldDeviceChangesAndTabletEventsOnly() {
        #expect(TabletDeviceSpy.kinds == [.deviceAdded, .deviceRemoved, .tablet])
    }
}
