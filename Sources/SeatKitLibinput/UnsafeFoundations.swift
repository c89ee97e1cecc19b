import CLibinput

// SeatKitLibinput's one reliance on how libinput lays out its events, in one place (the
// core's rules are in Sources/SeatKit/UnsafeFoundations.swift).

/// A touch event (down, motion, up, cancel or frame) as the `libinput_event_touch` its
/// getters take: the event's own pointer, without asking `libinput_event_get_touch_event`.
///
/// Why: libinput's `libinput_event_get_touch_event` checks the event's type through its
/// variadic `require_event_type` (the context's lookup and a loop over five types, ~76
/// instructions a call) and returns the event itself: `struct libinput_event_touch` begins
/// with its `struct libinput_event base` (as every kind of libinput event does, since
/// libinput 0.x; `libinput_event_touch_get_base_event`, the documented inverse, returns
/// `&event->base`). ``LibinputContextHandle/drain(into:)`` has read the type already, and
/// every getter it calls next checks it again, so the call was one event type test more per
/// touch event, one a touchscreen frame in both kiosks (issue 25, sixteenth round).
///
/// Checked: a device takes the path that calls this only once its first touch event was
/// answered by libinput's `libinput_event_get_touch_event` with the event itself (the touch
/// bit of `LibinputContextHandle`'s device user data), so a libinput laid out otherwise never
/// reaches it, in any build. In a debug build every call asks libinput too and traps if the pointers differ,
/// so every replay and live libinput test that sends a touch (the replay's worker and the
/// kiosk run debug in `swift test`) checks it on that libinput: among them
/// `SyntheticDevicesMatchLibinputTests.touchscreenSlotReuseAndAFingerThatStays`, whose downs,
/// motions, ups and frames on two slots are read back slot, position and time.
/// Only for an event whose type is one of the touch types.
@inline(__always)
func touchEvent(of event: OpaquePointer) -> OpaquePointer {
    assert(libinput_event_get_touch_event(event) == event,
           "libinput's touch event is not the event itself: its layout changed, read it with libinput_event_get_touch_event")
    return event
}
