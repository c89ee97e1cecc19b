// This file imports CSeatKit's Swift side (to see a recognizer handle's object and its core
// recognizer); the C API's functions are called through the Swift side, qualified, since
// both declare the same names.
@testable import CSeatKit
import CSeatKitSupport
import Testing

/// A C recognizer is its core recognizer's delegate only once it has something to answer: a
/// should-begin callback or a simultaneous partner. Before, the core's defaults stand (and no
/// touch down loads a weak delegate).
struct CRecognizerDelegateTests {
    static let refuse: seatkit_recognizer_should_begin_func_t = { _, _ in false }

    @Test func aCRecognizerBecomesItsRecognizersDelegateOnlyOnceItHasSomethingToAnswer() throws {
        let madeRouter = CSeatKit.seatkit_router_create_virtual(0)
        let router = try #require(madeRouter)
        defer { CSeatKit.seatkit_router_destroy(router) }
        let madeLongPress = CSeatKit.seatkit_recognizer_create_long_press(router, "hold", 600_000, 1)
        let madeSwipe = CSeatKit.seatkit_recognizer_create_swipe(router, "swipe", SEATKIT_SWIPE_LEFT.rawValue, 3)
        let madeTap = CSeatKit.seatkit_recognizer_create_tap(router, "tap", 1, 1)
        let longPress = try #require(madeLongPress)
        let swipe = try #require(madeSwipe)
        let tap = try #require(madeTap)
        let c = try #require(Handles.object(longPress, .recognizer) as? CRecognizer)
        let d = try #require(Handles.object(swipe, .recognizer) as? CRecognizer)
        let e = try #require(Handles.object(tap, .recognizer) as? CRecognizer)
        #expect(c.recognizer.delegate == nil && d.recognizer.delegate == nil && e.recognizer.delegate == nil,
                "none while there is nothing to answer")

        CSeatKit.seatkit_recognizer_set_should_begin(longPress, nil, nil)
        #expect(c.recognizer.delegate == nil, "a NULL callback is nothing to answer")
        CSeatKit.seatkit_recognizer_set_should_begin(longPress, Self.refuse, nil)
        #expect(c.recognizer.delegate === c)
        #expect(c.recognizer.delegate?.gestureRecognizerShouldBegin(c.recognizer) == false, "the C callback answers")

        let paired = CSeatKit.seatkit_recognizer_set_simultaneous(swipe, tap, true)
        #expect(paired)
        #expect(d.recognizer.delegate === d && e.recognizer.delegate === e, "both sides of the pair")
        #expect(d.recognizer.delegate?.gestureRecognizer(d.recognizer, shouldRecognizeSimultaneouslyWith: e.recognizer) == true)
    }
}
