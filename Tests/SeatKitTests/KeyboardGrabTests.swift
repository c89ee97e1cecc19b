import Testing
@testable import SeatKit

/// Keyboard grabs and key pairing: whatever a grab does and however it ends, each press a
/// responder saw gets exactly one release, and no release reaches a responder that did not
/// see its press (issue 23, items 1 and 2).
@Suite("Keyboard grabs")
struct KeyboardGrabTests {
    /// An app that handles keys and takes focus.
    private func focusedApp(_ h: Harness) -> Surface {
        let app = h.surface("app", 0, 0, 1000, 1000, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        h.router.becomeFirstResponder(app)
        return app
    }

    @Test func aGrabThatKeepsFocusReleasesTheKeysTheFirstResponderHoldsAndLeavesItFocused() {
        let h = Harness()
        let app = focusedApp(h)
        h.key(30, .pressed)
        h.log.clear()
        let grab = ScriptedKeyboardGrab()
        h.router.startKeyboardGrab(grab, focus: .keep)
        #expect(h.log.entries == ["app.keyUp"])
        #expect(app.recorder.lastKey?.isCancelled == true)
        #expect(app.recorder.lastKey?.keepsFocus == true)
        #expect(h.router.firstResponder === app)
        #expect(h.router.heldKeysForFocus.isEmpty)
        // The real release goes to the grab, and to no responder.
        h.key(30, .released)
        #expect(grab.seen == ["up 30"])
        #expect(h.log.entries == ["app.keyUp"])
    }

    @Test func aGrabThatClearsFocusReleasesHeldKeysThenResignsAndGivesFocusBackWhenItEnds() {
        let h = Harness()
        let app = focusedApp(h)
        app.recorder.refusesResign = true   // a lock screen does not ask
        h.key(30, .pressed)
        h.log.clear()
        let grab = ScriptedKeyboardGrab()
        h.router.startKeyboardGrab(grab, focus: .clear)
        #expect(h.log.entries == ["app.keyUp", "app.didResign"])
        #expect(app.recorder.lastKey?.isCancelled == true)
        #expect(app.recorder.lastKey?.keepsFocus == false)
        #expect(h.router.firstResponder == nil)
        h.key(31, .pressed)
        h.router.endKeyboardGrab()
        #expect(h.router.firstResponder === app)
        #expect(h.log.entries == ["app.keyUp", "app.didResign", "app.didBecome"])
        // Neither the key cancelled at the start nor the one the grab took comes back.
        h.key(30, .released)
        h.key(31, .released)
        #expect(h.log.entries == ["app.keyUp", "app.didResign", "app.didBecome"])
        #expect(h.delegate.dropped.isEmpty)
    }

    @Test func afterAGrabEndsTheReleaseOfAKeyCancelledAtItsStartReachesNoResponder() {
        let h = Harness()
        _ = focusedApp(h)
        h.key(30, .pressed)
        h.router.startKeyboardGrab(ScriptedKeyboardGrab())
        h.router.endKeyboardGrab()
        h.log.clear()
        h.key(30, .released)
        #expect(h.log.entries.isEmpty)
        #expect(h.delegate.dropped.isEmpty)
    }

    @Test func aForwardingGrabDoesNotReleaseAKeyPressedBeforeItTwice() {
        let h = Harness()
        _ = focusedApp(h)
        h.key(30, .pressed)
        h.log.clear()
        h.router.startKeyboardGrab(ScriptedKeyboardGrab(forwards: true))
        h.key(30, .released)
        #expect(h.log.entries == ["app.keyUp"])   // the cancelled one, at the start
    }

    @Test func aForwardingGrabThatForwardsOneReleaseTwiceDeliversItOnce() {
        let h = Harness()
        _ = focusedApp(h)
        let grab = ScriptedKeyboardGrab(forwards: true)
        grab.forwardsReleasesTwice = true
        h.router.startKeyboardGrab(grab)
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(h.log.entries == ["app.didBecome", "app.keyDown", "app.keyUp"])
    }

    @Test func aLockThatEndsOnEntersPressLeavesTheAppNoReleaseOfEnter() {
        let h = Harness()
        _ = focusedApp(h)
        let lock = ScriptedKeyboardGrab()
        lock.endsOn = 28
        h.router.startKeyboardGrab(lock)
        h.log.clear()
        h.key(28, .pressed)
        #expect(h.router.keyboardGrab == nil)
        h.key(28, .released)
        #expect(h.log.entries.isEmpty)
        #expect(h.delegate.dropped.isEmpty)
        // The next key is the app's, press and release.
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(h.log.entries == ["app.keyDown", "app.keyUp"])
    }

    @Test func aPressTheGrabForwardedIsReleasedToTheFirstResponderAfterTheGrabEnds() {
        let h = Harness()
        _ = focusedApp(h)
        h.router.startKeyboardGrab(ScriptedKeyboardGrab(forwards: true))
        h.log.clear()
        h.key(30, .pressed)
        #expect(h.router.heldKeysForFocus == [30])
        h.router.endKeyboardGrab()
        h.key(30, .released)
        #expect(h.log.entries == ["app.keyDown", "app.keyUp"])
    }

    @Test func aGrabThatKeepsTheReleaseOfAPressItForwardedStillEndsTheKeyAtTheFirstResponder() {
        let h = Harness()
        let app = focusedApp(h)
        let grab = ScriptedKeyboardGrab(forwards: true)
        grab.forwardsReleases = false
        h.router.startKeyboardGrab(grab)
        h.log.clear()
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(h.log.entries == ["app.keyDown", "app.keyUp"])
        #expect(app.recorder.lastKey?.isCancelled == true)
        #expect(app.recorder.lastKey?.keepsFocus == true)
    }

    @Test func aReplacedGrabsKeysAreNotReleasedToTheFirstResponder() {
        let h = Harness()
        _ = focusedApp(h)
        let first = ScriptedKeyboardGrab()
        h.router.startKeyboardGrab(first)
        h.key(30, .pressed)
        let second = ScriptedKeyboardGrab(forwards: true)
        h.router.startKeyboardGrab(second)
        h.log.clear()
        h.key(30, .released)
        #expect(first.cancelled)
        #expect(second.seen == ["up 30"])
        #expect(h.log.entries.isEmpty)
    }

    @Test func removingTheFirstResponderUnderAForwardingGrabReleasesTheKeysItSawOnce() {
        let h = Harness()
        let app = focusedApp(h)
        h.router.startKeyboardGrab(ScriptedKeyboardGrab(forwards: true))
        h.key(30, .pressed)
        h.log.clear()
        app.removeFromParent()
        #expect(h.log.entries == ["app.keyUp", "app.didResign"])
        #expect(app.recorder.lastKey?.keepsFocus == false)
        h.log.clear()
        h.key(30, .released)
        #expect(h.log.entries.isEmpty)
        #expect(h.delegate.dropped.isEmpty)
    }
}

/// A keyboard grab that records what it gets ("down 30", "up 30"), forwards presses and
/// releases or not, and ends itself on a key's press.
final class ScriptedKeyboardGrab: KeyboardGrab {
    var seen: [String] = []
    let forwards: Bool
    var forwardsReleases = true
    var forwardsReleasesTwice = false
    var endsOn: UInt32?
    var cancelled = false
    init(forwards: Bool = false) { self.forwards = forwards }
    func key(_ event: KeyEvent, router: Router) {
        switch event.state {
        case .pressed: seen.append("down \(event.keycode)")
        case .released: seen.append("up \(event.keycode)")
        case .repeated: break
        }
        if event.keycode == endsOn, event.state == .pressed { router.endKeyboardGrab() }
        guard forwards, event.state != .released || forwardsReleases else { return }
        router.deliverKey(event)
        if forwardsReleasesTwice, event.state == .released { router.deliverKey(event) }
    }
    func cancel(router: Router) { cancelled = true }
}
