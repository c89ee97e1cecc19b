import Testing
@testable import SeatKit

@Suite("Grabs")
struct GrabTests {
    // MARK: Popup

    @Test func aClickOutsideAPopupWithGrabDismissesItAndIsNotDelivered() {
        let h = Harness()
        h.surface("window", 0, 0, 500, 500, handles: ["button"])
        let popup = h.surface("popup", 100, 100, 100, 200, handles: ["button", "motion"])
        var dismissed = 0
        h.router.startPopupGrab(PopupGrab(popup: popup) {
            dismissed += 1
            popup.removeFromParent()
        })
        h.pointer(to: 150, 150)
        h.press()
        h.release()
        #expect(h.log.entries.filter { $0.hasPrefix("popup.") } == ["popup.enter", "popup.motion", "popup.button", "popup.button"])
        h.log.clear()
        // Outside: over the window, which gets neither the motion nor the click.
        h.pointer(to: 400, 400)
        #expect(h.router.pointerFocus == nil)
        h.press()
        #expect(dismissed == 1)
        #expect(h.router.pointerGrab == nil && h.router.touchGrab == nil)
        h.release()
        #expect(!h.log.entries.contains("window.button"))
        // The grab is over: the window works again.
        h.pointer(to: 401, 401)
        h.press()
        h.release()
        #expect(h.log.entries.filter { $0 == "window.button" }.count == 2)
    }

    /// A popup shown on two outputs (an app spanning them has a surface on each output's
    /// tree, and so has its popup): one grab over both parts. Taps and clicks on the part on
    /// the second output reach it; a press outside both, on either output, dismisses it.
    /// Without the parts, the first press on the second output's part would dismiss it.
    @Test func aPopupGrabWithAPartOnAnotherOutputTakesInputThereAndAPressOutsideEveryPartDismissesIt() {
        let h = Harness()
        let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 1000, height: 1000))
        h.router.addOutput(second)
        let window = h.surface("window", 0, 0, 1000, 1000, handles: ["button", "began"])
        let slice = h.surface("slice", -1000, 0, 2000, 1000, in: second.root, handles: ["button", "began"])
        // The popup from window x 900 to 1100: across the boundary.
        let popup = h.surface("popup", 900, 100, 200, 300, in: window, handles: ["button", "began", "ended"])
        let part = h.surface("part", 900, 100, 200, 300, in: slice, handles: ["button", "began", "ended"])
        var dismissed = 0
        let grab = PopupGrab(popup: popup, parts: [part]) { dismissed += 1 }
        h.router.startPopupGrab(grab)
        #expect(grab.contains(part) && grab.contains(popup) && !grab.contains(slice))
        h.pointer(to: 1050, 200)   // on the second output, over the part
        h.press()
        h.release()
        h.down(0, 1050, 300)
        h.up(0)
        h.pointer(to: 950, 200)    // on the first, over the popup itself
        h.press()
        h.release()
        #expect(dismissed == 0)
        #expect(h.log.entries.filter { $0.hasSuffix(".button") || $0.hasSuffix(".began") } ==
                ["part.button", "part.button", "part.began", "popup.button", "popup.button"], "\(h.log.entries)")
        // Outside every part, on the second output: dismissed, delivered nowhere.
        h.log.clear()
        h.pointer(to: 1500, 800)
        h.press()
        h.release()
        #expect(dismissed == 1)
        #expect(!h.log.entries.contains { $0.hasSuffix(".button") })
        // And by a touch outside on the first output, for a new grab.
        let again = PopupGrab(popup: popup, parts: [part]) { dismissed += 1 }
        h.router.startPopupGrab(again)
        h.down(1, 300, 800)
        h.up(1)
        #expect(dismissed == 2)
        #expect(!h.log.entries.contains { $0.hasSuffix(".began") })
    }

    @Test func aTapInsideAPopupReachesItAndATapOutsideDismissesIt() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500, handles: ["began", "ended"])
        let popup = h.surface("popup", 100, 100, 100, 200, handles: ["began", "ended"])
        var dismissed = false
        h.router.startPopupGrab(PopupGrab(popup: popup) { dismissed = true })
        h.down(0, 150, 150)
        h.up(0)
        #expect(h.log.entries == ["popup.began", "popup.ended"])
        h.log.clear()
        h.down(1, 400, 400)
        h.move(1, 410, 410)
        h.up(1)
        #expect(dismissed)
        let touchCalls: ([String]) -> [String] = { $0.filter { !$0.hasSuffix("enter") && !$0.hasSuffix("leave") } }
        #expect(touchCalls(h.log.entries).isEmpty)
        _ = window
        h.down(2, 400, 400)
        #expect(touchCalls(h.log.entries) == ["window.began"])
    }

    @Test func aPopupGrabDismissedByAPressOutsideLetsThatPresssReleaseReachNoOneNotEvenTheDelegate() {
        let h = Harness()
        h.surface("window", 0, 0, 500, 500, handles: ["button"])
        let popup = h.surface("popup", 100, 100, 100, 200, handles: ["button"])
        h.router.startPopupGrab(PopupGrab(popup: popup) { popup.removeFromParent() })
        h.pointer(to: 400, 400)   // outside the popup: no focus
        h.press()
        #expect(h.router.pointerGrab == nil)
        h.release()
        #expect(!h.log.entries.contains { $0.hasSuffix(".button") })
        #expect(h.delegate.dropped.isEmpty)
        #expect(h.router.heldButtons.isEmpty)
    }

    @Test func aButtonHeldWhenAPopupGrabStartsIsReleasedOnceToTheSurfaceThatSawItsPress() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500, handles: ["button"])
        let popup = h.surface("popup", 100, 100, 100, 200, handles: ["button"])
        h.pointer(to: 400, 400)
        h.press()
        let grab = PopupGrab(popup: popup) {}
        h.router.startPopupGrab(grab)
        #expect(window.recorder.lastButton?.isCancelled == true)
        h.log.clear()
        // Released under the grab, and after it: the window heard its cancelled release.
        h.release()
        h.press(0x111)
        h.router.endGrab(grab)
        h.release(0x111)
        #expect(!h.log.entries.contains { $0.hasSuffix(".button") })
        #expect(!h.delegate.dropped.contains("button"))
    }

    @Test func aPointerGrabThatEndsWithAButtonHeldDoesNotReleaseItToASurfaceThatNeverSawThePress() {
        let h = Harness()
        let source = h.surface("source", 0, 0, 300, 300, handles: ["button", "motion"])
        let target = h.surface("target", 400, 0, 300, 300, handles: ["button", "motion"])
        h.pointer(to: 100, 100)
        h.press()
        let drag = FocusFollowingGrab()
        h.router.startPointerGrab(drag)
        h.pointer(to: 500, 100)
        #expect(h.router.pointerFocus === target)
        h.router.endPointerGrab()   // the button is still down
        h.log.clear()
        h.release()
        #expect(!h.log.entries.contains { $0.hasSuffix(".button") })
        #expect(!h.delegate.dropped.contains("button"))
        // Focus follows the pointer again, and the next click is whole.
        h.press()
        h.release()
        #expect(h.log.entries == ["target.button", "target.button"])
        _ = source
    }

    @Test func aPressAGrabForwardedToItsFocusIsReleasedThereAfterTheGrabEnds() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 300, 300, handles: ["button", "motion"])
        let grab = FocusFollowingGrab()
        grab.forwardsButtons = true
        h.router.startPointerGrab(grab)
        h.pointer(to: 100, 100)
        h.log.clear()
        h.press()
        h.router.endPointerGrab()
        h.release()
        #expect(h.log.entries == ["window.button", "window.button"])
        #expect(window.recorder.lastButton?.state == .released)
        #expect(window.recorder.lastButton?.isCancelled == false)
    }

    @Test func aPopupGrabWhosePopupWasRemovedEndsItselfAndTheNextClickAndTapReachTheWindow() {
        let h = Harness()
        h.surface("window", 0, 0, 500, 500, handles: ["button", "began", "ended"])
        let popup = h.surface("popup", 100, 100, 100, 200, handles: ["button"])
        var dismissed = 0
        h.router.startPopupGrab(PopupGrab(popup: popup) { dismissed += 1 })
        popup.removeFromParent()   // the client closed its menu
        #expect(dismissed == 1)
        #expect(h.router.pointerGrab == nil && h.router.touchGrab == nil)
        h.log.clear()
        h.pointer(to: 400, 400)
        h.press()
        h.release()
        h.down(0, 300, 300)
        h.up(0)
        #expect(h.log.entries.filter { !$0.hasSuffix("enter") && !$0.hasSuffix("motion") } == ["window.button", "window.button", "window.began", "window.ended"])
        #expect(dismissed == 1)
    }

    @Test func aPopupGrabForAPopupNotInTheLayoutIsDismissedAtOnceAndTakesNothing() {
        let h = Harness()
        h.surface("window", 0, 0, 500, 500, handles: ["button"])
        let closed = Surface(name: "closed", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        var dismissed = 0
        h.router.startPopupGrab(PopupGrab(popup: closed) { dismissed += 1 })
        #expect(dismissed == 1)
        #expect(h.router.pointerGrab == nil && h.router.touchGrab == nil)
        h.pointer(to: 400, 400)
        h.press()
        #expect(h.log.entries.contains("window.button"))
    }

    /// A menu and its submenu, side by side (the submenu is not a descendant of the menu).
    private func nestedMenus(_ h: Harness) -> (menu: Surface, submenu: Surface, outer: PopupGrab, inner: PopupGrab, dismissed: CallLog) {
        h.surface("window", 0, 0, 800, 600, handles: ["button", "began"])
        let menu = h.surface("menu", 100, 100, 100, 200, handles: ["button", "began", "ended"])
        let submenu = h.surface("submenu", 200, 100, 100, 200, handles: ["button", "began", "ended"])
        let dismissed = CallLog()
        let outer = PopupGrab(popup: menu) { dismissed.add("menu") }
        let inner = PopupGrab(popup: submenu, parent: outer) { dismissed.add("submenu") }
        h.router.startPopupGrab(outer)
        h.router.startPopupGrab(inner)
        return (menu, submenu, outer, inner, dismissed)
    }

    @Test func aNestedPopupGrabStacksOnItsParentAndBothPopupsTakeInput() {
        let h = Harness()
        let (_, _, _, inner, dismissed) = nestedMenus(h)
        #expect(dismissed.entries.isEmpty)
        #expect(h.router.pointerGrab === inner)
        h.log.clear()
        h.pointer(to: 150, 150)   // the menu
        h.press()
        h.release()
        h.pointer(to: 250, 150)   // the submenu
        h.press()
        h.release()
        h.down(0, 150, 150)
        h.up(0)
        let calls = h.log.entries.filter { $0.hasSuffix("button") || $0.hasSuffix("began") || $0.hasSuffix("ended") }
        #expect(calls == ["menu.button", "menu.button", "submenu.button", "submenu.button", "menu.began", "menu.ended"])
        #expect(dismissed.entries.isEmpty)
        // A press outside both dismisses both, innermost first, and reaches no one.
        h.log.clear()
        h.pointer(to: 600, 500)
        h.press()
        h.release()
        #expect(dismissed.entries == ["submenu", "menu"])
        #expect(!h.log.entries.contains { $0.hasSuffix("button") })
        #expect(h.router.pointerGrab == nil && h.router.touchGrab == nil)
    }

    @Test func dismissingAPopupGrabDismissesTheGrabsNestedInItFirst() {
        let h = Harness()
        let (_, _, outer, _, dismissed) = nestedMenus(h)
        h.router.endGrab(outer)
        #expect(dismissed.entries == ["submenu", "menu"])
        #expect(h.router.pointerGrab == nil && h.router.touchGrab == nil)
        h.router.endGrab(outer)
        #expect(dismissed.entries == ["submenu", "menu"])
    }

    @Test func aNestedPopupGrabEndingAloneGivesThePointerAndTouchBackToItsParent() {
        let h = Harness()
        let (_, submenu, outer, inner, dismissed) = nestedMenus(h)
        h.router.endGrab(inner)
        #expect(dismissed.entries == ["submenu"])
        #expect(h.router.pointerGrab === outer && h.router.touchGrab === outer)
        // The submenu is outside the remaining grab: a tap there dismisses the menu.
        h.log.clear()
        h.down(0, 250, 150)
        h.up(0)
        #expect(dismissed.entries == ["submenu", "menu"])
        #expect(!h.log.entries.contains("submenu.began"))
        _ = submenu
    }

    @Test func removingTheParentPopupDismissesItsNestedGrabToo() {
        let h = Harness()
        let (menu, _, _, _, dismissed) = nestedMenus(h)
        menu.removeFromParent()
        #expect(dismissed.entries == ["submenu", "menu"])
        #expect(h.router.pointerGrab == nil && h.router.touchGrab == nil)
    }

    @Test func anotherGrabReplacingANestedPopupGrabDismissesTheWholeChain() {
        let h = Harness()
        let (_, _, _, _, dismissed) = nestedMenus(h)
        h.router.startPointerGrab(FocusFollowingGrab())
        #expect(dismissed.entries == ["submenu", "menu"])
        #expect(h.router.touchGrab == nil)
    }

    // MARK: Interactive move and resize

    @Test func anInteractiveMoveTakesThePointerUntilTheReleaseAndNoClientSeesTheDrag() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 300, 200, handles: ["button", "motion"])
        h.pointer(to: 150, 110)
        window.recorder.onCall = { method, context in
            if method == "button", window.recorder.lastButton?.state == .pressed {
                context.router.startPointerGrab(MoveGrab(window: window, pointer: context.router.pointerLocation))
            }
        }
        h.log.clear()
        h.press()
        // The window saw the press, then a cancelled release and a leave: no stuck button.
        #expect(h.log.entries == ["window.button", "window.button", "window.leave"])
        #expect(window.recorder.lastButton?.isCancelled == true)
        window.recorder.onCall = nil
        h.log.clear()
        h.pointer(to: 250, 160)
        h.pointer(to: 350, 210)
        #expect(window.frame.origin == SurfacePoint(x: 300, y: 200))
        #expect(h.log.entries.isEmpty)
        h.release()
        #expect(h.router.pointerGrab == nil)
        // Focus follows the default rule again: the pointer is over the moved window.
        #expect(h.router.pointerFocus === window)
        #expect(h.log.entries == ["window.enter"])
    }

    @Test func anInteractiveResizeChangesTheFrameSize() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 300, 200)
        h.pointer(to: 400, 300)
        h.press()
        h.router.startPointerGrab(ResizeGrab(window: window, pointer: h.router.pointerLocation))
        h.pointer(to: 450, 320)
        h.release()
        #expect(window.frame.size == Size(width: 350, height: 220))
        #expect(h.router.pointerGrab == nil)
    }

    // MARK: Drag and drop

    @Test func dragAndDropTracksTheTargetUnderThePointerAndDropsOnIt() {
        let h = Harness()
        let source = h.surface("source", 0, 0, 200, 200, handles: ["button"])
        let trash = h.surface("trash", 300, 0, 200, 200)
        let folder = h.surface("folder", 600, 0, 200, 200)
        h.pointer(to: 50, 50)
        h.press()
        let drag = DragGrab()
        h.router.startPointerGrab(drag)
        h.pointer(to: 350, 50)
        h.pointer(to: 650, 50)
        h.pointer(to: 660, 60)
        h.release()
        #expect(drag.visits == ["trash", "folder"])
        #expect(drag.droppedOn === folder)
        #expect(h.router.pointerGrab == nil)
        #expect(h.router.pointerFocus === folder)
        _ = (source, trash)
    }

    // MARK: Lock screen

    @Test func aLockScreenGrabTakesAllInputInTheMiddleOfATouch() {
        let h = Harness()
        let app = h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended", "keyDown", "keyUp"], canBecomeFirst: true)
        h.router.becomeFirstResponder(app)
        h.down(0, 10, 10)
        h.key(30, .pressed)
        h.log.clear()
        let lock = LockScreen()
        h.router.startTouchGrab(lock)
        h.router.startKeyboardGrab(lock)
        #expect(h.log.entries == ["app.cancelled", "app.keyUp"])
        h.log.clear()
        h.move(0, 20, 20)
        h.up(0)
        h.down(1, 30, 30)
        h.key(30, .released)
        h.key(31, .pressed)
        #expect(h.log.entries.isEmpty)
        #expect(lock.seen == ["move t0", "up t0", "down t1", "key 30", "key 31"])
        h.router.endGrab(lock)
        h.log.clear()
        // Unlocked: the finger that went down under the lock stays the lock's.
        h.move(1, 40, 40)
        h.up(1)
        h.down(2, 50, 50)
        #expect(h.log.entries == ["app.began"])
    }

    @Test func aFilterThatEngagesMidTouchTakesItOverCleanly() {
        let h = Harness()
        let pan = PanGestureRecognizer(name: "pan")
        let app = h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        app.addGestureRecognizer(pan)
        h.down(0, 10, 10)
        h.log.clear()
        let lock = LockFilter()
        h.router.addFilter(lock)
        h.move(0, 20, 20)
        #expect(h.log.entries == ["app.cancelled"])
        #expect(pan.touches.isEmpty)
        h.log.clear()
        h.move(0, 30, 30)
        h.up(0)
        #expect(h.log.entries.isEmpty)
        #expect(lock.taken == 3)
        h.router.removeFilter(lock)
        h.down(0, 10, 10)
        #expect(h.log.entries == ["app.began"])
    }

    @Test func endingATouchGrabCancelsTheTouchesItRouted() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began"])
        let forwarding = ForwardingTouchGrab()
        h.router.startTouchGrab(forwarding)
        h.down(0, 10, 10)
        #expect(h.log.entries == ["app.began"])
        h.router.endTouchGrab()
        #expect(h.log.entries == ["app.began", "app.cancelled"])
        #expect(forwarding.cancelled)
        #expect(h.router.activeTouchCount == 0)
    }
}

// MARK: Grabs written against the public API, as a compositor would

final class MoveGrab: PointerGrab {
    let window: Surface
    let start: LayoutPoint
    let origin: SurfacePoint
    init(window: Surface, pointer: LayoutPoint) {
        self.window = window
        self.start = pointer
        self.origin = window.frame.origin
    }
    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        window.frame.origin = SurfacePoint(x: origin.x + event.location.x - start.x, y: origin.y + event.location.y - start.y)
    }
    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        if event.state == .released && router.heldButtons.isEmpty { router.endPointerGrab() }
    }
}

final class ResizeGrab: PointerGrab {
    let window: Surface
    let start: LayoutPoint
    let size: Size
    init(window: Surface, pointer: LayoutPoint) {
        self.window = window
        self.start = pointer
        self.size = window.frame.size
    }
    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        window.frame.size = Size(width: size.width + event.location.x - start.x, height: size.height + event.location.y - start.y)
    }
    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        if event.state == .released && router.heldButtons.isEmpty { router.endPointerGrab() }
    }
}

final class DragGrab: PointerGrab {
    var visits: [String] = []
    var target: Surface?
    var droppedOn: Surface?
    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        let hit = router.surface(at: event.location)
        if hit !== target, let hit, hit !== hit.output?.root {
            visits.append(hit.name)
        }
        target = hit
    }
    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        guard event.state == .released else { return }
        droppedOn = target
        router.endPointerGrab()
    }
}

final class LockScreen: TouchGrab, KeyboardGrab {
    var seen: [String] = []
    func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router) { seen.append("down \(id)") }
    func touchMoved(_ event: InputEvent, id: TouchID, to point: LayoutPoint, router: Router) { seen.append("move \(id)") }
    func touchUp(_ event: InputEvent, id: TouchID, router: Router) { seen.append("up \(id)") }
    func touchFrame(_ event: InputEvent, router: Router) {}
    func key(_ event: KeyEvent, router: Router) { if event.state == .pressed || event.state == .released { seen.append("key \(event.keycode)") } }
}

final class LockFilter: InputFilter {
    var taken = 0
    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .touchDown, .touchMotion, .touchUp:
            taken += 1
            return .consume
        default: return .pass
        }
    }
}

final class ForwardingTouchGrab: TouchGrab {
    var cancelled = false
    func cancel(router: Router) { cancelled = true }
}

/// A pointer grab whose focus follows hit-testing (as a drag over drop targets) and that
/// takes buttons, or forwards them raw to the focus.
final class FocusFollowingGrab: PointerGrab {
    var forwardsButtons = false
    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        router.setPointerFocus(router.surface(at: event.location), time: event.time)
    }
    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        if forwardsButtons { router.sendPointerButton(event, to: router.pointerFocus) }
    }
}
